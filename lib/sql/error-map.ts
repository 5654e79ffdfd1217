/**
 * Database errors as OData errors. What a client caused (a taken key, a dangling or missing link, a
 * value its column refuses, a privilege the database role lacks, a filter that divides by zero)
 * becomes its 4xx by the SQLSTATE table (refusals.ts); a busy database (no free connection, a
 * statement timeout) a 503 with `Retry-After`, an unreachable one (as the engine's `errors` tell)
 * 503 DATABASE_UNAVAILABLE. Messages name entity sets, properties and navigation
 * properties, never SQL, table or constraint names or the values a driver quotes in its `message`
 * or `detail`: those are only read here to find the property, and the original error stays the
 * `cause`, which only the logger sees. Anything unrecognised passes on as itself (500, logged).
 */
import type { EdmEntitySet } from '../edm/model';
import { ODataError, isODataError } from '../errors';
import { printExpression } from '../uri/expr';
import type { ExprNode } from '../uri/expr/ast';
import { caughtProperty, isInstanceOf } from '../util';
import { databaseUnavailableError } from './connection-failure';
import type { SqlErrors, ValueComplaint } from './engine';
import { SqlAcquireTimeoutError, SqlBusyTimeoutError, sqlStateOf } from './errors';
import type { ColumnPlan, CompiledMapping, SetPlan } from './mapping/compiled';
import { refusalOf, type RefusalFacts, type SqlOperation } from './refusals';

/** Where an error happened. */
export interface ErrorScene {
  readonly operation: SqlOperation;
  readonly compiled: CompiledMapping;
  /** The entity set the request writes (or whose link it changes): errors that name no table are about it. */
  readonly entitySet?: EdmEntitySet;
  /** The values the request writes, to tell which property a value the database quotes belongs to. */
  readonly values?: Readonly<Record<string, unknown>>;
  /** The `$filter` of a read, for its messages. */
  readonly filter?: ExprNode;
  /** The provider's statement timeout, for the 503's message. */
  readonly statementTimeoutMs?: number;
  /** `Retry-After` of a 503, in seconds. */
  readonly retryAfterSeconds: number;
  /** What the engine's errors mean. */
  readonly errors: SqlErrors;
}

/** The fields of a driver's error the error map reads (PostgreSQL's drivers give them; SQLite's adapter gives table and column). */
type DriverField = 'table' | 'column' | 'schema' | 'message' | 'dataType';

