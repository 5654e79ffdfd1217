/**
 * The parts every write statement shares: the row a data-modifying statement returns, decoded as
 * a read decodes it (`with t as (update ... returning *) select <projection> from t`, or on
 * SQLite `update ... returning <projection>`, so the written row comes back from the same
 * statement), which properties the client sent, and the 404, 403 or 412 decision after a keyed
 * write changed no row.
 */
import { sql } from 'kysely';
import type { EdmEntitySet } from '../../edm/model';
import { ODataError } from '../../errors';
import type { PrimitiveValue } from '../../edm/primitives';
import { describeKey, entityKey } from '../../provider/keys';
import { entityNotFound } from '../../provider/not-found';
import { conditionalWriteError } from '../../provider/precondition';
import type { Precondition } from '../../provider/types';
import type { EntityKey } from '../../uri/types';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import type { SetPlan } from '../mapping/compiled';
import { Aliases } from '../read/joins';
import { Projection, type DecodedRow } from '../read/projection';
import { columnsMatch, keyTypes, keyValues } from './links';
import { preconditionCondition } from './precondition';
import type { PlanBuilder, PlanContext, StepAction, StepRef, StepResults, StepRun, WrittenRow } from './plan';

/**
 * The read of the rows of `plan` that meet a condition (unqualified columns), decoded as a read
 * decodes them: one statement, `with t as (select r.* ... where <condition>) select <projection> from t`.
 */
export function rowReader(plan: SetPlan, engine: SqlEngine): { statement(where: Sql): Sql; decode(row: Readonly<Record<string, unknown>>): DecodedRow } {
  const projection = Projection.of(plan, 't', { select: undefined }, new Aliases(), 'c', engine);
  const joins = sql.join(projection.joins, sql` `);
  return {
    statement: (where) => sql`with ${sql.id('t')} as (${selectRows(plan, engine, where)}) select ${sql.join(projection.columns)} from ${sql.id('t')} ${joins}`,
    decode: (row) => projection.decode(row),
  };
}

/** How `planReturning` adds the steps of a data-modifying statement. */
export interface ReturningStep<R> {
  readonly action: StepAction;
  /** The steps whose written keys the statement takes. */
  readonly takes: readonly number[];
  /** The statement's alias of the written table, if it has one. */
  readonly alias?: string;
  /** The statement, ending in `returning` (which planReturning chooses), from the results so far. */
  readonly statement: (results: StepResults, returning: Sql) => Sql;
  /** The written row (undefined when the statement wrote none) as the write's answer, or an error. */
  readonly finish: (row: DecodedRow | undefined, run: StepRun) => R | Promise<R>;
  /** See PlanStep.needsTransaction. */
  readonly needsTransaction?: boolean;
}

/**
 * True when, on an engine without a data-modifying statement in a WITH (SQLite), the statement's
 * own RETURNING list can be the projection of the written row: the projection joins nothing (a
 * media side table is another table, which RETURNING cannot name), and the set is a table that
 * takes ON CONFLICT (SqlInsertMode `onConflict`). A view written through INSTEAD OF triggers
 * returns what was sent, not what was stored (a generated key comes back null), and a table
 * without a unique key index may be a view mapped by hand: both keep the read back.
 */
function returnsProjection(plan: SetPlan): boolean {
  return plan.media === undefined && plan.insert === 'onConflict';
}

/**
 * The steps of a data-modifying statement that writes one row of `plan`, decoded as a read
 * decodes it, in one statement where the engine allows it: in a WITH (`with t as (update …
 * returning *) select <projection> from t`), else with the projection as the statement's own
 * RETURNING list (SQLite's columns of the written table, named by the table's name: it takes
 * no alias there). Else the statement returns the row's key and a second step reads the row back.
 */
