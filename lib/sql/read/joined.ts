/**
 * To-one expansions read in the page's own statement: a LEFT JOIN on the target's primary key
 * through the foreign key the page's row holds (`Products?$expand=Category`). Such a join matches
 * at most one row, so it never multiplies the page's rows, and the page and its expansion come
 * from one statement: one round trip instead of two, and one snapshot without a transaction.
 * Every other expansion (collections, links held by the target or a join table, deeper levels,
 * targets with derived types or media, columns stored in another SQL type) is read afterwards,
 * one statement per navigation property and level (expand.ts).
 */
import type { ExpandItem } from '../../uri/types';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import type { CompiledMapping, LinkPlan, SetPlan } from '../mapping/compiled';
import { linkColumnsFor } from './expand';
import { linkJoin, type Aliases } from './joins';
import { Projection, type DecodedRow } from './projection';

interface JoinedExpansion {
  readonly item: ExpandItem;
  readonly projection: Projection;
}

/** True when the link is a foreign key of the source row onto the target's key, both in their EDM types' own columns. */
function joinable(link: LinkPlan, item: ExpandItem): boolean {
  if (item.property.isCollection || link.holder !== 'source' || link.via !== undefined || item.expand.length > 0) return false;
  const target = link.target;
  if (target.discriminator !== undefined || target.media !== undefined) return false;
  const keyColumns = new Set(target.key.map((column) => column.column));
  if (link.targetColumns.length !== target.key.length || !link.targetColumns.every((column) => keyColumns.has(column))) return false;
  const stored = (plan: SetPlan, names: readonly string[]): boolean =>
    plan.columns.some((column) => names.includes(column.column) && column.storedType !== undefined);
  return !stored(link.source, link.sourceColumns) && !stored(target, link.targetColumns);
}

/** The joined expansions of one statement level, and the expansions left for later statements. */
export class JoinedExpansions {
  /** The select-list items of the joined targets. */
  readonly columns: Sql[] = [];
  /** The LEFT JOINs (and the targets' own joins), to follow the statement's other joins. */
  readonly joins: Sql[] = [];
  /** The expansions read by statements of their own. */
  readonly rest: readonly ExpandItem[];
  private readonly joined: JoinedExpansion[] = [];

  constructor(compiled: CompiledMapping, plan: SetPlan, alias: string, expand: readonly ExpandItem[], join: boolean, aliases: Aliases, engine: SqlEngine) {
    const rest: ExpandItem[] = [];
    for (const item of expand) {
      if (!join || !joinable(compiled.link(plan.entitySet, item.property), item)) {
        rest.push(item);
        continue;
      }
      const link = compiled.link(plan.entitySet, item.property);
      const target = aliases.take('x');
      this.joins.push(linkJoin(link, alias, target, 'left join', aliases));
      const projection = Projection.of(
        link.target,
        target,
        { select: item.select, linkColumns: linkColumnsFor(compiled, link.target, item.expand) },
        aliases,
        `${target}_`,
        engine,
      );
      this.columns.push(...projection.columns);
      this.joins.push(...projection.joins);
      this.joined.push({ item, projection });
    }
    this.rest = rest;
  }

  /** Put the joined targets of a result row on its entity (null where the link points nowhere); `related` gets each target read. */
  attach(row: Readonly<Record<string, unknown>>, parent: DecodedRow, related: DecodedRow[]): void {
    for (const { item, projection } of this.joined) {
      if (projection.isMissing(row)) {
        parent.entity[item.property.name] = null;
        continue;
      }
      const child = projection.decode(row);
      related.push(child);
      parent.entity[item.property.name] = child.entity;
    }
  }
}
