/**
 * A write as a plan of statements, built before anything runs: the steps in order, each with what
 * it is for, the statement it runs (built from the keys earlier steps wrote when it takes any: a
 * generated key, an inline parent's key), whether it writes, and what it makes of its result.
 * execute.ts runs a plan; SqlProvider reads off the plan whether it may run without BEGIN and
 * COMMIT (`writesInOneStatement`). No statement runs here. A step may run its statement only
 * when the results so far ask for it (`runsWhen`): the read that tells 404, 403 and 412 apart
 * after a keyed write that changed no row or a lock that found none, the key check before an
 * INSERT into a table with rules.
 *
 * One kind of step runs more statements than its own, as many as the rows it reads: a delete's
 * cascade over join-table partners (`expands`). Its statements are known in advance only as
 * templates, per partner: the partner's own join partners read, then its row deleted. They cannot
 * be a fixed set of set-based statements planned here: a partner's partners are released the
 * same way, to any depth the data has (a schema may cascade through a chain of join tables, or
 * around a cycle of them), and each partner's key must be read before its join rows cascade away
 * with it. So describePlan shows such a step's templates, compiled for a partner the caller
 * gives, and the step needs a transaction: it is never part of a plan that runs alone.
 */
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import type { EdmEntityType } from '../../edm/model';
import type { PrimitiveValue } from '../../edm/primitives';
import type { Entity } from '../../provider/types';
import { entityKey } from '../../provider/keys';
import type { EntityKey } from '../../uri/types';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import type { CompiledMapping } from '../mapping/compiled';
import type { DecodedRow } from '../read/projection';
import type { WriteScope } from './links';

/** What a step does. */
export type StepAction =
  'check key' | 'insert' | 'read back' | 'update' | 'delete' | 'decide' | 'link' | 'unlink' | 'write media' | 'lock' | 'release join partners';

/** What a statement gave: its rows, and how many rows it changed. */
export interface StepOutcome {
  readonly rows: readonly Record<string, unknown>[];
  readonly changed: number;
  /** The database error of a statement the step's `handles` took as an outcome. */
  readonly error?: unknown;
}

/**
 * `statement`, an UPDATE or DELETE whose count of changed rows decides the answer, ended so that
 * `changedRows` counts on every engine: SQLite counts no row an INSTEAD OF trigger of a view
 * changes, so there the statement returns a row per row it matched (SqlWriteForms.countedRows).
 */
export function counted(context: PlanContext, statement: Sql): Sql {
  const { countedRows } = context.engine.writes;
  return countedRows === undefined ? statement : sql`${statement} ${countedRows}`;
}

/** The rows a `counted` statement changed: the driver's count, or the rows the statement returned. */
export function changedRows(outcome: StepOutcome): number {
  return Math.max(outcome.changed, outcome.rows.length);
}

/** A step's handle: later steps name it to take the key of the row it wrote. */
export interface StepRef<T> {
  readonly id: number;
  /** Only carries the result type. */
  readonly result?: T;
}

/** The results of the steps run so far (a run's own: a retried transaction starts empty). */
export class StepResults {
  private readonly values = new Map<number, unknown>();

  set(id: number, value: unknown): void {
    this.values.set(id, value);
  }

  get<T>(ref: StepRef<T>): T {
    if (!this.values.has(ref.id)) throw new TypeError(`A write plan's step ${ref.id} is read before it ran.`);
    return this.values.get(ref.id) as T;
  }
}

/** A row a step wrote, as far as the step knows it (at least its key). */
export interface WrittenRow {
  readonly entity: Entity;
}

/** Where a step takes a key from: fixed when the plan is built, or the row an earlier step wrote. */
export interface KeyFrom {
  /** The ids of the steps it reads. */
  readonly takes: readonly number[];
  key(results: StepResults): EntityKey;
}

/** A key known before anything runs. */
export function fixedKey(key: EntityKey): KeyFrom {
  return { takes: [], key: () => key };
}

/** The key of the row step `ref` wrote (of `entityType`). */
export function keyOf(ref: StepRef<WrittenRow>, entityType: EdmEntityType): KeyFrom {
  return { takes: [ref.id], key: (results) => entityKey(entityType, results.get(ref).entity) };
}

/** The key values of a KeyFrom in an order of properties (a foreign key's). */
export function keyParts(from: KeyFrom, results: StepResults, names: readonly string[]): PrimitiveValue[] {
  const key = from.key(results);
  return names.map((name) => key[name]);
}

/**
 * The statements a step runs per row its own statement read, decided only then (how many rows
 * is data), as templates.
 */
interface Expansion {
  /** What a row read stands for and what is run for it, in words. */
  readonly per: string;
  /** The statements run for the row `row` read (at least its key), in order. */
  statements(row: Entity): readonly Sql[];
}

