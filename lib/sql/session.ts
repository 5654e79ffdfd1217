/**
 * A request's database session (SqlProvider's `session` option): the role its statements run as
 * and the settings its row-level security policies read, applied by the first statement of every
 * transaction the request uses with `set_config(name, value, true)`, so they end with that
 * transaction however it ends and never reach the next user of a pooled connection. Asked once
 * per request context (every part of a `$batch` shares it) and checked before anything runs: the
 * role by its name (role-names.ts) and, once per role, by the catalog (no superuser, nothing that
 * bypasses row-level security, a role the login role may switch to); the settings by their names
 * (custom `prefix.name` settings only, so a session cannot change the server's own). A session
 * that names no usable role fails closed: 403, logged.
 */
import { ODataError } from '../errors';
import type { RequestContext } from '../protocol/message';
import type { SqlDatabase } from './database';
import type { Sql } from './dialect';
import { statementTimeoutOf, type SqlEngine, type SqlSessionStatements, type TransactionSetting } from './engine';
import { SqlSessionRoleError } from './errors';
import { roleNameProblem } from './role-names';

/** What a request runs as in the database. */
export interface SqlSession {
  /** The role its statements run as (`SET LOCAL ROLE`): a name `roleNameProblem` accepts, of a role requests may run as. */
  readonly role: string;
  /**
   * Transaction-local settings its policies read (`current_setting('request.jwt.claims', true)`):
   * custom names of the form `prefix.name` only, values as text.
   */
  readonly settings?: Readonly<Record<string, string>>;
}

/** SqlProvider's `session` option: the session of a request, from its context (`context.request`: what your authentication set). */
export type SqlSessionOf = (context: RequestContext) => SqlSession | null | undefined | Promise<SqlSession | null | undefined>;

/** A line for the operator: why a request was refused. */
export interface SqlProviderLogEvent {
  /** Always `'warn'`: a refused request is the client's answer, worth a look but not a failure of the service. */
  readonly level: 'warn';
  /** One line: why the session was refused (no role, or the role and why requests may not run as it), ending `the request was refused (403).` */
  readonly message: string;
}

/** @internal A checked session as every transaction of its request applies it: `role` first. */
export interface AppliedSession {
  readonly role: string;
  readonly settings: readonly TransactionSetting[];
}

/** @internal What every transaction of a request sets first: the provider's statement timeout, the request's session. */
export interface TransactionStart {
  readonly statementTimeoutMs?: number;
  readonly session?: AppliedSession;
}

/**
 * @internal The statement a transaction of `start` opens with, or undefined when it sets nothing
 * (a read then needs no transaction of its own). Without a session it is the statement timeout's
 * own statement, as it always was; with one, everything is set in one statement.
 */
export function startStatement(engine: SqlEngine, start: TransactionStart): Sql | undefined {
  const { statementTimeoutMs, session } = start;
  if (session === undefined) return statementTimeoutMs === undefined ? undefined : statementTimeoutOf(engine, statementTimeoutMs);
  const settings: TransactionSetting[] = statementTimeoutMs === undefined ? [] : [['statement_timeout', String(statementTimeoutMs)]];
  return sessionsOf(engine).settings([...settings, ...session.settings]);
}

/** The engine's session statements; a TypeError for an engine without (SqlProvider refuses `session` there first). */
function sessionsOf(engine: SqlEngine): SqlSessionStatements {
  const { sessions } = engine.transactions;
  if (sessions === undefined)
    throw new TypeError(`SqlProvider option 'session' needs roles and transaction-local settings, which ${engine.name} does not have.`);
  return sessions;
}

/** A custom setting: two or more identifiers joined by dots (PostgreSQL's placeholder variables). */
const CUSTOM_SETTING = /^[A-Za-z_][A-Za-z0-9_$]*(?:\.[A-Za-z_][A-Za-z0-9_$]*)+$/;

/** Roles whose check is remembered at most (tokens may name many); the oldest is forgotten first. */
const REMEMBERED_ROLES = 1000;

/** The 403 of a request the database session refuses; what exactly is wrong goes to the log, not to the client. */
function refused(): ODataError {
  return ODataError.fromCode('FORBIDDEN', { detail: 'This request names no database role it may run as.' });
}

