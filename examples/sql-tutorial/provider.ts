import { sql, type Expression, type Kysely } from 'kysely';
import {
  applyQuery,
  compileFilter,
  conditionalWriteError,
  createTransactionScope,
  entityKey,
  ODataError,
  preconditionCondition,
  requestFilter,
  seekCondition,
  withLinkedValues,
  type CreateRequest,
  type DataProvider,
  type EdmEntitySet,
  type EdmModel,
  type EdmNavigationProperty,
  type EdmProperty,
  type Entity,
  type EntityKey,
  type EntityPath,
  type ExpandItem,
  type ExprNode,
  type LinkRequest,
  type DeleteRequest,
  type UpdateRequest,
  type PrimitiveValue,
  type PropertyValue,
  type RequestContext,
  type SkipTokenPosition,
} from 'express-odata-v2';
import {
  compileExpressionSql,
  compileFilterSql,
  compileOrderBySql,
  concurrencyTokenSql,
  fromSqlPosition,
  fromSqlValue,
  isRetryableTransactionError,
  isTranslatable,
  sqlStateOf,
  type SqlAssociationSetMapping,
  type SqlDatabase,
  type SqlMapping,
  type SqlPathResolver,
  type SqlSchema,
} from 'express-odata-v2/sql';

type Sql = Expression<unknown>;
type Row = Record<string, unknown>;

/** What every function below needs: the database, the model and where each set and link is stored. */
export interface Store {
  readonly db: SqlDatabase;
  readonly model: EdmModel;
  readonly mapping: SqlMapping;
}

function tableOf(store: Store, set: EdmEntitySet): Sql {
  const { schema, table } = store.mapping.entitySets[set.name];
  return schema === undefined ? sql.id(table) : sql.id(schema, table);
}

function columnOf(store: Store, set: EdmEntitySet, path: string): string {
  return store.mapping.entitySets[set.name].columns[path];
}

function primitiveType(property: EdmProperty) {
  if (property.type.kind !== 'Primitive') throw new TypeError(`${property.name} is not primitive`);
  return property.type.name;
}

/** A bound parameter cast to the column's type (Int64 and Decimal travel as exact text). */
function parameter(store: Store, property: EdmProperty, value: PropertyValue | undefined): Sql {
  const type = primitiveType(property);
  return value === null || value === undefined
    ? store.db.sqlEngine.expressions.typedNull(type)
    : store.db.sqlEngine.values.parameter(type, value as PrimitiveValue);
}

/** `alias.K1 = $1 and alias.K2 = $2` for an entity key. */
function keyCondition(store: Store, set: EdmEntitySet, alias: string, key: EntityKey): Sql {
  return sql.join(
    set.entityType.key.map((property) => sql`${sql.id(alias, columnOf(store, set, property.name))} = ${parameter(store, property, key[property.name])}`),
    sql` and `,
  );
}

function keyOf(set: EdmEntitySet, entity: Entity): EntityKey {
  return Object.fromEntries(set.entityType.key.map((property) => [property.name, entity[property.name] as PrimitiveValue]));
}

/** A row as an entity: each column read back into its EDM type's JavaScript form. */
function entityOf(store: Store, set: EdmEntitySet, row: Row): Entity {
  const read = (properties: readonly EdmProperty[], prefix: string): Entity => {
    const entity: Entity = {};
    for (const property of properties) {
      const path = prefix + property.name;
      const column = columnOf(store, set, path);
      if (property.type.kind === 'Primitive') entity[property.name] = fromSqlValue(property.type.name, row[column]);
      else if (property.type.kind === 'Complex')
        entity[property.name] = column !== undefined && row[column] === null ? null : (read(property.type.type.properties, `${path}/`) as PropertyValue);
    }
    return entity;
  };
  return read(set.entityType.properties, '');
}

/** The columns and values of the properties named in `names` (a complex value: its presence column and members). */
function columnValues(store: Store, set: EdmEntitySet, values: Readonly<Record<string, PropertyValue>>, names: ReadonlySet<string>): [string, Sql][] {
  const pairs: [string, Sql][] = [];
  const write = (properties: readonly EdmProperty[], prefix: string, from: Readonly<Record<string, PropertyValue>> | null) => {
    for (const property of properties) {
      const path = prefix + property.name;
      const value = from === null ? null : from[property.name];
      if (value === undefined) continue;
      if (property.type.kind === 'Primitive') pairs.push([columnOf(store, set, path), parameter(store, property, value)]);
      else if (property.type.kind === 'Complex') {
        const presence = columnOf(store, set, path);
        if (presence !== undefined) pairs.push([presence, value === null ? sql`null` : sql`true`]);
        write(property.type.type.properties, `${path}/`, value as Readonly<Record<string, PropertyValue>> | null);
      }
    }
  };
  write(
    set.entityType.properties.filter((property) => names.has(property.name)),
    '',
    values,
  );
  return pairs;
}

