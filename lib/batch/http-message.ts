/**
 * Embedded HTTP messages (`application/http`, `Content-Transfer-Encoding: binary`): reads the
 * request inside a MIME part into an ODataRequest, and writes a response as bytes. A request that
 * cannot be read becomes an `invalid` operation (answered by one error response), never a throw;
 * only limits throw, because they refuse the whole batch.
 */
import { STATUS_CODES } from 'http';
import { ODataError, isODataError } from '../errors';
import type { ODataRequest } from '../protocol/message';
import { checkContentId } from './content-id';
import { isTokenChar } from '../protocol/media-type';
import { canonicalHeaderName, emptyHeaderMap, printable, readHeaderText } from './headers';
import type { MimePart } from './multipart-reader';
import { toServiceTarget } from './request-target';
import type { BatchLimits, BatchOperation, BufferedResponse, ContentIdPlacement, OuterRequest } from './types';

/**
 * Outer headers a part inherits unless it sends its own. MS-ODATA §2.2.7.6: DataServiceVersion,
 * MaxDataServiceVersion "and other HTTP headers ... apply to the whole batch"; Accept-Language
 * picks the language of messages. Not inherited: Accept (the outer one asks for multipart/mixed),
 * Content-Type/Length (they describe the outer body) and Authorization (parts see the outer
 * request through `context`, so they are authorised exactly like it).
 */
const INHERITED_HEADERS: readonly string[] = ['dataserviceversion', 'maxdataserviceversion', 'accept-language'];

/** Header fields the batch framing owns; an embedded response never carries them. */
const FRAMING_HEADERS: ReadonlySet<string> = new Set(['content-length', 'transfer-encoding', 'connection']);

/** The outer headers every part starts with. */
export function inheritedHeaders(outer: OuterRequest): Record<string, string> {
  const headers = emptyHeaderMap();
  for (const name of INHERITED_HEADERS) {
    const value = outer.headers[name];
    if (value !== undefined) headers[name] = value;
  }
  return headers;
}

/** The names among `inherited` the part did not send itself; undefined when there are none (the usual case). */
function inheritedOnly(inherited: Readonly<Record<string, string>>, own: Readonly<Record<string, string>>): ReadonlySet<string> | undefined {
  let names: Set<string> | undefined;
  for (const name in inherited) {
    if (own[name] === undefined) (names ??= new Set()).add(name);
  }
  return names;
}

/** A stand-in request for a part that could not be read: it carries what is known, to pick the error format. */
export function placeholderRequest(outer: OuterRequest, headers: Readonly<Record<string, string>>): ODataRequest {
  return { method: 'GET', path: '', query: '', headers, body: undefined, serviceRoot: outer.serviceRoot, context: outer.context };
}

/**
 * Read the request of one `application/http` part. The Content-ID comes from the MIME part header
 * (MS-ODATA, SAP Cloud SDK) or else from the embedded request's headers (WCF Data Services
 * client, SAPUI5); SAP Gateway accepts both places, and so do we.
 */
export function readEmbeddedRequest(part: MimePart, outer: OuterRequest, servicePath: string, limits: BatchLimits): BatchOperation {
  // The stand-in request for an error answer is built only when one is needed (not per part).
  let known: Record<string, string> | undefined;
  let contentId: string | undefined;
  let contentIdPlacement: ContentIdPlacement | undefined;
  try {
    const mimeId = part.headers['content-id'];
    if (mimeId !== undefined) contentId = checkContentId(mimeId, part.label);
    const message = readRequestMessage(part.content, part.label, limits.maxBatchPartHeaderBytes, part.contentText, part.delimiterBreak);
    const inherited = inheritedHeaders(outer);
    const inheritedNames = inheritedOnly(inherited, message.headers);
    const headers: Record<string, string> = Object.assign(inherited, message.headers);
    known = headers;
    const messageId = message.headers['content-id'];
    if (messageId !== undefined) {
      if (contentId === undefined) contentId = checkContentId(messageId, part.label);
      contentIdPlacement = mimeId === undefined ? 'message' : 'both';
    }
    const target = toServiceTarget(message.target, servicePath, part.label);
    if (target.path === '$batch' || target.path.startsWith('$batch/')) {
      throw ODataError.fromCode('BATCH_NOT_ALLOWED', { detail: `${part.label}: a batch cannot contain another $batch request` });
    }
    if (message.body === undefined) delete headers['content-length'];
    else headers['content-length'] = String(message.body.length);
    const request: ODataRequest = {
      method: message.method,
      path: target.path,
      query: target.query,
      headers,
      body: message.body,
      serviceRoot: outer.serviceRoot,
      context: outer.context,
      inheritedHeaders: inheritedNames,
    };
    return { kind: 'request', request, contentId, contentIdPlacement, label: part.label };
  } catch (error) {
    if (!isODataError(error) || error.code === 'BATCH_PART_LIMIT') throw error;
    const request = placeholderRequest(outer, known ?? inheritedHeaders(outer));
    return { kind: 'invalid', error, request, contentId, contentIdPlacement, label: part.label };
  }
}

