/**
 * Node's HTTP parser refuses a request method it does not know (`FOO /odata/Products`) before any
 * middleware runs, with a bare `400 Bad Request`. `odataClientErrorHandler()` is a listener for the
 * server's `clientError` event that answers such a request `501 Not Implemented` with an OData error
 * body instead (RFC 9110 §9.1), and every other parse error exactly as Node's default does.
 */
import type { Socket } from 'net';
import { STATUS_CODES } from 'http';
import { parseRequestLine } from '../batch';
import { readHeaderText } from '../batch/headers';
import { ODataError } from '../errors';
import type { ODataResponse } from '../protocol/message';
import { caughtProperty, describeCaught } from '../util';
import { splitUrl } from './request';
import { standaloneErrorResponse } from './error-response';

/** The listener `odataClientErrorHandler()` returns: `server.on('clientError', listener)`. */
export type ClientErrorListener = (error: Error, socket: Socket) => void;

/** The bare answers Node writes itself (lib/_http_server.js), for the errors this module leaves to it. */
const NODE_DEFAULTS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: 'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'HTTP/1.1 413 Payload Too Large\r\nConnection: close\r\n\r\n',
  ERR_HTTP_REQUEST_TIMEOUT: 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n',
};
const BAD_REQUEST = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n';

/** Most of a request head read from the raw packet: Node's own header limit. */
const MAX_HEAD_BYTES = 16 * 1024;

/**
 * A `clientError` listener: `501 METHOD_NOT_IMPLEMENTED` with an OData error body (JSON when the
 * request asked for JSON, else XML) for a method Node's parser does not know; anything else as
 * Node answers it by default (400, 408, 413, 431). Like Node, it answers only on a socket that has
 * written nothing yet, and closes the connection.
 */
export function odataClientErrorHandler(): ClientErrorListener {
  return (error, socket) => {
    const { code } = describeCaught(error);
    if (socket.writable && socket.bytesWritten === 0) {
      const answer = code === 'HPE_INVALID_METHOD' ? notImplemented(caughtProperty(error, 'rawPacket')) : undefined;
      socket.write(answer ?? NODE_DEFAULTS[code ?? ''] ?? BAD_REQUEST);
    }
    socket.destroy(error);
  };
}

/**
 * The 501 response to the request whose first bytes are `rawPacket`, as one HTTP/1.1 message; or
 * undefined when its request line is not `METHOD target HTTP/1.x` with a token for a method (then
 * the request is malformed, not of an unknown method, and Node's 400 is the answer).
 */
function notImplemented(rawPacket: unknown): string | undefined {
  const head = readHead(Buffer.isBuffer(rawPacket) ? rawPacket : Buffer.alloc(0));
  if (head === undefined) return undefined;
  return serialize(standaloneErrorResponse(head, ODataError.fromCode('METHOD_NOT_IMPLEMENTED', { method: head.method })));
}

/** Method, query and headers of the raw request (headers only when they all read well). */
function readHead(raw: Buffer): { method: string; query: string; headers: Record<string, string | undefined> } | undefined {
  const text = raw.toString('latin1', 0, Math.min(raw.length, MAX_HEAD_BYTES));
  const lineEnd = text.indexOf('\n');
  if (lineEnd < 0) return undefined;
  let requestLine: { method: string; target: string };
  try {
    requestLine = parseRequestLine(text.slice(0, text.charCodeAt(lineEnd - 1) === 0x0d ? lineEnd - 1 : lineEnd), 'the request');
  } catch {
    return undefined;
  }
  const head = { method: requestLine.method, query: splitUrl(requestLine.target).query };
  try {
    return { ...head, headers: { ...readHeaderText(text, lineEnd + 1, text.length, MAX_HEAD_BYTES, 'the request').headers } };
  } catch {
    // The headers do not read: the error body falls back to XML.
    return { ...head, headers: {} };
  }
}

function serialize(response: ODataResponse): string {
  const body = typeof response.body === 'string' ? response.body : '';
  let out = `HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n`;
  for (const [name, value] of Object.entries(response.headers)) out += `${name}: ${value}\r\n`;
  out += `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n`;
  // The head is ASCII; the body is UTF-8 (a message may quote the method).
  return out + body;
}