/** A navigation property of a set: where its links are stored and which set it lands in. */
interface Hop {
  readonly from: EdmEntitySet;
  readonly to: EdmEntitySet;
  readonly fromRole: string;
  readonly toRole: string;
  readonly storage: SqlAssociationSetMapping;
}

function hopOf(store: Store, from: EdmEntitySet, property: EdmNavigationProperty): Hop {
  const set = store.model.defaultContainer.associationSets.find(
    (candidate) =>
      candidate.association === property.relationship && candidate.ends.some((end) => end.role === property.fromEnd.role && end.entitySet === from),
  );
  const target = set?.ends.find((end) => end.role === property.toEnd.role);
  if (set === undefined || target === undefined) throw new TypeError(`no association set for ${from.name}/${property.name}`);
  return { from, to: target.entitySet, fromRole: property.fromEnd.role, toRole: property.toEnd.role, storage: store.mapping.associationSets[set.name] };
}

function reversed(hop: Hop): Hop {
  return { from: hop.to, to: hop.from, fromRole: hop.toRole, toRole: hop.fromRole, storage: hop.storage };
}

/** The condition that the row `f` (of `hop.from`) links to the row `t` (of `hop.to`). */
function linked(store: Store, hop: Hop, f: string, t: string): Sql {
  const { storage } = hop;
  const pairs = (set: EdmEntitySet, alias: string, columns: Readonly<Record<string, string>>, other: string) =>
    set.entityType.key.map((key) => sql`${sql.id(other, columns[key.name])} = ${sql.id(alias, columnOf(store, set, key.name))}`);
  if (storage.kind === 'foreignKey') {
    // The dependent's table holds the principal's key.
    const conditions = storage.dependent === hop.fromRole ? pairs(hop.to, t, storage.columns, f) : pairs(hop.from, f, storage.columns, t);
    return sql.join(conditions, sql` and `);
  }
  const link = storage.schema === undefined ? sql.id(storage.table) : sql.id(storage.schema, storage.table);
  const conditions = [...pairs(hop.from, f, storage.columns[hop.fromRole], 'l'), ...pairs(hop.to, t, storage.columns[hop.toRole], 'l')];
  return sql`exists (select from ${link} as l where ${sql.join(conditions, sql` and `)})`;
}

/** The foreign-key columns a row of `hop.from` holds for this link, set to `target`'s key; undefined when the row holds none. */
function heldColumns(store: Store, hop: Hop, target: EntityKey | null): [string, Sql][] | undefined {
  const { storage } = hop;
  if (storage.kind !== 'foreignKey' || storage.dependent !== hop.fromRole) return undefined;
  return hop.to.entityType.key.map((key) => [storage.columns[key.name], parameter(store, key, target === null ? null : target[key.name])]);
}

