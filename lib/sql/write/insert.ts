/**
 * Create: one INSERT per new entry, in dependency order (an inline entry the new row points to
 * first, entries that point to it after), each returning its stored row; the foreign keys of
 * bindings, of the source of a POST through navigation and of an inline parent set in the INSERT
 * itself when the new row holds them (so a required link is never missing, even for a moment),
 * else by one UPDATE or join-row INSERT per link. Omitted properties are left to the columns'
 * defaults (the kit's sent set), a key the client left out to the column's default (an identity),
 * a taken key is 409 ENTITY_EXISTS without an error in the transaction (`on conflict do nothing`,
 * or the key checked in the INSERT itself where the table takes no ON CONFLICT: SqlInsertMode).
 */
import { randomUUID } from 'crypto';
import { sql } from 'kysely';
import type { EdmEntitySet, EdmNavigationProperty } from '../../edm/model';
import type { PrimitiveValue } from '../../edm/primitives';
import { ODataError } from '../../errors';
import type { CreateRequest, EntityReference, MediaContent } from '../../provider/types';
import { describeKey, entityKey } from '../../provider/keys';
import { withLinkedValues } from '../../provider/linked-values';
import { mediaEntryValues } from '../../provider/media-entry';
import type { EntityKey } from '../../uri/types';
import type { Sql } from '../dialect';
import type { CompiledMapping, LinkPlan, SetPlan } from '../mapping/compiled';
import type { DecodedRow } from '../read/projection';
import { sqlStateOf } from '../errors';
import { rowParameters, valueAtPath } from '../rows';
import { addLink, columnsMatch, keyTypes, keyValues, type WriteScope } from './links';
import { hasRequiredJoinEnd } from './required-links';
import { entityNotFound, returningRow, selectRows, sentOf, writeReturning } from './returning';

/** A write scope that also sees every row written (the provider remembers types and media types). */
export interface CreateScope extends WriteScope {
  readonly seen: (row: DecodedRow) => void;
}

function bodyInvalid(detail: string): ODataError {
  return ODataError.fromCode('BODY_INVALID', { detail });
}

/** The link of a navigation property, checking that `target` is its target set (400 otherwise). */
function linkTo(scope: WriteScope, entitySet: EdmEntitySet, property: EdmNavigationProperty, target: EdmEntitySet, what: string): LinkPlan {
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
  scope: WriteScope,
): void {
  holderColumns.forEach((column, i) => columns.set(column, scope.dialect.values.parameter(link.types[i], values[i])));
}

/** The column values of a new row: sent properties, generated or omitted keys, initial tokens. */
function insertColumns(scope: WriteScope, plan: SetPlan, request: CreateRequest, values: Readonly<Record<string, unknown>>): Map<string, Sql> {
  const type = request.entityType;
  const given: Record<string, unknown> = { ...values };
  const omitted = new Set<string>();
  // What the database makes (the mapping's storeGenerated identity and computed columns) is left
  // out, also when the client sent a value (the model marks them sap:creatable="false"): the
  // database's value replaces it, as StoreGeneratedPattern says.
  for (const column of plan.columns) if (column.generated === 'identity' || column.generated === 'computed') omitted.add(column.path.properties[0].name);
  for (const property of type.key) {
    if (omitted.has(property.name) || (given[property.name] !== undefined && given[property.name] !== null)) continue;
    const name = property.type.kind === 'Primitive' ? property.type.name : undefined;
    if (name === 'Edm.Guid') given[property.name] = randomUUID();
    else if (type.key.length === 1 && (name === 'Edm.Byte' || name === 'Edm.SByte' || name === 'Edm.Int16' || name === 'Edm.Int32' || name === 'Edm.Int64'))
      omitted.add(property.name);
    else
      throw bodyInvalid(
        `the key property '${property.name}' of ${type.qualifiedName} is missing; only a single integer key (from the column's default) or a Guid key is generated.`,
      );
  }
  const sent = sentOf(request);
  const columns = rowParameters(plan, given, type, scope.dialect);
  for (const column of plan.columns) {
    const top = column.path.properties[0];
    // Left out: the column's default applies (an identity for a generated key).
    if (
      omitted.has(top.name) ||
      (column.generated === 'default' && valueAtPath(given, column) === null) ||
      (sent !== undefined && !top.isKey && !sent.has(top.name) && top.concurrencyMode !== 'Fixed')
    )
      columns.delete(column.column);
  }
  for (const property of type.concurrencyProperties) {
    const column = plan.byPath.get(property.name);
    const token = column?.type === undefined ? undefined : scope.dialect.tokens.concurrencyToken(column.type, undefined);
    if (column !== undefined && token !== undefined) columns.set(column.column, token);
  }
  return columns;
}

/** 409 ENTITY_EXISTS for the key of `values`. */
function entityExists(request: CreateRequest, values: Readonly<Record<string, unknown>>): ODataError {
  return ODataError.fromCode('ENTITY_EXISTS', { key: describeKey(request.entityType, values), entitySet: request.entitySet.name });
}

