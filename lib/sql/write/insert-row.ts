/**
 * The INSERT of one new row the way its set's table takes it (SqlInsertMode): one statement that
 * returns the stored row (`on conflict do nothing`, or the key checked in the INSERT itself), or,
 * for a table with rules, a key check, the INSERT and a read back as three steps of the plan.
 * insert.ts builds the row and plans the entries around it.
 */
import { sql } from 'kysely';
import type { PrimitiveValue } from '../../edm/primitives';
import { ODataError } from '../../errors';
import { describeKey, entityKey } from '../../provider/keys';
import type { CreateRequest } from '../../provider/types';
import type { Sql } from '../dialect';
import { sqlStateOf } from '../errors';
import type { SetPlan } from '../mapping/compiled';
import type { DecodedRow } from '../read/projection';
import { columnsMatch, keyTypes, keyValues, type WriteScope } from './links';
import type { PlanBuilder, StepRef, StepResults, WrittenRow } from './plan';
import { hasRequiredJoinEnd } from './required-links';
import { planReturning, rowReader } from './returning';

/** 400 BODY_INVALID with `detail`. */
export function bodyInvalid(detail: string): ODataError {
  return ODataError.fromCode('BODY_INVALID', { detail });
}

/** 409 ENTITY_EXISTS for the key of `values`. */
function entityExists(request: CreateRequest, values: Readonly<Record<string, unknown>>): ODataError {
  return ODataError.fromCode('ENTITY_EXISTS', { key: describeKey(request.entityType, values), entitySet: request.entitySet.name });
}

/** The new row of an entry: its request (with what a parent's key fixes), values and columns. */
export interface NewRow {
  readonly request: CreateRequest;
  readonly values: Readonly<Record<string, unknown>>;
  readonly columns: ReadonlyMap<string, Sql>;
}

/** Whether a new row's columns hold its whole key (else the database makes it). */
function hasWholeKey(plan: SetPlan, columns: ReadonlyMap<string, Sql>): boolean {
  return plan.key.every((column) => columns.has(column.column));
}

/** `names`, `given` and the key match of a new row's columns (the key as the row will hold it: the same converted parameters the INSERT writes). */
function insertParts(plan: SetPlan, columns: ReadonlyMap<string, Sql>): { names: Sql; given: Sql; keyGiven: boolean; keyMatch: Sql } {
  return {
    names: sql.join([...columns.keys()].map((column) => sql.id(column))),
    given: sql.join([...columns.values()]),
    keyGiven: hasWholeKey(plan, columns),
    keyMatch: sql.join(
      plan.key.map((column) => sql`${sql.id(column.column)} = ${columns.get(column.column)}`),
      sql` and `,
    ),
  };
}

/**
 * The steps of an INSERT into a table whose rules keep it out of WITH and ON CONFLICT (and a DO
 * INSTEAD one may return nothing), always in a transaction: when the new row has its key, a read
 * of that key (409 when taken, run only then) and the INSERT; else the INSERT returning the key
 * the database made (400 where a rule returns nothing). Then the row read back by that key.
 */
