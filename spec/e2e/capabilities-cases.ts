/**
 * What `sap:` capabilities mean to the service, as cases any provider runs (capabilities.spec.ts
 * with MemoryProvider, spec/sql/provider/capabilities.spec.ts with SqlProvider): a set marked
 * `sap:creatable/updatable/deletable="false"` answers the write it refuses with 405 and `Allow`
 * before the provider runs (entries, properties, `$value`, `$links`, POST through navigation,
 * changeset parts), an inline entry for such a set is 400, and a property marked
 * `sap:updatable="false"` keeps its stored value: a body may repeat it, a different value is 400
 * PROPERTY_NOT_UPDATABLE, a PUT that leaves it out keeps it; one marked `sap:creatable="false"`
 * is ignored on create.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx, type EdmModel, type MemoryData } from '../../lib';
import type { RequestContext, ODataRequest } from '../../lib/protocol/message';
import type { Service } from '../../lib/service';
import { batchBody, changeset, operation } from '../helpers/batch-http';

/** The capabilities fixture: Records refuse every write, Ledger updates and deletes, Tags and Photos (media) updates; Customers.Code and Rating are not updatable, Secret not creatable. */
export const CAPABILITIES_MODEL: EdmModel = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'provider', 'capabilities.xml'), 'utf8'));

/** Its data (MemoryData form; SqlProvider seeds the same). */
export const CAPABILITIES_DATA: MemoryData = {
  Customers: [{ ID: 1, Name: 'Ada', Code: 'A1', Rating: '4.50', Secret: 'kept', Tags: ['a'] }],
  Tags: [{ Code: 'a' }, { Code: 'b' }],
  Records: [{ ID: 1, Title: 'old', Customer: 1 }],
  Ledger: [{ ID: 1, Amount: 10 }],
  Photos: [{ ID: 1 }],
};

/** An answer of the in-process service. */
export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  json(): { d?: Record<string, unknown>; error?: { code?: string; message?: { value?: string } } };
}

/** Send one request to `service` in process (no HTTP server: the pipeline is what these cases are about). */
export async function sendTo(service: Service, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<Answer> {
  const payload = body === undefined ? undefined : Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  const request: ODataRequest = {
    method,
    path,
    query: '',
    headers: { accept: 'application/json', ...(payload === undefined ? {} : { 'content-type': contentType }) },
    body: payload,
    serviceRoot: 'http://localhost/odata/',
    context: { request: {} as RequestContext['request'], state: new Map() },
  };
  const response = await service.handle(request);
  const text = typeof response.body === 'string' ? response.body : Buffer.isBuffer(response.body) ? response.body.toString('utf8') : '';
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as ReturnType<Answer['json']> };
}

const CUSTOMER_1 = { uri: 'http://localhost/odata/Customers(1)' };
const TAG_B = { uri: "http://localhost/odata/Tags('b')" };

/** Writes the capabilities refuse: method, path, body, content type, what `Allow` then says. */
const REFUSED: readonly (readonly [string, string, unknown, string, string])[] = [
  ['POST', 'Records', { ID: 2, Title: 'new' }, 'application/json', 'GET'],
  ['POST', 'Customers(1)/Records', { ID: 3, Title: 'new' }, 'application/json', 'GET'],
  ['PUT', 'Records(1)', { ID: 1, Title: 'x' }, 'application/json', 'GET'],
  ['MERGE', 'Records(1)', { Title: 'x' }, 'application/json', 'GET'],
  ['PATCH', 'Records(1)', { Title: 'x' }, 'application/json', 'GET'],
  ['DELETE', 'Records(1)', undefined, 'application/json', 'GET'],
  ['PUT', 'Records(1)/Title', { Title: 'x' }, 'application/json', 'GET'],
  ['PUT', 'Records(1)/Title/$value', 'x', 'text/plain', 'GET'],
  ['DELETE', 'Records(1)/Title/$value', undefined, 'application/json', 'GET'],
  ['PUT', 'Records(1)/$links/Customer', CUSTOMER_1, 'application/json', 'GET'],
  ['DELETE', 'Records(1)/$links/Customer', undefined, 'application/json', 'GET'],
  ['MERGE', 'Ledger(1)', { Amount: 11 }, 'application/json', 'GET'],
  ['DELETE', 'Ledger(1)', undefined, 'application/json', 'GET'],
  ['POST', "Tags('a')/$links/Customers", CUSTOMER_1, 'application/json', 'GET'],
  ['DELETE', "Tags('a')/$links/Customers(1)", undefined, 'application/json', 'GET'],
  ['PUT', 'Customers(1)/Code', { Code: 'X' }, 'application/json', 'GET'],
  ['PUT', 'Customers(1)/Code/$value', 'X', 'text/plain', 'GET'],
  ['PUT', 'Photos(1)/$value', 'bytes', 'image/png', 'GET'],
];

