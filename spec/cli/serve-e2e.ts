/**
 * `express-odata-v2 serve` end to end, shared by the PGlite run (npm test) and the server run
 * (npm run test:postgres): the executable in a child process on a Northwind-like database,
 * `--port 0`, read over HTTP as clients do (service document, $metadata, filtered and expanded
 * feeds, paging, navigation), one log line per request, and Ctrl-C (SIGINT) ending it with exit
 * code 0 and the port released.
 *
 * Then the writes, as SqlProvider makes them with the introspected mapping: a create whose key the
 * database generates, an If-Match update on the version column, a $batch changeset committed as
 * one and a failing one rolled back.
 */
import { createServer } from 'net';
import { batchBody, changeset, operation, readBatchResponse, send, statuses, type BatchPart, type ResponsePart } from '../helpers/batch-http';
import type { CliProcess } from './support';
import { startServe } from './support';

/** How a run reaches its database. */
export interface E2EDatabase {
  /** The --db argument. */
  readonly db: string;
  /** Arguments added to serve's (e.g. --read-only). */
  readonly extraArgs?: readonly string[];
  /** What serve's first line calls the database. */
  readonly where: string;
}

/** A JSON answer. */
interface JsonAnswer {
  readonly status: number;
  readonly body: { d?: unknown; error?: { code: string } };
}

/** What the extra cases of a run get: the service root and a fetch that the log check counts. */
export interface ServeHandle {
  readonly url: string;
  readonly process: CliProcess;
  /** fetch `${url}${path}` (or an absolute URL); every call is one expected log line. */
  call(path: string, init?: RequestInit): Promise<Response>;
  /** Count `n` requests made without `call` (a generated client's) as expected log lines. */
  expectRequests(n: number): void;
}

/** The results of a V2 JSON feed. */
function results(body: { d?: unknown }): Record<string, unknown>[] {
  return (body.d as { results: Record<string, unknown>[] }).results;
}

/** Whether a TCP port on 127.0.0.1 can be bound (nothing listens there any more). */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
}

