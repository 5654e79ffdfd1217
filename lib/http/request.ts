/**
 * Express stops here: an incoming request becomes the transport-neutral ODataRequest. Every URI we
 * write is built from the request (protocol, host, mount path), so links are right behind proxies
 * when the app sets `trust proxy`.
 */
import type { IncomingMessage } from 'http';
import type { TLSSocket } from 'tls';
import type { ODataRequest, RequestContext } from '../protocol/message';

/** The Express additions this module reads (present on Express 4 and 5 requests). */
export interface ExpressLikeRequest extends IncomingMessage {
  /** Express's mount path: the path part of the service root. */
  baseUrl?: string;
  /** Express's `req.protocol` (honours `X-Forwarded-Proto` under `trust proxy`). */
  protocol?: string;
  /** The Express app, to read its `trust proxy` setting. */
  app?: { get?: (setting: string) => unknown };
}

/** `http://host/odata/`: the absolute service root URI. */
export function serviceRootOf(request: ExpressLikeRequest): string {
  const protocol = request.protocol ?? ((request.socket as TLSSocket | undefined)?.encrypted ? 'https' : 'http');
  const trustProxy = request.app?.get?.('trust proxy fn');
  const trusted = typeof trustProxy === 'function' && Boolean((trustProxy as (addr: string | undefined, i: number) => boolean)(request.socket?.remoteAddress, 0));
  const forwardedHost = trusted ? firstValue(request.headers['x-forwarded-host']) : undefined;
  const host = forwardedHost ?? request.headers.host ?? 'localhost';
  return `${protocol}://${host}${request.baseUrl ?? ''}/`;
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim() || undefined;
}

/** Lower-case header map with repeated headers joined by commas (RFC 9110 §5.3). */
export function headersOf(request: IncomingMessage): Record<string, string | undefined> {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

/** Split `req.url` (relative to the mount point) into path and query. */
export function splitUrl(url: string): { path: string; query: string } {
  const mark = url.indexOf('?');
  const rawPath = mark === -1 ? url : url.slice(0, mark);
  return { path: rawPath.replace(/^\/+/, ''), query: mark === -1 ? '' : url.slice(mark + 1) };
}

/** Build the ODataRequest; method tunneling and the body are resolved by the caller. */
export function toODataRequest(
  request: ExpressLikeRequest,
  method: string,
  body: Buffer | undefined,
  context: RequestContext,
): ODataRequest {
  const { path, query } = splitUrl(request.url ?? '/');
  return { method, path, query, headers: headersOf(request), body, serviceRoot: serviceRootOf(request), context };
}
