import { readBatchRequest } from '../../lib/batch/batch-request';
import { executeBatch, readBody } from '../../lib/batch/executor';
import { type BatchResponsePart, type BatchTransaction, DEFAULT_BATCH_LIMITS } from '../../lib/batch/types';
import { ODataError } from '../../lib/errors';
import type { ODataRequest, ODataResponse } from '../../lib/protocol/message';
import { fakeService, json, outer } from './helpers';

const HTTP = 'Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n';

function op(requestLine: string, options: { id?: string; headers?: string[]; body?: string } = {}): string {
  const mime = options.id === undefined ? HTTP : `${HTTP}Content-ID: ${options.id}\r\n`;
  const head = [requestLine, ...(options.headers ?? [])].join('\r\n');
  return `${mime}\r\n${head}\r\n\r\n${options.body ?? ''}`;
}

function changeset(...operations: string[]): string {
  return `Content-Type: multipart/mixed; boundary=cs\r\n\r\n--cs\r\n${operations.join('\r\n--cs\r\n')}\r\n--cs--`;
}

function body(...parts: string[]): Buffer {
  return Buffer.from(`--b\r\n${parts.join('\r\n--b\r\n')}\r\n--b--\r\n`, 'utf8');
}

async function run(
  batch: Buffer,
  service = fakeService(),
  extra: { transaction?: BatchTransaction; fail?: (r: ODataRequest, e: unknown) => ODataResponse } = {},
) {
  const batchOuter = outer();
  const parts = readBatchRequest(batch, 'b', batchOuter, DEFAULT_BATCH_LIMITS);
  const responses = await executeBatch(parts, { handle: service.handle, transaction: extra.transaction ?? service.transaction, fail: extra.fail });
  return { responses, service, batchOuter };
}

/** `201 [1]` per operation, `[...]` for a changeset; the error code follows failed responses. */
/** Code and message of an error body, verbose JSON or `<m:error>` XML. */
function errorOf(body: Buffer | string): { code: string; message: string } {
  const text = body.toString();
  if (text.startsWith('{')) {
    const { error } = JSON.parse(text) as { error: { code: string; message: { value: string } } };
    return { code: error.code, message: error.message.value };
  }
  return { code: /<m:code>([^<]*)</.exec(text)?.[1] ?? '?', message: /<m:message[^>]*>([^<]*)</.exec(text)?.[1] ?? '?' };
}

function shape(parts: readonly BatchResponsePart[]): unknown[] {
  const one = (status: number, contentId: string | undefined, body: Buffer | string | undefined): string => {
    const code = status >= 400 && body !== undefined ? ` ${errorOf(body).code}` : '';
    return `${status}${contentId === undefined ? '' : ` [${contentId}]`}${code}`;
  };
  return parts.map((part) =>
    part.kind === 'response'
      ? one(part.response.status, part.contentId, part.response.body)
      : part.responses.map((r) => one(r.response.status, r.contentId, r.response.body)),
  );
}

function message(part: BatchResponsePart): string {
  if (part.kind !== 'response' || part.response.body === undefined) throw new Error('expected one response with a body');
  return errorOf(part.response.body).message;
}

const ACCEPT_JSON = ['Accept: application/json'];