/** The pieces of an embedded request message. */
interface RequestMessage {
  readonly method: string;
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer | undefined;
}

/**
 * HTTP-message = request-line *( header-field CRLF ) CRLF [ message-body ]     RFC 7230 §3
 * Leading empty lines are skipped (§3.5: a server "SHOULD ignore at least one empty line").
 * Headers that run to the end of the part mean no body (the CRLF before the next delimiter
 * belongs to the delimiter, so `GET X HTTP/1.1<CRLF>Host: h<CRLF>--b` ends without an empty line).
 * Body (§3.3.3): with Content-Length, exactly that many bytes, and only whitespace may follow;
 * without it, everything to the part's end minus one trailing line break (SAP Cloud SDK and the
 * MS-ODATA examples put an empty line between body and delimiter). Transfer-Encoding is refused.
 * `delimiterBreak` is the length of the line break between the part and the next delimiter (RFC
 * 2046 §5.1.1 makes it part of the delimiter): a Content-Length that counts it too is accepted.
 */
export function readRequestMessage(content: Buffer, where: string, maxHeaderBytes: number, contentText?: string, delimiterBreak = 0): RequestMessage {
  let start = 0;
  for (;;) {
    if (content[start] === LF) start += 1;
    else if (content[start] === CR && content[start + 1] === LF) start += 2;
    else break;
  }
  if (start >= content.length) throw syntax(where, 'the part contains no request (expected METHOD target HTTP/1.1)');
  // Request line and headers are read as text: the part's decoded content when the MIME reader
  // has it, else the most the limit lets them take, decoded once (never the body).
  const decoded = Math.min(content.length, start + maxHeaderBytes + 4);
  const text = contentText ?? content.toString('latin1', 0, decoded);
  const lf = text.indexOf('\n', start);
  const firstEnd = lf < 0 || lf >= decoded ? decoded : lf > start && text.charCodeAt(lf - 1) === CR ? lf - 1 : lf;
  if (firstEnd - start > maxHeaderBytes) {
    throw ODataError.fromCode('BATCH_PART_LIMIT', { limit: maxHeaderBytes, what: `bytes in the headers of ${where}` });
  }
  const { method, target } = parseRequestLine(text.slice(start, firstEnd), where);
  const block = readHeaderText(text, lf < 0 || lf >= decoded ? decoded : lf + 1, content.length, maxHeaderBytes, where, start);
  const { headers } = block;
  if (headers['transfer-encoding'] !== undefined) {
    throw syntax(where, `Transfer-Encoding '${printable(headers['transfer-encoding'])}' is not supported inside a batch; send Content-Length or nothing`);
  }
  const available = content.subarray(block.contentStart);
  const length = headers['content-length'];
  let body: Buffer;
  if (length === undefined) body = withoutTrailingLineBreak(available);
  else body = bodyByLength(available, length, where, delimiterBreak);
  return { method, target, headers, body: body.length === 0 ? undefined : body };
}

/**
 * request-line = method SP request-target SP HTTP-version           RFC 7230 §3.1.1
 * Words may be separated by runs of SP or HTAB (§3.5 allows it). Only HTTP/1.1 and HTTP/1.0.
 */
export function parseRequestLine(line: string, where: string): { method: string; target: string } {
  const words = splitWords(line);
  const last = words[words.length - 1];
  if (words.length > 3 && isHttpVersion(last)) {
    throw syntax(where, `the request target in '${printable(line)}' contains whitespace; percent-encode spaces as %20`);
  }
  if (words.length !== 3) {
    throw syntax(where, `'${printable(line)}' is not a request line (expected METHOD target HTTP/1.1)`);
  }
  const [method, target, version] = words;
  for (let i = 0; i < method.length; i++) {
    if (!isTokenChar(method.charCodeAt(i))) throw syntax(where, `'${printable(method)}' is not an HTTP method`);
  }
  if (!isHttpVersion(version)) throw syntax(where, `unsupported HTTP version '${printable(version)}' (expected HTTP/1.1)`);
  return { method, target };
}

/** The words of a line separated by runs of SP or HTAB (a loop: the regex split and filter cost more per part). */
function splitWords(line: string): string[] {
  const words: string[] = [];
  let start = -1;
  for (let i = 0; i <= line.length; i++) {
    const code = i < line.length ? line.charCodeAt(i) : 0x20;
    if (code === 0x20 || code === 0x09) {
      if (start >= 0) words.push(line.slice(start, i));
      start = -1;
    } else if (start < 0) {
      start = i;
    }
  }
  return words;
}

function isHttpVersion(word: string): boolean {
  return word === 'HTTP/1.1' || word === 'HTTP/1.0';
}