/** Store one link (`add`), or take links away (`remove`: the one to `to`, or every link of `from` when `to` is undefined). */
async function writeLink(store: Store, db: Kysely<SqlSchema>, hop: Hop, from: EntityKey, to: EntityKey | undefined, mode: 'add' | 'remove'): Promise<void> {
  const { storage } = hop;
  if (storage.kind === 'joinTable') {
    const link = storage.schema === undefined ? sql.id(storage.table) : sql.id(storage.schema, storage.table);
    const ends = [
      ...hop.from.entityType.key.map((key) => [storage.columns[hop.fromRole][key.name], parameter(store, key, from[key.name])] as const),
      ...(to === undefined ? [] : hop.to.entityType.key.map((key) => [storage.columns[hop.toRole][key.name], parameter(store, key, to[key.name])] as const)),
    ];
    if (mode === 'add') {
      const columns = sql.join(ends.map(([column]) => sql.id(column)));
      await sql`insert into ${link} (${columns}) values (${sql.join(ends.map(([, value]) => value))}) on conflict do nothing`.execute(db);
    } else
      await sql`delete from ${link} where ${sql.join(
        ends.map(([column, value]) => sql`${sql.id(column)} = ${value}`),
        sql` and `,
      )}`.execute(db);
    return;
  }
  // A foreign key: update the row that holds it, on whichever side that is.
  const fromHolds = storage.dependent === hop.fromRole;
  const [holder, holderKey, principal, principalKey] = fromHolds ? [hop.from, from, hop.to, to] : [hop.to, to, hop.from, from];
  const value = mode === 'add' ? (principalKey ?? null) : null;
  const set = principal.entityType.key.map(
    (key) => sql`${sql.id(storage.columns[key.name])} = ${parameter(store, key, value === null ? null : value[key.name])}`,
  );
  const where = [holderKey === undefined ? sql`true` : keyCondition(store, holder, 'h', holderKey)];
  // Removing from the principal's side: only the rows that point at it.
  if (mode === 'remove' && !fromHolds)
    where.push(
      sql.join(
        principal.entityType.key.map((key) => sql`${sql.id('h', storage.columns[key.name])} = ${parameter(store, key, from[key.name])}`),
        sql` and `,
      ),
    );
  await sql`update ${tableOf(store, holder)} as h set ${sql.join(set)} where ${sql.join(where, sql` and `)}`.execute(db);
}

/** Fresh table aliases for one statement (`t1`, `t2`, ...). */
function aliases(): () => string {
  let next = 0;
  return () => `t${++next}`;
}

/**
 * Member paths of `$filter`, `$orderby` and `$skiptoken` as columns of the row `alias`; a path
 * through a to-one navigation property is a scalar subquery over the linked row.
 */
function resolverFor(store: Store, set: EdmEntitySet, alias: string, nextAlias: () => string): SqlPathResolver {
  const through = (navigation: readonly EdmNavigationProperty[], at: (set: EdmEntitySet, alias: string) => Sql | undefined): Sql | undefined => {
    let current = set;
    const hops = navigation.map((property) => {
      const hop = hopOf(store, current, property);
      current = hop.to;
      return hop;
    });
    const walk = (index: number, from: string): Sql | undefined => {
      if (index === hops.length) return at(hops.length === 0 ? set : hops[index - 1].to, from);
      const to = nextAlias();
      const inner = walk(index + 1, to);
      return inner && sql`(select ${inner} from ${tableOf(store, hops[index].to)} as ${sql.id(to)} where ${linked(store, hops[index], from, to)})`;
    };
    return walk(0, alias);
  };
  return {
    column: (path) => {
      const last = path.properties[path.properties.length - 1];
      const name = path.properties.map((property) => property.name).join('/');
      const column = through(path.navigation, (target, at) => sql.id(at, columnOf(store, target, name)));
      const temporal = ['Edm.DateTime', 'Edm.DateTimeOffset', 'Edm.Time'].includes(primitiveType(last));
      const nullable = path.navigation.length > 0 || path.properties.some((property) => property.nullable);
      return column && { sql: column, nullable, ...(temporal ? { precision: last.precision ?? 3 } : {}) };
    },
    // NULL exactly when a to-one link or a complex value is absent.
    presence: (path) =>
      through(path.navigation, (target, at) => {
        if (path.properties.length === 0) return sql`1`;
        const column = columnOf(store, target, path.properties.map((property) => property.name).join('/'));
        return column === undefined ? sql`1` : sql.id(at, column);
      }),
  };
}

/** The rows `path` reaches (`Customers(1)/Orders`): its last set, under the keys and links of every step. */
function pathCondition(store: Store, path: EntityPath, alias: string, nextAlias: () => string): Sql {
  const steps = [path.root, ...path.navigation];
  const at = (index: number, row: string): Sql => {
    const { entitySet, key } = steps[index];
    const conditions = key === undefined ? [] : [keyCondition(store, entitySet, row, key)];
    if (index > 0) {
      const previous = steps[index - 1].entitySet;
      const from = nextAlias();
      const hop = hopOf(store, previous, path.navigation[index - 1].property);
      conditions.push(
        sql`exists (select from ${tableOf(store, previous)} as ${sql.id(from)} where ${linked(store, hop, from, row)} and ${at(index - 1, from)})`,
      );
    }
    return conditions.length === 0 ? sql`true` : sql.join(conditions, sql` and `);
  };
  return at(steps.length - 1, alias);
}