describe('executeBatch: order and retrieves', () => {
  it('runs retrieves and changesets in request order, each changeset inside one transaction', async () => {
    const { responses, service } = await run(
      body(op('GET A HTTP/1.1'), changeset(op('POST B HTTP/1.1', { body: '{}' }), op('DELETE C(1) HTTP/1.1')), op('GET D HTTP/1.1')),
    );
    expect(service.log).toEqual(['GET A', 'begin', 'POST B', 'DELETE C(1)', 'commit', 'GET D']);
    expect(shape(responses)).toEqual(['200', ['201', '204'], '200']);
  });

  it('answers a failed retrieve with its own part and leaves the others alone', async () => {
    const { responses } = await run(body(op('GET A HTTP/1.1'), op('GET Missing(1) HTTP/1.1'), op('GET C HTTP/1.1')));
    expect(shape(responses)).toEqual(['200', '404 RESOURCE_NOT_FOUND', '200']);
  });

  it('passes the same outer context object to every part', async () => {
    const { service, batchOuter } = await run(body(op('GET A HTTP/1.1'), changeset(op('POST B HTTP/1.1'), op('POST C HTTP/1.1')), op('GET D HTTP/1.1')));
    expect(service.calls).toHaveLength(4);
    for (const call of service.calls) expect(call.context).toBe(batchOuter.context);
  });

  it('marks the answers to HEAD, success or error, as bodyless', async () => {
    // The fake pipeline answers this HEAD with a body, as a careless handler might; the mark drops it.
    const service = fakeService((request) => (request.method === 'HEAD' && request.path === 'A' ? json(200, { d: {} }) : undefined));
    const { responses } = await run(body(op('HEAD A HTTP/1.1'), op('HEAD Missing(1) HTTP/1.1', { headers: ACCEPT_JSON }), op('GET A HTTP/1.1')), service);
    expect(responses.map((part) => part.kind === 'response' && [part.response.status, part.response.head, part.response.body === undefined])).toEqual([
      [200, true, true],
      [404, true, true],
      [200, undefined, false],
    ]);
  });

  it('echoes the Content-ID of a retrieve', async () => {
    const { responses } = await run(body(op('GET A HTTP/1.1', { id: 'r1' })));
    expect(shape(responses)).toEqual(['200 [r1]']);
  });

  it('refuses a Content-ID reference outside a changeset', async () => {
    const { responses, service } = await run(body(op('GET $1/Products HTTP/1.1', { headers: ACCEPT_JSON })));
    expect(shape(responses)).toEqual(['400 BATCH_CONTENT_ID']);
    expect(service.calls).toHaveLength(0);
  });

  it('answers an unreadable operation with an error in the format its Accept asks for', async () => {
    const { responses, service } = await run(body(op('GET A#x HTTP/1.1', { headers: ACCEPT_JSON }), op('GET B HTTP/1.1')));
    expect(shape(responses)).toEqual(['400 BATCH_SYNTAX', '200']);
    expect(responses[0].kind === 'response' && responses[0].response.headers['content-type']).toBe('application/json;charset=utf-8');
    expect(service.calls.map((c) => c.path)).toEqual(['B']);
  });

  it('answers a broken changeset part with one error and runs the rest', async () => {
    const broken = 'Content-Type: multipart/mixed; boundary=cs\r\n\r\n--cs\r\nno close delimiter';
    const { responses, service } = await run(body(broken, op('GET B HTTP/1.1')));
    expect(shape(responses).length).toBe(2);
    expect(responses[0].kind === 'response' && responses[0].response.status).toBe(400);
    expect(service.log).toEqual(['GET B']);
  });
});

describe('executeBatch: consecutive retrieves run side by side', () => {
  /** A service whose GETs wait until the test lets them finish; `active` counts GETs started and not finished. */
  function gatedService() {
    const gates = new Map<string, () => void>();
    const events: string[] = [];
    let active = 0;
    let mostActive = 0;
    const inner = fakeService();
    const handle = async (request: ODataRequest): Promise<ODataResponse> => {
      if (request.method !== 'GET') return inner.handle(request);
      active++;
      mostActive = Math.max(mostActive, active);
      events.push(`start ${request.path}`);
      await new Promise<void>((resolve) => gates.set(request.path, resolve));
      events.push(`end ${request.path}`);
      active--;
      return inner.handle(request);
    };
    const open = (path: string): void => {
      const gate = gates.get(path);
      if (gate === undefined) throw new Error(`${path} has not started`);
      gate();
    };
    /** Let every started GET finish, last started first, until `done` settles. */
    const drain = async (done: Promise<unknown>): Promise<void> => {
      let settled = false;
      void done.finally(() => (settled = true));
      while (!settled) {
        await new Promise((resolve) => setImmediate(resolve));
        for (const path of [...gates.keys()].reverse()) {
          gates.get(path)?.();
          gates.delete(path);
        }
      }
    };
    return { service: { ...inner, handle }, events, open, drain, mostActive: () => mostActive };
  }

  it('starts every GET of a run before any finishes, and answers in request order', async () => {
    const gated = gatedService();
    const running = run(body(op('GET A HTTP/1.1'), op('GET B HTTP/1.1'), op('GET C HTTP/1.1', { id: 'c' })), gated.service);
    await gated.drain(running);
    const { responses } = await running;
    expect(gated.events.slice(0, 3)).toEqual(['start A', 'start B', 'start C']);
    // Finished last first, answered first first.
    expect(gated.events.slice(3)).toEqual(['end C', 'end B', 'end A']);
    expect(responses.map((part) => part.kind === 'response' && JSON.parse(String(part.response.body)))).toEqual([
      { d: { path: 'A', query: '' } },
      { d: { path: 'B', query: '' } },
      { d: { path: 'C', query: '' } },
    ]);
    expect(shape(responses)).toEqual(['200', '200', '200 [c]']);
  });

  it('a changeset or a write outside one waits for the GETs before it, and the GETs after it wait for it', async () => {
    const gated = gatedService();
    const running = run(
      body(
        op('GET A HTTP/1.1'),
        op('GET B HTTP/1.1'),
        changeset(op('POST C HTTP/1.1')),
        op('GET D HTTP/1.1'),
        op('DELETE E(1) HTTP/1.1'),
        op('GET F HTTP/1.1'),
        op('GET G HTTP/1.1'),
      ),
      gated.service,
    );
    await gated.drain(running);
    const { responses, service } = await running;
    expect(gated.events).toEqual(['start A', 'start B', 'end B', 'end A', 'start D', 'end D', 'start F', 'start G', 'end G', 'end F']);
    // The inner log records each GET as it finishes.
    expect(service.log).toEqual(['GET B', 'GET A', 'begin', 'POST C', 'commit', 'GET D', 'begin', 'DELETE E(1)', 'commit', 'GET G', 'GET F']);
    expect(shape(responses)).toEqual(['200', '200', ['201'], '200', '204', '200', '200']);
  });

  it('runs at most 16 at a time and keeps the order of 40', async () => {
    const gated = gatedService();
    const paths = Array.from({ length: 40 }, (_, i) => `P${i}`);
    const running = run(body(...paths.map((path) => op(`GET ${path} HTTP/1.1`))), gated.service);
    await gated.drain(running);
    const { responses } = await running;
    expect(gated.mostActive()).toBe(16);
    expect(responses.map((part) => part.kind === 'response' && (JSON.parse(String(part.response.body)) as { d: { path: string } }).d.path)).toEqual(paths);
  });

  it("a part's failure or throw is its own answer: the GETs beside it succeed", async () => {
    const { responses } = await run(
      body(op('GET A HTTP/1.1'), op('GET Missing(1) HTTP/1.1'), op('GET Throw HTTP/1.1'), op('GET A#x HTTP/1.1'), op('GET C HTTP/1.1')),
    );
    expect(shape(responses)).toEqual(['200', '404 RESOURCE_NOT_FOUND', '500 INTERNAL', '400 BATCH_SYNTAX', '200']);
  });
});

