/**
 * `$batch` over real HTTP for the e2e specs: a builder of batch request bodies (CRLF or bare LF),
 * a sender that keeps the response as bytes, and a strict reader of batch responses that checks
 * the framing byte for byte (CRLF everywhere, Content-Length counting bytes) as it goes.
 */

/** One embedded request. `mime` holds MIME part headers (Content-ID); `headers` the request's own. */
export interface BatchOperation {
  readonly method: string;
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  readonly mime?: Readonly<Record<string, string>>;
}

/** A changeset: its boundary and its operations. */
export interface BatchChangeset {
  readonly changeset: string;
  readonly operations: readonly (BatchOperation | BatchChangeset)[];
}

export type BatchPart = BatchOperation | BatchChangeset;

export type LineEnds = 'CRLF' | 'LF';

function isChangeset(part: BatchPart): part is BatchChangeset {
  return 'changeset' in part;
}

/** An operation; `contentLength: true` adds a Content-Length counting the body's UTF-8 bytes. */
export function operation(
  method: string,
  target: string,
  options: { headers?: Record<string, string>; body?: string; contentId?: string; contentLength?: boolean } = {},
): BatchOperation {
  const headers: Record<string, string> = { ...options.headers };
  if (options.contentLength === true && options.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(options.body, 'utf8'));
  return {
    method,
    target,
    headers,
    body: options.body,
    mime: options.contentId === undefined ? undefined : { 'Content-ID': options.contentId },
  };
}

export function changeset(boundary: string, ...operations: (BatchOperation | BatchChangeset)[]): BatchChangeset {
  return { changeset: boundary, operations };
}

function headerLines(headers: Readonly<Record<string, string>> | undefined): string[] {
  return Object.entries(headers ?? {}).map(([name, value]) => `${name}: ${value}`);
}

function writePart(part: BatchPart): string {
  if (isChangeset(part)) {
    const inner = part.operations.map((child) => `--${part.changeset}\n${writePart(child)}\n`).join('');
    return `Content-Type: multipart/mixed; boundary=${part.changeset}\n\n${inner}--${part.changeset}--\n`;
  }
  const mime = ['Content-Type: application/http', 'Content-Transfer-Encoding: binary', ...headerLines(part.mime)];
  const request = [`${part.method} ${part.target} HTTP/1.1`, ...headerLines(part.headers)];
  return [...mime, '', ...request, '', part.body ?? ''].join('\n');
}

/** A whole batch body. Bodies of operations must not contain line breaks (they would be converted too). */
export function batchBody(parts: readonly BatchPart[], options: { boundary?: string; lineEnds?: LineEnds } = {}): Buffer {
  const boundary = options.boundary ?? 'batch_1';
  const text = parts.map((part) => `--${boundary}\n${writePart(part)}\n`).join('') + `--${boundary}--\n`;
  return Buffer.from(options.lineEnds === 'LF' ? text : text.replace(/\n/g, '\r\n'), 'utf8');
}

/** Replace every bare LF with CRLF, byte for byte. */
export function toCrlf(bytes: Buffer): Buffer {
  const out: number[] = [];
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] === 0x0a && (i === 0 || bytes[i - 1] !== 0x0d)) out.push(0x0d);
    out.push(bytes[i]);
  }
  return Buffer.from(out);
}

/** An HTTP response with its body as bytes and its headers by lower-case name. */
export interface HttpResult {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Send one request with fetch (no body parsing, no added Content-Type). */
export async function send(url: string, method: string, headers: Record<string, string> = {}, body?: Buffer | string): Promise<HttpResult> {
  const response = await fetch(url, { method, headers, body: typeof body === 'string' ? Buffer.from(body, 'utf8') : body });
  const bytes = Buffer.from(await response.arrayBuffer());
  const names: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    names[name] = value;
  });
  return { status: response.status, headers: names, body: bytes };
}

