/**
 * `$expand` without N+1 and without row-multiplying joins: after a page is read, one statement per
 * expanded navigation property and level reads the related rows of every parent at once, keyed by
 * the parents' link values (`where fk = any($1)`), and attaches them. The number of statements
 * depends on the `$expand` tree, never on the page size. Expanded collections are in key order.
 */
import { sql } from 'kysely';
import type { EdmNavigationProperty } from '../../edm/model';
import type { PrimitiveValue } from '../../edm/primitives';
import type { Entity } from '../../provider/types';
import type { ExpandItem } from '../../uri/types';
import type { SqlKysely } from '../database';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import type { CompiledMapping, LinkPlan, SetPlan } from '../mapping/compiled';
import { Aliases } from './joins';
import { Projection, type DecodedRow } from './projection';
import { entityTuple, isComplete, rawTuple, tupleKey } from './tuples';

/** What expanding needs besides the rows. */
export interface ExpandContext {
  readonly compiled: CompiledMapping;
  readonly engine: SqlEngine;
  readonly executor: SqlKysely;
  /** Sees every row read (the provider remembers media types and entity types). */
  readonly seen: (row: DecodedRow) => void;
}

/** Puts the related entities on a parent: an array for a collection, an entity or null otherwise. */
export type Attach = (parent: Entity, property: EdmNavigationProperty, related: Entity | readonly Entity[] | null) => void;

const attachProperty: Attach = (parent, property, related) => {
  parent[property.name] = related;
};

/** The columns of `plan`'s table a level must read for `items` to be expanded (foreign keys it holds). */
export function linkColumnsFor(compiled: CompiledMapping, plan: SetPlan, items: readonly { readonly property: EdmNavigationProperty }[]): string[] {
  const columns: string[] = [];
  for (const item of items) {
    const link = compiled.link(plan.entitySet, item.property);
    if (link.holder === 'source') columns.push(...link.sourceColumns);
  }
  return columns;
}

/**
 * The `i`th column a child row is matched on, read as the parent's value is: converted like the
 * key it holds when that key is stored in another SQL type (a char(n) key without its padding).
 */
function matchValue(link: LinkPlan, i: number, column: Sql, engine: SqlEngine): Sql {
  const counterpart = link.via !== undefined ? link.source.key[i] : link.holder === 'source' ? link.target.key[i] : link.source.key[i];
  const type = link.types[i];
  return counterpart?.storedType === undefined ? column : engine.reads.storedValue(column, counterpart.storedType, type, 'read');
}

/** A parent's values of the link's source columns (its key, or the foreign key it holds). */
function parentTuple(link: LinkPlan, parent: DecodedRow, engine: SqlEngine): (PrimitiveValue | null)[] {
  if (link.holder === 'source')
    return rawTuple(
      link.sourceColumns.map((column) => parent.links.get(column)),
      link.types,
      engine.values,
    );
  return entityTuple(
    parent.entity,
    link.source.key.map((column) => column.property.name),
  );
}

async function expandItem(context: ExpandContext, plan: SetPlan, parents: readonly DecodedRow[], item: ExpandItem, attach: Attach): Promise<void> {
  const { compiled, engine } = context;
  const link = compiled.link(plan.entitySet, item.property);
  const tuples = new Map<string, PrimitiveValue[]>();
  const parentKeys = parents.map((parent) => {
    const tuple = parentTuple(link, parent, engine);
    if (!isComplete(tuple)) return undefined;
    const key = tupleKey(tuple);
    tuples.set(key, tuple);
    return key;
  });
  const children = new Map<string, DecodedRow[]>();
  const allChildren: DecodedRow[] = [];
  if (tuples.size > 0) {
    const aliases = new Aliases();
    const projection = Projection.of(
      link.target,
      't',
      { select: item.select, linkColumns: linkColumnsFor(compiled, link.target, item.expand) },
      aliases,
      'c',
      engine,
    );
    const via = link.via;
    const through = via === undefined ? 't' : aliases.take('l');
    const matchColumns = via === undefined ? link.targetColumns : via.sourceColumns;
    const keyColumns = matchColumns.map((column, i) => sql`${matchValue(link, i, sql.id(through, column), engine)} as ${sql.id(`k${i}`)}`);
    const from: Sql =
      via === undefined
        ? sql`${link.target.table} as t`
        : sql`${via.table} as ${sql.id(through)} join ${link.target.table} as t on ${sql.join(
            via.targetColumns.map((column, i) => sql`${sql.id(through, column)} = ${sql.id('t', link.targetColumns[i])}`),
            sql` and `,
          )}`;
    const condition = engine.reads.inTuples(
      matchColumns.map((column) => sql.id(through, column)),
      link.types,
      [...tuples.values()],
    );
    const order = sql.join(link.target.key.map((column) => sql.id('t', column.column)));
    const result = await sql<
      Record<string, unknown>
    >`select ${sql.join([...projection.columns, ...keyColumns])} from ${from} ${sql.join(projection.joins, sql` `)} where ${condition} order by ${order}`.execute(
      context.executor,
    );
    for (const row of result.rows) {
      const decoded = projection.decode(row);
      context.seen(decoded);
      allChildren.push(decoded);
      const key = tupleKey(
        rawTuple(
          matchColumns.map((_, i) => row[`k${i}`]),
          link.types,
          engine.values,
        ),
      );
      const list = children.get(key);
      if (list === undefined) children.set(key, [decoded]);
      else list.push(decoded);
    }
  }
  parents.forEach((parent, index) => {
    const key = parentKeys[index];
    const related = key === undefined ? [] : (children.get(key) ?? []);
    attach(parent.entity, item.property, item.property.isCollection ? related.map((child) => child.entity) : (related[0]?.entity ?? null));
  });
  if (item.expand.length > 0 && allChildren.length > 0) await expandRows(context, link.target, allChildren, item.expand);
}

/**
 * Fill the expanded navigation properties of `parents` (rows of `plan`'s set, read with the link
 * columns `linkColumnsFor` names) and, recursively, of their related rows.
 */
export async function expandRows(
  context: ExpandContext,
  plan: SetPlan,
  parents: readonly DecodedRow[],
  items: readonly ExpandItem[],
  attach: Attach = attachProperty,
): Promise<void> {
  if (parents.length === 0) return;
  for (const item of items) await expandItem(context, plan, parents, item, attach);
}
