/**
 * The SQL provider's differential harness: one model and one data set served twice, by
 * MemoryProvider and by SqlProvider (createSchema + seed on the same data), each as a service in
 * process (spec/helpers/in-process.ts) with the same options and clock. A URL is answered by both
 * and the answers are compared after the origin is made neutral: status, content type and body.
 * `get` asks a server over HTTP the same way.
 */
import type {
  KyselyPlugin,
  OperationNode,
  PluginTransformQueryArgs,
  RawNode,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';
import { PostgresQueryCompiler } from 'kysely';
import type { EdmModel } from '../../../lib/edm/model';
import type { ForeignKeyMap, MemoryData } from '../../../lib/provider/entity-data';
import { MemoryProvider } from '../../../lib/providers/memory';
import type { SqlDatabase } from '../../../lib/sql/database';
import { SqlProvider, createSchema, seed, type SqlProviderOptions } from '../../../lib/sql';
import { FIXED_NOW } from '../../helpers/demo';
import { callInProcess, inProcess, type InProcessService } from '../../helpers/in-process';
import type { RunningServer } from '../../helpers/server';

/** One answer, with the origin replaced by `ORIGIN`. */
export interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly body: string;
}

/** The two services of a comparison. */
export interface ServicePair {
  readonly memory: InProcessService;
  readonly sql: InProcessService;
  readonly provider: SqlProvider;
  close(): Promise<void>;
}

/** What `get` asks: a service in process, or a server over HTTP. */
export type Served = InProcessService | RunningServer;

/** Create the tables of `model` in `db` and load `data` into them. */
export async function loadDatabase(
  db: SqlDatabase,
  model: EdmModel,
  data: MemoryData,
  links?: ForeignKeyMap,
  mapping: SqlProviderOptions['mapping'] = {},
): Promise<void> {
  await createSchema(db, model, mapping);
  await seed(db, model, mapping, data, { links });
}

/** Serve `data` through MemoryProvider and through SqlProvider on `db` (loaded with the same data by loadDatabase), in process. */
export async function servePair(
  model: EdmModel,
  data: MemoryData,
  db: SqlDatabase,
  options: { readonly links?: ForeignKeyMap; readonly service?: Record<string, unknown>; readonly sql?: Partial<SqlProviderOptions> } = {},
): Promise<ServicePair> {
  const provider = new SqlProvider({ model, db, ...options.sql });
  const serve = (dataProvider: MemoryProvider | SqlProvider): InProcessService =>
    inProcess({ model, provider: dataProvider, now: () => FIXED_NOW, ...options.service });
  const memory = serve(new MemoryProvider(model, data, { links: options.links }));
  const sql = serve(provider);
  // Nothing listens: the services end with their providers (the database is the caller's).
  return { memory, sql, provider, close: async () => undefined };
}

/** GET `path` (below /odata/) from a service in process or a server. */
export async function get(served: Served, path: string, accept?: string): Promise<Answer> {
  const headers = accept === undefined ? undefined : { accept };
  let status: number;
  let contentType: string | null;
  let text: string;
  if ('service' in served) {
    const answer = await callInProcess(served, 'GET', path, { headers });
    [status, contentType, text] = [answer.status, answer.headers['content-type'] ?? null, answer.body.toString('utf8')];
  } else {
    const response = await fetch(`${served.url}/odata/${path}`, { headers });
    [status, contentType, text] = [response.status, response.headers.get('content-type'), await response.text()];
  }
  return { status, contentType, body: text.split(served.url).join('ORIGIN') };
}

/** The body for comparison: parsed JSON (key order ignored), else the text. */
export function comparable(answer: Answer): unknown {
  if (answer.contentType?.startsWith('application/json') === true) return { ...answer, body: JSON.parse(answer.body) as unknown };
  return answer;
}

/** An error answer reduced to status and code (the two providers may word a message differently). */
export function errorShape(answer: Answer): unknown {
  if (answer.status < 400 || answer.contentType?.startsWith('application/json') !== true) return comparable(answer);
  const body = JSON.parse(answer.body) as { error?: { code?: string } };
  return { status: answer.status, code: body.error?.code };
}

/** Ask both services; return both answers. */
export async function both(pair: ServicePair, path: string, accept?: string): Promise<{ memory: Answer; sql: Answer }> {
  const [memory, sql] = await Promise.all([get(pair.memory, path, accept), get(pair.sql, path, accept)]);
  return { memory, sql };
}

/** Follow a JSON feed's `__next` links from `path` to the end; the pages' answers in order. */
export async function walk(served: Served, path: string, limit = 200): Promise<Answer[]> {
  const pages: Answer[] = [];
  let next: string | undefined = path;
  while (next !== undefined && pages.length < limit) {
    const answer: Answer = await get(served, next);
    pages.push(answer);
    if (answer.status !== 200) break;
    const body = JSON.parse(answer.body) as { d: { __next?: string } };
    next = body.d.__next === undefined ? undefined : body.d.__next.replace('ORIGIN/odata/', '');
  }
  return pages;
}

/** The text of a statement of `sql` fragments, nested fragments included (values as `?`). */
function textOf(node: OperationNode): string {
  if (node.kind !== 'RawNode') return '?';
  const raw = node as RawNode;
  return raw.sqlFragments.map((fragment, i) => fragment + (i < raw.parameters.length ? textOf(raw.parameters[i]) : '')).join('');
}

/**
 * A Kysely plugin that records the start of every statement's text (BEGIN and COMMIT are not
 * statements here); with `refuse` set, a statement whose text contains it fails.
 */
export class StatementLog implements KyselyPlugin {
  statements: string[] = [];
  refuse: string | undefined;

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const node = args.node;
    if (this.refuse !== undefined && textOf(node).includes(this.refuse)) throw new Error(`refused by the spec: ${this.refuse}`);
    this.statements.push(node.kind === 'RawNode' ? node.sqlFragments[0].trim().split(/\s+/).slice(0, 3).join(' ') : node.kind);
    return node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

/** One statement as the database got it: its SQL text, its parameters, and the number of rows it returned. */
export interface LoggedRead {
  readonly text: string;
  readonly parameters: readonly unknown[];
  rows: number | undefined;
}

/** A Kysely plugin that records every statement as PostgreSQL gets it, and how many rows came back. */
export class ReadLog implements KyselyPlugin {
  reads: LoggedRead[] = [];
  private readonly pending = new WeakMap<object, LoggedRead>();
  private readonly compiler = new PostgresQueryCompiler();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const compiled = this.compiler.compileQuery(args.node, args.queryId);
    const read: LoggedRead = { text: compiled.sql.replace(/\s+/g, ' ').trim(), parameters: compiled.parameters, rows: undefined };
    this.reads.push(read);
    this.pending.set(args.queryId, read);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const read = this.pending.get(args.queryId);
    if (read !== undefined) read.rows = args.result.rows.length;
    return args.result;
  }
}
