/**
 * Links as rows: setting or clearing a foreign key (on the source's row or on the target's) or
 * inserting and deleting join-table rows, one statement per step and never a read-modify-write
 * across statements. A single-valued end keeps one partner: linking it elsewhere first unlinks
 * the old partner, in the database. Required ends are the schema's (`NOT NULL` foreign keys): a
 * statement that would leave one empty fails, and the provider maps that to a 4xx.
 */
import { sql } from 'kysely';
import type { PrimitiveValue } from '../../edm/primitives';
import type { EntityKey } from '../../uri/types';
import type { SqlKysely } from '../database';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import { SQLSTATE, sqlStateOf } from '../errors';
import type { CompiledMapping, LinkPlan, SetPlan } from '../mapping/compiled';
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import { changedRows, counted, type KeyFrom, type PlanBuilder, type StepRef, type StepResults, type StepRun } from './plan';
import { hasRequiredJoinEnd, type RequiredLinks } from './required-links';
import { tokenBumps } from './tokens';

/** What a write statement runs on. */
export interface WriteScope {
  readonly executor: SqlKysely;
  readonly compiled: CompiledMapping;
  readonly engine: SqlEngine;
  /** The transaction's entities whose required join-table links are counted before COMMIT. */
  readonly required: RequiredLinks;
  /**
   * The request runs as a database session, whose row-level security may hide rows or refuse
   * writes: a write that changes no row asks whether the row is visible (403 or 404).
   */
  readonly rowSecurity: boolean;
}

/** The key values of `key` in the order of `plan`'s key columns. */
export function keyValues(plan: SetPlan, key: EntityKey): PrimitiveValue[] {
  return plan.key.map((column) => key[column.property.name]);
}

/** `"c1" = $1 and "c2" = $2` (columns qualified by `alias` when given). */
export function columnsMatch(
  columns: readonly string[],
  types: readonly EdmPrimitiveTypeName[],
  values: readonly PrimitiveValue[],
  engine: SqlEngine,
  alias?: string,
): Sql {
  return sql.join(
    columns.map((column, i) => sql`${alias === undefined ? sql.id(column) : sql.id(alias, column)} = ${engine.values.parameter(types[i], values[i])}`),
    sql` and `,
  );
}

/**
 * `"c1" = $1, "c2" = $2` for SET, or `"c1" = null, ...` to clear, on a row of `holder`: a foreign
 * key is part of its row, so the row's concurrency tokens move in the same statement (tokens.ts).
 */
function assignments(
  holder: SetPlan,
  columns: readonly string[],
  types: readonly EdmPrimitiveTypeName[],
  values: readonly PrimitiveValue[] | undefined,
  engine: SqlEngine,
): Sql {
  const items = columns.map((column, i) => sql`${sql.id(column)} = ${values === undefined ? sql`null` : engine.values.parameter(types[i], values[i])}`);
  for (const [column, next] of tokenBumps(holder, engine)) items.push(sql`${sql.id(column)} = ${next}`);
  return sql.join(items);
}

/** The key types of a set, in key order. */
export function keyTypes(plan: SetPlan): EdmPrimitiveTypeName[] {
  return plan.key.map((column) => column.type ?? 'Edm.String');
}

/** How a link write ended: done, or which row to change was not there. */
export type LinkOutcome = 'done' | 'source-missing' | 'target-missing';

/** A key of `plan` from the columns `k0`, `k1`... (or `prefix0`...) of a result row. */
function keyFrom(plan: SetPlan, row: Readonly<Record<string, unknown>>, prefix: string, engine: SqlEngine): EntityKey {
  const key: Record<string, PrimitiveValue> = {};
  plan.key.forEach((column, i) => {
    key[column.property.name] = engine.values.fromValue(column.type ?? 'Edm.String', row[`${prefix}${i}`]) as PrimitiveValue;
  });
  return key;
}

/** The name of a link in a plan: `Products/Category`. */
function linkTarget(link: LinkPlan): string {
  return `${link.source.entitySet.name}/${link.property.name}`;
}

