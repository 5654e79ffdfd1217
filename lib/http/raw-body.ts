/**
 * Read a request body as bytes, bounded. Works whether or not the host app ran a body parser
 * first: an unread stream is read here; otherwise what the parser left (`req.body` as a Buffer,
 * string or parsed JSON object) is turned back into bytes.
 */
import type { IncomingMessage } from 'http';
import { ODataError } from '../errors';

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

/** The request body, or undefined when there is none; 413 past `limit` bytes. */
export function readRawBody(request: BodySource, limit: number): Promise<Buffer | undefined> {
  if (alreadyParsed(request)) return Promise.resolve(fromParsedBody(request.body));
  if (announcesNoBody(request)) return Promise.resolve(undefined);
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    request.resume();
    return Promise.reject(ODataError.fromCode('BODY_TOO_LARGE', { limit }));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    request.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        chunks.length = 0;
        reject(ODataError.fromCode('BODY_TOO_LARGE', { limit }));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      // A body that came in one chunk (most do) is used as it is, not copied.
      if (!failed) resolve(size === 0 ? undefined : chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    });
    request.on('error', (error) => {
      if (!failed) reject(ODataError.fromCode('BAD_REQUEST', { detail: 'The request body could not be read.' }, { cause: error }));
    });
  });
}
