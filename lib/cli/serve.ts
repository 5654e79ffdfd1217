/**
 * `express-odata-v2 serve`: a database as an OData V2 service on a plain Node HTTP server. The
 * model is introspected at start, or read from metadata.xml with its mapping.json; the provider
 * is SqlProvider (wrapped by readOnlyProvider for --read-only), so whatever SqlProvider serves is
 * served here with no change to this file. One log line per request on stdout; problems the
 * service logs (5xx) one line each on stderr.
 */
import { readFileSync } from 'fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import type { AddressInfo } from 'net';
import { resolve } from 'path';
import { DEFAULT_UI5_BOOTSTRAP, fiori, type FioriMiddleware } from '../fiori';
import { loadEdmx, modelAsServed, odata, readOnlyProvider, type EdmModel, type ServiceLogEvent } from '../index';
import type { SqlMapping } from '../sql';
import {
  annotationsOption,
  DATABASE_OPTIONS,
  etagOption,
  integerOption,
  keysOption,
  listOption,
  namesOption,
  optionsHelp,
  stringOption,
  type OptionGroup,
  type ParsedOptions,
} from './arguments';
import { AUTH_OPTIONS, authenticationOf } from './auth/options';
import { checkKnownRoles, sessionOptions } from './auth/session';
import { databaseArgument, databaseKind, loadSql, openDatabase, type OpenDatabase, type Sql } from './database';
import { caughtProperty, describeCaught, isInstanceOf } from '../util';
import { CliError, describeDatabaseError, messageOf, oneLine, UsageError } from './errors';
import { throwIfInterrupted, type CliIO } from './io';
import { LIMIT_OPTIONS, serviceBounds } from './limits';
import { checkModelFits } from './model-fit';

/**
 * The statement timeout `serve` gives SqlProvider unless told otherwise: a statement waiting for a
 * lock must answer 503 long before a client or a proxy gives up, instead of holding its connection
 * until the pool runs dry.
 */
const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

/** serve's options. */
export const SERVE_OPTIONS: readonly OptionGroup[] = [
  { title: 'Database', options: DATABASE_OPTIONS },
  {
    title: 'Model',
    options: [
      { name: 'metadata', kind: 'string', value: '<file>', help: 'Serve this model (a metadata.xml introspect wrote, maybe edited) instead of introspecting.' },
      {
        name: 'mapping',
        kind: 'string',
        value: '<file>',
        help: "With --metadata: the model's mapping (mapping.json); without it the naming conventions apply.",
      },
    ],
  },
  {
    title: 'Service',
    options: [
      { name: 'port', kind: 'string', value: '<n>', help: 'The port (default 4004; 0 picks a free one and prints it).' },
      { name: 'host', kind: 'string', value: '<address>', help: 'The address to listen on (default 127.0.0.1; 0.0.0.0 for every interface).' },
      { name: 'path', kind: 'string', value: '<path>', help: "The service root's path (default /odata)." },
      { name: 'read-only', kind: 'boolean', help: 'Answer every write with 405 Method Not Allowed.' },
      { name: 'csrf', kind: 'boolean', help: "Require SAP's X-CSRF-Token handshake for writes (on with --auth basic)." },
      {
        name: 'statement-timeout',
        kind: 'string',
        value: '<ms>',
        help: `Cancel a database statement that runs longer (a locked table, a runaway query) and answer 503 STATEMENT_TIMEOUT (default ${DEFAULT_STATEMENT_TIMEOUT_MS}; 0 for none).`,
      },
    ],
  },
  { title: 'Paging and limits', options: LIMIT_OPTIONS },
  { title: 'Authentication', options: AUTH_OPTIONS },
  {
    title: 'Preview',
    options: [
      {
        name: 'ui',
        kind: 'boolean',
        help: 'Also serve a SAP Fiori elements preview at / (the service stays at --path): a launch page listing the entity sets, each a List Report with its Object Page.',
      },
      {
        name: 'ui5',
        kind: 'string',
        value: '<url>',
        help: `With --ui: load SAPUI5 from this sap-ui-core.js (an http(s) URL or a path on this server; default ${DEFAULT_UI5_BOOTSTRAP}).`,
      },
    ],
  },
];