/** A driver error's string field, when it has one. */
export function driverField(error: unknown, name: DriverField): string | undefined {
  const value = caughtProperty(error, name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The set whose table the error names. */
function planOf(error: unknown, compiled: CompiledMapping): SetPlan | undefined {
  const table = driverField(error, 'table');
  const schema = driverField(error, 'schema');
  if (table === undefined) return undefined;
  let found: SetPlan | undefined;
  for (const plan of compiled.sets.values()) {
    if (plan.tableName.table !== table) continue;
    if (plan.tableName.schema === undefined || plan.tableName.schema === schema) found ??= plan;
  }
  return found;
}

/** The values of the integer types PostgreSQL says a written value is out of the range of. */
const INTEGER_RANGES: Readonly<Record<string, readonly [bigint, bigint]>> = {
  smallint: [-32768n, 32767n],
  integer: [-2147483648n, 2147483647n],
};

/** Is `value` a whole number outside the range of the integer type `type`? */
function beyondRange(value: unknown, type: string | undefined): boolean {
  const range = type === undefined ? undefined : INTEGER_RANGES[type];
  if (range === undefined || !((typeof value === 'number' && Number.isInteger(value)) || (typeof value === 'string' && /^-?\d+$/.test(value)))) return false;
  const whole = BigInt(value);
  return whole < range[0] || whole > range[1];
}

/** A stored type's bare name: `public."My Mood"` -> `my mood`, `character varying(20)` -> `character varying`. */
function bareTypeName(text: string): string {
  const last =
    text
      .replace(/\(.*\)/, '')
      .trim()
      .split('.')
      .pop() ?? text;
  return last.replace(/^"|"$/g, '').toLowerCase();
}

/** Does a column store values of the type the complaint names? Only converted columns (the mapping's `columnTypes`) can refuse a value the service checked. */
function storesType(column: ColumnPlan, complaint: ValueComplaint): boolean {
  const stored = column.storedType;
  if (stored === undefined) return false;
  const array = stored.trim().endsWith(']');
  if (complaint.kind === 'array') return array;
  const name = bareTypeName(stored);
  if (complaint.kind === 'range') return !array && name.endsWith('range');
  if (complaint.type === undefined || array) return false;
  const type = bareTypeName(complaint.type);
  return name === type || (type === 'json' && name === 'jsonb');
}

/** The column of `plan` holding the value the complaint is about, when exactly one can be. */
function columnOf(plan: SetPlan, complaint: ValueComplaint, values: Readonly<Record<string, unknown>> | undefined): ColumnPlan | undefined {
  if (complaint.kind === 'narrower') {
    // The database names neither column nor value: the one written value the narrower type cannot hold.
    const beyond = plan.columns.filter((column) => column.path.properties.length === 1 && beyondRange(values?.[column.path.path], complaint.type));
    return beyond.length === 1 ? beyond[0] : undefined;
  }
  const candidates = plan.columns.filter((column) => storesType(column, complaint));
  if (candidates.length <= 1 || complaint.value === undefined || values === undefined) return candidates.length === 1 ? candidates[0] : undefined;
  // Several columns of the type: the one whose written value the database quotes.
  const quoted = complaint.value;
  const matching = candidates.filter((column) => {
    const value = column.path.properties.length === 1 ? values[column.path.path] : undefined;
    return (typeof value === 'string' || typeof value === 'number') && String(value) === quoted;
  });
  return matching.length === 1 ? matching[0] : undefined;
}

/** What an error is about, in the model's terms (see RefusalFacts), and the property to name as its target. */
function describe(error: unknown, scene: ErrorScene): { facts: Omit<RefusalFacts, 'filter' | 'timeout' | 'operation'>; target: string | undefined } {
  const { compiled } = scene;
  const named = planOf(error, compiled);
  const plan = named ?? (scene.entitySet === undefined ? undefined : compiled.sets.get(scene.entitySet));
  const entitySet = plan?.entitySet.name ?? 'its entity set';
  const complaint = scene.errors.valueComplaint(error);
  const problem = complaint?.problem ?? '';
  const property = (column: ColumnPlan): ReturnType<typeof describe> => ({
    facts: { subject: `'${column.path.path}' of '${entitySet}'`, isLink: false, problem, entitySet },
    target: column.path.path,
  });
  const general = { facts: { subject: plan === undefined ? 'a value' : `a value of '${entitySet}'`, isLink: false, problem, entitySet }, target: undefined };
  if (plan === undefined) return general;
  const column = driverField(error, 'column');
  if (named !== undefined && column !== undefined) {
    const found = plan.columns.find((candidate) => candidate.column === column);
    if (found !== undefined) return property(found);
    for (const navigation of plan.entitySet.entityType.navigationProperties) {
      const link = compiled.link(plan.entitySet, navigation);
      if (link.holder === 'source' && link.sourceColumns.includes(column))
        return { facts: { subject: `the link '${navigation.name}' of '${entitySet}'`, isLink: true, problem, entitySet }, target: navigation.name };
    }
  }
  const byType = complaint === undefined ? undefined : columnOf(plan, complaint, scene.values);
  if (byType !== undefined) return property(byType);
  return named !== undefined && column === undefined ? { ...general, facts: { ...general.facts, subject: `an entry of '${entitySet}'` } } : general;
}

/** The OData error of a database error (see the module comment); anything else is returned as it is. */
export function toODataError(error: unknown, scene: ErrorScene): unknown {
  if (isODataError(error)) return error;
  if (isInstanceOf(error, SqlAcquireTimeoutError)) {
    const seconds = caughtProperty(error, 'retryAfterSeconds');
    return ODataError.fromCode(
      'SERVICE_UNAVAILABLE',
      { detail: isInstanceOf(error, SqlBusyTimeoutError) ? 'the database is locked by another connection (busy)' : 'no database connection is free' },
      { headers: { 'retry-after': String(typeof seconds === 'number' ? seconds : scene.retryAfterSeconds) }, cause: error },
    );
  }
  if (scene.errors.isConnectionFailure(error)) return databaseUnavailableError(error, scene.retryAfterSeconds);
  const state = sqlStateOf(error);
  const refusal = state === undefined ? undefined : refusalOf(state, scene.operation);
  if (refusal === undefined) return error;
  const { facts, target } = describe(error, scene);
  const params = refusal.params({
    ...facts,
    filter: scene.filter === undefined ? '' : printExpression(scene.filter),
    timeout: scene.statementTimeoutMs ?? 'its',
    operation: scene.operation,
  });
  const resolvedTarget = refusal.target ?? target;
  return ODataError.fromCode(refusal.code, params, {
    cause: error,
    ...(resolvedTarget === undefined ? {} : { target: resolvedTarget }),
    ...(refusal.retryAfter === true ? { headers: { 'retry-after': String(scene.retryAfterSeconds) } } : {}),
  });
}
