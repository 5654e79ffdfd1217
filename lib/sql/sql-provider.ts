/**
 * SqlProvider: a DataProvider over PostgreSQL (a server, or PGlite embedded). Reads run in the
 * database: the resource path as joins, `$filter` and `$orderby` translated to parameterized SQL,
 * `$skiptoken` as a keyset condition compiled by the same translator, `$top`/`$skip` as LIMIT and
 * OFFSET, the count in the page's snapshot, `$expand` as one statement per navigation property and
 * level, large feeds in keyset chunks. What the translator refuses is finished by the shared
 * evaluator, exactly. Writes run in a transaction per request (a changeset's when inside one),
 * each as keyed statements with the If-Match values in their WHERE (write/), retried after a
 * serialization failure. Each write is a plan of statements (write/plan.ts) built before
 * anything runs; a write request whose plan writes in one statement runs without BEGIN and COMMIT
 * (TransactionOptions.singleWrite); plain reads may go to a replica; `placeOf` decides where each
 * statement runs. With a `session`, every statement of a request runs in a transaction that first
 * applies the request's database role and settings (session.ts), and no write runs alone.
 */
import type { EdmEntityType, EdmModel } from '../edm/model';
import { ODataError } from '../errors';
import { pause } from '../util';
import type { RequestContext } from '../protocol/message';
import { createTransactionScope, retryBackoff, type BeginTransaction, type TransactionRunOptions } from '../provider/transaction';
import type {
  CountRequest,
  CreateRequest,
  DataProvider,
  DeleteRequest,
  Entity,
  EntityReference,
  LinkRequest,
  MediaContent,
  OperationHandler,
  Precondition,
  QueryRequest,
  QueryResult,
  TransactionOptions,
  UpdateRequest,
} from '../provider/types';
import type { SqlDatabase } from './database';
import { isReplyLost, writeOutcomeUnknownError } from './connection-failure';
import { toODataError, type ErrorScene } from './error-map';
import { isRetryableTransactionError } from './errors';
import type { SqlOperation } from './refusals';
import { compileMapping, type CompiledMapping } from './mapping/compiled';
import { resolveMapping } from './mapping/resolve';
import type { SqlMapping, SqlMappingOverrides } from './mapping/types';
import { KeyReadCoalescer, isPlainKeyRead } from './read/key-reads';
import { readMedia } from './read/media';
import { readOnce } from './read/once';
import { countEntities, queryEntities, type ReadSettings } from './read/query';
import { runPlan } from './write/execute';
import { planCreate } from './write/insert';
import { planLinkRequest } from './write/link-request';
import { PlanBuilder, writesInOneStatement, type WritePlan } from './write/plan';
import { RequestSessions, type AppliedSession, type SqlProviderLogEvent, type SqlSessionOf } from './session';
import { runInside, sqlAlone, sqlBegin, type BeginSettings, type OpenTransaction, type SqlIsolationLevel, type SqlTransactionAttempt } from './write/begin';
import { planDelete, planMediaWrite, planUpdate } from './write/update';

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
  /**
   * A read replica (`postgres(...)` of a standby): reads outside a transaction go to it; writes,
   * their preconditions and every read inside a write or changeset go to `db`.
   */
  readonly replica?: SqlDatabase;
  /** The isolation level of write transactions and changesets. Default `'read committed'`. */
  readonly isolationLevel?: SqlIsolationLevel;
  /** Runs of a transaction at most, the first included, when it fails with a serialization failure or deadlock (40001, 40P01). Default 5. */
  readonly transactionAttempts?: number;
  /** Cancel a statement that runs longer (`statement_timeout`, set inside each transaction); 503 STATEMENT_TIMEOUT. Default: none. */
  readonly statementTimeoutMs?: number;
  /** The `Retry-After` (seconds) of 503 STATEMENT_TIMEOUT and TRANSACTION_CONFLICT. Default 1. */
  readonly retryAfterSeconds?: number;
  /**
   * Called in every write transaction after its work and before COMMIT, with the transaction and
   * the attempt number. For tests: throw (or run SQL that fails) with SQLSTATE 40001 to see the
   * transaction run again. With this hook every write runs in a transaction (none runs alone).
   */
  readonly beforeCommit?: (attempt: SqlTransactionAttempt) => Promise<void>;
  /**
   * The database session of a request: the role it runs as and the settings its row-level
   * security policies read (`{ role: 'web_user', settings: { 'request.jwt.claims': '{"sub":"ada"}' } }`),
   * from its context (`context.request`: what your authentication middleware set). Asked once per
   * request (a `$batch` once for all its parts); every statement of the request then runs in a
   * transaction that applies it first with `set_config(name, value, true)`. A session without a
   * role, or with a role requests may not run as (`roleNameProblem`; a superuser, a role with
   * BYPASSRLS, one the login role cannot switch to: checked once per role) is 403, logged.
   * Default: none, every request runs as the login role and no statement is added.
   */
  readonly session?: SqlSessionOf;
  /** Where refusals of the `session` go (a line for the operator). Default: `console.warn`. */
  readonly logger?: (event: SqlProviderLogEvent) => void;
}