/** The `and`-ed parts of a filter. */
function conjuncts(filter: ExprNode | undefined): ExprNode[] {
  if (filter === undefined) return [];
  if (filter.kind === 'Binary' && filter.operator === 'and') return [...conjuncts(filter.left), ...conjuncts(filter.right)];
  return [filter];
}

/** Reads run in the open transaction when there is one (a `$batch` changeset), else on the pool. */
const transactions = createTransactionScope<Kysely<SqlSchema>>('tutorial database');

function executor(store: Store, context: RequestContext): Kysely<SqlSchema> {
  return transactions.current(context) ?? store.db.kysely;
}

/** A missing related row inside an in-memory residual: this provider only follows links in SQL. */
function noNavigation(): never {
  throw ODataError.fromCode('NOT_IMPLEMENTED', { feature: 'This $filter or $orderby over a navigation property' });
}

const query: (store: Store) => DataProvider['query'] = (store) => async (request, context) => {
  const db = executor(store, context);
  const { entitySet, entityType } = request;
  const nextAlias = aliases();
  const compile = { dialect: store.db.sqlEngine.expressions, resolver: resolverFor(store, entitySet, 't', nextAlias) };
  // $filter and SAP's search as one condition (the kit's filter AST): one translator for both.
  const parts = conjuncts(requestFilter(request));
  const pushed = parts.filter((part) => isTranslatable(part, compile));
  const residual = parts.filter((part) => !pushed.includes(part));
  const where = sql.join([pathCondition(store, request.path, 't', nextAlias), ...pushed.map((part) => compileFilterSql(part, compile))], sql` and `);
  const from = sql`from ${tableOf(store, entitySet)} as t where ${where}`;
  const seek = request.skipToken && seekCondition(request.orderBy, request.skipToken, entityType);
  const exact = residual.length === 0 && request.orderBy.every((item) => isTranslatable(item.expression, compile)) && (!seek || isTranslatable(seek, compile));

  let entities: Entity[];
  let count: number | undefined;
  let positions: SkipTokenPosition[] = [];
  if (exact) {
    // The whole query in SQL: $filter and $skiptoken through one translator, then order and page.
    const after = seek ? sql`and ${compileFilterSql(seek, compile)}` : sql``;
    const orderBy = compileOrderBySql(request.orderBy, compile);
    const order = orderBy.length === 0 ? sql`` : sql`order by ${sql.join(orderBy)}`;
    // Each row's order values beside it ($o0, ...): where it stands, for the next link's $skiptoken.
    const values = request.orderBy.map((item, i) => sql`, ${compileExpressionSql(item.expression, compile)} as ${sql.id(`$o${i}`)}`);
    const page = sql`${request.top === undefined ? sql`` : sql`limit ${request.top}`} offset ${request.skip ?? 0}`;
    const rows = await sql<Row>`select t.* ${sql.join(values, sql``)} ${from} ${after} ${order} ${page}`.execute(db);
    entities = rows.rows.map((row) => entityOf(store, entitySet, row));
    positions = rows.rows.map((row, r) => ({
      orderByValues: request.orderBy.map((item, i) =>
        item.expression.type?.kind === 'Primitive' ? fromSqlPosition(item.expression.type.name, row[`$o${i}`]) : null,
      ),
      key: entityKey(entityType, entities[r]),
    }));
    if (request.count) count = Number((await sql<{ n: string }>`select count(*) as n ${from}`.execute(db)).rows[0].n);
  } else {
    // What SQL cannot answer exactly: the translated part in SQL, the rest by the library's evaluator.
    const rows = (await sql<Row>`select t.* ${from}`.execute(db)).rows.map((row) => entityOf(store, entitySet, row));
    const tests = residual.map((part) => compileFilter(part, noNavigation));
    const kept = rows.filter((entity) => tests.every((test) => test(entity)));
    ({ entities, count } = applyQuery(kept, { ...request, filter: undefined }, noNavigation));
  }
  await expand(store, db, entitySet, entities, request.selectExpand.expand);
  // In memory (the else branch) the service reads positions from the entities themselves.
  return { entities, count, positionOf: (entity) => positions[entities.indexOf(entity)] };
};