/** One embedded response, with its MIME part headers and its own headers as written (names as spelled). */
export interface EmbeddedResponse {
  readonly mime: Readonly<Record<string, string>>;
  readonly statusLine: string;
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** The responses of a committed changeset. */
interface ChangesetResponse {
  readonly mime: Readonly<Record<string, string>>;
  readonly changeset: readonly EmbeddedResponse[];
}

export type ResponsePart = EmbeddedResponse | ChangesetResponse;

function isChangesetResponse(part: ResponsePart): part is ChangesetResponse {
  return 'changeset' in part;
}

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const BATCH_CONTENT_TYPE = new RegExp(`^multipart/mixed; boundary=(batch_${UUID})$`);
const CHANGESET_CONTENT_TYPE = new RegExp(`^multipart/mixed; boundary=(changesetresponse_${UUID})$`);

/** The boundary of a 202 batch response's Content-Type; throws when the header is not what the server must send. */
export function batchBoundaryOf(contentType: string | undefined): string {
  const match = BATCH_CONTENT_TYPE.exec(contentType ?? '');
  if (match === null) throw new Error(`not a batch response Content-Type: '${contentType}'`);
  return match[1];
}

/**
 * Read a batch response strictly: `--b CRLF` first, parts separated by `CRLF --b CRLF`, ending
 * `CRLF --b-- CRLF`; header lines end with CRLF and hold no other line break; every
 * `Content-Length` equals the byte length of its body; 204 and 304 have neither, and a part
 * without Content-Length (the answer to HEAD) has no body. Throws on any deviation.
 */
export function readBatchResponse(result: HttpResult): ResponsePart[] {
  if (result.status !== 202) throw new Error(`expected 202, got ${result.status}: ${result.body.toString('utf8')}`);
  if (result.headers['content-length'] !== String(result.body.length)) throw new Error('the outer Content-Length does not count the body bytes');
  return splitParts(result.body, batchBoundaryOf(result.headers['content-type']), true).map(readPart);
}

function splitParts(bytes: Buffer, boundary: string, topLevel: boolean): Buffer[] {
  const first = Buffer.from(`--${boundary}\r\n`, 'latin1');
  if (!bytes.subarray(0, first.length).equals(first)) throw new Error(`the body does not start with '--${boundary}' CRLF`);
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  const parts: Buffer[] = [];
  let pos = first.length;
  for (;;) {
    const at = bytes.indexOf(delimiter, pos);
    if (at < 0) throw new Error(`no delimiter '--${boundary}' after offset ${pos}`);
    parts.push(bytes.subarray(pos, at));
    const after = at + delimiter.length;
    const next = bytes.toString('latin1', after, after + 2);
    if (next === '--') {
      // The top-level close delimiter ends the body with CRLF; a changeset's CRLF belongs to the outer delimiter.
      const rest = bytes.toString('latin1', after + 2);
      if (rest !== (topLevel ? '\r\n' : '')) throw new Error(`unexpected bytes after '--${boundary}--': ${JSON.stringify(rest)}`);
      return parts;
    }
    if (next !== '\r\n') throw new Error(`the delimiter '--${boundary}' is not followed by CRLF`);
    pos = after + 2;
  }
}

function readHead(bytes: Buffer, where: string): { lines: string[]; rest: Buffer } {
  const end = bytes.indexOf('\r\n\r\n', 0, 'latin1');
  if (end < 0) throw new Error(`${where}: no empty line after the headers`);
  const lines = bytes.toString('latin1', 0, end).split('\r\n');
  for (const line of lines) if (line.includes('\n') || line.includes('\r')) throw new Error(`${where}: a bare line break in '${line}'`);
  return { lines, rest: bytes.subarray(end + 4) };
}

function headerMap(lines: readonly string[], where: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(': ');
    if (colon <= 0) throw new Error(`${where}: '${line}' is not 'Name: value'`);
    headers[line.slice(0, colon)] = line.slice(colon + 2);
  }
  return headers;
}

function readPart(bytes: Buffer): ResponsePart {
  const { lines, rest } = readHead(bytes, 'MIME part');
  const mime = headerMap(lines, 'MIME part');
  const changesetMatch = CHANGESET_CONTENT_TYPE.exec(mime['Content-Type'] ?? '');
  if (changesetMatch !== null) {
    const inner = splitParts(rest, changesetMatch[1], false).map((part) => {
      const read = readPart(part);
      if (isChangesetResponse(read)) throw new Error('a changeset response inside a changeset response');
      return read;
    });
    return { mime, changeset: inner };
  }
  if (mime['Content-Type'] !== 'application/http' || mime['Content-Transfer-Encoding'] !== 'binary') {
    throw new Error(`unexpected MIME part headers ${JSON.stringify(mime)}`);
  }
  return readEmbedded(mime, rest);
}

function readEmbedded(mime: Record<string, string>, bytes: Buffer): EmbeddedResponse {
  const { lines, rest } = readHead(bytes, 'embedded response');
  const [statusLine, ...headerLines] = lines;
  const match = /^HTTP\/1\.1 (\d{3}) [A-Za-z -]+$/.exec(statusLine);
  if (match === null) throw new Error(`bad status line '${statusLine}'`);
  const status = Number(match[1]);
  const headers = headerMap(headerLines, statusLine);
  if (status === 204 || status === 304) {
    if (headers['Content-Length'] !== undefined || rest.length !== 0) throw new Error(`a ${status} response with Content-Length or a body`);
  } else if (headers['Content-Length'] === undefined) {
    // Only the answer to HEAD goes without: it has no body (the specs assert the headers exactly).
    if (rest.length !== 0) throw new Error(`${statusLine}: a body without Content-Length`);
  } else if (headers['Content-Length'] !== String(rest.length)) {
    throw new Error(`${statusLine}: Content-Length ${headers['Content-Length']} but the body has ${rest.length} bytes`);
  }
  return { mime, statusLine, status, headers, body: rest };
}

/** Statuses of the parts, a changeset as an array: `[200, [201, 204], 404]`. */
export function statuses(parts: readonly ResponsePart[]): (number | number[])[] {
  return parts.map((part) => (isChangesetResponse(part) ? part.changeset.map((response) => response.status) : part.status));
}

/** The part at `index`, which must be a single response. */
export function single(parts: readonly ResponsePart[], index: number): EmbeddedResponse {
  const part = parts[index];
  if (part === undefined || isChangesetResponse(part)) throw new Error(`part ${index} is not a single response`);
  return part;
}

/** The changeset responses of the part at `index`. */
export function changesetOf(parts: readonly ResponsePart[], index: number): readonly EmbeddedResponse[] {
  const part = parts[index];
  if (part === undefined || !isChangesetResponse(part)) throw new Error(`part ${index} is not a changeset response`);
  return part.changeset;
}

/** The JSON body of an embedded response. */
export function jsonOf(response: { readonly body: Buffer }): unknown {
  return JSON.parse(response.body.toString('utf8'));
}
