/**
 * Database errors as OData errors. What a client caused (a taken key, a dangling or missing link, a
 * value its column refuses, a filter that divides by zero) becomes its 4xx; a busy database (no
 * free connection, a statement timeout) a 503 with `Retry-After`, an unreachable one (see
 * connection-failure.ts) 503 DATABASE_UNAVAILABLE. Messages name entity sets,
 * properties and navigation properties, never SQL, table or constraint names or the values a
 * driver quotes in its `detail`: the original error stays the `cause`, which only the logger sees.
 * Anything unrecognised passes on as itself (the service answers 500 and logs it).
 */
import type { EdmEntitySet } from '../edm/model';
import { ODataError, isODataError } from '../errors';
import { printExpression } from '../uri/expr';
import type { ExprNode } from '../uri/expr/ast';
import { caughtProperty, isInstanceOf } from '../util';
import { databaseUnavailableError, isConnectionFailure } from './connection-failure';
import { SQLSTATE, SqlAcquireTimeoutError, sqlStateOf } from './errors';
import type { CompiledMapping, SetPlan } from './mapping/compiled';

/** The kind of provider call a database error happened in: it decides what a constraint means. */
export type SqlOperation = 'read' | 'create' | 'update' | 'delete' | 'link';

/** Where an error happened. */
export interface ErrorScene {
  readonly operation: SqlOperation;
  readonly compiled: CompiledMapping;
  /** The `$filter` of a read, for its messages. */
  readonly filter?: ExprNode;
  /** The provider's statement timeout, for the 503's message. */
  readonly statementTimeoutMs?: number;
  /** `Retry-After` of a 503, in seconds. */
  readonly retryAfterSeconds: number;
}

/** A driver error's string field (`table`, `column`), when it has one. */
function field(error: unknown, name: 'table' | 'column' | 'schema'): string | undefined {
  const value = caughtProperty(error, name);
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The set whose table the error names. */
function planOf(error: unknown, compiled: CompiledMapping): SetPlan | undefined {
  const table = field(error, 'table');
  const schema = field(error, 'schema');
  if (table === undefined) return undefined;
  let found: SetPlan | undefined;
  for (const plan of compiled.sets.values()) {
    if (plan.tableName.table !== table) continue;
    if (plan.tableName.schema === undefined || plan.tableName.schema === schema) found ??= plan;
  }
  return found;
}

/** What a column of a set's table holds, in the model's terms: `'Name' of 'Products'`, `the link 'Category' of 'Products'`. */
function describeColumn(error: unknown, compiled: CompiledMapping): { readonly what: string; readonly entitySet: EdmEntitySet } | undefined {
  const plan = planOf(error, compiled);
  const column = field(error, 'column');
  if (plan === undefined) return undefined;
  const { entitySet } = plan;
  if (column === undefined) return { what: `an entry of '${entitySet.name}'`, entitySet };
  const property = plan.columns.find((candidate) => candidate.column === column);
  if (property !== undefined) return { what: `'${property.path.path}' of '${entitySet.name}'`, entitySet };
  for (const navigation of entitySet.entityType.navigationProperties) {
    const link = compiled.link(entitySet, navigation);
    if (link.holder === 'source' && link.sourceColumns.includes(column)) return { what: `the link '${navigation.name}' of '${entitySet.name}'`, entitySet };
  }
  return { what: `an entry of '${entitySet.name}'`, entitySet };
}

function bodyInvalid(detail: string, cause: unknown): ODataError {
  return ODataError.fromCode('BODY_INVALID', { detail }, { cause });
}

/** The OData error of a database error (see the module comment); anything else is returned as it is. */
export function toODataError(error: unknown, scene: ErrorScene): unknown {
  if (isODataError(error)) return error;
  const retryAfter = { 'retry-after': String(scene.retryAfterSeconds) };
  if (isInstanceOf(error, SqlAcquireTimeoutError)) {
    const seconds = caughtProperty(error, 'retryAfterSeconds');
    return ODataError.fromCode(
      'SERVICE_UNAVAILABLE',
      { detail: 'no database connection is free' },
      { headers: { 'retry-after': String(typeof seconds === 'number' ? seconds : scene.retryAfterSeconds) }, cause: error },
    );
  }
  if (isConnectionFailure(error)) return databaseUnavailableError(error, scene.retryAfterSeconds);
  const state = sqlStateOf(error);
  if (state === undefined) return error;
  const { compiled, operation } = scene;
  const described = describeColumn(error, compiled);
  const subject = described?.what ?? 'a value';
  switch (state) {
    case SQLSTATE.queryCanceled:
      return ODataError.fromCode('STATEMENT_TIMEOUT', { timeout: scene.statementTimeoutMs ?? 'its' }, { headers: retryAfter, cause: error });
    case SQLSTATE.divisionByZero:
      if (operation !== 'read') break;
      return ODataError.fromCode(
        'FILTER_DIVISION_BY_ZERO',
        { expression: scene.filter === undefined ? '' : printExpression(scene.filter) },
        { target: '$filter', cause: error },
      );
    case SQLSTATE.numericValueOutOfRange:
      if (operation === 'read') {
        const expression = scene.filter === undefined ? '' : printExpression(scene.filter);
        return ODataError.fromCode(
          'BAD_REQUEST',
          { detail: `A value computed while evaluating '${expression}' is out of the range of its type.` },
          { target: '$filter', cause: error },
        );
      }
      return bodyInvalid(`${subject} is out of the range its column can hold.`, error);
    case SQLSTATE.stringTooLong:
      return bodyInvalid(`${subject} is longer than its column can hold.`, error);
    case SQLSTATE.notNullViolation:
      return bodyInvalid(subject.startsWith('the link') ? `${subject} is required.` : `${subject} needs a value.`, error);
    case SQLSTATE.checkViolation:
      return bodyInvalid(`${subject} breaks a constraint of its table.`, error);
    case SQLSTATE.uniqueViolation:
      return ODataError.fromCode(
        'CONSTRAINT_VIOLATION',
        { detail: `The write would repeat a value that must be unique in '${described?.entitySet.name ?? 'its entity set'}'.` },
        { cause: error },
      );
    case SQLSTATE.foreignKeyViolation:
      if (operation === 'delete') {
        return ODataError.fromCode(
          'CONSTRAINT_VIOLATION',
          { detail: `Entries that require a link to it still exist; delete them or link them elsewhere first.` },
          { cause: error },
        );
      }
      if (operation === 'create' || operation === 'update') return bodyInvalid('an entry it links to does not exist.', error);
      return ODataError.fromCode('CONSTRAINT_VIOLATION', { detail: 'The write would leave a link to an entry that does not exist.' }, { cause: error });
    default:
      break;
  }
  return error;
}