/** `$expand`: one statement per navigation property and level, for all parents at once. */
async function expand(store: Store, db: Kysely<SqlSchema>, set: EdmEntitySet, parents: Entity[], items: readonly ExpandItem[]): Promise<void> {
  for (const item of items) {
    const hop = hopOf(store, set, item.property);
    const keys = set.entityType.key;
    const parentKeys = keys.map((key, i) => sql`${sql.id('p', columnOf(store, set, key.name))} as ${sql.id(`$parent${i}`)}`);
    const among = store.db.sqlEngine.reads.inTuples(
      keys.map((key) => sql.id('p', columnOf(store, set, key.name))),
      keys.map(primitiveType),
      parents.map((parent) => keys.map((key) => parent[key.name] as PrimitiveValue)),
    );
    const order = hop.to.entityType.key.map((key) => sql.id('c', columnOf(store, hop.to, key.name)));
    const rows =
      parents.length === 0
        ? []
        : (
            await sql<Row>`select c.*, ${sql.join(parentKeys)} from ${tableOf(store, hop.to)} as c
      join ${tableOf(store, set)} as p on ${linked(store, hop, 'p', 'c')} where ${among} order by ${sql.join(order)}`.execute(db)
          ).rows;
    const children = rows.map((row) => entityOf(store, hop.to, row));
    await expand(store, db, hop.to, children, item.expand);
    const byParent = new Map<string, Entity[]>();
    rows.forEach((row, i) => {
      const parent = JSON.stringify(keys.map((key, k) => fromSqlValue(primitiveType(key), row[`$parent${k}`])));
      byParent.set(parent, [...(byParent.get(parent) ?? []), children[i]]);
    });
    for (const parent of parents) {
      const linkedRows = byParent.get(JSON.stringify(keys.map((key) => parent[key.name]))) ?? [];
      parent[item.property.name] = item.property.isCollection ? linkedRows : (linkedRows[0] ?? null);
    }
  }
}

/** PostgreSQL's refusals as the client's errors (never the database's own message). */
function clientError(error: unknown, set: EdmEntitySet, key: EntityKey | undefined): unknown {
  switch (sqlStateOf(error)) {
    case '23505': // unique_violation
      return ODataError.fromCode(
        'ENTITY_EXISTS',
        {
          key: `(${Object.values(key ?? {})
            .map(String)
            .join(',')})`,
          entitySet: set.name,
        },
        { cause: error },
      );
    case '23503': // foreign_key_violation
      return ODataError.fromCode(
        'CONSTRAINT_VIOLATION',
        { detail: 'The entry is linked to an entry that does not exist, or is still linked from another.' },
        { cause: error },
      );
    case '23502': // not_null_violation
      return ODataError.fromCode('BODY_INVALID', { detail: 'A required value or link is missing.' }, { cause: error });
    default:
      return error;
  }
}

/** This provider stores neither media resources nor open types' dynamic properties: refused, never dropped. */
function assertStorable(request: CreateRequest | UpdateRequest): void {
  const dynamic = Object.keys(request.values).find((name) => !request.entityType.propertiesByName.has(name));
  if (dynamic !== undefined) throw ODataError.fromCode('BODY_INVALID', { detail: `'${dynamic}' is not a declared property.` });
  if ('media' in request && request.media !== undefined) throw ODataError.fromCode('BODY_INVALID', { detail: 'Media resources are not stored here.' });
}

/** The properties a write sets from the request: never the key (the URL's) or a concurrency token (the provider's). */
function settable(request: CreateRequest | UpdateRequest, names: Iterable<string>): Set<string> {
  const tokens = new Set(request.entityType.concurrencyProperties.map((property) => property.name));
  return new Set([...names].filter((name) => !tokens.has(name)));
}

async function rowExists(store: Store, db: Kysely<SqlSchema>, set: EdmEntitySet, key: EntityKey): Promise<boolean> {
  const found = await sql`select from ${tableOf(store, set)} as t where ${keyCondition(store, set, 't', key)}`.execute(db);
  return found.rows.length > 0;
}

