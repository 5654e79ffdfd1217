/**
 * SAP's `search` served by MemoryProvider through the whole service, in process (the service's
 * `handle`, no HTTP): terms, phrases, case beyond ASCII, LIKE wildcards as characters, an
 * unclosed quote, every query option at once, paging to the end by next links, `$inlinecount` and
 * `/$count`, navigation, `$batch`, a set marked `sap:searchable="false"` and a service built with
 * `search: false`. Expected rows come from `expectedSearch`, the rule in plain code.
 */
import type { IncomingMessage } from 'http';
import { MemoryProvider } from '../../../lib';
import type { DataProvider, QueryRequest, CountRequest } from '../../../lib';
import type { ODataRequest } from '../../../lib/protocol/message';
import { createService, type Service } from '../../../lib/service';
import { batchBody, operation, readBatchResponse, type EmbeddedResponse } from '../../helpers/batch-http';
import { FIXED_NOW } from '../../helpers/demo';
import { CUSTOMER_SEARCHED, ORDER_SEARCHED, SHOP_CUSTOMERS, SHOP_LINKS, SHOP_MODEL, SHOP_ORDERS, expectedSearch, shopData } from '../../helpers/search-shop';

const ROOT = 'http://localhost/shop/';

interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

async function bodyText(body: ODataRequest['body'] | string | AsyncIterable<string | Buffer>): Promise<string> {
  if (body === undefined) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  let text = '';
  for await (const chunk of body) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text;
}

function serve(
  options: { search?: boolean; maxPageSize?: number; provider?: DataProvider } = {},
): (method: string, url: string, body?: Buffer, type?: string) => Promise<Answer> {
  const provider = options.provider ?? new MemoryProvider(SHOP_MODEL, shopData(), { links: SHOP_LINKS });
  const service: Service = createService({ model: SHOP_MODEL, provider, now: () => FIXED_NOW, ...options });
  return async (method, url, body, type) => {
    const [path, query = ''] = url.split('?');
    const request: ODataRequest = {
      method,
      path,
      query,
      headers: { accept: 'application/json', ...(type === undefined ? {} : { 'content-type': type }) },
      body,
      serviceRoot: ROOT,
      context: { request: {} as IncomingMessage, state: new Map() },
    };
    const response = await service.handle(request);
    return { status: response.status, headers: response.headers, text: await bodyText(response.body) };
  };
}

interface Feed {
  readonly ids: unknown[];
  readonly count: string | undefined;
  readonly next: string | undefined;
}

function feedOf(answer: { status: number; text: string }): Feed {
  expect([answer.status, answer.text.slice(0, 200)]).toEqual([200, answer.text.slice(0, 200)]);
  const { d } = JSON.parse(answer.text) as { d: { results: { ID: unknown }[]; __count?: string; __next?: string } };
  return { ids: d.results.map((entry) => entry.ID), count: d.__count, next: d.__next };
}

function errorOf(answer: Answer): [number, string, string] {
  const body = JSON.parse(answer.text) as { error: { code: string; message: { value: string } } };
  return [answer.status, body.error.code, body.error.message.value];
}

/** Keys in the feed's order (ordinal: upper case first). */
const customerIds = (terms: string[]) =>
  expectedSearch(SHOP_CUSTOMERS, CUSTOMER_SEARCHED, terms)
    .map((row) => row.ID)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
const ALL_CUSTOMERS = customerIds([]);
const orderIds = (terms: string[], keep: (order: (typeof SHOP_ORDERS)[number]) => boolean = () => true) =>
  expectedSearch(SHOP_ORDERS, ORDER_SEARCHED, terms)
    .filter(keep)
    .map((row) => row.ID);