export function planReturning<R>(b: PlanBuilder, plan: SetPlan, step: ReturningStep<R>): StepRef<R> {
  const { engine } = b;
  const target = plan.entitySet.name;
  const needsTransaction = step.needsTransaction ?? false;
  if (!engine.writes.writableCte && returnsProjection(plan)) {
    const returned = Projection.of(plan, plan.tableName.table, { select: undefined }, new Aliases(), 'c', engine);
    const returning = sql`returning ${sql.join(returned.columns)}`;
    return b.add({
      action: step.action,
      target,
      takes: step.takes,
      writes: true,
      needsTransaction,
      statement: (results) => step.statement(results, returning),
      finish: (outcome, run) => step.finish(outcome.rows[0] === undefined ? undefined : returned.decode(outcome.rows[0]), run),
    });
  }
  const projection = Projection.of(plan, 't', { select: undefined }, new Aliases(), 'c', engine);
  const joins = sql.join(projection.joins, sql` `);
  const returning = returningRow(plan, engine, step.alias);
  if (engine.writes.writableCte)
    return b.add({
      action: step.action,
      target,
      takes: step.takes,
      writes: true,
      needsTransaction,
      statement: (results) =>
        sql`with ${sql.id('t')} as (${step.statement(results, returning)}) select ${sql.join(projection.columns)} from ${sql.id('t')} ${joins}`,
      finish: (outcome, run) => step.finish(outcome.rows[0] === undefined ? undefined : projection.decode(outcome.rows[0]), run),
    });
  // What the statement returns of the row: its key, read back in full by the next step.
  const written = b.add<WrittenRow | undefined>({
    action: step.action,
    target,
    takes: step.takes,
    writes: true,
    needsTransaction,
    statement: (results) => step.statement(results, returning),
    finish: ({ rows: [row] }) => {
      if (row === undefined) return undefined;
      const key: Record<string, PrimitiveValue> = {};
      for (const column of plan.key) key[column.property.name] = engine.values.fromValue(column.type ?? 'Edm.String', row[column.column]) as PrimitiveValue;
      return { entity: key };
    },
  });
  return b.add({
    action: 'read back',
    target,
    takes: [written.id],
    writes: false,
    needsTransaction,
    statement: (results) => {
      const row = results.get(written);
      if (row === undefined) return undefined;
      const match = columnsMatch(
        plan.key.map((column) => column.column),
        keyTypes(plan),
        keyValues(plan, entityKey(plan.entitySet.entityType, row.entity)),
        engine,
        't',
      );
      return sql`select ${sql.join(projection.columns)} from ${plan.table} as ${sql.id('t')} ${joins} where ${match}`;
    },
    finish: (outcome, run) => step.finish(outcome.rows[0] === undefined ? undefined : projection.decode(outcome.rows[0]), run),
  });
}

/**
 * The RETURNING list of a statement that writes a row of `plan` (`returning "u".*` for the
 * `alias` given): every column, and for a set whose ETag is the row version the version the row
 * now has, in a column named `xmin` (the projection reads it there; no table column has that name).
 */
function returningRow(plan: SetPlan, engine: SqlEngine, alias?: string): Sql {
  const all = engine.writes.returningAll(alias);
  return plan.etag === 'xmin' ? sql`returning ${all}, ${engine.tokens.writtenRowVersion()} as ${sql.id('xmin')}` : sql`returning ${all}`;
}

/** `select` of the rows of `plan` that meet `where` (unqualified columns), with their row version as `returningRow` gives it. */
function selectRows(plan: SetPlan, engine: SqlEngine, where: Sql): Sql {
  const version = plan.etag === 'xmin' ? sql`, ${engine.tokens.rowVersion('r')} as ${sql.id('xmin')}` : sql``;
  return sql`select ${sql.id('r')}.*${version} from ${plan.table} as ${sql.id('r')} where ${where}`;
}

/** What a refused write tried: `change Orders(10248)`, `delete Orders(10248)`. */
export type WriteAttempt = 'change' | 'delete';

/** 403 for a write to an entity the request sees but the database (a row-level security policy) does not let it write. */
function writeRefused(entitySet: EdmEntitySet, key: EntityKey, attempt: WriteAttempt): ODataError {
  return ODataError.fromCode('FORBIDDEN', {
    detail: `The database does not allow this user to ${attempt} ${entitySet.name}${describeKey(entitySet.entityType, key)}.`,
  });
}

