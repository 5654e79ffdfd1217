/**
 * Shared helpers of the batch specs: fixture loading (LF and CRLF), a fake pipeline that records
 * its calls, a fake transaction that logs begin/commit/rollback, and two independent readers of
 * batch responses that follow the rules datajs (SAPUI5) and SAP Cloud SDK apply to them.
 */
import { readFileSync } from 'fs';
import { IncomingMessage } from 'http';
import { Socket } from 'net';
import { join } from 'path';
import { ODataError } from '../../lib/errors';
import type { ODataRequest, ODataResponse, RequestContext } from '../../lib/protocol/message';
import type { OuterRequest } from '../../lib/batch';
export { catchODataError, rejectsWithODataError } from '../helpers/odata-error';

export const SERVICE_ROOT = 'http://localhost:4004/odata/';

/** A fixture body from spec/fixtures/batch, as stored (LF) or converted to CRLF. */
export function fixture(name: string, lineEnds: 'lf' | 'crlf'): Buffer {
  const text = readFileSync(join(__dirname, '..', 'fixtures', 'batch', name));
  return lineEnds === 'lf' ? text : crlf(text);
}

/** Replace every bare LF with CRLF (bytes, so multi-byte characters stay intact). */
export function crlf(body: Buffer | string): Buffer {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a && (i === 0 || bytes[i - 1] !== 0x0d)) out.push(0x0d);
    out.push(bytes[i]);
  }
  return Buffer.from(out);
}

export function context(): RequestContext {
  return { request: new IncomingMessage(new Socket()), state: new Map() };
}

export function outer(overrides: Partial<OuterRequest> = {}): OuterRequest {
  return {
    serviceRoot: SERVICE_ROOT,
    servicePath: '/odata',
    headers: { 'content-type': 'multipart/mixed; boundary=batch_1', accept: 'multipart/mixed' },
    context: context(),
    ...overrides,
  };
}

/** What the fake pipeline saw. */
interface RecordedCall {
  readonly method: string;
  readonly path: string;
  readonly query: string;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: string | undefined;
  readonly bodyBytes: Buffer | undefined;
  readonly contentIds: Readonly<Record<string, string>> | undefined;
  readonly context: RequestContext;
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}): ODataResponse {
  return { status, headers: { 'content-type': 'application/json;charset=utf-8', dataserviceversion: '2.0;', ...headers }, body: JSON.stringify(value) };
}

function jsonError(error: ODataError): ODataResponse {
  return json(error.status, { error: { code: error.code, message: { lang: 'en-US', value: error.message } } }, { dataserviceversion: '1.0;' });
}

/**
 * A fake `service.handle`: POST creates `<path>(<n>)` (201 + Location + JSON), GET echoes the path
 * (200), other writes answer 204. Paths starting with `Missing` answer 404, with `Fail` 400,
 * with `Throw` throw a foreign error. `respond` overrides any of that.
 */
export function fakeService(respond?: (request: ODataRequest) => ODataResponse | undefined) {
  const calls: RecordedCall[] = [];
  const log: string[] = [];
  let nextKey = 100;
  const handle = async (request: ODataRequest): Promise<ODataResponse> => {
    calls.push({
      method: request.method,
      path: request.path,
      query: request.query,
      headers: request.headers,
      body: request.body?.toString('utf8'),
      bodyBytes: request.body,
      contentIds: request.contentIds ? Object.fromEntries(request.contentIds) : undefined,
      context: request.context,
    });
    log.push(`${request.method} ${request.path}`);
    const custom = respond?.(request);
    if (custom !== undefined) return custom;
    if (request.path.startsWith('Missing')) return jsonError(ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: request.path }));
    if (request.path.startsWith('Fail')) return jsonError(ODataError.fromCode('BAD_REQUEST', { detail: `refused ${request.path}` }));
    if (request.path.startsWith('Throw')) throw new TypeError('provider bug');
    switch (request.method) {
      case 'GET':
        return json(200, { d: { path: request.path, query: request.query } });
      case 'POST': {
        const created = `${request.path}(${nextKey++})`;
        return json(201, { d: { __metadata: { uri: request.serviceRoot + created } } }, { location: request.serviceRoot + created });
      }
      default:
        return { status: 204, headers: { dataserviceversion: '1.0;' }, body: undefined };
    }
  };
  const transaction = async <T>(fn: () => Promise<T>): Promise<T> => {
    log.push('begin');
    try {
      const result = await fn();
      log.push('commit');
      return result;
    } catch (error) {
      log.push('rollback');
      throw error;
    }
  };
  return { handle, transaction, calls, log };
}

/** One embedded response as a client sees it. */
export interface ClientResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** A batch response as a client sees it: a response, or the responses of a changeset. */
export type ClientPart = ClientResponse | { readonly changeset: ClientResponse[] };

