/**
 * The SQLite engine, its parts by role: the expression dialect (dialect.ts, over the functions of
 * functions.ts), the value codec (values.ts), read, write and token forms (statements.ts), DDL
 * (ddl.ts), errors (errors.ts) and the catalog reader (catalog.ts).
 */
import type { SqlEngine } from '../engine';
import { SQLITE_CATALOG } from './catalog';
import { SQLITE_DDL } from './ddl';
import { createSqliteExpressions } from './dialect';
import { SQLITE_ERRORS } from './errors';
import { SQLITE_READS, SQLITE_TOKENS, SQLITE_WRITES } from './statements';
import { SQLITE_VALUES } from './values';

/** The SQLite engine. */
export function createSqliteEngine(): SqlEngine {
  return Object.freeze<SqlEngine>({
    name: 'SQLite',
    expressions: createSqliteExpressions(),
    values: SQLITE_VALUES,
    reads: SQLITE_READS,
    writes: SQLITE_WRITES,
    tokens: SQLITE_TOKENS,
    ddl: SQLITE_DDL,
    // No statement timeout, no roles and no transaction-local settings: SqlProvider refuses `statementTimeoutMs` and `session`.
    transactions: { sessions: undefined },
    errors: SQLITE_ERRORS,
    catalog: SQLITE_CATALOG,
  });
}
