/**
 * Row-level security through SqlProvider's `session`, the cases both engines run (PGlite in
 * row-security.spec.ts, a server in row-security.pg.spec.ts): for each of two users, feeds paged to
 * the end, counts, `$expand`, navigation, key reads (alone and coalesced in a `$batch`) and a
 * streamed feed show exactly the rows the policies give it, compared with what the login role
 * reads; writes to hidden rows are 404, writes a policy or a missing privilege refuses are 403,
 * stale tags 412, and none of them leaves anything; changesets commit or leave nothing; sessions
 * that name no usable role are 403 and logged. Every request runs as the login role otherwise,
 * which is a superuser here: a statement that missed its session would see every row.
 */
import { batchBody, changeset, operation, readBatchResponse, send, type ResponsePart } from '../../helpers/batch-http';
import { entries, errorCode, request, walkFeed, type RowSecurityService, type RowSecurityUser } from './row-security';

/** What the cases run against. */
export interface RowSecurityHarness {
  /** Paged by 4. */
  readonly service: RowSecurityService;
  /** Chunks of 3 rows, not paged: feeds stream. */
  readonly streamed: RowSecurityService;
  /** Run SQL as the login role, which sees every row. */
  readonly admin: (text: string) => Promise<Record<string, unknown>[]>;
}

const CUSTOMER = { alfki: 'ALFKI', anatr: 'ANATR' } as const;
const OTHER = { alfki: 'anatr', anatr: 'alfki' } as const;

/** The statuses of a batch response's parts (a changeset's parts flattened). */
function statusesOf(parts: readonly ResponsePart[]): number[] {
  return parts.flatMap((part) => ('changeset' in part ? part.changeset.map((each) => each.status) : [part.status]));
}

