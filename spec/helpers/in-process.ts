/**
 * A service answered in process, as fastify's `inject` answers a route: a request goes straight
 * into the pipeline (`service.handle`) with no server, socket or Express in between. For specs
 * about what the service answers (differentials, statement counts), not about the HTTP layer,
 * whose own specs use a real port.
 */
import type { IncomingMessage } from 'http';
import type { ODataServiceOptions } from '../../lib/options';
import type { ODataRequest, ResponseBody } from '../../lib/protocol/message';
import { createService, type Service } from '../../lib/service';

/** The origin of every in-process service: links in its answers start with it. */
const IN_PROCESS_ORIGIN = 'http://in-process.test';

/** A service built as `odata(options)` builds it, mounted at `/odata` of IN_PROCESS_ORIGIN. */
export interface InProcessService {
  /** The origin (as a RunningServer's `url`): the service root is `${url}/odata/`. */
  readonly url: string;
  readonly service: Service;
}

/** An answer: status, lower-case headers and the body's bytes (streamed bodies read to the end). */
export interface InProcessAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

export function inProcess(options: ODataServiceOptions): InProcessService {
  return { url: IN_PROCESS_ORIGIN, service: createService(options) };
}

async function bytesOf(body: ResponseBody | undefined): Promise<Buffer> {
  if (body === undefined) return Buffer.alloc(0);
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (Buffer.isBuffer(body)) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
  return Buffer.concat(chunks);
}

/**
 * Send `method path` (relative to the service root, written as for fetch: what fetch would
 * percent-encode is encoded the same way) with `headers` and `body`; the answer the middleware
 * would write, as bytes.
 */
export async function callInProcess(
  target: InProcessService,
  method: string,
  path: string,
  options: { readonly headers?: Readonly<Record<string, string>>; readonly body?: Buffer | string } = {},
): Promise<InProcessAnswer> {
  const serviceRoot = `${target.url}/odata/`;
  const url = new URL(path, serviceRoot);
  // fetch asks for anything unless told otherwise.
  const headers: Record<string, string> = { accept: '*/*' };
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  const body = options.body === undefined ? undefined : Buffer.isBuffer(options.body) ? options.body : Buffer.from(options.body, 'utf8');
  // What a provider may read of the Express request: its method, URL and headers.
  const incoming = { method, url: url.pathname + url.search, headers } as unknown as IncomingMessage;
  const request: ODataRequest = {
    method,
    path: url.pathname.slice(new URL(serviceRoot).pathname.length),
    query: url.search.slice(1),
    headers,
    body,
    serviceRoot,
    context: { request: incoming, state: new Map() },
  };
  let response;
  try {
    response = await target.service.handle(request);
  } catch (error) {
    response = target.service.fail(request, error);
  }
  const bytes = await bytesOf(response.body);
  // As the middleware writes it (lib/http/response.ts): a body at hand goes with its length.
  const whole = typeof response.body === 'string' || Buffer.isBuffer(response.body);
  return { status: response.status, headers: whole ? { ...response.headers, 'content-length': String(bytes.length) } : response.headers, body: bytes };
}
