/**
 * A small HTTP client for the suite: requests to the service under test over a keep-alive agent
 * on 127.0.0.1, answers as status, headers and bytes. Paths are written as an OData author reads
 * them (`Tags('o''k')`) and percent-encoded here; query options go through `url()`.
 */
import { type Agent, request as httpRequest } from 'http';
import type { IncomingHttpHeaders } from 'http';

/** An HTTP answer: status, lower-case headers, the body bytes and text. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | undefined>>;
  readonly body: Buffer;
  readonly text: string;
}

/** What a request sends besides its method and target. */
export interface RequestOptions {
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
}

// Characters a path keeps as written: unreserved, sub-delims, ':', '@' and '/' (RFC 3986 §3.3).
const PATH_KEEPS = /[A-Za-z0-9\-._~!$&'()*+,;=:@/]/;

/** Percent-encode a resource path as written (`Tags('日本')` -> `Tags('%E6%97%A5%E6%9C%AC')`). */
export function encodePath(path: string): string {
  let out = '';
  for (const character of path) out += PATH_KEEPS.test(character) ? character : encodeURIComponent(character);
  return out;
}

/** A relative URL: the encoded path and the query options, each value percent-encoded. */
export function url(path: string, query: Readonly<Record<string, string | number | undefined>> = {}): string {
  const options = Object.entries(query)
    .filter((entry): entry is [string, string | number] => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`);
  return encodePath(path) + (options.length === 0 ? '' : `?${options.join('&')}`);
}

/** Query options as a reader writes them, unencoded (`$top=2&$orderby=Name desc`), for test names. */
export function queryText(query: Readonly<Record<string, string | number | undefined>>): string {
  return Object.entries(query)
    .filter((entry) => entry[1] !== undefined)
    .map(([name, value]) => `${name}=${String(value)}`)
    .join('&');
}

function headersOf(raw: IncomingHttpHeaders): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(raw)) out[name] = Array.isArray(value) ? value.join(', ') : value;
  return out;
}

/** The client of one mount of the service (`http://127.0.0.1:port/mount/`). */
export class ServiceClient {
  constructor(
    /** The service root, ending in `/`. */
    readonly root: string,
    private readonly agent: Agent,
    /** Headers every request of this client carries (a request context's, for the row visibility cases). */
    private readonly always: Readonly<Record<string, string>> = {},
  ) {}

  /** The same mount, every request with `headers` too. */
  withHeaders(headers: Readonly<Record<string, string>>): ServiceClient {
    return new ServiceClient(this.root, this.agent, { ...this.always, ...headers });
  }

  /**
   * Send a request. `target` is a relative URL made by `url()` or an absolute URL the service
   * wrote (a next link). JSON is asked for unless the headers say otherwise.
   */
  send(method: string, target: string, options: RequestOptions = {}): Promise<HttpAnswer> {
    const address = new URL(target, this.root);
    const body = options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body, 'utf8');
    const headers: Record<string, string> = { accept: 'application/json', maxdataserviceversion: '2.0', ...this.always, ...options.headers };
    if (body !== undefined) headers['content-length'] = String(body.length);
    return new Promise((resolve, reject) => {
      const outgoing = httpRequest(
        { host: address.hostname, port: address.port, path: address.pathname + address.search, method, headers, agent: this.agent },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const bytes = Buffer.concat(chunks);
            resolve({ status: incoming.statusCode ?? 0, headers: headersOf(incoming.headers), body: bytes, text: bytes.toString('utf8') });
          });
        },
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  /** GET `target`. */
  get(target: string, headers?: Readonly<Record<string, string>>): Promise<HttpAnswer> {
    return this.send('GET', target, headers === undefined ? {} : { headers });
  }

  /** A write with a JSON body (`content-type: application/json`). */
  sendJson(method: string, target: string, body: unknown, headers: Readonly<Record<string, string>> = {}): Promise<HttpAnswer> {
    return this.send(method, target, { headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  }
}
