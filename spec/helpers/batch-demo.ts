/**
 * The `$batch` end-to-end specs' shared setup: the demo app on a real 127.0.0.1 port (restarted
 * per test, on Express 4 or 5), request builders for batch bodies, and the comparison of a part
 * with the same request sent on its own (a batch part is served by the same pipeline).
 */
import { join } from 'path';
import type { EmbeddedResponse, HttpResult, LineEnds, ResponsePart } from './batch-http';
import { type BatchPart, batchBody, readBatchResponse, send } from './batch-http';
import { startDemo } from './demo';
import type { RunningServer } from './server';

export const JSON_TYPE = 'application/json';
export const JSON_UTF8 = 'application/json;charset=utf-8';
export const ATOM_UTF8 = 'application/atom+xml;charset=utf-8';
const ATOM_NS =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"';
export const RELATED = 'http://schemas.microsoft.com/ado/2007/08/dataservices/related/';
export const FIXTURES = join(__dirname, '..', 'fixtures', 'batch');
export const LINE_ENDS: readonly LineEnds[] = ['CRLF', 'LF'];

export const JSON_HEADERS = { Accept: JSON_TYPE };
export const JSON_WRITE = { 'Content-Type': JSON_TYPE, Accept: JSON_TYPE };
export const ATOM_WRITE = { 'Content-Type': 'application/atom+xml', Accept: 'application/atom+xml' };

/** A product body with every non-nullable property. */
export function productJson(id: number, name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ID: id, Name: name, ReleaseDate: '/Date(1767225600000)/', Rating: 4, Price: '1.5', ...extra });
}

export function productAtom(id: number, name: string, links = ''): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?><entry ${ATOM_NS}><title type="text">${name}</title>${links}` +
    '<category term="ODataDemo.Product" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"/>' +
    `<content type="application/xml"><m:properties><d:ID m:type="Edm.Int32">${id}</d:ID><d:ReleaseDate m:type="Edm.DateTime">2026-01-01T00:00:00</d:ReleaseDate>` +
    '<d:Rating m:type="Edm.Int32">4</d:Rating><d:Price m:type="Edm.Decimal">1.5</d:Price></m:properties></content></entry>'
  );
}

export function categoryAtom(id: number, name: string): string {
  return (
    `<?xml version="1.0" encoding="utf-8"?><entry ${ATOM_NS}><title type="text">${name}</title>` +
    `<content type="application/xml"><m:properties><d:ID m:type="Edm.Int32">${id}</d:ID><d:Name>${name}</d:Name></m:properties></content></entry>`
  );
}

/** The JSON error body of `code` with `message`. */
export function jsonError(code: string, message: string): unknown {
  return { error: { code, message: { lang: 'en-US', value: message } } };
}

/** The running demo of one describe block and what its tests do with it. */
export interface BatchDemo {
  /** The demo's base URL (`http://127.0.0.1:port`). */
  url(): string;
  /** Its service root, ending in `/`. */
  root(): string;
  /** Stop the demo and start it again with these service options (limits, csrf). */
  restart(service?: Record<string, unknown>): Promise<void>;
  postBatch(body: Buffer, contentType?: string, headers?: Record<string, string>): Promise<HttpResult>;
  runBatch(parts: readonly BatchPart[], lineEnds?: LineEnds): Promise<ResponsePart[]>;
  getJson(path: string): Promise<HttpResult & { json: unknown }>;
  /** Everything the demo stores, to prove a batch changed nothing. */
  snapshot(): Promise<unknown[]>;
  /** The part answers exactly what the same request answers on its own. */
  expectSameAsSingleRequest(part: EmbeddedResponse, path: string, headers: Record<string, string>): Promise<void>;
  expectSameResponse(part: EmbeddedResponse, alone: HttpResult): void;
}

/** Start the demo on `expressModule` before each test of the calling describe block and close it after. */
export function useBatchDemo(expressModule: unknown): BatchDemo {
  let demo: RunningServer | undefined;
  beforeEach(async () => {
    demo = await startDemo(expressModule);
  });
  afterEach(() => demo?.close());

  const url = (): string => {
    if (demo === undefined) throw new Error('the demo runs only inside a test');
    return demo.url;
  };
  const root = (): string => `${url()}/odata/`;
  const postBatch = (body: Buffer, contentType = 'multipart/mixed; boundary=batch_1', headers: Record<string, string> = {}): Promise<HttpResult> =>
    send(`${root()}$batch`, 'POST', { 'content-type': contentType, ...headers }, body);
  const getJson = async (path: string): Promise<HttpResult & { json: unknown }> => {
    const result = await send(root() + path, 'GET', { accept: JSON_TYPE });
    return { ...result, json: result.body.length === 0 ? undefined : JSON.parse(result.body.toString('utf8')) };
  };
  const expectSameResponse = (part: EmbeddedResponse, alone: HttpResult): void => {
    expect(part.status).toBe(alone.status);
    expect(part.body.toString('utf8')).toBe(alone.body.toString('utf8'));
    const own: Record<string, string> = {};
    for (const [name, value] of Object.entries(part.headers)) if (name !== 'Content-Length') own[name.toLowerCase()] = value;
    const expected: Record<string, string> = {};
    for (const name of ['content-type', 'dataserviceversion', 'etag', 'location']) if (alone.headers[name] !== undefined) expected[name] = alone.headers[name];
    expect(own).toEqual(expected);
  };
  return {
    url,
    root,
    restart: async (service = {}) => {
      await demo?.close();
      demo = await startDemo(expressModule, service);
    },
    postBatch,
    runBatch: async (parts, lineEnds = 'CRLF') => readBatchResponse(await postBatch(batchBody(parts, { lineEnds }))),
    getJson,
    snapshot: async () => [
      (await getJson('Products?$expand=Category,Supplier')).json,
      (await getJson('Categories?$expand=Products')).json,
      (await getJson('Suppliers?$expand=Products')).json,
    ],
    expectSameAsSingleRequest: async (part, path, headers) => expectSameResponse(part, await send(root() + path, 'GET', headers)),
    expectSameResponse,
  };
}
