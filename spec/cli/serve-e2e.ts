/**
 * `express-odata-v2 serve` end to end, shared by the PGlite run (npm run test:package) and the server run
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
    expect(hrefs).toEqual(['Categories', 'Customers', 'Employees', 'OrderDetails', 'Orders', 'Products', 'Regions', 'Suppliers', 'Territories']);
  });

  it('answers $metadata with the introspected model: OData names, labels, keys, concurrency, many-to-many', async () => {
    const response = await call('$metadata');
    expect(response.status).toBe(200);
    const xml = await response.text();
    expect(xml).toContain('<EntityType Name="Category" sap:label="Product categories">');
    expect(xml).toContain('<Property Name="ProductName" Type="Edm.String" Nullable="false" MaxLength="40" sap:label="Product name">');
    expect(xml).toContain('<Property Name="RowVersion" Type="Edm.Int32" Nullable="false" DefaultValue="1" ConcurrencyMode="Fixed" sap:label="Row Version" />');
    expect(xml).toContain(
      '<Property Name="OrderID" Type="Edm.Int32" Nullable="false" sap:label="Order ID" sap:creatable="false" sap:updatable="false" annotation:StoreGeneratedPattern="Identity" />',
    );
    expect(xml).toContain('<Annotation Term="Common.Text" Path="Customer/CompanyName" />');
    expect(xml).toContain('<NavigationProperty Name="Territories" Relationship="Database.Employee_Territory" FromRole="Employee" ToRole="Territory" />');
    expect(xml).toContain('<NavigationProperty Name="ReportsTo" Relationship="Database.Employee_ReportsTo" FromRole="Employee" ToRole="ReportsTo" />');
  });

  it('filters, orders, selects and expands over foreign keys, composite keys and char(5) keys', async () => {
    const { status, body } = await get(
      "Orders?$filter=CustomerID eq 'ALFKI'&$orderby=OrderID desc&$select=OrderID,OrderDate,Customer/CompanyName,OrderDetails/Quantity,OrderDetails/Product/ProductName&$expand=Customer,OrderDetails/Product",
    );
    expect(status).toBe(200);
    const plain = results(body).map((order) => ({
      OrderID: order.OrderID,
      OrderDate: order.OrderDate,
      customer: (order.Customer as Record<string, unknown>).CompanyName,
      lines: (order.OrderDetails as { results: { Quantity: number; Product: { ProductName: string } }[] }).results.map((line) => [
        line.Product.ProductName,
        line.Quantity,
      ]),
    }));
    expect(plain).toEqual([
      { OrderID: 10249, OrderDate: '/Date(836524800000)/', customer: 'Alfreds Futterkiste', lines: [["Chef Anton's Cajun Seasoning", 9]] },
      {
        OrderID: 10248,
        OrderDate: '/Date(836438400000)/',
        customer: 'Alfreds Futterkiste',
        lines: [
          ['Chai', 12],
          ['Chang', 10],
        ],
      },
    ]);
  });

  it('follows the many-to-many join table, the self-reference and counts', async () => {
    const territories = await get('Employees(1)/Territories?$orderby=TerritoryID&$select=TerritoryDescription');
    expect(results(territories.body).map((row) => row.TerritoryDescription)).toEqual(['Westboro', 'Boston']);
    const manager = await get('Employees(2)/ReportsTo?$select=LastName');
    expect((manager.body.d as Record<string, unknown>).LastName).toBe('Fuller');
    const reports = await get('Employees(1)/Reports?$select=FirstName&$orderby=FirstName');
    expect(results(reports.body).map((row) => row.FirstName)).toEqual(['Janet', 'Nancy']);
    const count = await call("Customers('ALFKI')/Orders/$count");
    expect(await count.text()).toBe('2');
  });

  it('pages by --max-page-size with next links that continue where the page ended', async () => {
    const names: unknown[] = [];
    let next: string | undefined = 'Products?$orderby=UnitPrice desc&$select=ProductName';
    while (next !== undefined) {
      const { body } = await get(next);
      const page = body.d as { results: Record<string, unknown>[]; __next?: string };
      expect(page.results.length).toBeLessThanOrEqual(4);
      names.push(...page.results.map((row) => row.ProductName));
      next = page.__next;
    }
    expect(names).toEqual(["Chef Anton's Cajun Seasoning", "Chef Anton's Gumbo Mix", 'Chang', 'Chai', 'Pavlova', 'Aniseed Syrup']);
  });

  it('answers errors as OData errors, and paths outside the service with 404', async () => {
    expect(await get('nothing')).toMatchObject({ status: 404, body: { error: { code: 'URI_UNKNOWN_SEGMENT' } } });
    expect(await get("Customers('NOONE')")).toMatchObject({ status: 404, body: { error: { code: 'ENTITY_NOT_FOUND' } } });
    const outside = await call(url.replace(/odata\/$/, 'elsewhere'));
    expect([outside.status, await outside.text()]).toEqual([404, 'Not found. The OData service is at /odata/\n']);
  });

  more(() => ({ url, process: cli, call, expectRequests: (n) => (requests += n) }));

  // Writes (after the reads and the extra cases, which read the seeded data).
  const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json' };

  it('creates an order with the key the database generates (an identity starting at 11000)', async () => {
    const response = await call('Orders', {
      method: 'POST',
      headers: JSON_HEADERS,
      body: JSON.stringify({ CustomerID: 'BONAP', EmployeeID: 3, OrderDate: '/Date(852076800000)/', ShipCountry: 'France' }),
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('location')).toBe(`${url}Orders(11000)`);
    const created = ((await response.json()) as { d: Record<string, unknown> }).d;
    expect([created.OrderID, created.CustomerID, created.OrderDate, created.Freight]).toEqual([11000, 'BONAP', '/Date(852076800000)/', 0]);
    expect(await (await call("Customers('BONAP')/Orders/$count")).text()).toBe('2');
  });

  it('updates with If-Match: the ETag of the row_version column, 412 for a stale one', async () => {
    const read = await call('Products(6)?$select=UnitPrice', { headers: { accept: 'application/json' } });
    const etag = read.headers.get('etag') ?? '';
    expect(etag).toBe('W/"1"');
    const merge = (ifMatch: string): Promise<Response> =>
      call('Products(6)', { method: 'MERGE', headers: { ...JSON_HEADERS, 'if-match': ifMatch }, body: JSON.stringify({ UnitPrice: '18.50' }) });
    const updated = await merge(etag);
    expect([updated.status, updated.headers.get('etag')]).toEqual([204, 'W/"2"']);
    const stale = await merge(etag);
    expect(stale.status).toBe(412);
    const after = await get('Products(6)?$select=UnitPrice,RowVersion');
    expect(after.body.d).toMatchObject({ UnitPrice: '18.5', RowVersion: 2 });
  });

  it('commits a $batch changeset as one (a category and a product through its navigation), and rolls a failing one back', async () => {
    const batch = async (parts: BatchPart[]): Promise<ResponsePart[]> => {
      requests++;
      return readBatchResponse(await send(`${url}$batch`, 'POST', { 'content-type': 'multipart/mixed; boundary=b' }, batchBody(parts, { boundary: 'b' })));
    };
    const committed = await batch([
      changeset(
        'c1',
        operation('POST', 'Categories', { headers: JSON_HEADERS, body: JSON.stringify({ CategoryID: 4, CategoryName: 'Seafood' }), contentId: '1' }),
        operation('POST', '$1/Products', { headers: JSON_HEADERS, body: JSON.stringify({ ProductID: 7, ProductName: 'Ikura', UnitPrice: '31.00' }) }),
      ),
    ]);
    expect(statuses(committed)).toEqual([[201, 201]]);
    const ikura = await get('Products(7)?$expand=Category&$select=ProductName,Discontinued,Category/CategoryName');
    expect(ikura.body.d).toMatchObject({ ProductName: 'Ikura', Discontinued: false, Category: { CategoryName: 'Seafood' } });

    const failed = await batch([
      changeset(
        'c2',
        operation('POST', 'Categories', { headers: JSON_HEADERS, body: JSON.stringify({ CategoryID: 5, CategoryName: 'Produce' }) }),
        operation('POST', 'Categories', { headers: JSON_HEADERS, body: JSON.stringify({ CategoryID: 1, CategoryName: 'Taken' }) }),
      ),
    ]);
    expect(statuses(failed)).toEqual([409]);
    expect((await get('Categories(5)')).status).toBe(404);
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
