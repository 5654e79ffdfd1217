/**
 * Providers that hang (issue 11, item 10). With `limits.providerTimeout` a request whose provider
 * does not answer gets 503 PROVIDER_TIMEOUT with `Retry-After`, and its transaction is rolled
 * back. Without it, a changeset whose transaction hangs in MemoryProvider is abandoned after the
 * provider's `transactionTimeout`, so it cannot hold every other writer for ever. When the timer
 * fires is pinned with fake timers in spec/handlers/unit-of-work.spec.ts (providerTimeout) and
 * spec/providers/memory/write-lock.spec.ts (transactionTimeout); here a hang would be caught by
 * jest's timeout.
 */
import express from 'express';
import { readFileSync } from 'fs';
import { join } from 'path';
import request from 'supertest';
import { loadEdmx, MemoryProvider, odata } from '../../lib';
import type { DataProvider, EdmModel, Entity, ODataServiceOptions } from '../../lib';
import { batchBody, changeset, operation, readBatchResponse, send } from '../helpers/batch-http';
import { startServer, type RunningServer } from '../helpers/server';

const MODEL: EdmModel = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'e2e', 'faults.xml'), 'utf8'));
const JSON_TYPE = 'application/json';

/** Released by the specs so no work stays pending after a test. */
let release: () => void = () => undefined;
const hang = (): Promise<void> => new Promise<void>((resolve) => (release = resolve));

function albums(): MemoryProvider {
  return new MemoryProvider(
    MODEL,
    { Albums: [{ ID: 1, Name: 'One' }], Photos: [], Owners: [{ ID: 1 }], Notes: [] },
    {
      transactionTimeout: 300,
      operations: {
        // A service operation that writes, hangs (a stuck call to another system), then writes again.
        AddAlbum: async ({ parameters, functionImport }, context) => {
          const entitySet = functionImport.entitySet;
          if (entitySet === undefined) throw new Error('no set');
          const album = (ID: unknown, Name: unknown) =>
            ({
              entitySet,
              entityType: entitySet.entityType,
              values: { ID, Name },
              sent: new Set(['ID', 'Name']),
              bindings: [],
              inline: [],
              parent: undefined,
              media: undefined,
            }) as Parameters<MemoryProvider['create']>[0];
          const created = await provider.create(album(parameters.ID, parameters.Name), context);
          await hang();
          await provider.create(album(99, 'Late'), context).catch((error: { code?: string }) => lateWrites.push(error.code ?? 'failed'));
          return created;
        },
      },
    },
  );
}

let provider: MemoryProvider;
/** What happened to the late writes of hung operations. */
const lateWrites: string[] = [];
let server: RunningServer;
const logged: string[] = [];

async function start(wrap: (inner: MemoryProvider) => DataProvider, options: Partial<ODataServiceOptions> = {}): Promise<void> {
  provider = albums();
  const app = express();
  app.use('/odata', odata({ model: MODEL, provider: wrap(provider), logger: (event) => logged.push(`${event.status} ${event.message}`), ...options }));
  server = await startServer(app);
}

afterEach(async () => {
  release();
  logged.length = 0;
  await server.close();
});

const names = async (): Promise<string[]> =>
  ((await request(server.url).get('/odata/Albums?$format=json')).body.d.results as { Name: string }[]).map((album) => album.Name);