/** serve's help text. */
export const SERVE_HELP = `Usage: express-odata-v2 serve --db <url|file|folder> [options]

Serve a database (a PostgreSQL server, a SQLite file or a PGlite folder) as an OData V2
service: its tables and keyed views as entity sets, its foreign keys as navigation properties.
The model is read from the database at start, or from --metadata (and --mapping) when given.
Ctrl-C stops it.

${optionsHelp(SERVE_OPTIONS)}

Examples:
  express-odata-v2 serve --db postgres://app:secret@localhost:5432/shop
  express-odata-v2 serve --db ./app.sqlite --port 0 --read-only
  express-odata-v2 serve --db ./data --ui
  express-odata-v2 serve --metadata metadata.xml --mapping mapping.json --db ./data`;

/** A running service. */
export interface RunningService {
  /** The service root, `http://127.0.0.1:4004/odata/`. */
  readonly url: string;
  /** Stop accepting, finish the requests under way (5 s at most), close the database. */
  close(): Promise<void>;
}

function readText(file: string, cwd: string): string {
  try {
    return readFileSync(resolve(cwd, file), 'utf8');
  } catch (error) {
    const { code } = describeCaught(error);
    throw new CliError(`Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : oneLine(error)}.`, { cause: error });
  }
}

/** The model and mapping from files: loadEdmx and validateMapping, each failure one line. */
function modelFromFiles(sql: Sql, metadataFile: string, mappingFile: string | undefined, cwd: string): { model: EdmModel; mapping: SqlMapping } {
  let model: EdmModel;
  try {
    model = loadEdmx(readText(metadataFile, cwd));
  } catch (error) {
    if (isInstanceOf(error, CliError)) throw error;
    throw new CliError(`${metadataFile} is not a model this library can serve: ${oneLine(error)}`, { cause: error });
  }
  if (mappingFile === undefined) {
    try {
      return { model, mapping: sql.resolveMapping(model) };
    } catch (error) {
      throw new CliError(`${metadataFile} cannot be served by the naming conventions: ${problemsOf(error)}`, { cause: error });
    }
  }
  let json: unknown;
  try {
    json = JSON.parse(readText(mappingFile, cwd));
  } catch (error) {
    if (isInstanceOf(error, CliError)) throw error;
    throw new CliError(`${mappingFile} is not JSON: ${oneLine(error)}`, { cause: error });
  }
  try {
    return { model, mapping: sql.validateMapping(model, json) };
  } catch (error) {
    throw new CliError(`${mappingFile} does not fit ${metadataFile}: ${problemsOf(error)}`, { cause: error });
  }
}

/** A mapping error's problems on one line (the first five, and how many more). */
function problemsOf(error: unknown): string {
  // SqlMappingError's list of problems (a duck-typed read: the class comes with the lazily loaded SQL module).
  const listed = caughtProperty(error, 'problems');
  const problems = Array.isArray(listed) ? listed.map((problem) => messageOf(problem)) : [oneLine(error)];
  const shown = problems.slice(0, 5).join(' ');
  return problems.length > 5 ? `${shown} (and ${problems.length - 5} more)` : shown;
}

/** `http://127.0.0.1:4004`, with brackets around an IPv6 address. */
function origin(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function listen(server: Server, port: number, host: string): Promise<number> {
  return new Promise((done, fail) => {
    const failed = (error: NodeJS.ErrnoException): void => {
      const reason =
        error.code === 'EADDRINUSE'
          ? 'the port is in use (choose another with --port, or --port 0 for a free one)'
          : error.code === 'EACCES'
            ? 'permission denied'
            : error.code === 'EADDRNOTAVAIL'
              ? 'no such address on this machine'
              : oneLine(error);
      fail(new CliError(`Cannot listen on ${origin(host, port)}: ${reason}.`, { cause: error }));
    };
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      done((server.address() as AddressInfo).port);
    });
  });
}

/**
 * What serve cannot do on SQLite, refused before the file is opened: bound a statement's time (a
 * statement runs inside this process; the default bound is simply not applied), and run a request
 * as a database role (SQLite has no roles).
 */
function refuseOnSqlite(options: ParsedOptions, runsAsRoles: boolean): void {
  if (runsAsRoles) throw new CliError('serve: --auth and --anonymous-role run each request as a database role, which needs PostgreSQL: SQLite has no roles.');
  const timeout = integerOption('serve', options, 'statement-timeout', 0, 2_147_483_647);
  if (timeout !== undefined && timeout !== 0) throw new UsageError('serve: --statement-timeout needs PostgreSQL (SQLite cannot bound a statement)', 'serve');
}

