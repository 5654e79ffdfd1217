/**
 * `$batch` end to end, the request context: a host app with an auth middleware and a provider that
 * wraps MemoryProvider, records the context of every call and lets only one user write. Every part of a batch must see
 * the outer request's context object (MS-ODATA: parts are authorised like the batch itself).
 */
import type { IncomingMessage } from 'http';
import { ODataError, odata } from '../../lib';
import type { DataProvider, RequestContext } from '../../lib';
import { type BatchPart, batchBody, changeset, jsonOf, operation, readBatchResponse, send, single, statuses } from '../helpers/batch-http';
import { JSON_HEADERS, JSON_TYPE, JSON_WRITE, jsonError, productJson } from '../helpers/batch-demo';
import { DEMO_MODEL, EXPRESS_VERSIONS, demoProvider } from '../helpers/demo';
import { type RunningServer, startServer } from '../helpers/server';

describe.each(EXPRESS_VERSIONS)('$batch parts and the request context on %s', (_name, expressModule) => {
  const model = DEMO_MODEL;

  interface Call {
    readonly method: string;
    readonly context: RequestContext;
    readonly user: string | undefined;
  }

  let server: RunningServer;
  let calls: Call[];
  let outerRequests: IncomingMessage[];
  /** Runs before each create reaches the store (by the new entry's ID), to make requests overlap. */
  let beforeCreate: (id: unknown) => Promise<void>;
  /** Runs when a transaction is asked for, before the store queues it. */
  let onTransaction: () => void;
  /** When each write reached the store and when each transaction ended. */
  let events: string[];
  beforeEach(async () => {
    calls = [];
    outerRequests = [];
    beforeCreate = async () => undefined;
    onTransaction = () => undefined;
    events = [];
    const users = new WeakMap<IncomingMessage, string>();
    const inner = demoProvider();
    const record = (method: string, context: RequestContext): void => {
      calls.push({ method, context, user: users.get(context.request) });
    };
    const mayWrite = (method: string, context: RequestContext): void => {
      record(method, context);
      if (users.get(context.request) !== 'alice') throw ODataError.fromCode('FORBIDDEN', { detail: `Only alice may ${method}.` });
    };
    const provider: DataProvider = {
      query: async (request, context) => {
        record('query', context);
        return inner.query(request, context);
      },
      count: async (request, context) => {
        record('count', context);
        return inner.count(request, context);
      },
      create: async (request, context) => {
        mayWrite('create', context);
        await beforeCreate(request.values['ID']);
        const created = await inner.create(request, context);
        events.push(`created ${String(created['ID'])}`);
        return created;
      },
      update: async (request, context) => {
        mayWrite('update', context);
        return inner.update(request, context);
      },
      delete: async (request, context) => {
        mayWrite('delete', context);
        return inner.delete(request, context);
      },
      link: async (request, context) => {
        mayWrite('link', context);
        return inner.link(request, context);
      },
      transaction: async (work, context) => {
        record('transaction', context);
        onTransaction();
        try {
          return await inner.transaction(work, context);
        } finally {
          events.push('transaction ended');
        }
      },
    };
    const app = expressModule();
    // The host's auth: it reads the outer Authorization header once and keeps the user by request.
    app.use((request: IncomingMessage, _response: unknown, next: () => void) => {
      outerRequests.push(request);
      const match = /^Bearer (\w+)$/.exec(request.headers.authorization ?? '');
      if (match !== null) users.set(request, match[1]);
      next();
    });
    app.use('/odata', odata({ model, provider }));
    server = await startServer(app);
  });
  afterEach(() => server.close());

  const writes = (): BatchPart[] => [
    operation('GET', 'Products(1)?$select=Name', { headers: JSON_HEADERS }),
    changeset(
      'changeset_1',
      operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":3,"Name":"Snacks"}', contentId: '1' }),
      // A part's own Authorization header changes nothing: the outer request is who asks.
      operation('POST', '$1/Products', { headers: { ...JSON_WRITE, Authorization: 'Bearer alice' }, body: productJson(42, 'Pretzel'), contentId: '2' }),
      operation('PUT', '$2/$links/Supplier', { headers: JSON_WRITE, body: '{"uri":"Suppliers(0)"}' }),
      operation('MERGE', 'Products(0)', { headers: JSON_WRITE, body: '{"Rating":1}' }),
      operation('DELETE', 'Products(8)'),
    ),
    operation('GET', 'Categories/$count'),
  ];

  const post = (user: string) =>
    send(`${server.url}/odata/$batch`, 'POST', { 'content-type': 'multipart/mixed; boundary=batch_1', authorization: `Bearer ${user}` }, batchBody(writes()));

  it('hands every provider call of every part the one context of the outer request', async () => {
    const parts = readBatchResponse(await post('alice'));
    expect(statuses(parts)).toEqual([200, [201, 201, 204, 204, 204], 200]);
    expect(outerRequests.length).toBe(1);
    const [outer] = outerRequests;
    expect([outer.method, outer.headers.authorization]).toEqual(['POST', 'Bearer alice']);
    expect(calls.map((call) => call.method)).toEqual(['query', 'transaction', 'create', 'query', 'create', 'link', 'update', 'delete', 'count']);
    const contexts = new Set(calls.map((call) => call.context));
    expect(contexts.size).toBe(1);
    for (const call of calls) {
      expect(call.context.request).toBe(outer);
      expect(call.user).toBe('alice');
    }
  });

  it('authorises the parts as the outer request: a user who may not write gets 403 for the changeset, reads still answer', async () => {
    const parts = readBatchResponse(await post('mallory'));
    expect(statuses(parts)).toEqual([200, 403, 200]);
    const refused = single(parts, 1);
    expect(refused.mime['Content-ID']).toBe('1');
    expect(jsonOf(refused)).toEqual(jsonError('FORBIDDEN', 'Only alice may create.'));
    expect(calls.map((call) => [call.method, call.user])).toEqual([
      ['query', 'mallory'],
      ['transaction', 'mallory'],
      ['create', 'mallory'],
      ['count', 'mallory'],
    ]);
    expect(single(parts, 2).body.toString()).toBe('3');
    const contexts = new Set(calls.map((call) => call.context));
    expect(contexts.size).toBe(1);
  });

  it('makes a single write that arrives during a changeset wait for it, so the rollback cannot undo it', async () => {
    // The changeset's second create waits until the single create has asked for its transaction
    // (every single write runs in one), which the store queues behind the open changeset.
    let changesetOpen = (): void => undefined;
    let singleArrived = (): void => undefined;
    const opened = new Promise<void>((resolve) => (changesetOpen = resolve));
    const arrived = new Promise<void>((resolve) => (singleArrived = resolve));
    let transactions = 0;
    onTransaction = () => {
      if (++transactions === 2) singleArrived();
    };
    beforeCreate = async (id) => {
      if (id === 3) changesetOpen();
      if (id === 0) await arrived;
    };
    const batch = send(
      `${server.url}/odata/$batch`,
      'POST',
      { 'content-type': 'multipart/mixed; boundary=batch_1', authorization: 'Bearer alice' },
      batchBody([
        changeset(
          'changeset_1',
          operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":3,"Name":"Snacks"}' }),
          operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":0,"Name":"Duplicate"}' }),
        ),
      ]),
    );
    await opened;
    const single = send(`${server.url}/odata/Categories`, 'POST', { 'content-type': JSON_TYPE, authorization: 'Bearer alice' }, '{"ID":10,"Name":"Single"}');
    const [batchResult, singleResult] = await Promise.all([batch, single]);
    expect(statuses(readBatchResponse(batchResult))).toEqual([409]);
    expect(singleResult.status).toBe(201);
    // The single create asked for its transaction while the changeset was open, and the store queued it behind the changeset.
    expect(events).toEqual(['created 3', 'transaction ended', 'created 10', 'transaction ended']);
    const ids = await send(`${server.url}/odata/Categories?$select=ID`, 'GET', { accept: JSON_TYPE });
    expect(JSON.parse(ids.body.toString('utf8'))).toMatchObject({ d: { results: [{ ID: 0 }, { ID: 1 }, { ID: 2 }, { ID: 10 }] } });
  });
});