/** The capability cases, against a fresh service per case from `serve`. */
export function describeCapabilities(serve: () => Promise<{ readonly service: Service; close(): Promise<void> }>): void {
  let current: { readonly service: Service; close(): Promise<void> } | undefined;
  const send = (method: string, path: string, body?: unknown, contentType?: string): Promise<Answer> => {
    if (current === undefined) throw new Error('no service');
    return sendTo(current.service, method, path, body, contentType);
  };
  beforeEach(async () => {
    current = await serve();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });

  describe('set-level capabilities', () => {
    it.each(REFUSED)('%s %s is 405 with Allow: %s before the provider runs', async (method, path, body, contentType, allow) => {
      const answer = await send(method, path, body, contentType);
      expect(answer.status).toBe(405);
      expect(answer.headers.allow).toBe(allow);
      expect(answer.json().error?.code).toBe('METHOD_NOT_ALLOWED');
      expect(answer.json().error?.message?.value).toMatch(/is marked sap:(creatable|updatable|deletable)="false"/);
    });

    it('leaves the refused entries as they were', async () => {
      for (const [method, path, body, contentType] of REFUSED) await send(method, path, body, contentType);
      expect((await send('GET', 'Records(1)')).json().d).toMatchObject({ ID: 1, Title: 'old' });
      expect((await send('GET', 'Records(2)')).status).toBe(404);
      expect((await send('GET', 'Ledger(1)')).json().d).toMatchObject({ Amount: 10 });
      expect((await send('GET', 'Customers(1)')).json().d).toMatchObject({ Code: 'A1' });
      expect((await send('GET', "Tags('a')/$links/Customers")).text).toContain('Customers(1)');
    });

    it('takes what a set allows: POST Ledger, $links of Customers (whose set is updatable) to a Tag', async () => {
      expect((await send('POST', 'Ledger', { ID: 2, Amount: 5 })).status).toBe(201);
      expect((await send('POST', 'Customers(1)/$links/Tags', TAG_B)).status).toBe(204);
      expect((await send('GET', 'Customers(1)/$links/Tags')).text).toContain("Tags('b')");
    });

    it('refuses an inline entry for a set that is not creatable with 400, creating nothing', async () => {
      const answer = await send('POST', 'Customers', { ID: 3, Name: 'Deep', Code: 'D', Records: [{ ID: 9, Title: 'inline' }] });
      expect(answer.status).toBe(400);
      expect(answer.json().error?.message?.value).toContain(`'Records' holds new entries for 'Records', which is marked sap:creatable="false"`);
      expect((await send('GET', 'Customers(3)')).status).toBe(404);
    });

    it('answers a refused write inside a changeset 405, and the changeset writes nothing', async () => {
      if (current === undefined) throw new Error('no service');
      const json = { 'content-type': 'application/json' };
      const body = batchBody([
        changeset(
          'cs',
          operation('POST', 'Ledger', { headers: json, body: JSON.stringify({ ID: 7, Amount: 1 }) }),
          operation('POST', 'Records', { headers: json, body: JSON.stringify({ ID: 7, Title: 'no' }) }),
        ),
      ]);
      const answer = await sendTo(current.service, 'POST', '$batch', body, 'multipart/mixed; boundary=batch_1');
      expect(answer.status).toBe(202);
      expect(answer.text).toMatch(/HTTP\/1\.1 405/);
      expect(answer.text).toContain('METHOD_NOT_ALLOWED');
      expect((await send('GET', 'Ledger(7)')).status).toBe(404);
    });
  });

  describe('property-level capabilities', () => {
    it('lets an update repeat a property marked sap:updatable="false" (Decimal 4.5 is 4.50) and keeps it', async () => {
      expect((await send('MERGE', 'Customers(1)', { Name: 'Ada L', Code: 'A1', Rating: '4.5' })).status).toBe(204);
      expect((await send('PUT', 'Customers(1)', { ID: 1, Name: 'Ada M', Code: 'A1' })).status).toBe(204);
      const customer = (await send('GET', 'Customers(1)')).json().d;
      expect(customer).toMatchObject({ Name: 'Ada M', Code: 'A1' });
      expect(Number(customer?.Rating)).toBe(4.5);
    });

    it.each([
      ['MERGE', { Code: 'B2' }, 'Code'],
      ['PATCH', { Name: 'x', Rating: '1' }, 'Rating'],
      ['PUT', { ID: 1, Name: 'x', Code: 'A1', Rating: null }, 'Rating'],
    ])('%s with a different value for it is 400 PROPERTY_NOT_UPDATABLE naming it, and changes nothing', async (method, body, property) => {
      const answer = await send(method, 'Customers(1)', body);
      expect(answer.status).toBe(400);
      const error = answer.json().error;
      expect(error?.code).toBe('PROPERTY_NOT_UPDATABLE');
      expect(error?.message?.value).toContain(`'${property}' of 'Customers'`);
      expect((await send('GET', 'Customers(1)')).json().d).toMatchObject({ Name: 'Ada', Code: 'A1' });
    });

    it('ignores a value sent on create for a property marked sap:creatable="false"', async () => {
      const created = await send('POST', 'Customers', { ID: 2, Name: 'Bob', Code: 'B', Secret: 'ignored' });
      expect(created.status).toBe(201);
      expect(created.json().d?.Secret).toBeNull();
      expect((await send('GET', 'Customers(2)')).json().d?.Secret).toBeNull();
    });
  });
}