describe('executeBatch: Content-ID references (MS-ODATA §2.2.7.6.1.1)', () => {
  it('replaces $<id> with the created entity and hands the map to body readers', async () => {
    const { responses, service } = await run(
      body(
        changeset(
          op('POST Categories HTTP/1.1', { id: '1', body: '{"ID":3}' }),
          op('POST $1/Products HTTP/1.1', { id: '2', body: '{"ID":42}' }),
          op('PUT $2/$links/Category HTTP/1.1', { id: '3', body: '{"uri":"$1"}' }),
          op('MERGE $2 HTTP/1.1', { body: '{"Name":"x"}' }),
        ),
      ),
    );
    expect(service.calls.map((c) => [c.method, c.path, c.contentIds])).toEqual([
      ['POST', 'Categories', {}],
      ['POST', 'Categories(100)/Products', { 1: 'Categories(100)' }],
      ['PUT', 'Categories(100)/Products(101)/$links/Category', { 1: 'Categories(100)', 2: 'Categories(100)/Products(101)' }],
      [
        'MERGE',
        'Categories(100)/Products(101)',
        { 1: 'Categories(100)', 2: 'Categories(100)/Products(101)', 3: 'Categories(100)/Products(101)/$links/Category' },
      ],
    ]);
    expect(service.calls[2].body).toBe('{"uri":"$1"}');
    expect(shape(responses)).toEqual([['201 [1]', '201 [2]', '204 [3]', '204']]);
  });

  it('accepts any token as Content-ID (SAP Cloud SDK UUIDs, SAPUI5 ids)', async () => {
    const uuid = '2cbf3f2b-0b1e-4a6a-9d3e-0c1e5c1d8a10';
    const { service } = await run(
      body(
        changeset(
          op('POST Orders HTTP/1.1', { id: uuid }),
          op(`POST $${uuid}/Items HTTP/1.1`, { headers: ['Content-ID: id-1700000000000-12'] }),
          op('POST $id-1700000000000-12/Notes HTTP/1.1'),
        ),
      ),
    );
    expect(service.calls.map((c) => c.path)).toEqual(['Orders', 'Orders(100)/Items', 'Orders(100)/Items(101)/Notes']);
  });

  it('refuses a duplicate Content-ID before running anything', async () => {
    const { responses, service } = await run(body(changeset(op('POST A HTTP/1.1', { id: '1' }), op('POST B HTTP/1.1', { id: '1' }))));
    expect(shape(responses)).toEqual(['400 [1] BATCH_CONTENT_ID']);
    expect(message(responses[0])).toBe("part 1, operation 2: the Content-ID '1' is already used by part 1, operation 1 in this changeset");
    expect(service.log).toEqual([]);
  });

  it('allows the same Content-ID in two changesets; references stay inside their changeset', async () => {
    const { responses, service } = await run(
      body(changeset(op('POST A HTTP/1.1', { id: '1' })), changeset(op('POST B HTTP/1.1', { id: '1' }), op('POST $1/C HTTP/1.1'))),
    );
    expect(shape(responses)).toEqual([['201 [1]'], ['201 [1]', '201']]);
    expect(service.calls.map((c) => c.path)).toEqual(['A', 'B', 'B(101)/C']);
  });

  it('rolls back on a reference to an unknown or later Content-ID', async () => {
    const { responses, service } = await run(body(changeset(op('POST A HTTP/1.1', { id: '1' }), op('POST $2/C HTTP/1.1'), op('POST D HTTP/1.1', { id: '2' }))));
    expect(shape(responses)).toEqual(['400 BATCH_CONTENT_ID']);
    expect(service.log).toEqual(['begin', 'POST A', 'rollback']);
  });
});