/** The shared cases; `database` is called once, in beforeAll, after the database exists. */
export function describeServe(database: () => E2EDatabase, more: (service: () => ServeHandle) => void = () => undefined): void {
  let cli: CliProcess;
  let url: string;
  let port: number;
  let requests = 0;
  const call = (path: string, init?: RequestInit): Promise<Response> => {
    requests++;
    return fetch(/^https?:/.test(path) ? path : `${url}${path}`, init);
  };
  const get = async (path: string): Promise<JsonAnswer> => {
    const response = await call(path, { headers: { accept: 'application/json' } });
    return { status: response.status, body: (await response.json()) as JsonAnswer['body'] };
  };

  beforeAll(async () => {
    const { db, extraArgs = [] } = database();
    ({ process: cli, url, port } = await startServe(['--db', db, '--port', '0', '--max-page-size', '4', ...extraArgs], process.cwd()));
  }, 60_000);

  afterAll(() => {
    cli?.kill('SIGKILL'); // only if a case failed before the SIGINT case
  });

  it('prints the service root on the port the system chose, and what it serves', () => {
    const { where, extraArgs = [] } = database();
    expect(port).toBeGreaterThan(0);
    expect(cli.stdout[0]).toBe(
      `Serving 9 entity sets of ${where}${extraArgs.includes('--read-only') ? ' (read-only)' : ''} at http://127.0.0.1:${port}/odata/`,
    );
  });

  it('answers the service document with every table as a collection', async () => {
    const response = await call('');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/atomsvc+xml;charset=utf-8');
    const hrefs = [...(await response.text()).matchAll(/<collection href="([^"]+)"/g)].map((match) => match[1]);
    expect(hrefs).toEqual(['categories', 'customers', 'employees', 'order_details', 'orders', 'products', 'region', 'suppliers', 'territories']);
  });

  it('answers $metadata with the introspected model: labels, keys, concurrency, many-to-many', async () => {
    const response = await call('$metadata');
    expect(response.status).toBe(200);
    const xml = await response.text();
    expect(xml).toContain('<EntityType Name="categories" sap:label="Product categories">');
    expect(xml).toContain('<Property Name="product_name" Type="Edm.String" Nullable="false" MaxLength="40" sap:label="Product name">');
    expect(xml).toContain('<Property Name="row_version" Type="Edm.Int32" Nullable="false" DefaultValue="1" ConcurrencyMode="Fixed" />');
    expect(xml).toContain(
      '<Property Name="order_id" Type="Edm.Int32" Nullable="false" sap:creatable="false" sap:updatable="false" annotation:StoreGeneratedPattern="Identity" />',
    );
    expect(xml).toContain('<NavigationProperty Name="territories" Relationship="Database.employee_territories" FromRole="employees" ToRole="territories" />');
  });

  it('filters, orders, selects and expands over foreign keys, composite keys and char(5) keys', async () => {
    const { status, body } = await get(
      "orders?$filter=customer_id eq 'ALFKI'&$orderby=order_id desc&$select=order_id,order_date,customer/company_name,order_details/quantity,order_details/product/product_name&$expand=customer,order_details/product",
    );
    expect(status).toBe(200);
    const plain = results(body).map((order) => ({
      order_id: order.order_id,
      order_date: order.order_date,
      customer: (order.customer as Record<string, unknown>).company_name,
      lines: (order.order_details as { results: { quantity: number; product: { product_name: string } }[] }).results.map((line) => [
        line.product.product_name,
        line.quantity,
      ]),
    }));
    expect(plain).toEqual([
      { order_id: 10249, order_date: '/Date(836524800000)/', customer: 'Alfreds Futterkiste', lines: [["Chef Anton's Cajun Seasoning", 9]] },
      {
        order_id: 10248,
        order_date: '/Date(836438400000)/',
        customer: 'Alfreds Futterkiste',
        lines: [
          ['Chai', 12],
          ['Chang', 10],
        ],
      },
    ]);
  });

  it('follows the many-to-many join table, the self-reference and counts', async () => {
    const territories = await get('employees(1)/territories?$orderby=territory_id&$select=territory_description');
    expect(results(territories.body).map((row) => row.territory_description)).toEqual(['Westboro', 'Boston']);
    const manager = await get('employees(2)/reports_to_employees?$select=last_name');
    expect((manager.body.d as Record<string, unknown>).last_name).toBe('Fuller');
    const reports = await get('employees(1)/employees_by_reports_to?$select=first_name&$orderby=first_name');
    expect(results(reports.body).map((row) => row.first_name)).toEqual(['Janet', 'Nancy']);
    const count = await call("customers('ALFKI')/orders/$count");
    expect(await count.text()).toBe('2');
  });

  it('pages by --max-page-size with next links that continue where the page ended', async () => {
    const names: unknown[] = [];
    let next: string | undefined = 'products?$orderby=unit_price desc&$select=product_name';
    while (next !== undefined) {
      const { body } = await get(next);
      const page = body.d as { results: Record<string, unknown>[]; __next?: string };
      expect(page.results.length).toBeLessThanOrEqual(4);
      names.push(...page.results.map((row) => row.product_name));
      next = page.__next;
    }
    expect(names).toEqual(["Chef Anton's Cajun Seasoning", "Chef Anton's Gumbo Mix", 'Chang', 'Chai', 'Pavlova', 'Aniseed Syrup']);
  });

  it('answers errors as OData errors, and paths outside the service with 404', async () => {
    expect(await get('nothing')).toMatchObject({ status: 404, body: { error: { code: 'URI_UNKNOWN_SEGMENT' } } });
    expect(await get("customers('NOONE')")).toMatchObject({ status: 404, body: { error: { code: 'ENTITY_NOT_FOUND' } } });
    const outside = await call(url.replace(/odata\/$/, 'elsewhere'));
    expect([outside.status, await outside.text()]).toEqual([404, 'Not found. The OData service is at /odata/\n']);
  });

  more(() => ({ url, process: cli, call, expectRequests: (n) => (requests += n) }));

  // Writes (after the reads and the extra cases, which read the seeded data).
  const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

  it('creates an order with the key the database generates (an identity starting at 11000)', async () => {
    const response = await call('orders', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ customer_id: 'BONAP', employee_id: 3, order_date: '/Date(852076800000)/', ship_country: 'France' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${url}orders(11000)`);
    const created = ((await response.json()) as { d: Record<string, unknown> }).d;
    expect([created.order_id, created.customer_id, created.order_date, created.freight]).toEqual([11000, 'BONAP', '/Date(852076800000)/', 0]);
    expect(await (await call("customers('BONAP')/orders/$count")).text()).toBe('2');
  });

  it('updates with If-Match: the ETag of the row_version column, 412 for a stale one', async () => {
    const read = await call('products(6)?$select=unit_price', { headers: { accept: 'application/json' } });
    const etag = read.headers.get('etag') ?? '';
    expect(etag).toBe('W/"1"');
    const merge = (ifMatch: string): Promise<Response> =>
      call('products(6)', { method: 'MERGE', headers: { ...JSON_HEADERS, 'if-match': ifMatch }, body: JSON.stringify({ unit_price: '18.50' }) });
    const updated = await merge(etag);
    expect([updated.status, updated.headers.get('etag')]).toEqual([204, 'W/"2"']);
    const stale = await merge(etag);
    expect(stale.status).toBe(412);
    const after = await get('products(6)?$select=unit_price,row_version');
    expect(after.body.d).toMatchObject({ unit_price: '18.5', row_version: 2 });
  });

  it('commits a $batch changeset as one (a category and a product through its navigation), and rolls a failing one back', async () => {
    const batch = async (parts: BatchPart[]): Promise<ResponsePart[]> => {
      requests++;
      return readBatchResponse(await send(`${url}$batch`, 'POST', { 'content-type': 'multipart/mixed; boundary=b' }, batchBody(parts, { boundary: 'b' })));
    };
    const committed = await batch([
      changeset(
        'c1',
        operation('POST', 'categories', { headers: JSON_HEADERS, body: JSON.stringify({ category_id: 4, category_name: 'Seafood' }), contentId: '1' }),
        operation('POST', '$1/products', { headers: JSON_HEADERS, body: JSON.stringify({ product_id: 7, product_name: 'Ikura', unit_price: '31.00' }) }),
      ),
    ]);
    expect(statuses(committed)).toEqual([[201, 201]]);
    const ikura = await get('products(7)?$expand=category&$select=product_name,discontinued,category/category_name');
    expect(ikura.body.d).toMatchObject({ product_name: 'Ikura', discontinued: false, category: { category_name: 'Seafood' } });

    const failed = await batch([
      changeset(
        'c2',
        operation('POST', 'categories', { headers: JSON_HEADERS, body: JSON.stringify({ category_id: 5, category_name: 'Produce' }) }),
        operation('POST', 'categories', { headers: JSON_HEADERS, body: JSON.stringify({ category_id: 1, category_name: 'Taken' }) }),
      ),
    ]);
    expect(statuses(failed)).toEqual([409]);
    expect((await get('categories(5)')).status).toBe(404);
  });

  it('logs one line per request on stdout', async () => {
    // Log lines are written when a response closes; give the last one a moment.
    await new Promise((done) => setTimeout(done, 100));
    const lines = cli.stdout.slice(1).filter((line) => line !== '');
    expect(lines).toHaveLength(requests);
    for (const line of lines) expect(line).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (GET|POST|PUT|MERGE|PATCH|DELETE) \/\S* \d{3} \d+ms$/);
    expect(lines[0]).toMatch(/Z GET \/odata\/ 200 \d+ms$/);
    expect(lines[1]).toMatch(/Z GET \/odata\/\$metadata 200 \d+ms$/);
  });

  it('stops on SIGINT with exit code 0 and releases the port', async () => {
    cli.kill('SIGINT');
    const result = await cli.exited;
    expect([result.code, result.signal]).toEqual([0, null]);
    expect(result.stderr.filter((line) => line !== '' && !line.startsWith('warning: '))).toEqual(['Stopping (SIGINT)...']);
    expect(await portIsFree(port)).toBe(true);
  });
}