/** INSERT a row whose key the database makes, returning the key as a match of the key columns (400 where the table's rules return nothing). */
async function insertReturningKey(scope: CreateScope, plan: SetPlan, request: CreateRequest, names: Sql, given: Sql): Promise<Sql> {
  const keys = sql.join(plan.key.map((column) => sql.id(column.column)));
  let returned: Readonly<Record<string, unknown>> | undefined;
  try {
    [returned] = (await sql<Record<string, unknown>>`insert into ${plan.table} (${names}) values (${given}) returning ${keys}`.execute(scope.executor)).rows;
  } catch (error) {
    // 0A000: a DO INSTEAD rule that returns nothing; the row can only be found by a key the client gives.
    if (sqlStateOf(error) !== '0A000') throw error;
    const missing = plan.key.find((column) => column.generated === undefined) ?? plan.key[0];
    throw bodyInvalid(
      `the key property '${missing.property.name}' of ${request.entityType.qualifiedName} is missing; entries of '${plan.entitySet.name}' are found by the key the client gives.`,
    );
  }
  if (returned === undefined) throw new TypeError(`SqlProvider: an INSERT into '${plan.entitySet.name}' returned no key.`);
  const row = returned;
  const values = plan.key.map((column) => scope.dialect.values.fromValue(column.type ?? 'Edm.String', row[column.column]) as PrimitiveValue);
  return columnsMatch(
    plan.key.map((column) => column.column),
    keyTypes(plan),
    values,
    scope.dialect,
  );
}

/**
 * INSERT one row the way the set's table takes it (SqlInsertMode) and return it as stored; 409
 * ENTITY_EXISTS when its key is taken, without an error in the transaction.
 */
async function insertRow(
  scope: CreateScope,
  plan: SetPlan,
  request: CreateRequest,
  columns: ReadonlyMap<string, Sql>,
  values: Readonly<Record<string, unknown>>,
): Promise<DecodedRow> {
  const names = sql.join([...columns.keys()].map((column) => sql.id(column)));
  const given = sql.join([...columns.values()]);
  // The key as the row will hold it: the same converted parameters the INSERT writes.
  const keyGiven = plan.key.every((column) => columns.has(column.column));
  const keyMatch = sql.join(
    plan.key.map((column) => sql`${sql.id(column.column)} = ${columns.get(column.column)}`),
    sql` and `,
  );
  const returned = returningRow(plan, scope.dialect);
  let row: DecodedRow | undefined;
  if (plan.insert === 'onConflict') {
    const conflict = sql.join(plan.key.map((column) => sql.id(column.column)));
    const insert =
      columns.size === 0
        ? scope.dialect.writes.insertDefaults(plan.table, conflict, returned)
        : sql`insert into ${plan.table} (${names}) values (${given}) on conflict (${conflict}) do nothing ${returned}`;
    [row] = await writeReturning(scope, plan, insert);
  } else if (plan.insert === 'checked') {
    // No ON CONFLICT here (a view, a key no unique index backs, rules): the key is checked in the
    // statement itself; a row inserted meanwhile by another transaction is still a unique violation (409).
    const insert = !keyGiven
      ? columns.size === 0
        ? sql`insert into ${plan.table} default values ${returned}`
        : sql`insert into ${plan.table} (${names}) values (${given}) ${returned}`
      : sql`insert into ${plan.table} (${names}) select ${given} where not exists (select 1 from ${plan.table} where ${keyMatch}) ${returned}`;
    [row] = await writeReturning(scope, plan, insert);
  } else {
    // Rules keep a table out of WITH and ON CONFLICT (and a DO INSTEAD one may return nothing):
    // check the key, insert, and read the row back by the key the client gave, or that the
    // INSERT returns where the rules let it.
    if (keyGiven && (await writeReturning(scope, plan, selectRows(plan, scope.dialect, keyMatch))).length > 0) throw entityExists(request, values);
    const key = keyGiven ? keyMatch : await insertReturningKey(scope, plan, request, names, given);
    if (keyGiven) await sql`insert into ${plan.table} (${names}) values (${given})`.execute(scope.executor);
    [row] = await writeReturning(scope, plan, selectRows(plan, scope.dialect, key));
    if (row === undefined)
      throw new TypeError(
        `SqlProvider: the row inserted into '${plan.entitySet.name}' cannot be read back by its key (a rule of its table writes it elsewhere).`,
      );
  }
  if (row === undefined) throw entityExists(request, values);
  scope.seen(row);
  return row;
}

async function insertMedia(scope: WriteScope, plan: SetPlan, key: EntityKey, media: MediaContent): Promise<void> {
  const side = plan.media;
  if (side === undefined) throw new TypeError(`'${plan.entitySet.name}' has no media side table.`);
  const { dialect } = scope;
  const columns = [...plan.key.map((column) => sql.id(column.column)), sql.id(side.contentType), sql.id(side.body)];
  const values = [
    ...plan.key.map((column) => dialect.values.parameter(column.type ?? 'Edm.String', key[column.property.name])),
    dialect.values.parameter('Edm.String', media.contentType),
    dialect.values.parameter('Edm.Binary', media.body),
  ];
  const keys = sql.join(plan.key.map((column) => sql.id(column.column)));
  await sql`insert into ${side.table} (${sql.join(columns)}) values (${sql.join(values)}) on conflict (${keys}) do update set ${sql.id(side.contentType)} = excluded.${sql.id(side.contentType)}, ${sql.id(side.body)} = excluded.${sql.id(side.body)}`.execute(
    scope.executor,
  );
}