describe('limits.providerTimeout', () => {
  it('answers a read whose provider hangs with 503 PROVIDER_TIMEOUT and Retry-After', async () => {
    await start(
      (inner) => ({
        query: async (queryRequest, context) =>
          queryRequest.entitySet.name === 'Photos' ? hang().then(() => ({ entities: [] })) : inner.query(queryRequest, context),
      }),
      {
        limits: { providerTimeout: 150 },
      },
    );
    const response = await request(server.url).get('/odata/Photos').set('accept', JSON_TYPE);
    expect([response.status, response.headers['retry-after'], response.body.error.code]).toEqual([503, '1', 'PROVIDER_TIMEOUT']);
    expect(response.body.error.message.value).toBe('The data provider did not finish within 150 ms; try again later.');
    expect(logged).toEqual(['503 The data provider did not finish within 150 ms; try again later.']);
  });

  it('rolls back a write whose provider wrote and then hung, and lets the next writer in', async () => {
    await start(
      (inner) => {
        const wrapped: DataProvider = Object.create(inner) as DataProvider;
        wrapped.create = async (createRequest, context) => {
          const created = await inner.create(createRequest, context);
          if (createRequest.values.Name === 'Stuck') await hang();
          return created;
        };
        return wrapped;
      },
      { limits: { providerTimeout: 150 } },
    );
    const stuck = await request(server.url).post('/odata/Albums').set('content-type', JSON_TYPE).set('accept', JSON_TYPE).send({ ID: 5, Name: 'Stuck' });
    expect([stuck.status, stuck.headers['retry-after']]).toEqual([503, '1']);
    const next = await request(server.url).post('/odata/Albums').set('content-type', JSON_TYPE).send({ ID: 6, Name: 'Next' });
    expect(next.status).toBe(201);
    expect(await names()).toEqual(['One', 'Next']);
    // The hung call resumes: its request's transaction is gone, and nothing of it is stored.
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await names()).toEqual(['One', 'Next']);
  });

  it('closes a streamed feed whose provider stalls after the headers went out, and logs it', async () => {
    await start(
      (inner) => ({
        query: async (queryRequest, context) => {
          if (queryRequest.entitySet.name !== 'Albums') return inner.query(queryRequest, context);
          async function* stalling(): AsyncIterable<Entity> {
            for (let id = 0; id < 2000; id++) yield { ID: id, Name: 'x'.repeat(100) };
            await hang();
          }
          return { entities: stalling() };
        },
      }),
      { limits: { providerTimeout: 150 } },
    );
    const result = await fetch(`${server.url}/odata/Albums?$format=json`).then(async (response) => ({
      status: response.status,
      text: await response.text().catch((error: Error) => `failed: ${error.message}`),
    }));
    expect(result.status).toBe(200);
    expect(result.text).toMatch(/^failed: /);
    expect(logged).toEqual(['200 The response was cut off after its headers were sent: The data provider did not finish within 150 ms; try again later.']);
  });
});

describe('a changeset whose transaction hangs in MemoryProvider (transactionTimeout 300 ms, no providerTimeout)', () => {
  it('is abandoned after the timeout: 503 for the changeset, its write undone, the writer waiting behind it served', async () => {
    await start((inner) => inner);
    const batch = send(
      `${server.url}/odata/$batch`,
      'POST',
      { 'content-type': 'multipart/mixed; boundary=batch_1' },
      batchBody([
        changeset(
          'changeset_1',
          operation('POST', 'Albums', { headers: { 'Content-Type': JSON_TYPE }, body: '{"ID":2,"Name":"In changeset"}' }),
          operation('POST', "AddAlbum?ID=3&Name='Hangs'"),
        ),
      ]),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Another request's write queues behind the open changeset.
    const waiting = request(server.url).post('/odata/Albums').set('content-type', JSON_TYPE).send({ ID: 4, Name: 'Waited' });
    const [batchResult, single] = await Promise.all([batch, waiting]);
    expect(single.status).toBe(201);
    const [part] = readBatchResponse(batchResult);
    expect('status' in part ? [part.status, part.headers['Retry-After'], part.body.toString()] : part).toEqual([
      503,
      '1',
      expect.stringContaining(
        '<m:code>PROVIDER_TIMEOUT</m:code><m:message xml:lang="en-US">The data provider did not finish within 300 ms; try again later.</m:message>',
      ),
    ]);
    expect(await names()).toEqual(['One', 'Waited']);
    // The operation resumes and writes again: its request's writes are refused from now on.
    release();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lateWrites).toEqual(['PROVIDER_TIMEOUT']);
    expect(await names()).toEqual(['One', 'Waited']);
  });
});