describe('executeBatch: changesets are all or nothing', () => {
  it('rolls back when an operation fails and answers with that one response', async () => {
    const { responses, service } = await run(
      body(changeset(op('POST A HTTP/1.1', { id: '1' }), op('POST Fail HTTP/1.1', { id: '2' }), op('POST C HTTP/1.1', { id: '3' })), op('GET D HTTP/1.1')),
    );
    expect(service.log).toEqual(['begin', 'POST A', 'POST Fail', 'rollback', 'GET D']);
    expect(shape(responses)).toEqual(['400 [2] BAD_REQUEST', '200']);
    expect(message(responses[0])).toBe('refused Fail');
  });

  it('masks a handler that throws as 500 and rolls back', async () => {
    const { responses, service } = await run(body(changeset(op('POST A HTTP/1.1'), op('POST Throw HTTP/1.1'))));
    expect(service.log).toEqual(['begin', 'POST A', 'POST Throw', 'rollback']);
    expect(responses[0].kind === 'response' && [responses[0].response.status, responses[0].response.body?.toString()]).toEqual([
      500,
      '<?xml version="1.0" encoding="utf-8"?><m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><m:code>INTERNAL</m:code><m:message xml:lang="en-US">An internal error occurred.</m:message></m:error>',
    ]);
  });

  it('refuses a GET inside a changeset before running anything', async () => {
    const { responses, service } = await run(body(changeset(op('POST A HTTP/1.1'), op('GET B HTTP/1.1', { headers: ACCEPT_JSON }))));
    expect(shape(responses)).toEqual(['400 BATCH_NOT_ALLOWED']);
    expect(message(responses[0])).toBe(
      'part 1, operation 2 is a GET request; a changeset may contain only POST, PUT, MERGE, PATCH and DELETE requests (MS-ODATA §2.2.7.6)',
    );
    expect(service.log).toEqual([]);
  });

  it('refuses a nested changeset with one 400 for the changeset', async () => {
    const nested = 'Content-Type: multipart/mixed; boundary=inner\r\n\r\n--inner\r\n' + op('POST X HTTP/1.1') + '\r\n--inner--';
    const { responses, service } = await run(body(changeset(op('POST A HTTP/1.1'), nested)));
    expect(shape(responses)).toEqual(['400 BATCH_NOT_ALLOWED']);
    expect(service.log).toEqual([]);
  });

  it('refuses a changeset with an unreadable operation before running anything', async () => {
    const { responses, service } = await run(body(changeset(op('POST A HTTP/1.1'), op('POST B'))));
    expect(shape(responses)).toEqual(['400 BATCH_SYNTAX']);
    expect(service.log).toEqual([]);
  });

  it('reports nothing of a changeset whose commit fails', async () => {
    const service = fakeService();
    const failingCommit: BatchTransaction = async (fn) => {
      await fn();
      throw ODataError.fromCode('CONSTRAINT_VIOLATION', { detail: 'deferred constraint failed at commit' });
    };
    const { responses } = await run(body(changeset(op('POST A HTTP/1.1'), op('POST B HTTP/1.1'))), service, { transaction: failingCommit });
    expect(shape(responses)).toEqual(['409 CONSTRAINT_VIOLATION']);
  });

  it('reports the failure even when a faulty transaction swallows the rollback', async () => {
    const swallowing: BatchTransaction = async <T>(fn: () => Promise<T>) => {
      try {
        return await fn();
      } catch {
        return undefined as T;
      }
    };
    const { responses } = await run(body(changeset(op('POST A HTTP/1.1'), op('POST Fail HTTP/1.1'))), fakeService(), { transaction: swallowing });
    expect(shape(responses)).toEqual(['400 BAD_REQUEST']);
  });

  it('reports a 500 when a faulty transaction never runs the changeset', async () => {
    const idle: BatchTransaction = async () => undefined as never;
    const { responses, service } = await run(body(changeset(op('POST A HTTP/1.1'))), fakeService(), { transaction: idle });
    expect(shape(responses)).toEqual(['500 INTERNAL']);
    expect(service.calls).toHaveLength(0);
  });

  it('starts over cleanly when a transaction retries its function', async () => {
    let attempts = 0;
    const service = fakeService((request) =>
      request.path === 'B' && attempts === 1 ? json(409, { error: { code: 'X', message: { value: 'conflict' } } }) : undefined,
    );
    const retrying: BatchTransaction = async (fn) => {
      for (;;) {
        attempts++;
        try {
          return await fn();
        } catch (error) {
          if (attempts >= 2) throw error;
        }
      }
    };
    const { responses } = await run(body(changeset(op('POST A HTTP/1.1', { id: '1' }), op('POST B HTTP/1.1', { id: '2' }))), service, {
      transaction: retrying,
    });
    expect(shape(responses)).toEqual([['201 [1]', '201 [2]']]);
  });

  it('runs a write outside a changeset atomically and answers it as a plain part', async () => {
    const { responses, service } = await run(body(op('POST A HTTP/1.1', { id: '7' }), op('DELETE Fail(1) HTTP/1.1')));
    expect(service.log).toEqual(['begin', 'POST A', 'commit', 'begin', 'DELETE Fail(1)', 'rollback']);
    expect(shape(responses)).toEqual(['201 [7]', '400 BAD_REQUEST']);
  });

  it('answers an empty changeset with an empty changeset', async () => {
    const { responses } = await run(body('Content-Type: multipart/mixed; boundary=cs\r\n\r\n--cs--'));
    expect(shape(responses)).toEqual([[]]);
  });
});

