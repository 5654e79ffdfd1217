/**
 * The SQLSTATE table: which database errors a client caused, and what it is told. One row per
 * (SQLSTATE, operation): the OData error code (its status comes from the catalogue) and the
 * message's parameters, built from facts in the model's terms (entity sets, properties, links)
 * that error-map.ts reads off the driver's error. Nothing here reads a driver error itself, so no
 * SQL, table, constraint or quoted value can reach a message. Later refusals reuse these rows.
 */
import type { ErrorCode } from '../errors';
import { SQLSTATE } from './errors';

/** The kind of provider call a database error happened in: it decides what a constraint means. */
export type SqlOperation = 'read' | 'create' | 'update' | 'delete' | 'link';

/** What a message may say about a database error, in the model's terms. */
export interface RefusalFacts {
  /** What the error is about: `'Name' of 'Products'`, `the link 'Category' of 'Products'`, `a value of 'Products'`. */
  readonly subject: string;
  /** True when `subject` is a navigation property's link. */
  readonly isLink: boolean;
  /** How the value is wrong, when the database says (`is not one of the values its column allows`), else ''. */
  readonly problem: string;
  /** The entity set written or read, or `its entity set`. */
  readonly entitySet: string;
  /** The `$filter` of a read, printed. */
  readonly filter: string;
  /** The provider's statement timeout, for STATEMENT_TIMEOUT. */
  readonly timeout: number | string;
  readonly operation: SqlOperation;
}

/** What a client is told for one (SQLSTATE, operation). */
export interface Refusal {
  readonly code: ErrorCode;
  readonly params: (facts: RefusalFacts) => Readonly<Record<string, string | number>>;
  /** `$filter` for errors of the filter; else the property (when known) is the error's target. */
  readonly target?: '$filter';
  /** A 503 that says when to come back (`Retry-After`). */
  readonly retryAfter?: true;
}

/** SQLSTATEs of a value the database cannot read as its column's type (class 22: data exception). */
const INVALID_TEXT = [
  '22P02', // invalid text representation: enum, array, range, json, inet, uuid, numbers...
  '22P03', // invalid binary representation
  '22007', // invalid datetime format
  '22008', // datetime field overflow
  '22009', // invalid time zone displacement value
  '22015', // interval field overflow
  '22021', // character not in repertoire (a NUL character in text)
  '22023', // invalid parameter value
  '22025', // invalid escape sequence
  '22030', // duplicate JSON object key value
  '22032', // invalid JSON text
  '22P05', // untranslatable character
];

const VALUE_WRITES: readonly SqlOperation[] = ['create', 'update'];
const NOT_WRITTEN: readonly SqlOperation[] = ['read', 'delete', 'link'];
const EVERY: readonly SqlOperation[] = ['read', 'create', 'update', 'delete', 'link'];

const invalid = (detail: (facts: RefusalFacts) => string): Refusal => ({ code: 'BODY_INVALID', params: (facts) => ({ detail: detail(facts) }) });
const conflict = (detail: (facts: RefusalFacts) => string): Refusal => ({ code: 'CONSTRAINT_VIOLATION', params: (facts) => ({ detail: detail(facts) }) });

/** A value of a key, filter or link the database cannot compare with its column (a write stores none). */
const uncomparable: Refusal = { code: 'BAD_REQUEST', params: (facts) => ({ detail: `A value in the request cannot be compared with ${facts.subject}.` }) };

/** What each operation asks of the database, for the 403 of a privilege it lacks. */
const ATTEMPTS: Readonly<Record<SqlOperation, string>> = {
  read: 'read',
  create: 'create entries in',
  update: 'change entries of',
  delete: 'delete entries of',
  link: 'change the links of',
};

/** The rows: SQLSTATEs, the operations they apply to, and the refusal. A pair not listed passes on (500, logged). */
const ROWS: readonly (readonly [readonly string[], readonly SqlOperation[], Refusal])[] = [
  [[SQLSTATE.queryCanceled], EVERY, { code: 'STATEMENT_TIMEOUT', params: (facts) => ({ timeout: facts.timeout }), retryAfter: true }],
  [[SQLSTATE.divisionByZero], ['read'], { code: 'FILTER_DIVISION_BY_ZERO', params: (facts) => ({ expression: facts.filter }), target: '$filter' }],
  [
    [SQLSTATE.numericValueOutOfRange],
    ['read'],
    {
      code: 'BAD_REQUEST',
      params: (facts) => ({ detail: `A value computed while evaluating '${facts.filter}' is out of the range of its type.` }),
      target: '$filter',
    },
  ],
  [[SQLSTATE.numericValueOutOfRange], VALUE_WRITES, invalid((facts) => `${facts.subject} is out of the range its column can hold.`)],
  [INVALID_TEXT, VALUE_WRITES, invalid((facts) => `${facts.subject} ${facts.problem || 'is not a value its column accepts'}.`)],
  [[...INVALID_TEXT, SQLSTATE.stringTooLong], NOT_WRITTEN, uncomparable],
  [[SQLSTATE.numericValueOutOfRange], ['delete', 'link'], uncomparable],
  [[SQLSTATE.stringTooLong], VALUE_WRITES, invalid((facts) => `${facts.subject} is longer than its column can hold.`)],
  [
    [SQLSTATE.notNullViolation],
    [...VALUE_WRITES, 'link'],
    invalid((facts) => (facts.isLink ? `${facts.subject} is required.` : `${facts.subject} needs a value.`)),
  ],
  [[SQLSTATE.checkViolation], [...VALUE_WRITES, 'link'], invalid((facts) => `${facts.subject} ${facts.problem || 'breaks a constraint of its table'}.`)],
  [
    [SQLSTATE.notNullViolation, SQLSTATE.checkViolation],
    ['delete'],
    conflict(() => 'Deleting the entry would break a constraint of the entries related to it.'),
  ],
  [
    [SQLSTATE.uniqueViolation],
    ['create', 'update', 'delete', 'link'],
    conflict((facts) => `The write would repeat a value that must be unique in '${facts.entitySet}'.`),
  ],
  [
    [SQLSTATE.exclusionViolation],
    ['create', 'update', 'delete', 'link'],
    conflict((facts) => `The write would conflict with another entry of '${facts.entitySet}'.`),
  ],
  [[SQLSTATE.foreignKeyViolation], VALUE_WRITES, invalid(() => 'an entry it links to does not exist.')],
  [[SQLSTATE.foreignKeyViolation], ['delete'], conflict(() => 'Entries that require a link to it still exist; delete them or link them elsewhere first.')],
  [[SQLSTATE.foreignKeyViolation], ['link'], conflict(() => 'The write would leave a link to an entry that does not exist.')],
  [
    [SQLSTATE.insufficientPrivilege],
    EVERY,
    {
      code: 'FORBIDDEN',
      params: (facts) => ({ detail: `The database does not allow this user to ${ATTEMPTS[facts.operation]} '${facts.entitySet}'.` }),
    },
  ],
];

const TABLE: ReadonlyMap<string, Refusal> = (() => {
  const table = new Map<string, Refusal>();
  for (const [states, operations, refusal] of ROWS) {
    for (const state of states) {
      for (const operation of operations) {
        const key = `${state} ${operation}`;
        if (table.has(key)) throw new TypeError(`refusals: ${key} is listed twice`);
        table.set(key, refusal);
      }
    }
  }
  return table;
})();

/** The refusal of a database error with `state` in `operation`, or undefined when the client did not cause it. */
export function refusalOf(state: string, operation: SqlOperation): Refusal | undefined {
  return TABLE.get(`${state} ${operation}`);
}
