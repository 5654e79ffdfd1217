/**
 * What PostgreSQL's errors mean beyond their SQLSTATE (the engine's `errors`): which errors say
 * the database is not there for us (a refused, reset or timed-out connection, one the server
 * closed for an administrator, a restart or a crash, no free connection slot, a closed PGlite
 * instance), and PostgreSQL's wording of a value a column could not read.
 */
import { describeCaught } from '../../util';
import { isConnectionLost } from '../connection-failure';
import type { SqlErrors, ValueComplaint } from '../engine';
import { driverField } from '../error-map';
import { sqlStateOf } from '../errors';

/** SQLSTATEs of a database that is not there for us, besides class 08 (connection exception). */
const UNAVAILABLE_STATES: ReadonlySet<string> = new Set([
  // admin_shutdown: pg_terminate_backend, a fast shutdown or restart.
  '57P01',
  // crash_shutdown: another server process crashed; every connection is reset.
  '57P02',
  // cannot_connect_now: the server is starting up or shutting down.
  '57P03',
  // too_many_connections: every connection slot is taken.
  '53300',
]);

/** Node's error codes of a connection refused, reset or timed out (on connect or under a statement). */
const UNAVAILABLE_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);

/**
 * The drivers' messages for a connection that is gone, where they give no code: `pg` when the
 * server closed the socket, or when a statement is sent on a client already broken or closed;
 * pg-pool after `end()`; PGlite after `close()`.
 */
const UNAVAILABLE_MESSAGES: ReadonlySet<string> = new Set([
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
  'Cannot use a pool after calling end on the pool',
  'PGlite is closed',
]);

/** True when `error` says the database cannot be reached or has dropped the connection: a lost statement, class 08, the states and messages above. */
function isPostgresConnectionFailure(error: unknown): boolean {
  if (isConnectionLost(error)) return true;
  const state = sqlStateOf(error);
  if (state !== undefined) return state.startsWith('08') || UNAVAILABLE_STATES.has(state);
  const described = describeCaught(error);
  if (matches(described.code, described.message)) return true;
  // A connect tried over IPv4 and IPv6 fails with an AggregateError of one error per address.
  return described.errors.some((each) => {
    const inner = describeCaught(each);
    return matches(inner.code, inner.message);
  });
}

function matches(code: string | undefined, message: string | undefined): boolean {
  return (code !== undefined && UNAVAILABLE_CODES.has(code)) || (message !== undefined && UNAVAILABLE_MESSAGES.has(message));
}

/** PostgreSQL's wording of an unreadable value, and how a client is told. */
const COMPLAINTS: readonly (readonly [RegExp, ValueComplaint['kind'], string])[] = [
  [/^invalid input value for enum ([^:]+)/, 'type', 'is not one of the values its column allows'],
  [/^malformed array literal/, 'array', "is not an array its column accepts (the form is '{1,2,3}')"],
  [/^malformed (?:multi)?range literal/, 'range', "is not a range its column accepts (the form is '[1,10)')"],
  [/^invalid input syntax for type (json)/, 'type', 'is not valid JSON'],
  [/^invalid input syntax for type (inet|cidr)/, 'type', 'is not an IP address or network its column accepts'],
  [/^invalid input syntax for type (macaddr8?)/, 'type', 'is not a MAC address'],
  [/^invalid input syntax for type ((?:timestamp|date|time)[\w ]*)/, 'type', 'is not a date or time its column accepts'],
  [/^date\/time field value out of range/, 'type', 'is not a date or time its column accepts'],
  [/^invalid input syntax for type ([\w ]+)/, 'type', 'is not a value its column accepts'],
  [/^value "[^"]*" is out of range for type ([\w ]+)/, 'type', 'is out of the range its column can hold'],
  [/^value for domain ([^ ]+) violates check constraint/, 'type', 'breaks a constraint of its type'],
  // A wider integer written to a narrower column (a smallint foreign key served with its integer key's type).
  [/^(smallint|integer) out of range$/, 'narrower', 'is out of the range its column can hold'],
];

/** The value complaint of PostgreSQL's message (both drivers pass it on), with the type the error's `dataType` field names when the message does not. */
function valueComplaint(error: unknown): ValueComplaint | undefined {
  const message = driverField(error, 'message');
  if (message === undefined) return undefined;
  for (const [pattern, kind, problem] of COMPLAINTS) {
    const match = pattern.exec(message);
    if (match === null) continue;
    const quoted = /: "(.*)"$/s.exec(message) ?? /^value "(.*)" is out of range/s.exec(message);
    return { type: match[1] ?? driverField(error, 'dataType'), kind, value: quoted?.[1], problem };
  }
  return undefined;
}

/** PostgreSQL's errors (pglite() and postgres() alike). */
export const POSTGRES_ERRORS: SqlErrors = Object.freeze<SqlErrors>({ isConnectionFailure: isPostgresConnectionFailure, valueComplaint });