/** The settings of a session, checked (a bad one is the host's mistake: TypeError, a 500). */
function settingsOf(settings: unknown): TransactionSetting[] {
  if (settings === undefined) return [];
  if (settings === null || typeof settings !== 'object') throw new TypeError("SqlProvider: a session's settings must be an object of strings.");
  const pairs: TransactionSetting[] = [];
  for (const [name, value] of Object.entries(settings)) {
    if (!CUSTOM_SETTING.test(name))
      throw new TypeError(`SqlProvider: the session setting '${name.slice(0, 80)}' is not a custom setting name (prefix.name, such as request.jwt.claims).`);
    if (typeof value !== 'string' || value.includes('\u0000'))
      throw new TypeError(`SqlProvider: the session setting '${name}' must be a string without U+0000.`);
    pairs.push([name, value]);
  }
  return pairs;
}

/** The catalog's verdict on a role, as a phrase; undefined when requests may run as it. */
function roleProblem(facts: Record<string, unknown> | undefined): string | undefined {
  if (facts === undefined) return 'no such role exists';
  if (facts.superuser === true) return 'it is a superuser (row-level security does not apply to it)';
  if (facts.bypassRls === true) return 'it has BYPASSRLS';
  if (facts.ownsPolicedTable === true)
    return 'it owns (or has the privileges of the owner of) a table whose row-level security does not apply to its owner (alter table ... force row level security)';
  if (facts.member !== true) return 'the login role may not switch to it (grant it to the login role)';
  return undefined;
}

/** Resolves and checks the session of each request context; checks each role once. */
export class RequestSessions {
  private readonly resolved = new WeakMap<RequestContext, Promise<AppliedSession>>();
  private readonly roles = new Map<string, Promise<string | undefined>>();

  constructor(
    private readonly source: SqlSessionOf,
    private readonly db: SqlDatabase,
    private readonly log: (event: SqlProviderLogEvent) => void,
  ) {
    sessionsOf(db.sqlEngine);
  }

  /** The checked session of `context` (asked once per context): a 403 ODataError when it names no role requests may run as. */
  of(context: RequestContext): Promise<AppliedSession> {
    let session = this.resolved.get(context);
    if (session === undefined) {
      session = this.resolve(context);
      this.resolved.set(context, session);
    }
    return session;
  }

  /** Reject with SqlSessionRoleError when requests may not run as one of `roles` (a start-time check of the roles known in advance). */
  async checkRoles(roles: readonly string[]): Promise<void> {
    const problems: string[] = [];
    for (const role of new Set(roles)) {
      const problem = roleNameProblem(role) ?? (await this.problemOf(role));
      if (problem !== undefined) problems.push(`'${role}': ${problem}`);
    }
    if (problems.length > 0) throw new SqlSessionRoleError(problems);
  }

  private async resolve(context: RequestContext): Promise<AppliedSession> {
    const given: unknown = await this.source(context);
    const role: unknown = given !== null && typeof given === 'object' ? (given as { role?: unknown }).role : undefined;
    if (typeof role !== 'string') return this.refuse('the session of a request names no role');
    const settings = settingsOf((given as { settings?: unknown }).settings);
    const problem = roleNameProblem(role) ?? (await this.problemOf(role));
    if (problem !== undefined) return this.refuse(`requests may not run as the role '${role.slice(0, 80)}': ${problem}`);
    return { role, settings: [['role', role], ...settings] };
  }

  private refuse(reason: string): never {
    this.log({ level: 'warn', message: `SqlProvider: ${reason}; the request was refused (403).` });
    throw refused();
  }

  /** The catalog's verdict on `role`, asked once (a failed lookup is asked again next time). */
  private problemOf(role: string): Promise<string | undefined> {
    let problem = this.roles.get(role);
    if (problem === undefined) {
      if (this.roles.size >= REMEMBERED_ROLES) this.roles.delete(this.roles.keys().next().value as string);
      problem = sessionsOf(this.db.sqlEngine)
        .roleFacts(role)
        .execute(this.db.kysely)
        .then((result) => roleProblem(result.rows[0] as Record<string, unknown> | undefined));
      const asked = problem;
      asked.catch(() => {
        if (this.roles.get(role) === asked) this.roles.delete(role);
      });
      this.roles.set(role, problem);
    }
    return problem;
  }
}