/** One statement of a plan. */
export interface PlanStep<T = unknown> {
  readonly id: number;
  readonly action: StepAction;
  /** The entity set or navigation property it acts on: `Products`, `Products/Category`. */
  readonly target: string;
  /** The steps whose written keys its statement takes. */
  readonly takes: readonly number[];
  /** True when the statement changes data. */
  readonly writes: boolean;
  /**
   * True when the step needs its plan to run in a transaction even as the plan's only write: it
   * notes required join-table links (counted before COMMIT), locks rows for later steps, or runs
   * statements it decides from what it reads (a cascade over join-table partners).
   */
  readonly needsTransaction: boolean;
  /** Its statement from the results so far; undefined when there is nothing to run (a read back of no row). */
  statement(results: StepResults): Sql | undefined;
  /** When its statement runs (see `onlyWhen`), from the results so far; absent: always. Its `finish` runs either way. */
  readonly runsWhen?: (results: StepResults) => boolean;
  /** What `runsWhen` asks, in words, for `describePlan`: `the write changed no row`. */
  readonly onlyWhen?: string;
  /** What the step makes of its outcome (an answer, or an OData error it throws). */
  finish(outcome: StepOutcome, run: StepRun): T | Promise<T>;
  /** True for a database error of its statement that is an outcome for `finish` (a foreign key that names no row), given the results so far; others are rethrown. */
  readonly handles?: (error: unknown, results: StepResults) => boolean;
  /** The statements it runs per row read, when it runs more than its own. */
  readonly expands?: Expansion;
}

/** What a step's `finish` may use: the open transaction's scope and the results so far. */
export interface StepRun {
  readonly scope: WriteScope;
  readonly results: StepResults;
  /** Every row written, for the provider's memory of types and media types. */
  readonly seen: (row: DecodedRow) => void;
}

/** A write's plan: its steps in order, and its answer from their results. */
export interface WritePlan<T> {
  readonly steps: readonly PlanStep[];
  readonly answer: (results: StepResults) => T;
}

/** What planning needs: the mapping and the engine (no connection). */
export interface PlanContext {
  readonly compiled: CompiledMapping;
  readonly engine: SqlEngine;
  /** True when statements run as a database role a row-level security policy may restrict (SqlProvider's `session`). */
  readonly rowSecurity: boolean;
}

/** Adds steps in the order they will run. */
export class PlanBuilder implements PlanContext {
  private readonly steps: PlanStep[] = [];

  constructor(
    readonly compiled: CompiledMapping,
    readonly engine: SqlEngine,
    readonly rowSecurity = false,
  ) {}

  /** Append a step; its handle. */
  add<T>(step: Omit<PlanStep<T>, 'id' | 'needsTransaction'> & { readonly needsTransaction?: boolean }): StepRef<T> {
    const id = this.steps.length;
    this.steps.push({ ...step, id, needsTransaction: step.needsTransaction ?? false });
    return { id };
  }

  /** The plan so far, answering `answer`. */
  plan<T>(answer: (results: StepResults) => T): WritePlan<T> {
    return { steps: [...this.steps], answer };
  }
}

/**
 * True when the plan writes with one statement: exactly one step writes, none needs a
 * transaction, and any other step reads back what that one wrote (SQLite, for a set whose row
 * its RETURNING list cannot give) or decides why it changed no row (404, 403 or 412). Such a plan may run without BEGIN and COMMIT, since the
 * engine makes a single statement atomic; SqlProvider decides whether it does (session.ts's
 * statements, a statement timeout or a `beforeCommit` hook need a transaction around it).
 */
export function writesInOneStatement(plan: WritePlan<unknown>): boolean {
  const writes = plan.steps.filter((step) => step.writes);
  if (writes.length !== 1 || writes[0] !== plan.steps[0]) return false;
  // The steps after the write that read only what it (or such a step) gave.
  const after = new Set([writes[0].id]);
  return plan.steps.every((step) => {
    if (step.needsTransaction) return false;
    if (step.writes) return true;
    const follows = (step.action === 'read back' || step.action === 'decide') && step.takes.length > 0 && step.takes.every((id) => after.has(id));
    if (follows) after.add(step.id);
    return follows;
  });
}

/** A step as data: what it is for, what it takes, its SQL text and parameters (from `given`'s written rows). */
export interface StepDescription {
  readonly action: StepAction;
  readonly target: string;
  readonly takes: readonly number[];
  readonly writes: boolean;
  readonly sql: string | undefined;
  readonly parameters: readonly unknown[] | undefined;
  /** When the statement runs, if not always (PlanStep.onlyWhen). */
  readonly onlyWhen: string | undefined;
  /** For a step that runs statements per row read: what a row stands for, and those statements (compiled for the row `given` for the step, else absent). */
  readonly expands:
    { readonly per: string; readonly statements: readonly { readonly sql: string; readonly parameters: readonly unknown[] }[] | undefined } | undefined;
}

/**
 * The steps of `plan` compiled by `kysely`'s engine: a step that takes written keys is compiled with
 * the rows `given` says its steps wrote (a spec gives, say, the generated key), a step that
 * expands per row read with the row `given` for its own id.
 */
export function describePlan(plan: WritePlan<unknown>, kysely: Kysely<never>, given: ReadonlyMap<number, Entity> = new Map()): StepDescription[] {
  const results = new StepResults();
  for (const [id, entity] of given) results.set(id, { entity });
  return plan.steps.map((step) => {
    const compiled: CompiledQuery | undefined = step.takes.every((id) => given.has(id)) ? step.statement(results)?.compile(kysely) : undefined;
    return {
      action: step.action,
      target: step.target,
      takes: step.takes,
      writes: step.writes,
      sql: compiled?.sql,
      parameters: compiled?.parameters,
      onlyWhen: step.onlyWhen,
      expands: step.expands === undefined ? undefined : describeExpansion(step.expands, kysely, given.get(step.id)),
    };
  });
}

function describeExpansion(expansion: Expansion, kysely: Kysely<never>, row: Entity | undefined): StepDescription['expands'] {
  const statements = row === undefined ? undefined : expansion.statements(row).map((statement) => statement.compile(kysely));
  return { per: expansion.per, statements: statements?.map(({ sql: text, parameters }) => ({ sql: text, parameters })) };
}