/**
 * A step that deletes join rows of `link` matching `where` (from the results so far); the entities
 * on both sides of each row lost a link, so their required ends are counted before COMMIT. Its
 * result: the number of rows deleted.
 */
function planDeleteJoinRows(
  b: PlanBuilder,
  link: LinkPlan,
  takes: readonly number[],
  where: (results: StepResults) => Sql,
  then: (removed: number, run: StepRun) => void | Promise<void> = () => undefined,
): void {
  const via = link.via;
  if (via === undefined) throw new TypeError('A join-table link without its join table.');
  const returned = sql.join([
    ...via.sourceColumns.map((column, i) => sql`${sql.id(column)} as ${sql.id(`s${i}`)}`),
    ...via.targetColumns.map((column, i) => sql`${sql.id(column)} as ${sql.id(`t${i}`)}`),
  ]);
  b.add({
    action: 'unlink',
    target: linkTarget(link),
    takes,
    writes: true,
    needsTransaction: hasRequiredJoinEnd(b.compiled, link.source.entitySet) || hasRequiredJoinEnd(b.compiled, link.target.entitySet),
    statement: (results) => sql`delete from ${via.table} where ${where(results)} returning ${returned}`,
    finish: ({ rows }, run) => {
      for (const row of rows) {
        run.scope.required.touch(link.source.entitySet, keyFrom(link.source, row, 's', run.scope.engine));
        run.scope.required.touch(link.target.entitySet, keyFrom(link.target, row, 't', run.scope.engine));
      }
      return then(rows.length, run);
    },
  });
}

/**
 * The steps that link the entry `source` (of `link.source`) to `target` over the link's navigation
 * property; `then` is given how it ended. A foreign key that points to nothing is
 * 'target-missing' (the database's foreign-key check, in the same statement). The handle of the
 * step whose result is how it ended.
 */
export function planAddLink(
  b: PlanBuilder,
  link: LinkPlan,
  source: KeyFrom,
  target: KeyFrom,
  then: (outcome: LinkOutcome, run: StepRun) => void | Promise<void>,
): StepRef<LinkOutcome> {
  const { engine } = b;
  const ended = async (outcome: LinkOutcome, run: StepRun): Promise<LinkOutcome> => {
    await then(outcome, run);
    return outcome;
  };
  const takes = [...source.takes, ...target.takes];
  const sourceKey = (results: StepResults): PrimitiveValue[] => keyValues(link.source, source.key(results));
  const targetKey = (results: StepResults): PrimitiveValue[] => keyValues(link.target, target.key(results));
  const sourceTypes = keyTypes(link.source);
  const targetTypes = keyTypes(link.target);
  const isForeignKeyViolation = (error: unknown): boolean => sqlStateOf(error) === SQLSTATE.foreignKeyViolation;
  const step = { action: 'link', target: linkTarget(link), takes, writes: true } as const;
  if (link.holder === 'source') {
    return b.add({
      ...step,
      handles: isForeignKeyViolation,
      statement: (results) =>
        counted(
          b,
          sql`update ${link.source.table} set ${assignments(link.source, link.sourceColumns, link.types, targetKey(results), engine)} where ${columnsMatch(
            link.source.key.map((c) => c.column),
            sourceTypes,
            sourceKey(results),
            engine,
          )}`,
        ),
      finish: (outcome, run) => ended(outcome.error !== undefined ? 'target-missing' : changedRows(outcome) === 0 ? 'source-missing' : 'done', run),
    });
  }
  if (link.holder === 'target') {
    const targetMatch = (results: StepResults): Sql =>
      columnsMatch(
        link.target.key.map((c) => c.column),
        targetTypes,
        targetKey(results),
        engine,
      );
    if (!link.property.isCollection) {
      // A single-valued end: the source's previous partner lets go first.
      b.add({
        ...step,
        action: 'unlink',
        statement: (results) =>
          sql`update ${link.target.table} set ${assignments(link.target, link.targetColumns, link.types, undefined, engine)} where ${columnsMatch(link.targetColumns, link.types, sourceKey(results), engine)} and not (${targetMatch(results)})`,
        finish: () => undefined,
      });
    }
    return b.add({
      ...step,
      handles: isForeignKeyViolation,
      statement: (results) =>
        counted(
          b,
          sql`update ${link.target.table} set ${assignments(link.target, link.targetColumns, link.types, sourceKey(results), engine)} where ${targetMatch(results)}`,
        ),
      finish: (outcome, run) => ended(outcome.error !== undefined || changedRows(outcome) === 0 ? 'target-missing' : 'done', run),
    });
  }
  const via = link.via;
  if (via === undefined) throw new TypeError('A join-table link without its join table.');
  // Single-valued ends keep one partner: on the source's side, and on the target's side.
  if (!link.property.isCollection) planDeleteJoinRows(b, link, takes, (results) => columnsMatch(via.sourceColumns, sourceTypes, sourceKey(results), engine));
  if (link.property.fromEnd.multiplicity !== '*')
    planDeleteJoinRows(b, link, takes, (results) => columnsMatch(via.targetColumns, targetTypes, targetKey(results), engine));
  const columns = [...via.sourceColumns, ...via.targetColumns].map((column) => sql.id(column));
  return b.add({
    ...step,
    handles: isForeignKeyViolation,
    statement: (results) => {
      const values = [
        ...sourceKey(results).map((value, i) => engine.values.parameter(sourceTypes[i], value)),
        ...targetKey(results).map((value, i) => engine.values.parameter(targetTypes[i], value)),
      ];
      return sql`insert into ${via.table} (${sql.join(columns)}) values (${sql.join(values)}) on conflict do nothing`;
    },
    finish: (outcome, run) => ended(outcome.error !== undefined ? 'target-missing' : 'done', run),
  });
}

