/**
 * The plan of a create (plan.ts): one INSERT per new entry, in dependency order (an inline entry
 * the new row points to first, entries that point to it after, each taking the key its parent's
 * step wrote), each returning its stored row; the foreign keys of bindings, of the source of a
 * POST through navigation and of an inline parent set in the INSERT itself when the new row holds
 * them (so a required link is never missing, even for a moment), else by a link step per link.
 * Omitted properties (CreateRequest.values holds only what was sent) are left to the columns'
 * defaults, a key the client left out to the column's default (an identity); a taken key is 409
 * ENTITY_EXISTS without an error in the transaction (`on conflict do nothing`, or the key checked
 * in the INSERT itself where the table takes no ON CONFLICT: SqlInsertMode).
 */
import { sql } from 'kysely';
import type { EdmEntitySet, EdmNavigationProperty } from '../../edm/model';
import type { PrimitiveValue } from '../../edm/primitives';
import type { CreateRequest, Entity, EntityReference, MediaContent } from '../../provider/types';
import { describeKey } from '../../provider/keys';
import { withLinkedValues } from '../../provider/linked-values';
import { entityNotFound } from '../../provider/not-found';
import { mediaEntryValues } from '../../provider/media-entry';
import { generatedKeys, withUuidKeys } from '../../provider/new-keys';
import type { Sql } from '../dialect';
import type { LinkPlan, SetPlan } from '../mapping/compiled';
import type { DecodedRow } from '../read/projection';
import { rowParameters, valueAtPath } from '../rows';
import { keyValues, planAddLink } from './links';
import { StepResults, fixedKey, keyOf, keyParts, type KeyFrom, type PlanBuilder, type PlanContext, type StepRef, type WritePlan } from './plan';
import { concurrencyTokenSql } from './tokens';
import { bodyInvalid, planInsertRow, type NewRow } from './insert-row';

/** The link of a navigation property, checking that `target` is its target set (400 otherwise). */
function linkTo(scope: PlanContext, entitySet: EdmEntitySet, property: EdmNavigationProperty, target: EdmEntitySet, what: string): LinkPlan {
  const link = scope.compiled.link(entitySet, property);
  if (link.target.entitySet !== target)
    throw bodyInvalid(`'${property.name}' links to ${what} in '${target.name}', but its targets are in '${link.target.entitySet.name}'.`);
  return link;
}

function label(reference: EntityReference): string {
  return `${reference.entitySet.name}${describeKey(reference.entitySet.entityType, reference.key)}`;
}

/** Put foreign-key values into the INSERT's columns. */
function setForeignKey(
  columns: Map<string, Sql>,
  link: LinkPlan,
  holderColumns: readonly string[],
  values: readonly PrimitiveValue[],
  scope: PlanContext,
): void {
  holderColumns.forEach((column, i) => columns.set(column, scope.engine.values.parameter(link.types[i], values[i])));
}

/** The column values of a new row: sent properties, generated or omitted keys, initial tokens. */
function insertColumns(scope: PlanContext, plan: SetPlan, request: CreateRequest, values: Readonly<Record<string, unknown>>): Map<string, Sql> {
  const type = request.entityType;
  const given: Record<string, unknown> = { ...values };
  const omitted = new Set<string>();
  // What the database makes (the mapping's storeGenerated identity and computed columns) is left
  // out, also when the client sent a value (the model marks them sap:creatable="false"): the
  // database's value replaces it, as StoreGeneratedPattern says.
  for (const column of plan.columns) if (column.generated === 'identity' || column.generated === 'computed') omitted.add(column.path.properties[0].name);
  // A missing key as the kit's rule says: a random UUID, or the column's default (an identity, a rowid).
  const generated = generatedKeys(type, given, '', omitted);
  Object.assign(given, withUuidKeys(given, generated));
  for (const key of generated) if (key.generation === 'next') omitted.add(key.property.name);
  const columns = rowParameters(plan, given, type, scope.engine);
  for (const column of plan.columns) {
    const top = column.path.properties[0];
    // Left out: the column's default applies (an identity for a generated key).
    if (
      omitted.has(top.name) ||
      (column.generated === 'default' && valueAtPath(given, column) === null) ||
      (given[top.name] === undefined && !top.isKey && top.concurrencyMode !== 'Fixed')
    )
      columns.delete(column.column);
  }
  for (const property of type.concurrencyProperties) {
    const column = plan.byPath.get(property.name);
    const token = column?.type === undefined ? undefined : concurrencyTokenSql(scope.engine, column.type, undefined);
    if (column !== undefined && token !== undefined) columns.set(column.column, token);
  }
  return columns;
}