/** What `mediaOf` tells the writers about a media link entry. */
export interface SqlMediaOf {
  /** The media type of its media resource, from the side table. */
  readonly contentType: string;
}

/** What a write's database errors are about (ErrorScene): the operation, and the set and values it writes. */
type WriteScene = Pick<ErrorScene, 'entitySet' | 'values'> & { readonly operation: SqlOperation };

/** What a read's database errors are about: its set, and its `$filter`. */
interface ReadScene extends Pick<ErrorScene, 'entitySet' | 'filter'> {
  readonly operation: 'read';
}

/** A statement placed in the request's open transaction (SqlProvider.placeOf). */
type Joined = { readonly kind: 'joined'; readonly open: OpenTransaction };
/** Where a read runs: joined, or on a pooled connection (`shared`: with other key reads of the request, in one statement). */
type ReadPlacement = Joined | { readonly kind: 'pool'; readonly settings: ReadSettings; readonly shared: boolean };
/** Where a write plan runs: joined, without BEGIN and COMMIT, or in a transaction of its own. */
type WritePlacement = Joined | { readonly kind: 'alone'; readonly begin: BeginTransaction<OpenTransaction> } | { readonly kind: 'own transaction' };

function readOf(request: QueryRequest | CountRequest): ReadScene {
  return { operation: 'read', entitySet: request.entitySet, ...(request.filter === undefined ? {} : { filter: request.filter }) };
}

/** Attempts of a read that fails with a serialization failure or a deadlock. */
const MAX_ATTEMPTS = 3;