describe('search on MemoryProvider', () => {
  const get = serve();

  it.each<[string, string[], string[]]>([
    // [search as sent (encoded), its terms, what it must find]
    ['milk', ['milk'], ['MILKY']],
    ['MILK', ['milk'], ['MILKY']],
    ['mil', ['mil'], ['BERGS', 'MILKY']],
    // Keys are searched; Internal (sap:searchable="false") and the complex Address are not.
    ['alfki', ['alfki'], ['ALFKI']],
    ['supplier', ['supplier'], []],
    ['Milkton', ['Milkton'], []],
    // Every term, each in some property; a phrase keeps its words together.
    ['dairy+farm', ['dairy', 'farm'], ['MILKY']],
    ['farm+dairy', ['farm', 'dairy'], ['MILKY']],
    ['%22dairy+farm%22', ['dairy farm'], ['MILKY']],
    ['%22farm+dairy%22', ['farm dairy'], []],
    ['dairy+cork', ['dairy', 'cork'], ['ONEIL']],
    ['%22o%27%27neil%22', ["o''neil"], []],
    ["o'neil", ["o'neil"], ['ONEIL']],
    // Case beyond ASCII, with JavaScript's full mapping: Ä/ä, ẞ/ß, Σ/ς (final sigma), Å.
    ['%C3%A4pfel', ['äpfel'], ['ALFKI']],
    ['%C3%84PFEL', ['ÄPFEL'], ['ALFKI']],
    ['STRA%E1%BA%9EE', ['STRAẞE'], ['BERGS']],
    ['strasse', ['strasse'], []],
    ['%CE%BF%CE%B4%CE%BF%CF%82', ['οδος'], ['ODOS1']],
    ['LULE%C3%85', ['LULEÅ'], ['BERGS']],
    // LIKE's wildcards and escape are characters.
    ['100%25', ['100%'], ['PURE1']],
    ['%25', ['%'], ['PURE1']],
    ['a_c', ['a_c'], ['ATRAD']],
    ['_', ['_'], ['ATRAD']],
    ['k%5Cs', ['k\\s'], ['SLASH']],
    // No terms: no search.
    ['', [], ALL_CUSTOMERS],
    ['+%22%22+', [], ALL_CUSTOMERS],
  ])('Customers?search=%s finds %j', async (search, terms, found) => {
    expect(customerIds(terms)).toEqual(found);
    expect(feedOf(await get('GET', `Customers?search=${search}`)).ids).toEqual(found);
  });

  it('answers an unclosed quote with 400 SEARCH_INVALID naming its position', async () => {
    expect(errorOf(await get('GET', 'Customers?search=dairy+%22farm'))).toEqual([
      400,
      'SEARCH_INVALID',
      `Invalid search 'dairy "farm': the double quote at position 6 is not closed`,
    ]);
    expect(errorOf(await get('GET', 'Customers/$count?search=%22'))[1]).toBe('SEARCH_INVALID');
  });

  it('combines with $filter, $orderby, $skip, $top, $select, $expand and $inlinecount', async () => {
    const matching = orderIds(['milk'], (order) => order.Quantity > 2);
    const byQuantity = [...matching].sort((a, b) => {
      const qa = SHOP_ORDERS[a - 1].Quantity;
      const qb = SHOP_ORDERS[b - 1].Quantity;
      return qb - qa || a - b;
    });
    const answer = await get(
      'GET',
      'Orders?search=milk&$filter=Quantity%20gt%202&$orderby=Quantity%20desc&$skip=1&$top=3&$select=ID,Customer/ID&$expand=Customer&$inlinecount=allpages',
    );
    const feed = feedOf(answer);
    expect(feed).toEqual({ ids: byQuantity.slice(1, 4), count: String(matching.length), next: undefined });
    const { d } = JSON.parse(answer.text) as { d: { results: { ID: number; Customer: { ID: string } }[] } };
    expect(d.results.map((order) => order.Customer.ID)).toEqual(byQuantity.slice(1, 4).map((id) => SHOP_ORDERS[id - 1].CustomerID));
  });

  it('counts what it finds: $inlinecount and /$count', async () => {
    expect(feedOf(await get('GET', 'Orders?search=bread&$inlinecount=allpages&$top=2')).count).toBe(String(orderIds(['bread']).length));
    expect((await get('GET', 'Orders/$count?search=bread')).text).toBe(String(orderIds(['bread']).length));
    expect((await get('GET', 'Orders/$count?search=%22milk+and%22&$filter=Quantity%20lt%205')).text).toBe(
      String(orderIds(['milk and'], (order) => order.Quantity < 5).length),
    );
    expect((await get('GET', 'Orders/$count?search=nothing-like-this')).text).toBe('0');
  });

  it('searches the end of a navigation path, and counts there', async () => {
    const ofAlfki = (terms: string[]) => orderIds(terms, (order) => order.CustomerID === 'ALFKI');
    expect(ofAlfki(['milk']).length).toBeGreaterThan(0);
    expect(feedOf(await get('GET', "Customers('ALFKI')/Orders?search=milk")).ids).toEqual(ofAlfki(['milk']));
    expect((await get('GET', "Customers('ALFKI')/Orders/$count?search=milk")).text).toBe(String(ofAlfki(['milk']).length));
    expect(feedOf(await get('GET', "Customers('ALFKI')/Orders?search=urgent+MILK")).ids).toEqual(ofAlfki(['urgent', 'milk']));
  });

  it('pages to the end: every next link keeps search, every entry comes once, the count on every page', async () => {
    const paged = serve({ maxPageSize: 4 });
    const expected = orderIds(['milk']);
    expect(expected.length).toBeGreaterThan(8);
    let url: string | undefined = 'Orders?search=MILK&$inlinecount=allpages&$select=ID';
    const seen: unknown[] = [];
    const links: string[] = [];
    for (let pages = 0; url !== undefined && pages <= expected.length; pages++) {
      const feed = feedOf(await paged('GET', url));
      expect(feed.count).toBe(String(expected.length));
      seen.push(...feed.ids);
      if (feed.next !== undefined) links.push(feed.next);
      url = feed.next?.slice(ROOT.length);
    }
    expect(seen).toEqual(expected);
    expect(links).toHaveLength(Math.ceil(expected.length / 4) - 1);
    for (const link of links) expect(link).toMatch(/^http:\/\/localhost\/shop\/Orders\?search=MILK&\$inlinecount=allpages&\$select=ID&\$skiptoken=\d+$/);
  });

  it('answers search inside $batch parts', async () => {
    const json = { headers: { Accept: 'application/json' } };
    const body = batchBody([
      operation('GET', 'Customers?search=mil', json),
      operation('GET', 'Orders/$count?search=bread', json),
      operation('GET', 'Customers?search=%22x', json),
    ]);
    const answer = await get('POST', '$batch', body, 'multipart/mixed; boundary=batch_1');
    const bytes = Buffer.from(answer.text, 'utf8');
    // The HTTP layer adds Content-Length; here the pipeline's answer is read as it would be sent.
    const parts = readBatchResponse({
      status: answer.status,
      headers: { ...answer.headers, 'content-length': String(bytes.length) },
      body: bytes,
    }) as EmbeddedResponse[];
    expect(parts.map((part) => part.status)).toEqual([200, 200, 400]);
    expect(feedOf({ status: 200, text: parts[0].body.toString('utf8') }).ids).toEqual(['BERGS', 'MILKY']);
    expect(parts[1].body.toString('utf8')).toBe(String(orderIds(['bread']).length));
    expect(parts[2].body.toString('utf8')).toContain('SEARCH_INVALID');
  });

  it('refuses search on a set marked sap:searchable="false", and on every set when the service turns it off', async () => {
    const refusal = [400, 'SEARCH_NOT_ALLOWED', `The search query option is not allowed here: the entity set 'Secrets' is marked sap:searchable="false"`];
    expect(errorOf(await get('GET', 'Secrets?search=milk'))).toEqual(refusal);
    expect(errorOf(await get('GET', 'Secrets/$count?search=milk'))).toEqual(refusal);
    // No terms ask for nothing, so nothing is refused.
    expect(feedOf(await get('GET', 'Secrets?search=')).ids).toEqual([1, 2]);
    const off = serve({ search: false });
    expect(errorOf(await off('GET', 'Customers?search=milk'))).toEqual([
      400,
      'SEARCH_NOT_ALLOWED',
      'The search query option is not allowed here: this service does not offer search',
    ]);
    expect(feedOf(await off('GET', 'Customers?search=&$top=1')).ids).toEqual(['ALFKI']);
  });

  it('says in $metadata what it does: sap:searchable="false" on every set when the service turns search off, the model as it is otherwise', async () => {
    const sets = (xml: string): string[] => [...xml.matchAll(/<EntitySet [^>]*>/g)].map((match) => match[0]);
    const on = (await serve()('GET', '$metadata')).text;
    const off = (await serve({ search: false })('GET', '$metadata')).text;
    expect(sets(on)).toEqual([
      '<EntitySet Name="Customers" EntityType="Shop.Customer" />',
      '<EntitySet Name="Orders" EntityType="Shop.Order" />',
      '<EntitySet Name="Secrets" EntityType="Shop.Secret" sap:searchable="false" />',
    ]);
    expect(sets(off)).toEqual([
      '<EntitySet Name="Customers" EntityType="Shop.Customer" sap:searchable="false" />',
      '<EntitySet Name="Orders" EntityType="Shop.Order" sap:searchable="false" />',
      '<EntitySet Name="Secrets" EntityType="Shop.Secret" sap:searchable="false" />',
    ]);
    expect(off).toContain('xmlns:sap="http://www.sap.com/Protocols/SAPData"');
    expect(off.replace(/ sap:searchable="false"/g, '')).toBe(on.replace(/ sap:searchable="false"/g, ''));
  });

  it('gives providers the terms, and the text still as a custom option', async () => {
    const inner = new MemoryProvider(SHOP_MODEL, shopData(), { links: SHOP_LINKS });
    const queries: QueryRequest[] = [];
    const counts: CountRequest[] = [];
    const spy: DataProvider = {
      query: (request, context) => {
        queries.push(request);
        return inner.query(request, context);
      },
      count: (request, context) => {
        counts.push(request);
        return inner.count(request, context);
      },
    };
    const spied = serve({ provider: spy });
    await spied('GET', 'Customers?search=%22dairy+farm%22+MILKY&sap-client=100');
    await spied('GET', 'Customers/$count?search=x');
    await spied('GET', "Customers('ALFKI')?search=x");
    expect(queries.map((request) => [request.search, request.customOptions])).toEqual([
      [['dairy farm', 'MILKY'], { search: '"dairy farm" MILKY', 'sap-client': '100' }],
      [undefined, { search: 'x' }],
    ]);
    expect(counts.map((request) => [request.search, request.customOptions])).toEqual([[['x'], { search: 'x' }]]);
  });
});