/** The step that writes a media resource into the side table (insert or replace) for the entry `row` wrote. */
export function planMediaRow(b: PlanBuilder, plan: SetPlan, row: StepRef<DecodedRow>, key: KeyFrom, media: MediaContent): void {
  const side = plan.media;
  if (side === undefined) throw new TypeError(`'${plan.entitySet.name}' has no media side table.`);
  const { engine } = b;
  const columns = [...plan.key.map((column) => sql.id(column.column)), sql.id(side.contentType), sql.id(side.body)];
  const keys = sql.join(plan.key.map((column) => sql.id(column.column)));
  b.add({
    action: 'write media',
    target: plan.entitySet.name,
    takes: key.takes,
    writes: true,
    statement: (results) => {
      const values = [
        ...keyParts(
          key,
          results,
          plan.key.map((column) => column.property.name),
        ).map((value, i) => engine.values.parameter(plan.key[i].type ?? 'Edm.String', value)),
        engine.values.parameter('Edm.String', media.contentType),
        engine.values.parameter('Edm.Binary', media.body),
      ];
      return sql`insert into ${side.table} (${sql.join(columns)}) values (${sql.join(values)}) on conflict (${keys}) do update set ${sql.id(side.contentType)} = excluded.${sql.id(side.contentType)}, ${sql.id(side.body)} = excluded.${sql.id(side.body)}`;
    },
    finish: (_, { results, seen }) => seen({ ...results.get(row), contentType: media.contentType }),
  });
}

/** How an inline entry takes what its parent's new row fixes: the link's values, and the foreign key when the entry holds it. */
interface FromParent {
  readonly parent: StepRef<DecodedRow>;
  readonly parentSet: SetPlan;
  readonly property: EdmNavigationProperty;
  /** The link whose foreign-key columns the entry's row holds, when it does. */
  readonly holds: LinkPlan | undefined;
}

/** The plan of a create: `request`'s entry, its inline tree and its links; answers the stored entity. */
export function planCreate(b: PlanBuilder, request: CreateRequest): WritePlan<Entity> {
  const row = planEntry(b, request, undefined);
  return b.plan((results) => results.get(row).entity);
}

/**
 * The steps that create `request`'s entry and its inline tree, in dependency order; `fromParent`
 * when it is an inline entry whose parent's key fixes values (and a foreign key) of its row.
 * Their result: the stored row.
 */
