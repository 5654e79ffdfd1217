/**
 * Which errors mean "no database" (503 DATABASE_UNAVAILABLE with Retry-After, the driver's message
 * only in the cause) and which are something else; which leave a write's outcome unknown. The
 * errors are shaped as `pg`, pg-pool, Node and PGlite make them.
 */
import { compileMapping } from '../../lib/sql/mapping/compiled';
import { resolveMapping } from '../../lib/sql/mapping/resolve';
import { isReplyLost, SqlConnectionLostError } from '../../lib/sql/connection-failure';
import { toODataError } from '../../lib/sql/error-map';
import { SqlAcquireTimeoutError } from '../../lib/sql/errors';
import { POSTGRES_ERRORS } from '../../lib/sql/postgres/errors';
import { DEMO_MODEL } from '../helpers/demo';
import { HOSTILE_VALUES } from '../helpers/hostile-values';

const withCode = (message: string, code: string): Error => Object.assign(new Error(message), { code });
const aggregate = (code: string): AggregateError => new AggregateError([withCode('a', code), withCode('b', code)], '');

const UNAVAILABLE: readonly (readonly [string, unknown])[] = [
  ['ECONNREFUSED (a server that is down)', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
  ['ECONNREFUSED on every address tried (AggregateError)', aggregate('ECONNREFUSED')],
  ['ECONNRESET', withCode('read ECONNRESET', 'ECONNRESET')],
  ['EPIPE', withCode('write EPIPE', 'EPIPE')],
  ['ETIMEDOUT', withCode('connect ETIMEDOUT', 'ETIMEDOUT')],
  ["pg's 'Connection terminated unexpectedly'", new Error('Connection terminated unexpectedly')],
  ["pg's refusal on a broken client", new Error('Client has encountered a connection error and is not queryable')],
  ['pg-pool after end()', new Error('Cannot use a pool after calling end on the pool')],
  ['a closed PGlite', new Error('PGlite is closed')],
  ['SQLSTATE 08006 (connection failure)', withCode('connection failure', '08006')],
  ['SQLSTATE 08P01 (protocol violation)', withCode('protocol violation', '08P01')],
  ['SQLSTATE 57P01 (pg_terminate_backend, a fast shutdown)', withCode('terminating connection due to administrator command', '57P01')],
  ['SQLSTATE 57P02 (crash shutdown)', withCode('terminating connection because of crash of another server process', '57P02')],
  ['SQLSTATE 57P03 (starting up)', withCode('the database system is starting up', '57P03')],
  ['SQLSTATE 53300 (too many connections)', withCode('sorry, too many clients already', '53300')],
  ['a statement whose reply was lost', new SqlConnectionLostError(true, new Error('Connection terminated unexpectedly'))],
  ['a statement never sent', new SqlConnectionLostError(false, new Error('Client was closed and is not queryable'))],
];

const OTHERS: readonly (readonly [string, unknown])[] = [
  ['57014 (statement timeout)', withCode('canceling statement due to statement timeout', '57014')],
  ['40001 (serialization failure)', withCode('could not serialize access', '40001')],
  ['23505 (unique violation)', withCode('duplicate key', '23505')],
  ['a pool wait past its limit', new SqlAcquireTimeoutError(10, 1)],
  ['a plain Error', new Error('boom')],
  ['ENOTFOUND (a wrong host name: a configuration error)', withCode('getaddrinfo ENOTFOUND db', 'ENOTFOUND')],
  ...HOSTILE_VALUES.map(([label, make]) => [label, make()] as const),
];

const compiled = compileMapping(DEMO_MODEL, resolveMapping(DEMO_MODEL, {}));

describe("PostgreSQL's isConnectionFailure", () => {
  it.each(UNAVAILABLE)('%s: the database is unavailable, 503 DATABASE_UNAVAILABLE with Retry-After', (_, error) => {
    expect(POSTGRES_ERRORS.isConnectionFailure(error)).toBe(true);
    const mapped = toODataError(error, { operation: 'read', compiled, retryAfterSeconds: 7, errors: POSTGRES_ERRORS });
    expect(mapped).toMatchObject({
      status: 503,
      code: 'DATABASE_UNAVAILABLE',
      message: 'The database is unavailable; try again later.',
      headers: { 'retry-after': '7' },
    });
    expect((mapped as { cause: unknown }).cause).toBe(error);
  });

  it.each(OTHERS)('%s: something else', (_, error) => {
    expect(POSTGRES_ERRORS.isConnectionFailure(error)).toBe(false);
  });

  it('keeps the pool wait SERVICE_UNAVAILABLE and 57014 STATEMENT_TIMEOUT', () => {
    const scene = { operation: 'read', compiled, retryAfterSeconds: 2, statementTimeoutMs: 300, errors: POSTGRES_ERRORS } as const;
    expect(toODataError(new SqlAcquireTimeoutError(10, 3), scene)).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', headers: { 'retry-after': '3' } });
    expect(toODataError(withCode('canceling statement', '57014'), scene)).toMatchObject({
      status: 503,
      code: 'STATEMENT_TIMEOUT',
      headers: { 'retry-after': '2' },
    });
  });
});

describe('isReplyLost', () => {
  it('is true only for a statement the adapter sent and got no reply to', () => {
    expect(isReplyLost(new SqlConnectionLostError(true, undefined))).toBe(true);
    expect(isReplyLost(new SqlConnectionLostError(false, undefined))).toBe(false);
    expect(isReplyLost(new Error('Connection terminated unexpectedly'))).toBe(false);
    expect(isReplyLost(withCode('terminating connection', '57P01'))).toBe(false);
    for (const [, make] of HOSTILE_VALUES) expect(isReplyLost(make())).toBe(false);
  });
});
