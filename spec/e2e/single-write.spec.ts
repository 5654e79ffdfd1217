/**
 * `TransactionOptions.singleWrite`: the service marks the transaction of a write request that calls
 * exactly one write method (every POST, PUT, MERGE, PATCH and DELETE of an entry, a property, a
 * `$value`, `$links` or a media resource), so a provider may commit that write on its own. Never a
 * service operation (its handler may write any number of times), never a `$batch` changeset (its
 * writes commit together), never with `limits.providerTimeout` (whose 503 promises that nothing
 * was written). A spy around MemoryProvider records each transaction's options and the write
 * calls made inside it.
 */
import express from 'express';
import { readFileSync } from 'fs';
import { join } from 'path';
import request from 'supertest';
import { loadEdmx, MemoryProvider, odata } from '../../lib';
import type { CreateRequest, DataProvider, EdmModel, OperationHandler, TransactionOptions } from '../../lib';
import type { RequestContext } from '../../lib/protocol/message';
import { batchBody, changeset, operation } from '../helpers/batch-http';

const MODEL: EdmModel = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'e2e', 'faults.xml'), 'utf8'));
const JSON_TYPE = 'application/json';

/** One transaction the service opened: its options and the write methods called in it. */
interface Recorded {
  readonly options: TransactionOptions | undefined;
  readonly calls: string[];
}

function spied(): { provider: DataProvider; transactions: Recorded[] } {
  const transactions: Recorded[] = [];
  let open: Recorded | undefined;
  const addAlbum: OperationHandler = async ({ parameters, functionImport }, context) => {
    const entitySet = functionImport.entitySet;
    if (entitySet === undefined) throw new Error('AddAlbum has no entity set');
    const values = { ID: parameters.ID, Name: parameters.Name };
    const create = { entitySet, entityType: entitySet.entityType, values, sent: new Set(['ID', 'Name']), bindings: [], inline: [], parent: undefined };
    return createEntry({ ...create, media: undefined }, context);
  };
  const inner = new MemoryProvider(
    MODEL,
    {
      Albums: [{ ID: 1, Name: 'One' }],
      Photos: [{ ID: 1, Title: 'a', Version: 0, Album: 1 }],
      Owners: [{ ID: 1 }],
      Notes: [{ ID: 1, Text: 'first', Owner: 1 }],
    },
    { operations: { AddAlbum: addAlbum } },
  );
  const noted =
    <A extends unknown[], R>(name: string, method: (...args: A) => Promise<R>) =>
    (...args: A): Promise<R> => {
      open?.calls.push(name);
      return method(...args);
    };
  const createEntry = noted('create', (create: CreateRequest, context: RequestContext) => inner.create(create, context));
  const provider: DataProvider = {
    query: (query, context) => inner.query(query, context),
    operations: inner.operations,
    create: createEntry,
    update: noted('update', (update, context) => inner.update(update, context)),
    delete: noted('delete', (deletion, context) => inner.delete(deletion, context)),
    link: noted('link', (link, context) => inner.link(link, context)),
    readMedia: (reference, context) => inner.readMedia(reference, context),
    writeMedia: noted('writeMedia', (reference, media, precondition, context) => inner.writeMedia(reference, media, precondition, context)),
    mediaOf: (entity, type) => inner.mediaOf(entity, type),
    async transaction<T>(work: () => Promise<T>, context: RequestContext, options?: TransactionOptions): Promise<T> {
      const recorded: Recorded = { options, calls: [] };
      transactions.push(recorded);
      open = recorded;
      try {
        return await inner.transaction(work, context);
      } finally {
        open = undefined;
      }
    },
  };
  return { provider, transactions };
}

interface Case {
  readonly method: string;
  readonly path: string;
  readonly body?: string | object;
  readonly contentType?: string;
  readonly ifMatch?: string;
}

