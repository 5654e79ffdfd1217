/**
 * The Gallery service over a FaultyProvider, whose hostile throw each request chooses with two
 * headers: `x-throw-from` (a ThrowingMethod) and `x-throw-value` (a label of HOSTILE_VALUES).
 * The same service runs in process (hostile-provider.spec.ts) and as a process of its own
 * (faulty-service-process.js, for spec/package/survival.spec.ts). Requests are expected one at a time.
 */
import express from 'express';
import { describeCaught, odata, type ServiceLogEvent } from '../../lib';
import { batchBody, changeset, operation } from './batch-http';
import { galleryProvider, GALLERY_MODEL, THROWING_METHODS, type FaultyProvider, type ThrowingMethod } from './faulty-provider';
import { HOSTILE_VALUES } from './hostile-values';
import { startServer } from './server';

/** A request that reaches one method of the provider. */
export interface FaultRequest {
  readonly method: string;
  /** Below the service root. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** A `$batch`: 202, with the failed operation's 500 inside. */
  readonly batch?: true;
}

const JSON_HEADERS = { accept: 'application/json', 'content-type': 'application/json' };

const json = (method: string, path: string, body?: unknown): FaultRequest => ({
  method,
  path,
  headers: JSON_HEADERS,
  ...(body === undefined ? {} : { body: JSON.stringify(body) }),
});

const inChangeset = (...operations: Parameters<typeof changeset>[1][]): FaultRequest => ({
  method: 'POST',
  path: '$batch',
  headers: { 'content-type': 'multipart/mixed; boundary=batch_1' },
  body: batchBody([changeset('changeset_1', ...operations)]),
  batch: true,
});

const createInBatch = (id: number): ReturnType<typeof operation> =>
  operation('POST', 'Albums', { headers: JSON_HEADERS, body: JSON.stringify({ ID: id, Name: 'Batched' }) });

/**
 * For each place a hostile value is thrown from, a request that gets there: outside a transaction
 * (reads, the answer's etag and media type), in a single write's transaction (MemoryProvider runs
 * it under its write lock), and in a `$batch` changeset's.
 */
export const FAULT_REQUESTS: readonly (readonly [string, ThrowingMethod, FaultRequest])[] = [
  ['GET Albums', 'query', json('GET', 'Albums')],
  ['GET Albums/$count', 'count', json('GET', 'Albums/$count')],
  ['GET Photos(1)/$value', 'readMedia', json('GET', 'Photos(1)/$value')],
  ['GET Photos(1), its ETag', 'etag', json('GET', 'Photos(1)')],
  ['GET Photos(1), its media type (Atom)', 'mediaOf', { method: 'GET', path: 'Photos(1)', headers: {} }],
  ['POST Albums', 'create', json('POST', 'Albums', { ID: 50, Name: 'New' })],
  ['MERGE Albums(1)', 'update', json('MERGE', 'Albums(1)', { Name: 'Merged' })],
  ['DELETE Albums(3)', 'delete', json('DELETE', 'Albums(3)')],
  ['POST Albums(1)/$links/Photos', 'link', json('POST', 'Albums(1)/$links/Photos', { uri: 'Photos(4)' })],
  ['PUT Photos(1)/$value', 'writeMedia', { method: 'PUT', path: 'Photos(1)/$value', headers: { 'content-type': 'text/plain' }, body: 'new bytes' }],
  ["POST AddAlbum?ID=51&Name='Op'", 'operation', json('POST', "AddAlbum?ID=51&Name='Op'")],
  ['POST Albums, its transaction before the work', 'transaction', json('POST', 'Albums', { ID: 52, Name: 'New' })],
  ['POST Albums, its transaction after the work', 'commit', json('POST', 'Albums', { ID: 53, Name: 'New' })],
  ['a changeset of two creates', 'create', inChangeset(createInBatch(54), createInBatch(55))],
  ['a changeset whose transaction fails after its work', 'commit', inChangeset(createInBatch(56))],
  ['a changeset whose transaction fails before its work', 'transaction', inChangeset(createInBatch(57))],
];

/** A running faulty service. */
export interface FaultyService {
  /** `http://127.0.0.1:<port>/odata/`. */
  readonly root: string;
  readonly provider: FaultyProvider;
  /** What the service logged, one line each (read safely: the errors are the hostile values). */
  readonly logged: string[];
  close(): Promise<void>;
}

const VALUES = new Map(HOSTILE_VALUES);
const METHODS: ReadonlySet<string> = new Set(THROWING_METHODS);

/** Serve the Gallery on a free 127.0.0.1 port. */
export async function startFaultyService(): Promise<FaultyService> {
  const provider = galleryProvider();
  const logged: string[] = [];
  const app = express();
  app.use((request, _response, next) => {
    const from = request.header('x-throw-from');
    const make = VALUES.get(request.header('x-throw-value') ?? '');
    provider.throwing = from !== undefined && METHODS.has(from) && make !== undefined ? { method: from as ThrowingMethod, make } : undefined;
    next();
  });
  const logger = (event: ServiceLogEvent): void => {
    logged.push(`${event.status} ${event.method} ${event.url}: ${event.message} (${describeCaught(event.error).summary})`);
  };
  app.use('/odata', odata({ model: GALLERY_MODEL, provider, requireIfMatch: false, logger }));
  const server = await startServer(app);
  return { root: `${server.url}/odata/`, provider, logged, close: () => server.close() };
}

/** An answer: status and body text. */
export interface FaultAnswer {
  readonly status: number;
  readonly body: string;
}

/** Send `request` to the service at `root`, with the provider told to throw the value labelled `value` from `from`. */
export async function sendFault(root: string, request: FaultRequest, from: ThrowingMethod, value: string): Promise<FaultAnswer> {
  const response = await fetch(root + request.path, {
    method: request.method,
    headers: { ...request.headers, 'x-throw-from': from, 'x-throw-value': value },
    ...(request.body === undefined ? {} : { body: request.body }),
  });
  return { status: response.status, body: await response.text() };
}