/**
 * Reads a batch response the way datajs' `readBatch` does (SAPUI5 v2 uses it): read to the
 * delimiter, headers until a line that is not `name: value`, a changeset part recursively, and an
 * embedded response's body up to CRLF + delimiter; the status line must match
 * `HTTP/1.x NNN reason`.
 */
export function readLikeDatajs(text: string, boundary: string): ClientPart[] {
  const state = { pos: 0 };
  return readDatajsBatch(text, [boundary], state);
}

function readTo(text: string, state: { pos: number }, marker: string): string | null {
  const at = text.indexOf(marker, state.pos);
  if (at < 0) return null;
  const out = text.slice(state.pos, at);
  state.pos = at + marker.length;
  return out;
}

function readDatajsHeaders(text: string, state: { pos: number }): Record<string, string> {
  const headers: Record<string, string> = {};
  for (;;) {
    const start = state.pos;
    const line = readTo(text, state, '\r\n');
    const match = line === null ? null : /^([^()<>@,;:\\"/[\]?={} \t]+)\s?:\s?(.*)/.exec(line);
    if (match === null) {
      state.pos = start;
      return headers;
    }
    headers[match[1].toLowerCase()] = match[2];
  }
}

function readDatajsBatch(text: string, boundaries: string[], state: { pos: number }): ClientPart[] {
  const delimiter = `--${boundaries[boundaries.length - 1]}`;
  if (readTo(text, state, delimiter) === null) throw new Error(`datajs: no delimiter ${delimiter}`);
  readTo(text, state, '\r\n');
  const parts: ClientPart[] = [];
  let partEnd = '';
  while (partEnd !== '--' && state.pos < text.length) {
    const headers = readDatajsHeaders(text, state);
    const contentType = headers['content-type'] ?? '';
    if (contentType.startsWith('multipart/mixed')) {
      const inner = /boundary=([^;]+)/.exec(contentType);
      if (inner === null) throw new Error('datajs: changeset without boundary');
      boundaries.push(inner[1]);
      const changeset = readDatajsBatch(text, boundaries, state) as ClientResponse[];
      boundaries.pop();
      parts.push({ changeset });
      readTo(text, state, `--${boundaries[boundaries.length - 1]}`);
    } else {
      if (!contentType.startsWith('application/http')) throw new Error(`datajs: invalid MIME part type '${contentType}'`);
      readTo(text, state, '\r\n');
      const statusLine = readTo(text, state, '\r\n') ?? '';
      const status = /^HTTP\/1\.\d (\d{3}) (.*)$/i.exec(statusLine);
      if (status === null) throw new Error(`datajs: bad status line '${statusLine}'`);
      const responseHeaders = readDatajsHeaders(text, state);
      readTo(text, state, '\r\n');
      const body = readTo(text, state, `\r\n${delimiter}`);
      if (body === null) throw new Error('datajs: body not terminated by CRLF + delimiter');
      parts.push({ status: Number(status[1]), headers: responseHeaders, body });
    }
    partEnd = text.slice(state.pos, state.pos + 2);
    readTo(text, state, '\r\n');
  }
  return parts;
}

/**
 * Reads a batch response the way SAP Cloud SDK's `batch-response-parser.ts` does: the boundary is
 * everything after `boundary=`, parts are the trimmed pieces between `--boundary` markers, a part
 * whose headers say multipart/mixed is a changeset, the status is the first `HTTP/d.d NNN`, and
 * the body is the last line of the part.
 */
export function readLikeCloudSdk(text: string, contentType: string): Array<{ httpCode: number; body: string } | Array<{ httpCode: number; body: string }>> {
  const split = (response: string, boundary: string): string[] => {
    // The SDK re-appends a line break to a trimmed 204 part, so that its last line (the body) is empty.
    const pieces = response.split(`--${boundary}`).map((piece) => (piece.trim().includes('204 No Content') ? `${piece.trim()}\r\n` : piece.trim()));
    if (pieces.length < 3) throw new Error('Cloud SDK: expected at least two boundaries');
    return pieces.slice(1, pieces.length - 1);
  };
  const boundaryOf = (value: string): string => {
    const pieces = value.split('boundary=');
    if (pieces.length < 2) throw new Error('Cloud SDK: no boundary');
    return pieces[pieces.length - 1];
  };
  const headersOf = (part: string): Record<string, string> => {
    const [head] = part.split('\r\n\r\n');
    const headers: Record<string, string> = {};
    for (const line of head.split('\r\n')) {
      const [key, value] = line.split(':');
      headers[key.toLowerCase()] = value?.trim() ?? '';
    }
    return headers;
  };
  const data = (part: string): { httpCode: number; body: string } => {
    const code = /HTTP\/\d\.\d (\d{3}).*?/.exec(part);
    if (code === null) throw new Error('Cloud SDK: no http code');
    const partLines = part.split('\r\n');
    return { httpCode: Number(code[1]), body: partLines[partLines.length - 1] };
  };
  return split(text.trim(), boundaryOf(contentType)).map((part) => {
    const type = headersOf(part)['content-type'] ?? '';
    if (type.startsWith('multipart/mixed')) return split(part, boundaryOf(type)).map(data);
    if (type.startsWith('application/http')) return data(part);
    throw new Error(`Cloud SDK: unknown part type '${type}'`);
  });
}

/** A deterministic pseudo-random generator for the fuzz specs (shared: spec/helpers/random). */
export { seededRandom as random } from '../helpers/random';

/** A boundary factory that counts: `batch_1`, `changesetresponse_2`, ... */
export function countingBoundaries(): (prefix: string) => string {
  let n = 0;
  return (prefix) => `${prefix}${++n}`;
}

/**
 * Reads a batch response the way the WCF Data Services client does (System.Data.Services.Client
 * 4.0 `BatchStream`, whose rules ODataLib 5's batch reader kept): an `application/http` part must
 * have exactly the MIME headers Content-Type and `Content-Transfer-Encoding: binary` ("invalid
 * number of headers at operation start" otherwise), a changeset part at most Content-Type and
 * Content-Length; the body is read by Content-Length when there is one, else up to CRLF + delimiter.
 * The client matches changeset responses to its requests by the Content-ID among the embedded
 * response's own headers.
 */
export function readLikeWcfClient(text: string, boundary: string): ClientPart[] {
  const state = { pos: 0 };
  const delimiter = `--${boundary}`;
  if (readTo(text, state, `${delimiter}\r\n`) === null) throw new Error(`WCF client: no delimiter ${delimiter}`);
  const parts: ClientPart[] = [];
  for (;;) {
    const mime = readWcfHeaders(text, state);
    const contentType = mime['content-type'] ?? '';
    if (contentType.startsWith('multipart/mixed')) {
      if (Object.keys(mime).some((name) => name !== 'content-type' && name !== 'content-length')) {
        throw new Error(`WCF client: invalid number of headers at changeset start: ${JSON.stringify(mime)}`);
      }
      const inner = /boundary=([^;]+)/.exec(contentType)?.[1];
      if (inner === undefined) throw new Error('WCF client: changeset without boundary');
      const changeset: ClientResponse[] = [];
      if (readTo(text, state, `--${inner}\r\n`) === null) throw new Error('WCF client: no changeset delimiter');
      for (;;) {
        changeset.push(readWcfOperation(text, state, readWcfHeaders(text, state), `--${inner}`));
        if (text.startsWith('--', state.pos)) break;
        readTo(text, state, '\r\n');
      }
      readTo(text, state, '\r\n');
      parts.push({ changeset });
      if (readTo(text, state, delimiter) === null) throw new Error('WCF client: no delimiter after a changeset');
    } else {
      parts.push(readWcfOperation(text, state, mime, delimiter));
    }
    if (text.startsWith('--', state.pos)) return parts;
    readTo(text, state, '\r\n');
  }
}

function readWcfHeaders(text: string, state: { pos: number }): Record<string, string> {
  const headers: Record<string, string> = {};
  for (;;) {
    const line = readTo(text, state, '\r\n');
    if (line === null) throw new Error('WCF client: headers do not end');
    if (line === '') return headers;
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
}

/** One `application/http` part whose MIME headers were read; stops before the CRLF that starts the next delimiter. */
function readWcfOperation(text: string, state: { pos: number }, mime: Record<string, string>, delimiter: string): ClientResponse {
  const names = Object.keys(mime).sort();
  if (names.length !== 2 || names[0] !== 'content-transfer-encoding' || names[1] !== 'content-type') {
    throw new Error(`WCF client: invalid number of headers at operation start: ${JSON.stringify(mime)}`);
  }
  if (mime['content-transfer-encoding'] !== 'binary') throw new Error('WCF client: Content-Transfer-Encoding must be binary');
  const statusLine = readTo(text, state, '\r\n') ?? '';
  const status = /^HTTP\/1\.1 (\d{3}) /.exec(statusLine);
  if (status === null) throw new Error(`WCF client: bad status line '${statusLine}'`);
  const headers = readWcfHeaders(text, state);
  let body: string;
  if (headers['content-length'] !== undefined) {
    const bytes = Buffer.from(text.slice(state.pos), 'utf8').subarray(0, Number(headers['content-length']));
    body = bytes.toString('utf8');
    state.pos += body.length;
    if (!text.startsWith(`\r\n${delimiter}`, state.pos)) throw new Error('WCF client: Content-Length does not end at the delimiter');
    state.pos += 2 + delimiter.length;
  } else {
    body = readTo(text, state, `\r\n${delimiter}`) ?? '';
  }
  return { status: Number(status[1]), headers, body };
}