describe('executeBatch: response bodies and error responses', () => {
  it('reads streamed bodies into bytes, and turns a failing stream into an error response', async () => {
    const service = fakeService((request) => {
      if (request.path === 'Stream') {
        return {
          status: 200,
          headers: {},
          body: (async function* () {
            yield 'a';
            yield Buffer.from('ü');
          })(),
        };
      }
      if (request.path === 'Broken') {
        return {
          status: 200,
          headers: {},
          body: (async function* () {
            yield 'a';
            throw new Error('disk gone');
          })(),
        };
      }
      return undefined;
    });
    const { responses } = await run(body(op('GET Stream HTTP/1.1'), op('GET Broken HTTP/1.1')), service);
    expect(responses[0].kind === 'response' && responses[0].response.body?.toString()).toBe('aü');
    expect(responses[1].kind === 'response' && responses[1].response.status).toBe(500);
  });

  it('uses the given fail function for errors, and a minimal one when it throws', async () => {
    const seen: string[] = [];
    const fail = (request: ODataRequest, error: unknown): ODataResponse => {
      seen.push(`${request.headers['accept'] ?? '-'} ${error instanceof ODataError ? error.code : 'foreign'}`);
      if (seen.length > 1) throw new Error('fail is broken');
      return { status: 418, headers: {}, body: 'custom' };
    };
    const { responses } = await run(body(op('GET A#1 HTTP/1.1', { headers: ACCEPT_JSON }), op('GET Throw HTTP/1.1')), fakeService(), { fail });
    expect(seen).toEqual(['application/json BATCH_SYNTAX', '- foreign']);
    expect(responses.map((r) => r.kind === 'response' && [r.response.status, r.response.body?.toString().slice(0, 5)])).toEqual([
      [418, 'custo'],
      [500, '<?xml'],
    ]);
  });

  it('reads every kind of body', async () => {
    expect(await readBody(undefined)).toBeUndefined();
    expect(await readBody('é')).toEqual(Buffer.from('é'));
    const bytes = Buffer.from([0, 255]);
    expect(await readBody(bytes)).toBe(bytes);
  });
});