function planEntry(b: PlanBuilder, request: CreateRequest, fromParent: FromParent | undefined): StepRef<DecodedRow> {
  const { entitySet, media } = request;
  const plan = b.compiled.sets.get(entitySet) as SetPlan;
  /** Foreign keys of the new row from what other steps wrote or the request names, in the order they are set. */
  const fills: { readonly takes: readonly number[]; readonly fill: (columns: Map<string, Sql>, results: StepResults) => void }[] = [];
  const after: (() => void)[] = [];
  const fixedForeignKey = (link: LinkPlan, holderColumns: readonly string[], values: readonly PrimitiveValue[]): void => {
    fills.push({ takes: [], fill: (columns) => setForeignKey(columns, link, holderColumns, values, b) });
  };

  for (const inline of request.inline) {
    for (const entry of inline.entries) {
      const link = linkTo(b, entitySet, inline.property, entry.entitySet, 'an inline entry');
      if (link.holder === 'source') {
        // The new row points to the inline entry: that one first.
        const child = planEntry(b, entry, undefined);
        const childKey = keyOf(child, link.target.entitySet.entityType);
        fills.push({
          takes: childKey.takes,
          fill: (columns, results) => setForeignKey(columns, link, link.sourceColumns, keyValues(link.target, childKey.key(results)), b),
        });
      } else {
        after.push(() => {
          const child = planEntry(b, entry, { parent: row, parentSet: plan, property: inline.property, holds: link.holder === 'target' ? link : undefined });
          if (link.holder !== 'target')
            planLinkOrFail(b, link, keyOf(row, entitySet.entityType), keyOf(child, link.target.entitySet.entityType), 'an inline entry');
        });
      }
    }
  }
  for (const binding of request.bindings) {
    for (const target of binding.targets) {
      const link = linkTo(b, entitySet, binding.property, target.entitySet, label(target));
      if (link.holder === 'source') fixedForeignKey(link, link.sourceColumns, keyValues(link.target, target.key));
      else after.push(() => planLinkOrFail(b, link, keyOf(row, entitySet.entityType), fixedKey(target.key), label(target)));
    }
  }
  const parent = request.parent;
  if (parent !== undefined) {
    const link = linkTo(b, parent.source.entitySet, parent.navigationProperty, entitySet, 'the new entry');
    if (link.holder === 'target') fixedForeignKey(link, link.targetColumns, keyValues(link.source, parent.source.key));
    else
      after.push(() =>
        planAddLink(b, link, fixedKey(parent.source.key), keyOf(row, entitySet.entityType), (outcome) => {
          if (outcome === 'source-missing') throw entityNotFound(parent.source.entitySet, parent.source.key);
        }),
      );
  }

  const parentKey = fromParent === undefined ? undefined : keyOf(fromParent.parent, fromParent.parentSet.entitySet.entityType);
  const takes = [...(parentKey?.takes ?? []), ...fills.flatMap((each) => each.takes)];
  /** The new row from the results so far; without results, what is known before anything runs. */
  const newRow = (results: StepResults | undefined): NewRow => {
    let entry = request;
    const inherited = new Map<string, Sql>();
    if (fromParent !== undefined && parentKey !== undefined && results !== undefined) {
      const key = parentKey.key(results);
      entry = withLinkedValues(request, fromParent.property, 'other', key, label({ entitySet: fromParent.parentSet.entitySet, key }));
      const { holds } = fromParent;
      if (holds !== undefined) setForeignKey(inherited, holds, holds.targetColumns, keyValues(fromParent.parentSet, key), b);
    }
    const values = media === undefined ? entry.values : mediaEntryValues(entry.entityType, entry.values, media.slug);
    const columns = insertColumns(b, plan, entry, values);
    for (const [column, value] of inherited) columns.set(column, value);
    for (const each of fills) if (results !== undefined || each.takes.length === 0) each.fill(columns, results ?? new StepResults());
    return { request: entry, values, columns };
  };
  // A top-level entry's row is built now, so a bad body is refused before any statement; one that
  // takes keys is built again once per run (an inline entry's values may need its parent's key).
  const built = fromParent === undefined ? newRow(undefined) : undefined;
  const byRun = new WeakMap<StepResults, NewRow>();
  const rowOf = (results: StepResults): NewRow => {
    if (built !== undefined && takes.length === 0) return built;
    const made = byRun.get(results) ?? newRow(results);
    byRun.set(results, made);
    return made;
  };
  const row = planInsertRow(b, plan, takes, rowOf);
  if (media !== undefined) planMediaRow(b, plan, row, keyOf(row, entitySet.entityType), media);
  for (const step of after) step();
  return row;
}

/** The steps that link the new entry to an existing (or just created) target; a target that does not exist is 400. */
function planLinkOrFail(b: PlanBuilder, link: LinkPlan, key: KeyFrom, target: KeyFrom, what: string): void {
  planAddLink(b, link, key, target, (outcome) => {
    if (outcome !== 'done') throw bodyInvalid(`'${link.property.name}' links to ${what}, which does not exist.`);
  });
}