function bodyByLength(available: Buffer, text: string, where: string, delimiterBreak: number): Buffer {
  if (!/^[0-9]{1,15}$/.test(text)) throw syntax(where, `Content-Length '${printable(text)}' is not a number of bytes`);
  const declared = Number(text);
  // The .NET 4.0 client (DataServiceContext, SaveChangesOptions.Batch) ends each operation's body
  // with Environment.NewLine, counts it in Content-Length and writes the next delimiter right
  // after: the count includes the delimiter's line break. Exactly that break is tolerated; a body
  // that overruns into the delimiter itself is still refused below.
  if (delimiterBreak > 0 && declared === available.length + delimiterBreak) return available;
  if (declared <= available.length) {
    for (let i = declared; i < available.length; i++) {
      const byte = available[i];
      if (byte !== 0x0d && byte !== 0x0a && byte !== 0x20 && byte !== 0x09) {
        throw syntax(where, `${available.length - declared} bytes follow the ${declared}-byte body given by Content-Length`);
      }
    }
    return available.subarray(0, declared);
  }
  // SAPUI5's datajs computes Content-Length per UTF-16 unit (3 bytes per surrogate half, so 6 for a
  // 4-byte character); the MIME delimiter is authoritative, so that count is accepted as exact.
  if (declared === utf16ByteCount(available)) return available;
  const body = withoutTrailingLineBreak(available);
  if (declared === utf16ByteCount(body)) return body;
  throw syntax(where, `the body is truncated: Content-Length is ${declared} but the part holds ${available.length} bytes`);
}

/** The byte count datajs (SAPUI5) computes: 1, 2 or 3 per UTF-16 code unit of the decoded text. */
export function utf16ByteCount(bytes: Buffer): number {
  const text = bytes.toString('utf8');
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    count += unit <= 0x7f ? 1 : unit <= 0x7ff ? 2 : 3;
  }
  return count;
}

function withoutTrailingLineBreak(bytes: Buffer): Buffer {
  const n = bytes.length;
  if (n >= 2 && bytes[n - 2] === 0x0d && bytes[n - 1] === 0x0a) return bytes.subarray(0, n - 2);
  if (n >= 1 && bytes[n - 1] === 0x0a) return bytes.subarray(0, n - 1);
  return bytes;
}

const CR = 0x0d;
const LF = 0x0a;

function syntax(where: string, detail: string): ODataError {
  return ODataError.fromCode('BATCH_SYNTAX', { detail: `${where}: ${detail}` });
}

/**
 * status-line = HTTP-version SP status-code SP reason-phrase CRLF   RFC 7230 §3.1.2
 * The embedded response as bytes: status line with the standard reason phrase (datajs needs one),
 * headers in canonical spelling, Content-Length counting bytes (none for 1xx, 204 and 304, which
 * have no body, RFC 7230 §3.3.2), an empty line and the body. The answer to HEAD has neither: a
 * Content-Length there must equal what the GET would have sent (RFC 7230 §3.3.2), unknown here.
 */
export function writeEmbeddedResponse(response: BufferedResponse): Buffer {
  const { head, body } = embeddedResponseParts(response);
  const headBytes = Buffer.from(head, 'latin1');
  if (body === undefined || body.length === 0) return headBytes;
  return Buffer.concat([headBytes, typeof body === 'string' ? Buffer.from(body, 'utf8') : body]);
}

/** An embedded response to be written: the head (status line, headers, empty line; ISO-8859-1) and the body after it. */
interface EmbeddedResponseParts {
  readonly head: string;
  /** Bytes, or text to write as UTF-8; undefined when the status or HEAD allows none. */
  readonly body: Buffer | string | undefined;
}

/** The pieces `writeEmbeddedResponse` joins; the batch writer copies them straight into the batch body. */
export function embeddedResponseParts(response: BufferedResponse): EmbeddedResponseParts {
  const { status } = response;
  const bodyless = status < 200 || status === 204 || status === 304 || response.head === true;
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Unknown Status'}\r\n`;
  for (const name of Object.keys(response.headers)) {
    if (FRAMING_HEADERS.has(name.toLowerCase()) || !isHeaderName(name)) continue;
    const value = response.headers[name];
    head += `${canonicalHeaderName(name)}: ${LINE_BREAKS.test(value) ? value.replace(LINE_BREAKS_ALL, ' ') : value}\r\n`;
  }
  const body = bodyless ? undefined : response.body;
  if (!bodyless) head += `Content-Length: ${body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length}\r\n`;
  return { head: head + '\r\n', body };
}

// A header value must not break the embedded message's framing; values that need it are rare.
const LINE_BREAKS = /[\r\n\0]/;
const LINE_BREAKS_ALL = /[\r\n\0]+/g;

function isHeaderName(name: string): boolean {
  if (name.length === 0) return false;
  for (let i = 0; i < name.length; i++) if (!isTokenChar(name.charCodeAt(i))) return false;
  return true;
}