/** Register the cases; `harness` is called inside each test (after the spec's beforeAll). */
export function describeRowSecurity(harness: () => RowSecurityHarness): void {
  const numbers = (rows: readonly Record<string, unknown>[], column: string): number[] => rows.map((row) => Number(row[column]));
  const ordersOf = async (customer: string): Promise<number[]> =>
    numbers(await harness().admin(`select order_id from orders where customer_id = '${customer}' order by order_id`), 'order_id');
  const orderRow = async (id: number): Promise<Record<string, unknown> | undefined> =>
    (await harness().admin(`select status::text as status, version, employee_id from orders where order_id = ${id}`))[0];
  const batch = async (user: RowSecurityUser, parts: Parameters<typeof batchBody>[0]): Promise<ResponsePart[]> =>
    readBatchResponse(
      await send(
        `${harness().service.server.url}/odata/$batch`,
        'POST',
        { 'content-type': 'multipart/mixed; boundary=batch_1', 'x-user': user, accept: 'application/json' },
        batchBody(parts),
      ),
    );

  describe.each(['alfki', 'anatr'] as const)('as %s', (user) => {
    it('pages through exactly its orders to the end, counted on every page', async () => {
      const expected = await ordersOf(CUSTOMER[user]);
      const { entries: seen, counts } = await walkFeed(harness().service.server, user, 'Orders?$select=OrderID&$orderby=OrderID desc&$inlinecount=allpages');
      expect(seen.map((entry) => entry.OrderID)).toEqual([...expected].reverse());
      expect(counts).toEqual(Array.from({ length: Math.ceil(expected.length / 4) }, () => String(expected.length)));
    });

    it('counts exactly its orders and their lines', async () => {
      const { server } = harness().service;
      const lines = await harness().admin(`select count(*) as n from order_details d join orders o using (order_id) where o.customer_id = '${CUSTOMER[user]}'`);
      expect((await request(server, user, 'GET', 'Orders/$count')).body).toBe((await ordersOf(CUSTOMER[user])).length);
      expect((await request(server, user, 'GET', 'OrderDetails/$count')).body).toBe(Number(lines[0].n));
      expect((await request(server, user, 'GET', `Orders/$count?$filter=CustomerID eq '${CUSTOMER[OTHER[user]]}'`)).body).toBe(0);
    });

    it('expands only the lines, customers and employees it may see, on every page', async () => {
      const { server } = harness().service;
      const orders = await harness().admin(`select order_id, employee_id from orders where customer_id = '${CUSTOMER[user]}' order by order_id`);
      const lines = await harness().admin('select order_id, product_id from order_details order by order_id, product_id');
      const { entries: seen } = await walkFeed(
        server,
        user,
        'Orders?$orderby=OrderID&$expand=OrderDetails,Customer,Employee&$select=OrderID,OrderDetails/ProductID,Customer/CustomerID,Employee/EmployeeID',
      );
      expect(
        seen.map((entry) => ({
          id: entry.OrderID,
          lines: (entry.OrderDetails as { results: { ProductID: number }[] }).results.map((line) => line.ProductID).sort(),
          customer: (entry.Customer as { CustomerID: string } | null)?.CustomerID ?? null,
          employee: (entry.Employee as { EmployeeID: number } | null)?.EmployeeID ?? null,
        })),
      ).toEqual(
        orders.map((order) => ({
          id: Number(order.order_id),
          lines: lines.filter((line) => line.order_id === order.order_id).map((line) => Number(line.product_id)),
          customer: CUSTOMER[user],
          // Only alfki's role has a policy on employees: anatr's orders point to employees it cannot see.
          employee: user === 'alfki' && order.employee_id !== null ? Number(order.employee_id) : null,
        })),
      );
      const customers = entries(await request(server, user, 'GET', 'Customers?$expand=Orders&$select=CustomerID,Orders/OrderID'));
      expect(
        customers.map((customer) => [customer.CustomerID, (customer.Orders as { results: { OrderID: number }[] }).results.map((order) => order.OrderID)]),
      ).toEqual([[CUSTOMER[user], await ordersOf(CUSTOMER[user])]]);
    });

    it('reads its own orders by key, and the others, their lines and customers are 404', async () => {
      const { server } = harness().service;
      const [own] = await ordersOf(CUSTOMER[user]);
      const [other] = await ordersOf(CUSTOMER[OTHER[user]]);
      expect((await request(server, user, 'GET', `Orders(${own})`)).status).toBe(200);
      expect((await request(server, user, 'GET', `Orders(${own})/OrderDetails`)).status).toBe(200);
      for (const path of [`Orders(${other})`, `Orders(${other})/OrderDetails`, `Orders(${other})/Customer`, `Customers('${CUSTOMER[OTHER[user]]}')/Orders`])
        expect([path, (await request(server, user, 'GET', path)).status]).toEqual([path, 404]);
      // Employee 3 took ANATR's order 10249: alfki sees the employee but not the order; anatr sees no employee at all.
      const employeeOrders = await request(server, user, 'GET', 'Employees(3)/Orders?$select=OrderID');
      expect(user === 'alfki' ? entries(employeeOrders) : employeeOrders.status).toEqual(user === 'alfki' ? [] : 404);
    });

    it('reads key after key in one $batch (read together) as itself', async () => {
      const ids = [10248, 10249, 10250, 10251, 10252, 10253];
      const parts = await batch(
        user,
        ids.map((id) => operation('GET', `Orders(${id})?$select=OrderID`, { headers: { accept: 'application/json' } })),
      );
      const own = new Set(await ordersOf(CUSTOMER[user]));
      expect(statusesOf(parts)).toEqual(ids.map((id) => (own.has(id) ? 200 : 404)));
    });

    it('streams exactly its orders, every chunk read as itself', async () => {
      const seen = entries(await request(harness().streamed.server, user, 'GET', 'Orders?$select=OrderID&$orderby=OrderID'));
      expect(seen.map((entry) => entry.OrderID)).toEqual(await ordersOf(CUSTOMER[user]));
    });
  });

  describe('writes', () => {
    it('to an order it cannot see are 404, whatever the tag, and change nothing', async () => {
      const { server } = harness().service;
      const before = [await orderRow(10250), await orderRow(10251)];
      for (const ifMatch of ['*', 'W/"0"', 'W/"7"']) {
        const headers = { 'if-match': ifMatch };
        // A replace names every required property, or it is refused (400) before any row is looked at.
        const replace = { Status: 'cancelled', CustomerID: 'ANATR', OrderedAt: '/Date(1722502800000)/' };
        expect((await request(server, 'anatr', 'MERGE', 'Orders(10250)', { body: { Status: 'cancelled' }, headers })).status).toBe(404);
        expect((await request(server, 'anatr', 'PUT', 'Orders(10250)', { body: replace, headers })).status).toBe(404);
        // (anatr may delete nothing at all: that is 403 whichever the row, see below.)
        expect((await request(server, 'alfki', 'DELETE', 'Orders(10251)', { headers })).status).toBe(404);
      }
      expect((await request(server, 'anatr', 'PUT', 'Orders(10250)/$links/Employee', { body: { uri: `${server.url}/odata/Employees(1)` } })).status).toBe(404);
      expect([await orderRow(10250), await orderRow(10251)]).toEqual(before);
    });

    it('to an order a policy does not let it change are 403, and change nothing', async () => {
      const { server } = harness().service;
      // 10248 is alfki's and shipped: visible, but the update and delete policies refuse it.
      const { etag } = await request(server, 'alfki', 'GET', 'Orders(10248)');
      const before = await orderRow(10248);
      for (const ifMatch of [etag ?? '', '*']) {
        const merge = await request(server, 'alfki', 'MERGE', 'Orders(10248)', { body: { Status: 'cancelled' }, headers: { 'if-match': ifMatch } });
        expect([merge.status, errorCode(merge)]).toEqual([403, 'FORBIDDEN']);
        expect((await request(server, 'alfki', 'DELETE', 'Orders(10248)', { headers: { 'if-match': ifMatch } })).status).toBe(403);
      }
      expect((await request(server, 'alfki', 'PUT', 'Orders(10248)/$links/Employee', { body: { uri: `${server.url}/odata/Employees(2)` } })).status).toBe(403);
      expect(await orderRow(10248)).toEqual(before);
    });

    it('with a stale tag on an order it may change are 412; the current tag changes it', async () => {
      const { server } = harness().service;
      const { etag } = await request(server, 'alfki', 'GET', 'Orders(10252)');
      const before = await orderRow(10252);
      expect((await request(server, 'alfki', 'MERGE', 'Orders(10252)', { body: { ClientIp: '10.0.0.1' }, headers: { 'if-match': etag ?? '' } })).status).toBe(
        204,
      );
      expect((await request(server, 'alfki', 'MERGE', 'Orders(10252)', { body: { ClientIp: '10.0.0.2' }, headers: { 'if-match': etag ?? '' } })).status).toBe(
        412,
      );
      expect(await orderRow(10252)).toEqual({ ...before, version: Number(before?.version) + 1 });
    });

    it('that a policy or a missing privilege refuses in the statement itself are 403 (42501), and leave nothing', async () => {
      const { server } = harness().service;
      const order = (id: number, customer: string) => ({ OrderID: id, CustomerID: customer, OrderedAt: '/Date(1722502800000)/' });
      // The insert policy's WITH CHECK: an order for another customer.
      const insert = await request(server, 'alfki', 'POST', 'Orders', { body: order(20001, 'ANATR') });
      expect([insert.status, errorCode(insert)]).toEqual([403, 'FORBIDDEN']);
      // The update policy's check of the new row: an order may not be marked shipped.
      const ship = await request(server, 'alfki', 'MERGE', 'Orders(10254)', { body: { Status: 'shipped' }, headers: { 'if-match': '*' } });
      expect([ship.status, errorCode(ship)]).toEqual([403, 'FORBIDDEN']);
      // anatr has no DELETE privilege at all.
      expect((await request(server, 'anatr', 'DELETE', 'Orders(10251)', { headers: { 'if-match': '*' } })).status).toBe(403);
      expect(await harness().admin("select order_id from orders where order_id = 20001 or (order_id = 10254 and status = 'shipped')")).toEqual([]);
      expect(await orderRow(10251)).toBeDefined();
    });

    it('that it may make succeed, and the other user does not see them', async () => {
      const { server } = harness().service;
      const created = await request(server, 'alfki', 'POST', 'Orders', { body: { OrderID: 20002, CustomerID: 'ALFKI', OrderedAt: '/Date(1722502800000)/' } });
      expect(created.status).toBe(201);
      expect((await request(server, 'anatr', 'GET', 'Orders(20002)')).status).toBe(404);
      expect((await request(server, 'anatr', 'MERGE', 'Orders(20002)', { body: { ClientIp: '10.0.0.5' }, headers: { 'if-match': '*' } })).status).toBe(404);
      expect((await request(server, 'alfki', 'DELETE', 'Orders(20002)', { headers: { 'if-match': created.etag ?? '' } })).status).toBe(204);
      expect(await orderRow(20002)).toBeUndefined();
    });

    it('in a changeset commit together, and one to a hidden order leaves nothing of the changeset', async () => {
      const json = { 'content-type': 'application/json', accept: 'application/json', 'if-match': '*' };
      const committed = await batch('alfki', [
        changeset(
          'changeset_1',
          operation('MERGE', 'Orders(10254)', { headers: json, body: JSON.stringify({ ClientIp: '10.0.0.3' }) }),
          operation('POST', 'Orders', { headers: json, body: JSON.stringify({ OrderID: 20003, CustomerID: 'ALFKI', OrderedAt: '/Date(1722502800000)/' }) }),
        ),
      ]);
      expect(statusesOf(committed)).toEqual([204, 201]);
      expect((await harness().admin('select order_id from orders where order_id = 20003')).length).toBe(1);
      const before = await orderRow(10258);
      const failed = await batch('alfki', [
        changeset(
          'changeset_2',
          operation('MERGE', 'Orders(10258)', { headers: json, body: JSON.stringify({ ClientIp: '10.0.0.4' }) }),
          operation('MERGE', 'Orders(10251)', { headers: json, body: JSON.stringify({ ClientIp: '10.0.0.4' }) }),
        ),
      ]);
      expect(statusesOf(failed)).toEqual([404]);
      expect(await orderRow(10258)).toEqual(before);
    });
  });

  describe('sessions that name no role requests may run as are 403, logged, and read nothing', () => {
    it.each([
      ['bypass', 'it has BYPASSRLS'],
      ['superuser', 'it is a superuser'],
      ['none', "'none' is not a role requests may run as"],
      ['ghost', 'no such role exists'],
      ['nobody', 'the session of a request names no role'],
    ] as const)('%s', async (user, reason) => {
      const { service } = harness();
      service.logged.length = 0;
      for (const [method, path] of [
        ['GET', 'Orders'],
        ['GET', 'Orders(10248)'],
        ['GET', 'Orders/$count'],
        ['DELETE', 'Orders(10249)'],
      ] as const) {
        const answer = await request(service.server, user, method, path, { headers: { 'if-match': '*' } });
        expect([path, answer.status, errorCode(answer)]).toEqual([path, 403, 'FORBIDDEN']);
      }
      expect(await orderRow(10249)).toBeDefined();
      expect(service.logged).toHaveLength(4);
      expect(service.logged.every((line) => line.includes(reason) && line.endsWith('the request was refused (403).'))).toBe(true);
    });
  });
}
