/**
 * SqlProvider: a DataProvider over PostgreSQL (a server, or PGlite embedded). Reads run in the
 * database: the resource path as joins, `$filter` and `$orderby` translated to parameterized SQL,
 * `$skiptoken` as a keyset condition compiled by the same translator, `$top`/`$skip` as LIMIT and
 * OFFSET, the count in the page's snapshot, `$expand` as one statement per navigation property and
 * level, large feeds in keyset chunks. What the translator refuses is finished by the shared
 * evaluator, exactly. Writes are not here yet.
 */
import type { EdmEntityType, EdmModel } from '../edm/model';
import { ODataError } from '../errors';
import type { RequestContext } from '../protocol/message';
import { printExpression } from '../uri/expr';
import type { CountRequest, DataProvider, Entity, EntityReference, MediaContent, OperationHandler, QueryRequest, QueryResult } from '../provider/types';
import type { SqlDatabase } from './database';
import { SQLSTATE, SqlAcquireTimeoutError, isRetryableTransactionError, sqlStateOf } from './errors';
import { compileMapping, type CompiledMapping } from './mapping/compiled';
import { resolveMapping } from './mapping/resolve';
import type { SqlMapping, SqlMappingOverrides } from './mapping/types';
import { readMedia } from './read/media';
import { countEntities, queryEntities, type ReadSettings } from './read/query';

/** Options of `new SqlProvider(...)`. */
export interface SqlProviderOptions {
  /** The model served. */
  readonly model: EdmModel;
  /** The database: `pglite(...)` or `postgres(...)`. */
  readonly db: SqlDatabase;
  /** Names that differ from the conventions, or a complete mapping (docs/sql-provider.md "Mapping"). */
  readonly mapping?: SqlMappingOverrides;
  /** Service-operation handlers by function-import name. */
  readonly operations?: Readonly<Record<string, OperationHandler>>;
  /** Rows per statement of a streamed feed (and the page size above which a feed streams). Default 1,000. */
  readonly chunkSize?: number;
  /**
   * Read every chunk of a streamed feed in one snapshot (a read-only REPEATABLE READ transaction
   * held while the feed is written). Default: true on a server, false on PGlite, whose one
   * session would be held from every other request while a client reads.
   */
  readonly streamSnapshot?: boolean;
  /** A streamed feed whose client does not read on for this long ends (its transaction rolls back). Default 60,000 ms. */
  readonly streamIdleTimeoutMs?: number;
}

/** What `mediaOf` tells the writers about a media link entry. */
export interface SqlMediaOf {
  /** The media type of its media resource, from the side table. */
  readonly contentType: string;
}

/** Attempts of a read that fails with a serialization failure or a deadlock. */
const MAX_ATTEMPTS = 3;

function positiveInteger(value: number | undefined, fallback: number, name: string): number {
  const resolved = value ?? fallback;
  if (!Number.isInteger(resolved) || resolved < 1) throw new TypeError(`SqlProvider option '${name}' must be a positive integer, got ${String(value)}.`);
  return resolved;
}

/** A DataProvider over PostgreSQL tables laid out by a mapping. */
export class SqlProvider implements DataProvider {
  /** The model served. */
  readonly model: EdmModel;
  /** The database. */
  readonly db: SqlDatabase;
  /** The resolved mapping (every table and column named): save it as mapping.json to serve without conventions. */
  readonly mapping: SqlMapping;
  /** Service-operation handlers given in the options. */
  readonly operations: Readonly<Record<string, OperationHandler>> | undefined;
  private readonly compiled: CompiledMapping;
  private readonly settings: ReadSettings;
  /** The media type of each media link entry read, for `mediaOf` (writers ask per entry, synchronously). */
  private readonly mediaTypes = new WeakMap<Entity, string>();
  /** The entity type of each entity read (derived types), for the evaluator's `isof`. */
  private readonly types = new WeakMap<Entity, EdmEntityType>();

  /** Resolve and check the mapping (SqlMappingError names every problem); nothing is read until the first request. */
  constructor(options: SqlProviderOptions) {
    this.model = options.model;
    this.db = options.db;
    this.mapping = resolveMapping(options.model, options.mapping);
    this.operations = options.operations;
    this.compiled = compileMapping(this.model, this.mapping);
    this.settings = {
      db: this.db,
      compiled: this.compiled,
      chunkSize: positiveInteger(options.chunkSize, 1000, 'chunkSize'),
      streamSnapshot: options.streamSnapshot ?? this.db.engine === 'postgres',
      streamIdleTimeoutMs: positiveInteger(options.streamIdleTimeoutMs, 60_000, 'streamIdleTimeoutMs'),
      seen: (row) => {
        this.types.set(row.entity, row.type);
        if (row.contentType !== undefined) this.mediaTypes.set(row.entity, row.contentType);
      },
      typeOf: (entity) => this.types.get(entity),
      mapError: (error, filter) => this.mapError(error, filter),
    };
  }

  /** Entities of a set or reached by navigation; filtered, ordered, paged, counted and expanded in the database. */
  async query(request: QueryRequest, _context: RequestContext): Promise<QueryResult> {
    return this.run(() => queryEntities(this.settings, request), request.filter);
  }

  /** `$count`: one COUNT(*), never reading rows (unless the filter needs the evaluator). */
  async count(request: CountRequest, _context: RequestContext): Promise<number> {
    return this.run(() => countEntities(this.settings, request), request.filter);
  }

  /** The content type of a media link entry this provider read (from its side table). */
  mediaOf(entity: Entity, entityType: EdmEntityType): SqlMediaOf | undefined {
    if (!entityType.hasStream) return undefined;
    const contentType = this.mediaTypes.get(entity);
    return contentType === undefined ? undefined : { contentType };
  }

  /** The media resource of a media link entry: 404 when the entry, or its media resource, does not exist. */
  async readMedia(reference: EntityReference, _context: RequestContext): Promise<MediaContent> {
    return this.run(() => readMedia(this.settings, reference), undefined);
  }

  /**
   * Run a read, again after a serialization failure or deadlock (SQLSTATE 40001, 40P01: what
   * distributed PostgreSQL engines answer under contention), at most three times; errors mapped.
   * A streamed feed's later chunks are not retried: the response has begun.
   */
  private async run<T>(read: () => Promise<T>, filter: QueryRequest['filter']): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await read();
      } catch (error) {
        if (attempt < MAX_ATTEMPTS && isRetryableTransactionError(error)) continue;
        throw this.mapError(error, filter);
      }
    }
  }

  /**
   * Database errors a client caused become its 4xx; a full pool is 503 with Retry-After. Anything
   * else passes on as itself (the service answers 500 and gives it to the logger, never the client).
   */
  private mapError(error: unknown, filter: QueryRequest['filter']): unknown {
    if (error instanceof ODataError) return error;
    if (error instanceof SqlAcquireTimeoutError) {
      return ODataError.fromCode('SERVICE_UNAVAILABLE', { detail: 'no database connection is free' }, { headers: { 'retry-after': String(error.retryAfterSeconds) }, cause: error });
    }
    const state = sqlStateOf(error);
    const expression = filter === undefined ? '' : printExpression(filter);
    if (state === SQLSTATE.divisionByZero) return ODataError.fromCode('FILTER_DIVISION_BY_ZERO', { expression }, { target: '$filter', cause: error });
    if (state === SQLSTATE.numericValueOutOfRange) {
      return ODataError.fromCode('BAD_REQUEST', { detail: `A value computed while evaluating '${expression}' is out of the range of its type.` }, { target: '$filter', cause: error });
    }
    return error;
  }
}
