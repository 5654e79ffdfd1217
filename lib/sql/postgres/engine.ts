/**
 * The PostgreSQL engine (PGlite's too), its parts by role: the expression dialect (dialect.ts),
 * the value codec (values.ts), read, write and token forms (statements.ts), DDL (ddl.ts),
 * transactions and sessions (sessions.ts), errors (errors.ts) and the catalog reader (catalog.ts).
 */
import type { SqlEngine } from '../engine';
import { POSTGRES_CATALOG } from './catalog';
import { POSTGRES_DDL } from './ddl';
import { createPostgresExpressions } from './dialect';
import { POSTGRES_ERRORS } from './errors';
import { POSTGRES_TRANSACTIONS } from './sessions';
import { POSTGRES_READS, POSTGRES_TOKENS, POSTGRES_WRITES } from './statements';
import { POSTGRES_VALUES } from './values';

/** Options of the PostgreSQL engine. */
export interface PostgresEngineOptions {
  /** The collation tolower/toupper run under (default `und-x-icu`); null: leave them to the evaluator. */
  readonly caseMappingCollation?: string | null;
}

/** The PostgreSQL engine; `caseMappingCollation` as described in SqlConnectionOptions. */
export function createPostgresEngine(options: PostgresEngineOptions = {}): SqlEngine {
  return Object.freeze<SqlEngine>({
    name: 'PostgreSQL',
    expressions: createPostgresExpressions(options.caseMappingCollation === undefined ? 'und-x-icu' : options.caseMappingCollation),
    values: POSTGRES_VALUES,
    reads: POSTGRES_READS,
    writes: POSTGRES_WRITES,
    tokens: POSTGRES_TOKENS,
    ddl: POSTGRES_DDL,
    transactions: POSTGRES_TRANSACTIONS,
    errors: POSTGRES_ERRORS,
    catalog: POSTGRES_CATALOG,
  });
}