/** Default runs of a write transaction that fails with a serialization failure or a deadlock. */
const TRANSACTION_ATTEMPTS = 5;

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
  /** The read replica, when one is given. */
  readonly replica: SqlDatabase | undefined;
  private readonly compiled: CompiledMapping;
  private readonly settings: ReadSettings;
  /** Reads outside transactions: on the replica when there is one. */
  private readonly plainReads: ReadSettings;
  /** The open write transaction of each request context (the kit's scope: joins, retries, 503 after the last attempt). */
  private readonly transactions = createTransactionScope<OpenTransaction>('SqlProvider');
  private readonly begin: BeginTransaction<OpenTransaction>;
  /** How a write plan that writes in one statement runs when it is its request's only write: without BEGIN and COMMIT. */
  private readonly alone: BeginTransaction<OpenTransaction> | undefined;
  /**
   * Contexts whose work is one write request (TransactionOptions.singleWrite) with no transaction
   * opened for it, and whether its one write has begun (a second would not be atomic with it).
   */
  private readonly singleWrites = new WeakMap<RequestContext, { wrote: boolean }>();
  private readonly retries: TransactionRunOptions;
  /** Key reads of one request (a `$batch`'s GET parts) in one statement per set. */
  private readonly keyReads: KeyReadCoalescer;
  private readonly statementTimeoutMs: number | undefined;
  private readonly retryAfterSeconds: number;
  /** The media type of each media link entry read, for `mediaOf` (writers ask per entry, synchronously). */
  private readonly mediaTypes = new WeakMap<Entity, string>();
  /** The database session of each request, with the `session` option. */
  private readonly sessions: RequestSessions | undefined;
  /** How write transactions open (a request's session added per request). */
  private readonly beginSettings: BeginSettings;
  /** The row version of each entity read or written of a set whose ETag it is (`etag: 'xmin'`). */
  private readonly rowVersions = new WeakMap<Entity, string>();
  /**
   * The entity tag of an entity of a set mapped with `etag: 'xmin'`: its row version (`W/"<xmin>"`
   * on the wire), checked in the write statement like a concurrency token. Present only when
   * the mapping has such a set, so a specific If-Match for a type without any ETag stays a 400.
   */
  readonly etag?: (entity: Entity, entityType: EdmEntityType) => string | undefined;

  /** Resolve and check the mapping (SqlMappingError names every problem); nothing is read until the first request. */
  constructor(options: SqlProviderOptions) {
    this.model = options.model;
    this.db = options.db;
    this.mapping = resolveMapping(options.model, options.mapping);
    this.operations = options.operations;
    this.replica = options.replica;
    this.compiled = compileMapping(this.model, this.mapping);
    const rowVersioned = [...this.compiled.sets.values()].find((plan) => plan.etag === 'xmin');
    if (rowVersioned !== undefined && !this.db.sqlEngine.catalog.rowVersions)
      throw new TypeError(
        `SqlProvider: the mapping gives '${rowVersioned.entitySet.name}' etag: 'xmin', PostgreSQL's row version, which ${this.db.sqlEngine.name} does not have; map a version column instead.`,
      );
    this.statementTimeoutMs = options.statementTimeoutMs === undefined ? undefined : positiveInteger(options.statementTimeoutMs, 0, 'statementTimeoutMs');
    if (this.statementTimeoutMs !== undefined && this.db.sqlEngine.transactions.statementTimeout === undefined)
      throw new TypeError(`SqlProvider option 'statementTimeoutMs' needs an engine that bounds a statement's time; ${this.db.sqlEngine.name} cannot.`);
    this.retryAfterSeconds = options.retryAfterSeconds ?? 1;
    if (!Number.isInteger(this.retryAfterSeconds) || this.retryAfterSeconds < 0)
      throw new TypeError(`SqlProvider option 'retryAfterSeconds' must be a non-negative integer, got ${String(options.retryAfterSeconds)}.`);
    if (options.session !== undefined && typeof options.session !== 'function')
      throw new TypeError("SqlProvider option 'session' must be a function (context) => ({ role, settings? }).");
    const logger = options.logger ?? ((event: SqlProviderLogEvent) => console.warn(event.message));
    this.sessions =
      options.session === undefined
        ? undefined
        : new RequestSessions(options.session, this.db, (event) => {
            try {
              logger(event);
            } catch {
              // A logger that throws must not turn a refusal into something else.
            }
          });
    this.beginSettings = {
      db: this.db,
      compiled: this.compiled,
      isolationLevel: options.isolationLevel ?? 'read committed',
      statementTimeoutMs: this.statementTimeoutMs,
      beforeCommit: options.beforeCommit,
      mapError: (error) => this.mapError(error, { operation: 'update' }),
    };
    this.begin = sqlBegin(this.beginSettings);
    // A statement outside a transaction runs at the server's default isolation, without the
    // transaction's statement_timeout, hook and database session. Each of those is a statement
    // (or a level) that must share a transaction with the plan's: with one, no plan is one statement.
    const isolationLevel = options.isolationLevel ?? 'read committed';
    const alone =
      isolationLevel === 'read committed' && this.statementTimeoutMs === undefined && options.beforeCommit === undefined && this.sessions === undefined;
    this.alone = alone ? sqlAlone(this.db, this.compiled) : undefined;
    this.retries = {
      isRetryable: isRetryableTransactionError,
      attempts: positiveInteger(options.transactionAttempts, TRANSACTION_ATTEMPTS, 'transactionAttempts'),
      backoffMs: retryBackoff(),
      retryAfterSeconds: this.retryAfterSeconds,
    };
    this.settings = {
      db: this.db,
      compiled: this.compiled,
      chunkSize: positiveInteger(options.chunkSize, 1000, 'chunkSize'),
      streamSnapshot: options.streamSnapshot ?? this.db.engine === 'postgres',
      streamIdleTimeoutMs: positiveInteger(options.streamIdleTimeoutMs, 60_000, 'streamIdleTimeoutMs'),
      seen: (row) => {
        if (row.contentType !== undefined) this.mediaTypes.set(row.entity, row.contentType);
        if (row.etag !== undefined) this.rowVersions.set(row.entity, row.etag);
      },
      mapError: (error, request) => this.mapError(error, readOf(request)),
      ...(this.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: this.statementTimeoutMs }),
    };
    this.plainReads = options.replica === undefined ? this.settings : { ...this.settings, db: options.replica };
    if ([...this.compiled.sets.values()].some((plan) => plan.etag === 'xmin')) this.etag = (entity) => this.rowVersions.get(entity);
    this.keyReads = new KeyReadCoalescer(this.plainReads);
  }

  /** Entities of a set or reached by navigation; filtered, ordered, paged, counted and expanded in the database. */
  async query(request: QueryRequest, context: RequestContext): Promise<QueryResult> {
    const alone = (one: QueryRequest): Promise<QueryResult> => this.read(context, (settings) => queryEntities(settings, one), readOf(one));
    // Outside a transaction, key reads of one request that arrive together share a statement (read/key-reads.ts).
    const placement = this.placeOf(context, 'read');
    if (isPlainKeyRead(request) && placement.kind === 'pool' && placement.shared) {
      if (this.sessions === undefined) return this.keyReads.read(request, context, undefined, alone);
      return this.keyReads.read(request, context, await this.sessionOf(context), alone);
    }
    return alone(request);
  }

  /** `$count`: one COUNT(*), never reading rows (unless the filter needs the evaluator). */
  async count(request: CountRequest, context: RequestContext): Promise<number> {
    return this.read(context, (settings) => countEntities(settings, request), readOf(request));
  }

  /** Create an entry, its inline tree and its links, in one transaction; the stored entry with generated values. */
  async create(request: CreateRequest, context: RequestContext): Promise<Entity> {
    const written = { operation: 'create', entitySet: request.entitySet, values: request.values } as const;
    return this.write(context, written, (builder) => planCreate(builder, request));
  }

  /** PUT or MERGE: one UPDATE with the If-Match values in its WHERE and the tokens bumped; 404 or 412 when it changes nothing. */
  async update(request: UpdateRequest, context: RequestContext): Promise<Entity> {
    const written = { operation: 'update', entitySet: request.entitySet, values: request.values } as const;
    return this.write(context, written, (builder) => planUpdate(builder, request));
  }

  /** DELETE with the If-Match values in its WHERE; dependents cascade, unlink or refuse it (409) per the schema. */
  async delete(request: DeleteRequest, context: RequestContext): Promise<void> {
    return this.write(context, { operation: 'delete', entitySet: request.entitySet }, (builder) => planDelete(builder, request));
  }

  /** `$links`: add, replace or remove a link within the association's multiplicities. */
  async link(request: LinkRequest, context: RequestContext): Promise<void> {
    return this.write(context, { operation: 'link', entitySet: request.source.entitySet }, (builder) => planLinkRequest(builder, request));
  }

  /** Replace the media resource of a media link entry after its precondition; the entry's tokens move. */
  async writeMedia(reference: EntityReference, media: MediaContent, precondition: Precondition | undefined, context: RequestContext): Promise<Entity> {
    return this.write(context, { operation: 'update', entitySet: reference.entitySet }, (builder) => planMediaWrite(builder, reference, media, precondition));
  }

  /**
   * Run `work` (a write with its answer, a `$batch` changeset) in one database transaction that
   * every write and read of `context` joins; run again from the start after a serialization
   * failure or deadlock (at most `transactionAttempts` runs). A nested call joins. A single write
   * request (`options.singleWrite`) opens none up front: its write's plan says where it runs
   * (`placeOf`), and reads before it go to the primary.
   */
  async transaction<T>(work: () => Promise<T>, context: RequestContext, options?: TransactionOptions): Promise<T> {
    // Deferred only where its plan may still run alone: outside any transaction, and not already a single write request.
    const placement = this.placeOf(context, 'read');
    if (options?.singleWrite !== true || this.alone === undefined || placement.kind !== 'pool' || !placement.shared)
      return this.transactions.run(context, await this.beginOf(context), work, this.retries);
    this.singleWrites.set(context, { wrote: false });
    try {
      return await work();
    } finally {
      this.singleWrites.delete(context);
    }
  }

  /** The content type of a media link entry this provider read (from its side table). */
  mediaOf(entity: Entity, entityType: EdmEntityType): SqlMediaOf | undefined {
    if (!entityType.hasStream) return undefined;
    const contentType = this.mediaTypes.get(entity);
    return contentType === undefined ? undefined : { contentType };
  }

  /**
   * Reject (SqlSessionRoleError, naming each problem) when requests may not run as one of `roles`: a role
   * that does not exist, is a superuser, has BYPASSRLS, owns a table whose policies spare its
   * owner, or that the login role cannot switch to. For the roles known at start (an anonymous
   * role, the roles of your users); roles first seen in a request are checked then. Needs `session`.
   */
  async checkRoles(roles: readonly string[]): Promise<void> {
    if (this.sessions === undefined) throw new TypeError("SqlProvider: checkRoles needs the option 'session'.");
    return this.sessions.checkRoles(roles);
  }

  /** The media resource of a media link entry: 404 when the entry, or its media resource, does not exist. */
  async readMedia(reference: EntityReference, context: RequestContext): Promise<MediaContent> {
    // Outside a transaction, in one of its own when a statement timeout or a session is set (media bodies can be large).
    return this.read(
      context,
      (settings) =>
        settings.transaction !== undefined
          ? readMedia(settings, reference)
          : readOnce(settings.db, settings, (transaction) => readMedia({ ...settings, transaction }, reference)),
      { operation: 'read', entitySet: reference.entitySet },
    );
  }

  /** The checked database session of `context` (the `session` option), its failures mapped (403, or 503 when the role cannot be looked up). */
  private async sessionOf(context: RequestContext): Promise<AppliedSession | undefined> {
    if (this.sessions === undefined) return undefined;
    try {
      return await this.sessions.of(context);
    } catch (error) {
      throw this.mapError(error, { operation: 'read' });
    }
  }

  /** How a transaction for `context` opens: as its database session when there is one (a transaction that is open already is joined). */
  private async beginOf(context: RequestContext): Promise<BeginTransaction<OpenTransaction>> {
    if (this.sessions === undefined || this.transactions.current(context) !== undefined) return this.begin;
    return sqlBegin({ ...this.beginSettings, session: await this.sessionOf(context) });
  }

  /**
   * Where a statement of `context` runs: the one place that decides. Inside the request's open
   * transaction when it has one (never the replica). A read outside one runs on a pooled
   * connection: the replica's, or the primary's for a single write request (it reads what it is
   * about to write); with a session, in a transaction of its own that applies it first. A write
   * plan that writes in one statement (`writesInOneStatement`), as the only write of a single
   * write request, runs without BEGIN and COMMIT when nothing must share a transaction with it
   * (`alone`: no session statements, statement timeout, hook or other isolation level); any other
   * plan runs in a transaction of its own, which starts with the request's session statements.
   */
  private placeOf(context: RequestContext, statement: 'read'): ReadPlacement;
  private placeOf(context: RequestContext, statement: WritePlan<unknown>): WritePlacement;
  private placeOf(context: RequestContext, statement: 'read' | WritePlan<unknown>): ReadPlacement | WritePlacement {
    const open = this.transactions.current(context);
    if (open !== undefined) return { kind: 'joined', open };
    const single = this.singleWrites.get(context);
    if (statement === 'read') return { kind: 'pool', settings: single === undefined ? this.plainReads : this.settings, shared: single === undefined };
    if (single !== undefined && this.alone !== undefined && writesInOneStatement(statement)) return { kind: 'alone', begin: this.alone };
    return { kind: 'own transaction' };
  }

  /** A read where `placeOf` puts it; retried on its own (runInside leaves a joined one to its transaction). */
  private read<T>(context: RequestContext, read: (settings: ReadSettings) => Promise<T>, scene: ReadScene): Promise<T> {
    const placement = this.placeOf(context, 'read');
    if (placement.kind === 'pool') {
      const { settings } = placement;
      if (this.sessions === undefined) return this.run(() => read(settings), scene);
      // Every attempt (a read retried on a fresh connection too) opens its own transaction, which applies the session again.
      return this.sessionOf(context).then((session) => this.run(() => read({ ...settings, session }), scene));
    }
    return runInside(placement.open, async (transaction) => {
      try {
        return await read({ ...this.settings, transaction });
      } catch (error) {
        throw isRetryableTransactionError(error) ? error : this.mapError(error, scene);
      }
    });
  }

  /**
   * A write: its plan built first (nothing runs if that fails), then run where `placeOf` puts it,
   * in the context's transaction (joined, or its own) or alone; database errors mapped (in terms of
   * `written`: the operation, the set and values it writes), retryable ones left for the transaction.
   */
  private write<T>(context: RequestContext, written: WriteScene, build: (builder: PlanBuilder) => WritePlan<T>): Promise<T> {
    let plan: WritePlan<T>;
    try {
      plan = build(new PlanBuilder(this.compiled, this.db.sqlEngine, this.sessions !== undefined));
    } catch (error) {
      return Promise.reject(this.mapError(error, written));
    }
    const inside = (open: OpenTransaction): Promise<T> =>
      runInside(open, (executor) =>
        runPlan(
          plan,
          { executor, compiled: this.compiled, engine: this.db.sqlEngine, required: open.required, rowSecurity: this.sessions !== undefined },
          this.settings.seen,
        ),
      ).catch((error: unknown) => {
        // A statement that commits by itself and lost its reply: it may have been applied.
        if (open.alone && isReplyLost(error)) throw writeOutcomeUnknownError(error);
        throw isRetryableTransactionError(error) ? error : this.mapError(error, written);
      });
    const placement = this.placeOf(context, plan);
    const single = placement.kind === 'joined' ? undefined : this.singleWrites.get(context);
    if (single?.wrote === true) return Promise.reject(new TypeError('SqlProvider: a second write in a request the service marked singleWrite.'));
    if (single !== undefined) single.wrote = true;
    if (placement.kind === 'alone') return this.transactions.run(context, placement.begin, () => inside(this.current(context)), this.retries);
    if (this.sessions === undefined) return this.transactions.run(context, this.begin, () => inside(this.current(context)), this.retries);
    return this.beginOf(context).then((begin) => this.transactions.run(context, begin, () => inside(this.current(context)), this.retries));
  }

  /** The open transaction of `context` (inside `transactions.run`, there always is one). */
  private current(context: RequestContext): OpenTransaction {
    const open = this.transactions.current(context);
    if (open === undefined) throw new TypeError('SqlProvider: a write ran outside its transaction.');
    return open;
  }

  /**
   * Run a read, again after a serialization failure or deadlock (SQLSTATE 40001, 40P01: what
   * distributed PostgreSQL engines answer under contention), at most three times, pausing as
   * write transactions do; then 503 TRANSACTION_CONFLICT with `Retry-After`, as for a write. A
   * read whose connection failed runs once more at once, on a fresh connection (the broken one is
   * never pooled again); a second failure is 503 DATABASE_UNAVAILABLE. Other errors mapped. A
   * streamed feed's later chunks are not retried: the response has begun.
   */
  private async run<T>(read: () => Promise<T>, scene: ReadScene): Promise<T> {
    let reconnected = false;
    let conflicts = 0;
    for (;;) {
      try {
        return await read();
      } catch (error) {
        if (!reconnected && this.db.sqlEngine.errors.isConnectionFailure(error)) {
          reconnected = true;
          continue;
        }
        if (!isRetryableTransactionError(error)) throw this.mapError(error, scene);
        conflicts++;
        if (conflicts >= MAX_ATTEMPTS)
          throw ODataError.fromCode(
            'TRANSACTION_CONFLICT',
            { attempts: conflicts },
            { headers: { 'retry-after': String(this.retryAfterSeconds) }, cause: error },
          );
        await pause(this.retries.backoffMs?.(conflicts) ?? 0);
      }
    }
  }

  /** Database errors as OData errors (error-map.ts); anything else passes on (500, logged). */
  private mapError(error: unknown, scene: WriteScene | ReadScene): unknown {
    const { filter, ...rest } = { filter: undefined, ...scene };
    return toODataError(error, {
      ...rest,
      compiled: this.compiled,
      retryAfterSeconds: this.retryAfterSeconds,
      errors: this.db.sqlEngine.errors,
      ...(filter === undefined ? {} : { filter }),
      ...(this.statementTimeoutMs === undefined ? {} : { statementTimeoutMs: this.statementTimeoutMs }),
    });
  }
}