/** Write a media resource into the side table (insert or replace). */
export { insertMedia as writeMediaRow };

/**
 * Create `request`'s entry and its inline tree; `inherited` are foreign-key columns of the new row
 * that an inline parent fills. Returns the stored row.
 */
export async function insertEntry(scope: CreateScope, request: CreateRequest, inherited: ReadonlyMap<string, Sql> = new Map()): Promise<DecodedRow> {
  const { entitySet, media } = request;
  const plan = scope.compiled.sets.get(entitySet) as SetPlan;
  const values = media === undefined ? request.values : mediaEntryValues(request.entityType, request.values, media.slug);
  const columns = insertColumns(scope, plan, request, values);
  for (const [column, value] of inherited) columns.set(column, value);
  const after: ((key: EntityKey) => Promise<void>)[] = [];

  // Once the new row's key is known: what the link fixes in an inline child (its key may hold it).
  const fromParent = (entry: CreateRequest, property: EdmNavigationProperty, key: EntityKey): CreateRequest =>
    withLinkedValues(entry, property, 'other', key, label({ entitySet, key }));
  for (const inline of request.inline) {
    for (const entry of inline.entries) {
      const link = linkTo(scope, entitySet, inline.property, entry.entitySet, 'an inline entry');
      if (link.holder === 'source') {
        // The new row points to the inline entry: that one first.
        const child = await insertEntry(scope, entry);
        setForeignKey(columns, link, link.sourceColumns, keyValues(link.target, entityKey(link.target.entitySet.entityType, child.entity)), scope);
      } else if (link.holder === 'target') {
        after.push(async (key) => {
          const fk = new Map<string, Sql>();
          setForeignKey(fk, link, link.targetColumns, keyValues(plan, key), scope);
          await insertEntry(scope, fromParent(entry, inline.property, key), fk);
        });
      } else {
        after.push(async (key) => {
          const child = await insertEntry(scope, fromParent(entry, inline.property, key));
          await linkOrFail(scope, link, key, entityKey(link.target.entitySet.entityType, child.entity), 'an inline entry');
        });
      }
    }
  }
  for (const binding of request.bindings) {
    for (const target of binding.targets) {
      const link = linkTo(scope, entitySet, binding.property, target.entitySet, label(target));
      if (link.holder === 'source') setForeignKey(columns, link, link.sourceColumns, keyValues(link.target, target.key), scope);
      else after.push((key) => linkOrFail(scope, link, key, target.key, label(target)));
    }
  }
  const parent = request.parent;
  if (parent !== undefined) {
    const link = linkTo(scope, parent.source.entitySet, parent.navigationProperty, entitySet, 'the new entry');
    if (link.holder === 'target') {
      setForeignKey(columns, link, link.targetColumns, keyValues(link.source, parent.source.key), scope);
    } else {
      after.push(async (key) => {
        const outcome = await addLink(scope, link, parent.source.key, key);
        if (outcome === 'source-missing') throw entityNotFound(parent.source.entitySet, parent.source.key);
      });
    }
  }

  const row = await insertRow(scope, plan, request, columns, values);
  const key = entityKey(plan.entitySet.entityType, row.entity);
  scope.required.touch(entitySet, key);
  if (media !== undefined) {
    await insertMedia(scope, plan, key, media);
    scope.seen({ ...row, contentType: media.contentType });
  }
  for (const step of after) await step(key);
  return row;
}

/**
 * True when `insertEntry` writes `request` with its INSERT alone: no inline entries, no media
 * resource, every link (bindings, the source of a POST through navigation) a foreign key of the
 * new row, and no join-table end that must be counted before COMMIT. Such a create may run
 * without BEGIN and COMMIT when it is the request's only write.
 */
export function isOneStatementCreate(compiled: CompiledMapping, request: CreateRequest): boolean {
  const { entitySet, parent } = request;
  if (request.inline.length > 0 || request.media !== undefined || hasRequiredJoinEnd(compiled, entitySet)) return false;
  if (request.bindings.some((binding) => binding.targets.length > 0 && compiled.link(entitySet, binding.property).holder !== 'source')) return false;
  if (compiled.sets.get(entitySet)?.insert === 'readBack') return false;
  return parent === undefined || compiled.link(parent.source.entitySet, parent.navigationProperty).holder === 'target';
}

/** Link the new entry `key` to an existing (or just created) target; a target that does not exist is 400. */
async function linkOrFail(scope: WriteScope, link: LinkPlan, key: EntityKey, target: EntityKey, what: string): Promise<void> {
  const outcome = await addLink(scope, link, key, target);
  if (outcome !== 'done') throw bodyInvalid(`'${link.property.name}' links to ${what}, which does not exist.`);
}