/** Each write request kind: the status it gets and the one write method it calls. */
const SINGLE_WRITES: readonly (readonly [string, Case, number, string])[] = [
  ['create', { method: 'POST', path: 'Albums', body: { ID: 7, Name: 'New' } }, 201, 'create'],
  ['create through navigation', { method: 'POST', path: 'Albums(1)/Photos', body: { ID: 7, Title: 'nav', Version: 0 } }, 201, 'create'],
  ['deep insert', { method: 'POST', path: 'Albums', body: { ID: 8, Name: 'Deep', Photos: [{ ID: 8, Title: 'inline', Version: 0 }] } }, 201, 'create'],
  ['a media link entry', { method: 'POST', path: 'Photos', body: 'bytes', contentType: 'image/png' }, 201, 'create'],
  ['PUT', { method: 'PUT', path: 'Albums(1)', body: { Name: 'Put' } }, 204, 'update'],
  ['MERGE', { method: 'MERGE', path: 'Albums(1)', body: { Name: 'Merged' } }, 204, 'update'],
  ['a property', { method: 'PUT', path: 'Albums(1)/Name', body: { Name: 'Prop' } }, 204, 'update'],
  ['a $value', { method: 'PUT', path: 'Albums(1)/Name/$value', body: 'Raw', contentType: 'text/plain' }, 204, 'update'],
  ['$links add', { method: 'POST', path: 'Albums(1)/$links/Photos', body: { uri: 'Photos(1)' } }, 204, 'link'],
  ['$links remove', { method: 'DELETE', path: 'Photos(1)/$links/Album', ifMatch: '*' }, 204, 'link'],
  ['a media resource', { method: 'PUT', path: 'Photos(1)/$value', body: 'new bytes', contentType: 'text/plain', ifMatch: '*' }, 204, 'writeMedia'],
  ['DELETE', { method: 'DELETE', path: 'Albums(1)' }, 204, 'delete'],
];

async function send(app: express.Express, { method, path, body, contentType, ifMatch }: Case): Promise<number> {
  let call = request(app)[method === 'MERGE' ? 'merge' : (method.toLowerCase() as 'post' | 'put' | 'delete')](`/odata/${path}`).set('accept', JSON_TYPE);
  if (ifMatch !== undefined) call = call.set('if-match', ifMatch);
  if (body !== undefined) call = call.set('content-type', contentType ?? JSON_TYPE).send(typeof body === 'string' ? Buffer.from(body) : JSON.stringify(body));
  return (await call).status;
}

function appOver(provider: DataProvider, providerTimeout?: number): express.Express {
  const app = express();
  app.use('/odata', odata({ model: MODEL, provider, ...(providerTimeout === undefined ? {} : { limits: { providerTimeout } }) }));
  return app;
}

describe('TransactionOptions.singleWrite', () => {
  it.each(SINGLE_WRITES)('%s: one transaction marked singleWrite, with exactly one write call in it', async (_what, spec, status, call) => {
    const { provider, transactions } = spied();
    expect(await send(appOver(provider), spec)).toBe(status);
    expect(transactions).toEqual([{ options: { singleWrite: true }, calls: [call] }]);
  });

  it('a service operation invoked by POST is not marked: its handler may write any number of times', async () => {
    const { provider, transactions } = spied();
    const status = (await request(appOver(provider)).post("/odata/AddAlbum?ID=9&Name='Op'").set('accept', JSON_TYPE)).status;
    expect(status).toBe(200);
    expect(transactions).toEqual([{ options: undefined, calls: ['create'] }]);
  });

  it('a $batch changeset is one unmarked transaction, whatever its operations are', async () => {
    const { provider, transactions } = spied();
    const json = { 'Content-Type': JSON_TYPE };
    const body = batchBody([
      changeset(
        'changeset_1',
        operation('POST', 'Albums', { headers: json, body: JSON.stringify({ ID: 10, Name: 'Ten' }) }),
        operation('MERGE', 'Albums(1)', { headers: json, body: JSON.stringify({ Name: 'Eleven' }) }),
      ),
    ]);
    const answer = await request(appOver(provider)).post('/odata/$batch').set('content-type', 'multipart/mixed; boundary=batch_1').send(body);
    expect(answer.status).toBe(202);
    expect(transactions).toEqual([{ options: undefined, calls: ['create', 'update'] }]);
  });

  it('with limits.providerTimeout no write is marked: its 503 must mean that nothing was written', async () => {
    const { provider, transactions } = spied();
    expect(await send(appOver(provider, 5000), { method: 'POST', path: 'Albums', body: { ID: 7, Name: 'New' } })).toBe(201);
    expect(transactions).toEqual([{ options: undefined, calls: ['create'] }]);
  });
});