/** An entry and its inline entries; `held` are foreign-key columns a parent gives it. */
async function insert(store: Store, db: Kysely<SqlSchema>, request: CreateRequest, held: [string, Sql][] = []): Promise<Entity> {
  const set = request.entitySet;
  // Only what the client sent: every other column gets its store default (createSchema declares the model's DefaultValues).
  assertStorable(request);
  const columns = [...columnValues(store, set, request.values, settable(request, Object.keys(request.values))), ...held];
  for (const token of request.entityType.concurrencyProperties) {
    columns.push([columnOf(store, set, token.name), concurrencyTokenSql(store.db.sqlEngine, primitiveType(token), undefined) ?? sql`default`]);
  }
  const after: (() => Promise<void>)[] = [];
  const link = (property: EdmNavigationProperty, target: EntityKey, self: () => EntityKey) => {
    const hop = hopOf(store, set, property);
    const own = heldColumns(store, hop, target);
    if (own !== undefined) columns.push(...own);
    else after.push(() => writeLink(store, db, hop, self(), target, 'add'));
  };
  let key: EntityKey = {};
  await assertTargetsExist(store, db, request.bindings);
  for (const binding of request.bindings) for (const target of binding.targets) link(binding.property, target.key, () => key);
  if (request.parent !== undefined) {
    const { source, navigationProperty } = request.parent;
    const hop = hopOf(store, source.entitySet, navigationProperty);
    const own = heldColumns(store, reversed(hop), source.key);
    if (own !== undefined) columns.push(...own);
    else after.push(() => writeLink(store, db, hop, source.key, key, 'add'));
  }
  for (const inline of request.inline) {
    const hop = hopOf(store, set, inline.property);
    for (const entry of inline.entries) {
      if (heldColumns(store, hop, null) !== undefined) {
        // This row holds the link: the related entry is created first.
        const child = await insert(store, db, entry);
        link(inline.property, keyOf(hop.to, child), () => key);
        continue;
      }
      after.push(async () => {
        const childHolds = heldColumns(store, reversed(hop), key);
        // What the link fixes in the child (a key that holds the parent's, say), from the stored parent.
        const child = await insert(store, db, withLinkedValues(entry, inline.property, 'other', key, set.name), childHolds);
        if (childHolds === undefined) await writeLink(store, db, hop, key, keyOf(hop.to, child), 'add');
      });
    }
  }
  // A link's column can be a property too (a ReferentialConstraint's): the same value, written once.
  const unique = [...new Map(columns)];
  const names = sql.join(unique.map(([column]) => sql.id(column)));
  const statement = unique.length === 0 ? sql`default values` : sql`(${names}) values (${sql.join(unique.map(([, value]) => value))})`;
  const row = (await sql<Row>`insert into ${tableOf(store, set)} ${statement} returning *`.execute(db)).rows[0];
  const entity = entityOf(store, set, row);
  key = keyOf(set, entity);
  for (const step of after) await step();
  return entity;
}

/** 400 when a link in a request body points at an entry that does not exist. */
async function assertTargetsExist(store: Store, db: Kysely<SqlSchema>, bindings: CreateRequest['bindings']): Promise<void> {
  for (const { property, targets } of bindings) {
    for (const target of targets) {
      if (!(await rowExists(store, db, target.entitySet, target.key))) {
        throw ODataError.fromCode('BODY_INVALID', { detail: `'${property.name}' links to an entry that does not exist.` });
      }
    }
  }
}

/** The If-Match check as part of the statement's WHERE, compiled like a `$filter`. */
function keyAndPrecondition(store: Store, request: UpdateRequest | DeleteRequest): Sql {
  const { entitySet, entityType } = request;
  const condition = preconditionCondition(request.precondition, entityType);
  const compile = { dialect: store.db.sqlEngine.expressions, resolver: resolverFor(store, entitySet, 't', aliases()) };
  const key = keyCondition(store, entitySet, 't', request.key);
  return condition === undefined ? key : sql`${key} and ${compileFilterSql(condition, compile)}`;
}