/** Start serving; resolves once the port is open. */
export async function serve(options: ParsedOptions, io: CliIO): Promise<RunningService> {
  const dbSpec = databaseArgument('serve', options, io);
  const metadataFile = stringOption(options, 'metadata');
  const mappingFile = stringOption(options, 'mapping');
  if (mappingFile !== undefined && metadataFile === undefined) throw new UsageError('serve: --mapping needs --metadata (the model it maps)', 'serve');
  const port = integerOption('serve', options, 'port', 0, 65535, 4004) ?? 4004;
  const { maxPageSize, limits } = serviceBounds('serve', options);
  // PostgreSQL's statement_timeout is a 32-bit count of milliseconds.
  const statementTimeout = integerOption('serve', options, 'statement-timeout', 0, 2_147_483_647) ?? DEFAULT_STATEMENT_TIMEOUT_MS;
  const host = stringOption(options, 'host') ?? '127.0.0.1';
  const path = (stringOption(options, 'path') ?? '/odata').replace(/\/+$/, '');
  if (path !== '' && !/^\/[^?#\s]*$/.test(path)) throw new UsageError(`serve: --path must start with / (got '${path}')`, 'serve');
  const choices = modelOptions('serve', options);
  const authentication = authenticationOf('serve', options, io, host);
  const session = sessionOptions(authentication.runsAsRoles, (line) => io.err(`${new Date().toISOString()} warn ${line}`));
  const ui = options.ui === true;
  const ui5 = stringOption(options, 'ui5');
  if (ui5 !== undefined && !ui) throw new UsageError('serve: --ui5 needs --ui (the preview it configures)', 'serve');
  if (ui && path === '') throw new UsageError('serve: --ui needs a --path other than / (the preview is at /)', 'serve');

  const sql = await loadSql();
  // The files first: a mistake in them is reported before any connection is made.
  const fromFiles = metadataFile === undefined ? undefined : modelFromFiles(sql, metadataFile, mappingFile, io.cwd);
  const sqlite = databaseKind(dbSpec, io.cwd) === 'sqlite';
  if (sqlite) refuseOnSqlite(options, authentication.runsAsRoles);
  const open = await openDatabase(dbSpec, io.cwd, sql);
  try {
    const { model, mapping } = fromFiles ?? (await introspectDatabase('serve', open, options, choices, io));
    if (fromFiles !== undefined && metadataFile !== undefined) await checkModelFits(open, model, mapping, { metadata: metadataFile, mapping: mappingFile }, io);
    throwIfInterrupted(io);
    const provider = new open.sql.SqlProvider({
      model,
      db: open.db,
      mapping,
      ...session,
      ...(statementTimeout === 0 || sqlite ? {} : { statementTimeoutMs: statementTimeout }),
    });
    await checkKnownRoles(provider, authentication.knownRoles, open);
    throwIfInterrupted(io);
    const served = options['read-only'] === true ? readOnlyProvider(provider) : provider;
    const middleware = odata({
      model,
      provider: served,
      ...(maxPageSize === undefined ? {} : { maxPageSize }),
      limits,
      ...(options.csrf === true || authentication.csrf ? { csrf: true } : {}),
      logger: (event: ServiceLogEvent) =>
        io.err(`${new Date().toISOString()} ${event.level} ${event.status} ${event.method} ${path}/${event.url}: ${oneLine(event.message)}`),
    });
    const service = authentication.protect(middleware);
    // The preview says what $metadata says: with --read-only, display only.
    const preview = ui ? authentication.protect(previewOf(modelAsServed(model, served), path, ui5)) : undefined;
    const server = createServer((request: IncomingMessage & { baseUrl?: string }, response: ServerResponse) => {
      const started = process.hrtime.bigint();
      const url = request.url ?? '/';
      response.on('close', () => {
        const milliseconds = Number((process.hrtime.bigint() - started) / 1_000_000n);
        io.out(
          `${new Date().toISOString()} ${request.method ?? '-'} ${url} ${response.statusCode}${response.writableFinished ? '' : ' (aborted)'} ${milliseconds}ms`,
        );
      });
      const within = path === '' ? url : url === path || url.startsWith(`${path}/`) || url.startsWith(`${path}?`) ? url.slice(path.length) : undefined;
      const notFound = (): void => {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        response.end(`Not found. The OData service is at ${path}/${preview === undefined ? '' : ', its preview at /'}\n`);
      };
      if (within === undefined) {
        if (preview === undefined) notFound();
        else preview(request, response, notFound);
        return;
      }
      // What Express gives a mounted middleware: the mount path, and the URL below it.
      request.baseUrl = path;
      request.url = within === '' || within.startsWith('?') ? `/${within}` : within;
      service(request, response, (error?: unknown) => {
        io.err(`${new Date().toISOString()} error ${request.method ?? '-'} ${url}: ${oneLine(error)}`);
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end();
      });
    });
    const boundPort = await listen(server, port, host);
    const url = `${origin(host, boundPort)}${path}/`;
    const sets = model.defaultContainer.entitySets.length;
    io.out(`Serving ${sets} entity set${sets === 1 ? '' : 's'} of ${open.where}${options['read-only'] === true ? ' (read-only)' : ''} at ${url}`);
    if (preview !== undefined) io.out(`Fiori preview at ${origin(host, boundPort)}/`);
    return { url, close: () => closeService(server, open) };
  } catch (error) {
    await open.db.close().catch(() => undefined);
    throw error;
  }
}

/** The Fiori preview of `model` at /, its apps calling the service at `path`; a bad --ui5 is a usage error. */
function previewOf(model: EdmModel, path: string, ui5: string | undefined): FioriMiddleware {
  try {
    return fiori({ model, service: `${path}/`, ...(ui5 === undefined ? {} : { ui5 }) });
  } catch (error) {
    if (isInstanceOf(error, TypeError)) throw new UsageError(`serve: --ui5 ${error.message.replace(/^.*option ui5 /, '')}`, 'serve');
    throw error;
  }
}

/** The options checked before the database is opened (a mistake in them costs no connection). */
interface ModelOptions {
  readonly keys: Record<string, string[]>;
  readonly names: 'odata' | 'sql' | undefined;
  readonly annotations: 'fiori' | 'none' | undefined;
}

/** --key, --names and --annotations, checked. */
export function modelOptions(command: string, options: ParsedOptions): ModelOptions {
  return { keys: keysOption(command, options), names: namesOption(command, options), annotations: annotationsOption(command, options) };
}

/**
 * Introspect with the command line's options, printing the warnings, then check the keys no
 * unique index backs (a --key on a view, a partitioned table's key from its partitions): a key two
 * rows share is one line and exit code 1, before anything is served or written.
 */
export async function introspectDatabase(
  command: string,
  open: OpenDatabase,
  options: ParsedOptions,
  { keys, names, annotations }: ModelOptions,
  io: CliIO,
): Promise<{ model: EdmModel; mapping: SqlMapping }> {
  const schemas = listOption(options, 'schema');
  const asked = etagOption(command, options);
  // SQLite has no row version: unless --etag xmin asks for it (refused by introspect), ETags come from version columns only.
  const etag = open.db.engine === 'sqlite' && stringOption(options, 'etag') !== 'xmin' ? 'none' : asked.etag;
  const { versionColumns } = asked;
  const namespace = stringOption(options, 'namespace');
  let result: Awaited<ReturnType<typeof open.sql.introspect>>;
  try {
    result = await open.sql.introspect(open.db, {
      ...(schemas.length === 0 ? {} : { schemas }),
      include: listOption(options, 'include'),
      exclude: listOption(options, 'exclude'),
      keys,
      ...(versionColumns === undefined ? {} : { versionColumns }),
      etag,
      ...(namespace === undefined ? {} : { namespace }),
      ...(names === undefined ? {} : { names }),
      ...(annotations === undefined ? {} : { annotations }),
    });
  } catch (error) {
    if (isInstanceOf(error, open.sql.SqlIntrospectionError)) {
      for (const warning of error.warnings) io.err(`warning: ${warning.message}`);
      throw new CliError(error.message, { cause: error });
    }
    const message = messageOf(error);
    if (isInstanceOf(error, TypeError) && message.startsWith('introspect:')) throw new UsageError(message.replace(/^introspect: /, `${command}: `), command);
    throw new CliError(describeDatabaseError(error, open.where), { cause: error });
  }
  // Stopped while the database was read: no warnings about a model nobody will use.
  throwIfInterrupted(io);
  for (const warning of result.warnings) io.err(`warning: ${warning.message}`);
  let unchecked: readonly { readonly message: string }[];
  try {
    unchecked = await open.sql.checkKeys(open.db, result);
  } catch (error) {
    if (isInstanceOf(error, open.sql.SqlIntrospectionError)) throw new CliError(error.message, { cause: error });
    throw new CliError(describeDatabaseError(error, open.where), { cause: error });
  }
  for (const warning of unchecked) io.err(`warning: ${warning.message}`);
  return result;
}

async function closeService(server: Server, open: OpenDatabase): Promise<void> {
  const closed = new Promise<void>((done) => server.close(() => done()));
  server.closeIdleConnections();
  // Requests under way get five seconds to finish; then their connections are cut.
  const timer = setTimeout(() => server.closeAllConnections(), 5000);
  await closed;
  clearTimeout(timer);
  await open.db.close();
}