function planInsertByRules(b: PlanBuilder, plan: SetPlan, takes: readonly number[], rowOf: (results: StepResults) => NewRow): StepRef<DecodedRow> {
  const { engine } = b;
  const target = plan.entitySet.name;
  const reader = rowReader(plan, engine);
  const parts = (results: StepResults): ReturnType<typeof insertParts> => insertParts(plan, rowOf(results).columns);
  // Asked by several steps and callbacks: a test of the columns, not the whole SQL of parts().
  const keyGiven = (results: StepResults): boolean => hasWholeKey(plan, rowOf(results).columns);
  b.add({
    action: 'check key',
    target,
    takes,
    writes: false,
    needsTransaction: true,
    statement: (results) => (keyGiven(results) ? reader.statement(parts(results).keyMatch) : undefined),
    runsWhen: keyGiven,
    onlyWhen: 'the new row has its key',
    finish: ({ rows }, { results }) => {
      if (rows.length === 0) return;
      const { request, values } = rowOf(results);
      throw entityExists(request, values);
    },
  });
  const keys = sql.join(plan.key.map((column) => sql.id(column.column)));
  const inserted = b.add<WrittenRow | undefined>({
    action: 'insert',
    target,
    takes,
    writes: true,
    needsTransaction: true,
    statement: (results) => {
      const { names, given } = parts(results);
      return keyGiven(results)
        ? sql`insert into ${plan.table} (${names}) values (${given})`
        : sql`insert into ${plan.table} (${names}) values (${given}) returning ${keys}`;
    },
    // 0A000: a DO INSTEAD rule that returns nothing; the row can only be found by a key the client gives.
    handles: (error, results) => !keyGiven(results) && sqlStateOf(error) === '0A000',
    finish: ({ rows: [returned], error }, { results }) => {
      if (keyGiven(results)) return undefined;
      if (error !== undefined) {
        const missing = plan.key.find((column) => column.generated === undefined) ?? plan.key[0];
        throw bodyInvalid(
          `the key property '${missing.property.name}' of ${rowOf(results).request.entityType.qualifiedName} is missing; entries of '${target}' are found by the key the client gives.`,
        );
      }
      if (returned === undefined) throw new TypeError(`SqlProvider: an INSERT into '${target}' returned no key.`);
      const key: Record<string, PrimitiveValue> = {};
      for (const column of plan.key)
        key[column.property.name] = engine.values.fromValue(column.type ?? 'Edm.String', returned[column.column]) as PrimitiveValue;
      return { entity: key };
    },
  });
  // By the key the client gave, else by the key the INSERT returned.
  const where = (results: StepResults): Sql => {
    const written = results.get(inserted);
    if (keyGiven(results) || written === undefined) return parts(results).keyMatch;
    return columnsMatch(
      plan.key.map((column) => column.column),
      keyTypes(plan),
      keyValues(plan, entityKey(plan.entitySet.entityType, written.entity)),
      engine,
    );
  };
  return b.add({
    action: 'read back',
    target,
    takes: [inserted.id, ...takes],
    writes: false,
    needsTransaction: true,
    statement: (results) => reader.statement(where(results)),
    finish: ({ rows: [read] }, { scope, seen }) => {
      if (read === undefined)
        throw new TypeError(`SqlProvider: the row inserted into '${target}' cannot be read back by its key (a rule of its table writes it elsewhere).`);
      return stored(plan, reader.decode(read), seen, scope);
    },
  });
}

/** A row written into `plan`'s table, as the write answers it: noted as seen, and its required join-table links to be counted before COMMIT. */
function stored(plan: SetPlan, row: DecodedRow, seen: (row: DecodedRow) => void, scope: WriteScope): DecodedRow {
  seen(row);
  scope.required.touch(plan.entitySet, entityKey(plan.entitySet.entityType, row.entity));
  return row;
}

/**
 * The INSERT of one row the way the set's table takes it (SqlInsertMode), its result the row as
 * stored; 409 ENTITY_EXISTS when its key is taken, without an error in the transaction.
 */
export function planInsertRow(b: PlanBuilder, plan: SetPlan, takes: readonly number[], rowOf: (results: StepResults) => NewRow): StepRef<DecodedRow> {
  const { engine } = b;
  const needsTransaction = hasRequiredJoinEnd(b.compiled, plan.entitySet);
  if (plan.insert === 'readBack') return planInsertByRules(b, plan, takes, rowOf);
  const statement = (results: StepResults, returned: Sql): Sql => {
    const { columns } = rowOf(results);
    const { names, given, keyGiven, keyMatch } = insertParts(plan, columns);
    if (plan.insert === 'onConflict') {
      const conflict = sql.join(plan.key.map((column) => sql.id(column.column)));
      return columns.size === 0
        ? engine.writes.insertDefaults(plan.table, conflict, returned)
        : sql`insert into ${plan.table} (${names}) values (${given}) on conflict (${conflict}) do nothing ${returned}`;
    }
    // No ON CONFLICT here (a view, a key no unique index backs, rules): the key is checked in the
    // statement itself; a row inserted meanwhile by another transaction is still a unique violation (409).
    if (keyGiven) return sql`insert into ${plan.table} (${names}) select ${given} where not exists (select 1 from ${plan.table} where ${keyMatch}) ${returned}`;
    return columns.size === 0
      ? sql`insert into ${plan.table} default values ${returned}`
      : sql`insert into ${plan.table} (${names}) values (${given}) ${returned}`;
  };
  return planReturning(b, plan, {
    action: 'insert',
    takes,
    needsTransaction,
    statement,
    finish: (row, { scope, results, seen }) => {
      if (row === undefined) {
        const { request, values } = rowOf(results);
        throw entityExists(request, values);
      }
      return stored(plan, row, seen, scope);
    },
  });
}