/**
 * The step that removes the link from `source` to `target` (or every link of a single-valued
 * property when no target is given); `then` is given the number of links removed. A required end
 * fails with the database's NOT NULL violation, or (in a join table) the count before COMMIT.
 */
export function planRemoveLink(
  b: PlanBuilder,
  link: LinkPlan,
  source: EntityKey,
  target: EntityKey | undefined,
  then: (removed: number, run: StepRun) => void | Promise<void> = () => undefined,
): void {
  const { engine } = b;
  const sourceKey = keyValues(link.source, source);
  const sourceTypes = keyTypes(link.source);
  const targetKey = target === undefined ? undefined : keyValues(link.target, target);
  const targetTypes = keyTypes(link.target);
  const step = { action: 'unlink', target: linkTarget(link), takes: [], writes: true } as const;
  if (link.holder === 'source') {
    const linkedTo =
      targetKey === undefined
        ? sql`${sql.join(
            link.sourceColumns.map((column) => sql`${sql.id(column)} is not null`),
            sql` and `,
          )}`
        : columnsMatch(link.sourceColumns, link.types, targetKey, engine);
    const statement = sql`update ${link.source.table} set ${assignments(link.source, link.sourceColumns, link.types, undefined, engine)} where ${columnsMatch(
      link.source.key.map((c) => c.column),
      sourceTypes,
      sourceKey,
      engine,
    )} and ${linkedTo}`;
    b.add({ ...step, statement: () => counted(b, statement), finish: (outcome, run) => then(changedRows(outcome), run) });
    return;
  }
  if (link.holder === 'target') {
    const which =
      targetKey === undefined
        ? sql``
        : sql` and ${columnsMatch(
            link.target.key.map((c) => c.column),
            targetTypes,
            targetKey,
            engine,
          )}`;
    const statement = sql`update ${link.target.table} set ${assignments(link.target, link.targetColumns, link.types, undefined, engine)} where ${columnsMatch(link.targetColumns, link.types, sourceKey, engine)}${which}`;
    b.add({ ...step, statement: () => counted(b, statement), finish: (outcome, run) => then(changedRows(outcome), run) });
    return;
  }
  const via = link.via;
  if (via === undefined) throw new TypeError('A join-table link without its join table.');
  const which = targetKey === undefined ? sql`` : sql` and ${columnsMatch(via.targetColumns, targetTypes, targetKey, engine)}`;
  planDeleteJoinRows(b, link, [], () => sql`${columnsMatch(via.sourceColumns, sourceTypes, sourceKey, engine)}${which}`, then);
}
