/**
 * Express stops here: an incoming request becomes the transport-neutral ODataRequest. Every URI we
 * write is built from the request (protocol, host, mount path), so links are right behind proxies
 * when the app sets `trust proxy`.
 */
import type { IncomingMessage } from 'http';
import type { TLSSocket } from 'tls';
import { ODataError } from '../errors';
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
  const trusted =
    typeof trustProxy === 'function' && Boolean((trustProxy as (addr: string | undefined, i: number) => boolean)(request.socket?.remoteAddress, 0));
  const forwardedHost = trusted ? firstValue(request.headers['x-forwarded-host']) : undefined;
  const host = forwardedHost ?? request.headers.host ?? 'localhost';
  return `${protocol}://${host}${request.baseUrl ?? ''}/`;
}

// RFC 3986 §3.1 scheme, and §3.2.2 host (an IP literal in brackets, or a reg-name of unreserved,
// sub-delims and percent-encoded characters; an IPv4 address is a reg-name here) with §3.2.3 port.
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/;
const AUTHORITY = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+,;=%]+)(?::[0-9]*)?$/;

/**
 * 400 URI_HOST_INVALID when the service root built from the request (its protocol and its Host or
 * trusted X-Forwarded-Host, then `mountPath`) is not an absolute URI: every link the service
 * writes or resolves starts with it, so it is checked once per request, before any work. A Host
 * with a space, a slash or a line break cannot be an authority.
 */
export function checkServiceRoot(serviceRoot: string, mountPath: string): void {
  const schemeEnd = serviceRoot.indexOf('://');
  const authority = serviceRoot.slice(schemeEnd + 3, serviceRoot.length - mountPath.length - 1);
  let valid = schemeEnd > 0 && SCHEME.test(serviceRoot.slice(0, schemeEnd)) && AUTHORITY.test(authority);
  if (valid) {
    try {
      // The resolver of link URIs (format/link-uri) must accept it too.
      new URL(serviceRoot);
    } catch {
      valid = false;
    }
  }
  if (!valid) throw ODataError.fromCode('URI_HOST_INVALID', { host: authority.length > 100 ? authority.slice(0, 100) + '...' : authority });
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
export function toODataRequest(request: ExpressLikeRequest, method: string, body: Buffer | undefined, context: RequestContext): ODataRequest {
  const { path, query } = splitUrl(request.url ?? '/');
  return { method, path, query, headers: headersOf(request), body, serviceRoot: serviceRootOf(request), context };
}
