/**
 * Read a request body as bytes, bounded. Works whether or not the host app ran a body parser
 * first: an unread stream is read here; otherwise what the parser left (`req.body` as a Buffer,
 * string or parsed JSON object) is turned back into bytes.
 */
import type { IncomingMessage } from 'http';
import { ODataError } from '../errors';
import { lingerAfterRefusal } from './lingering-close';

/** The parts of a request this module reads (`_body` is body-parser 1's "I consumed it" flag). */
type BodySource = IncomingMessage & { body?: unknown; _body?: unknown };

/** True when nothing announces a body (RFC 9112 §6.3: no Content-Length and no Transfer-Encoding). */
function announcesNoBody(request: IncomingMessage): boolean {
  return request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined;
}

/**
 * Did a body parser already consume the stream? body-parser 1 (Express 4) sets `req._body`;
 * body-parser 2 (Express 5) and others leave a finished stream. A parser that skipped this request
 * (another content type) leaves the stream unread even when it set `req.body = {}`.
 */
function alreadyParsed(request: BodySource): boolean {
  return request._body === true || request.readableEnded || (request.complete && !request.readable);
}

function fromParsedBody(body: unknown): Buffer | undefined {
  if (body === undefined || body === null) return undefined;
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return Buffer.from(body);
  // express.json() left an object: its bytes are gone, its meaning is not.
  if (typeof body === 'object') return Object.keys(body).length === 0 ? undefined : Buffer.from(JSON.stringify(body), 'utf8');
  return undefined;
}

/**
 * Refusals of a body that is still arriving close the connection after the answer (RFC 9110
 * §15.5.9: the server SHOULD send the "close" connection option with 408; §15.5.14 allows
 * closing after 413): reading the rest would only burn CPU on bytes nobody wants. How the
 * connection closes without losing the answer is lingering-close.ts.
 */
const CLOSE = { connection: 'close' } as const;

/**
 * The request body, or undefined when there is none. 413 BODY_TOO_LARGE past `limit` bytes (the
 * announced Content-Length or what arrived), 408 BODY_TIMEOUT when the whole body has not arrived
 * within `timeout` ms of starting to read it (a Content-Length that is never reached, a chunked
 * body that trickles). Both answer with `Connection: close`.
 */
export function readRawBody(request: BodySource, limit: number, timeout = Infinity): Promise<Buffer | undefined> {
  if (alreadyParsed(request)) return Promise.resolve(fromParsedBody(request.body));
  if (announcesNoBody(request)) return Promise.resolve(undefined);
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    lingerAfterRefusal(request);
    return Promise.reject(ODataError.fromCode('BODY_TOO_LARGE', { limit }, { headers: CLOSE }));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (error: ODataError): void => {
      settled = true;
      clearTimeout(timer);
      chunks.length = 0;
      lingerAfterRefusal(request);
      reject(error);
    };
    const timer = Number.isFinite(timeout) ? setTimeout(() => fail(ODataError.fromCode('BODY_TIMEOUT', { timeout }, { headers: CLOSE })), timeout) : undefined;
    request.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > limit) return fail(ODataError.fromCode('BODY_TOO_LARGE', { limit }, { headers: CLOSE }));
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // A body that came in one chunk (most do) is used as it is, not copied.
      resolve(size === 0 ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    });
    request.on('error', (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(ODataError.fromCode('BAD_REQUEST', { detail: 'The request body could not be read.' }, { cause: error }));
    });
  });
}