async function update(store: Store, db: Kysely<SqlSchema>, request: UpdateRequest): Promise<Entity> {
  const set = request.entitySet;
  // PUT writes every property in `values` (the service reset what was not sent; one it left out keeps its value); MERGE only what was sent.
  assertStorable(request);
  const every = set.entityType.properties.filter((property) => !property.isKey).map((property) => property.name);
  const names = settable(request, request.mode === 'replace' ? every : request.sent);
  const columns = columnValues(store, set, request.values, names);
  for (const token of request.entityType.concurrencyProperties) {
    const column = columnOf(store, set, token.name);
    const next = concurrencyTokenSql(store.db.sqlEngine, primitiveType(token), sql.id('t', column));
    if (next !== undefined) columns.push([column, next]);
  }
  await assertTargetsExist(store, db, request.bindings);
  const after: (() => Promise<void>)[] = [];
  for (const { property, targets } of request.bindings) {
    const hop = hopOf(store, set, property);
    const own = property.isCollection ? undefined : heldColumns(store, hop, targets[0]?.key ?? null);
    if (own !== undefined) columns.push(...own);
    else if (!property.isCollection) after.push(async () => setSingleLink(store, db, hop, request.key, targets[0]?.key));
    else for (const target of targets) after.push(() => writeLink(store, db, hop, request.key, target.key, 'add'));
  }
  if (columns.length === 0) columns.push([columnOf(store, set, set.entityType.key[0].name), sql.id('t', columnOf(store, set, set.entityType.key[0].name))]);
  const assignments = sql.join(columns.map(([column, value]) => sql`${sql.id(column)} = ${value}`));
  const updated = await sql<Row>`update ${tableOf(store, set)} as t set ${assignments} where ${keyAndPrecondition(store, request)} returning t.*`.execute(db);
  // No row changed: 404 or 412, decided in the same transaction.
  if (updated.rows.length === 0) throw conditionalWriteError(set, request.key, await rowExists(store, db, set, request.key));
  for (const step of after) await step();
  return entityOf(store, set, updated.rows[0]);
}

async function remove(store: Store, db: Kysely<SqlSchema>, request: DeleteRequest): Promise<void> {
  const set = request.entitySet;
  const deleted = await sql`delete from ${tableOf(store, set)} as t where ${keyAndPrecondition(store, request)} returning 1`.execute(db);
  if (deleted.rows.length === 0) throw conditionalWriteError(set, request.key, await rowExists(store, db, set, request.key));
}

/** A single-valued link set to `target` (or removed): the old link goes first when the other row holds it. */
async function setSingleLink(store: Store, db: Kysely<SqlSchema>, hop: Hop, from: EntityKey, target: EntityKey | undefined): Promise<void> {
  if (heldColumns(store, hop, null) === undefined) await writeLink(store, db, hop, from, undefined, 'remove');
  if (target !== undefined) await writeLink(store, db, hop, from, target, 'add');
  else if (heldColumns(store, hop, null) !== undefined) await writeLink(store, db, hop, from, undefined, 'remove');
}

async function link(store: Store, db: Kysely<SqlSchema>, request: LinkRequest): Promise<void> {
  const { source, property, target, mode } = request;
  for (const entry of target === undefined ? [source] : [source, target]) {
    if (!(await rowExists(store, db, entry.entitySet, entry.key))) throw conditionalWriteError(entry.entitySet, entry.key, false);
  }
  const hop = hopOf(store, source.entitySet, property);
  if (mode === 'remove') await writeLink(store, db, hop, source.key, target?.key, 'remove');
  else if (property.isCollection) await writeLink(store, db, hop, source.key, target?.key, 'add');
  else await setSingleLink(store, db, hop, source.key, target?.key);
}

/**
 * The provider. Every write runs in the transaction the service opened for this request (`run`
 * joins it; a write called outside one opens its own), and after a serialization failure or a
 * deadlock the service's whole unit of work runs again.
 */
export function tutorialProvider(store: Store): DataProvider {
  const begin = <R>(body: (db: Kysely<SqlSchema>) => Promise<R>) => store.db.kysely.transaction().execute(body);
  const inTransaction = <R>(context: RequestContext, set: EdmEntitySet, key: EntityKey | undefined, write: (db: Kysely<SqlSchema>) => Promise<R>): Promise<R> =>
    transactions.run(context, begin, async () => {
      try {
        return await write(executor(store, context));
      } catch (error) {
        throw clientError(error, set, key);
      }
    });
  return {
    query: query(store),
    transaction: (work, context) => transactions.run(context, begin, work, { isRetryable: isRetryableTransactionError }),
    create: (request, context) => inTransaction(context, request.entitySet, keyOf(request.entitySet, request.values), (db) => insert(store, db, request)),
    update: (request, context) => inTransaction(context, request.entitySet, request.key, (db) => update(store, db, request)),
    delete: (request, context) => inTransaction(context, request.entitySet, request.key, (db) => remove(store, db, request)),
    link: (request, context) => inTransaction(context, request.source.entitySet, request.source.key, (db) => link(store, db, request)),
  };
}