/** The deciding read of `missingOrStale`, over the row of `key`; undefined when none is needed (no precondition, no row-level security: the entity is missing). */
function decidingRead(context: PlanContext, plan: SetPlan, key: EntityKey, precondition: Precondition | undefined): Sql | undefined {
  const tagged = precondition !== undefined && !precondition.any;
  if (!tagged && !context.rowSecurity) return undefined;
  const alias = 'c';
  const match = columnsMatch(
    plan.key.map((column) => column.column),
    keyTypes(plan),
    keyValues(plan, key),
    context.engine,
    alias,
  );
  const holds = tagged ? preconditionCondition(precondition, plan, alias, plan.entitySet.entityType, context.engine) : undefined;
  const current = holds === undefined ? sql`true` : sql`exists (select 1 from ${plan.table} as ${sql.id(alias)} where ${match} and ${holds})`;
  return sql`select exists (select 1 from ${plan.table} as ${sql.id(alias)} where ${match}) as ${sql.id('found')}, ${current} as ${sql.id('current')}`;
}

/** The error the deciding read's row (none when no read was needed) tells. */
function decision(context: PlanContext, plan: SetPlan, key: EntityKey, row: Readonly<Record<string, unknown>> | undefined, attempt: WriteAttempt): ODataError {
  const truth = (value: unknown): boolean => context.engine.values.fromValue('Edm.Boolean', value) === true;
  if (row === undefined || !truth(row.found)) return entityNotFound(plan.entitySet, key);
  return truth(row.current) ? writeRefused(plan.entitySet, key, attempt) : conditionalWriteError(plan.entitySet, key, true);
}

/** A deciding step: after `write`, reading only when `failed` says its result is a failure; its result the write's otherwise. */
function decideStep<T, R>(
  b: PlanBuilder,
  plan: SetPlan,
  key: EntityKey,
  precondition: Precondition | undefined,
  attempt: WriteAttempt,
  write: StepRef<T>,
  when: { readonly failed: (result: T) => boolean; readonly onlyWhen: string; readonly answer: (result: T) => R },
): StepRef<R> {
  const read = decidingRead(b, plan, key, precondition);
  return b.add<R>({
    action: 'decide',
    target: plan.entitySet.name,
    takes: [write.id],
    writes: false,
    statement: () => read,
    runsWhen: (results) => when.failed(results.get(write)),
    onlyWhen: when.onlyWhen,
    finish: ({ rows }, { results }) => {
      const written = results.get(write);
      if (!when.failed(written)) return when.answer(written);
      throw decision(b, plan, key, rows[0], attempt);
    },
  });
}

/**
 * A keyed write changed no row: why, told by one read in the same transaction, as the same role
 * (so it sees exactly what the write could see). The entity does not exist for this request: 404
 * (a row that row-level security hides is no different). It exists and the precondition holds, or
 * there was none: a policy (or a trigger) refused the write, 403. It exists and its tag moved
 * on: 412, even when a policy would refuse the write with the current tag (the client reads it
 * again, then learns 403). Without row-level security and without a precondition, no read: the
 * entity is missing. The step after the write `write`, whose result is undefined when it changed
 * no row: its statement runs only then, and its result is the write's.
 */
export function planDecide<T>(
  b: PlanBuilder,
  plan: SetPlan,
  key: EntityKey,
  precondition: Precondition | undefined,
  attempt: WriteAttempt,
  write: StepRef<T | undefined>,
): StepRef<T> {
  return decideStep(b, plan, key, precondition, attempt, write, {
    failed: (written) => written === undefined,
    onlyWhen: 'the write changed no row',
    answer: (written) => written as T,
  });
}

/**
 * The step after `step` that answers 404 for the entity `key` of `plan` when `failed` says the
 * step found no row of it, or, under row-level security, 403 when the request sees it (a policy
 * refused the write or the lock it takes): one read in the same transaction, only then.
 */
export function planMissingOrRefused<T>(
  b: PlanBuilder,
  plan: SetPlan,
  key: EntityKey,
  step: StepRef<T>,
  failed: (result: T) => boolean,
  onlyWhen: string,
): void {
  decideStep(b, plan, key, undefined, 'change', step, { failed, onlyWhen, answer: () => undefined });
}
