/**
 * Fuzzing the classes of issue 11 through the whole pipeline, in process: providers that return
 * NaN, infinities, out-of-range dates, unpaired surrogates, malformed Decimal/Guid/Time text,
 * header-breaking ETags and odd counts; and Host headers of every shape. The properties: every
 * answer is an OData answer (a well-formed body for 2xx, an OData error body otherwise), its
 * headers are valid HTTP field values, and a service root that passed the Host check resolves links.
 */
import { checkServiceRoot } from '../../lib/http';
import { resolveLinkUri } from '../../lib/format/readers';
import { ODataError } from '../../lib/errors';
import { MemoryProvider } from '../../lib';
import type { DataProvider, Entity } from '../../lib';
import type { ODataRequest, RequestContext } from '../../lib/protocol/message';
import { createService } from '../../lib/service';
import { parseXml } from '../../lib/format/xml/safe-sax';
import { DEMO_LINKS, DEMO_MODEL, demoData } from '../helpers/demo';
import { seededRandom } from '../helpers/random';

const random = seededRandom(1111);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

/** Values a careless provider returns, per property of the demo Product and Supplier. */
const HOSTILE: Readonly<Record<string, readonly unknown[]>> = {
  ID: [1, 2, Number.NaN, Number.NEGATIVE_INFINITY, 1.5, 2 ** 40],
  Rating: [3, Number.NaN, Number.POSITIVE_INFINITY, -0, 2 ** 31, '4'],
  Price: ['2.5', 'abc', '1","x":"', '1e5', Number.NaN, 7, '-0.001'],
  Name: ['Milk', '\ud800', 'a\udc00b', '\u0000', '😀', "O'Neil", '<x/>', 42],
  ReleaseDate: [new Date(0), new Date(253402300800000), new Date(Number.NaN), new Date(-62135596800001), '2000-01-01'],
  Concurrency: [0, Number.NaN, 'v"1', 1.5],
};
const ETAGS: readonly (string | undefined)[] = [undefined, '1', 'a"b', 'x\r\nSet-Cookie: y', 'ok', ''];
const COUNTS: readonly unknown[] = [undefined, 3, Number.NaN, '7', -1, 2.5];

/** A provider whose answers are patched with random hostile values. */
function hostileProvider(): DataProvider & { patch: Record<string, unknown>; etagValue: string | undefined; countValue: unknown } {
  const inner = new MemoryProvider(DEMO_MODEL, demoData(), { links: DEMO_LINKS });
  const provider = {
    patch: {} as Record<string, unknown>,
    etagValue: undefined as string | undefined,
    countValue: undefined as unknown,
    query: async (request: Parameters<DataProvider['query']>[0], context: RequestContext) => {
      const result = await inner.query(request, context);
      const entities = (result.entities as Entity[]).map((entity) => ({ ...entity, ...provider.patch }) as Entity);
      return provider.countValue === undefined ? { ...result, entities } : { entities, count: provider.countValue as number };
    },
    etag: () => provider.etagValue,
  };
  return provider;
}

const PATHS = [
  'Products',
  'Products(1)',
  'Products?$inlinecount=allpages',
  'Suppliers(0)',
  'Suppliers',
  'Products(1)/Name',
  'Products(1)/Name/$value',
  'Products?$expand=Supplier',
  'Products?$orderby=Name&$top=2',
];

function request(path: string, accept: string): ODataRequest {
  const mark = path.indexOf('?');
  return {
    method: 'GET',
    path: mark === -1 ? path : path.slice(0, mark),
    query: mark === -1 ? '' : path.slice(mark + 1),
    headers: { accept },
    body: undefined,
    serviceRoot: 'http://localhost/odata/',
    context: { request: {} as RequestContext['request'], state: new Map() },
  };
}

async function bodyText(body: unknown): Promise<string> {
  if (body === undefined) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  let text = '';
  for await (const chunk of body as AsyncIterable<string | Buffer>) text += chunk.toString();
  return text;
}

const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

describe('fuzzing provider values through the pipeline', () => {
  it('answers 1,500 reads over hostile provider values with OData answers only: well-formed bodies and valid headers', async () => {
    const provider = hostileProvider();
    const service = createService({ model: DEMO_MODEL, provider, maxPageSize: 3, logger: () => undefined });
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (let i = 0; i < 1500; i++) {
      provider.patch = {};
      for (const [name, values] of Object.entries(HOSTILE)) if (random() < 0.25) provider.patch[name] = pick(values);
      provider.etagValue = pick(ETAGS);
      provider.countValue = pick(COUNTS);
      const accept = pick(['application/json', 'application/atom+xml', 'application/xml', '*/*']);
      const path = pick(PATHS);
      const label = `${path} (${accept}) with ${JSON.stringify(provider.patch)}, etag ${JSON.stringify(provider.etagValue)}, count ${String(provider.countValue)}`;
      try {
        const response = await service.handle(request(path, accept));
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        for (const [name, value] of Object.entries(response.headers))
          if (!FIELD_VALUE.test(value)) failures.push(`${label}: header ${name} ${JSON.stringify(value)}`);
        const text = await bodyText(response.body);
        const type = response.headers['content-type'] ?? '';
        if (type.startsWith('application/json')) JSON.parse(text);
        else if (type.includes('xml')) parseXml(text);
        if (response.status >= 400 && !/"error"|<m:error/.test(text)) failures.push(`${label}: ${response.status} without an OData error body`);
        if (response.status >= 500 && !text.includes('An internal error occurred.')) failures.push(`${label}: 500 that leaks ${text.slice(0, 80)}`);
      } catch (error) {
        failures.push(`${label}: ${String(error)}`);
      }
    }
    expect(failures).toEqual([]);
    // Both sides were exercised: clean answers and refused provider values.
    expect(statuses.get(200) ?? 0).toBeGreaterThan(100);
    expect(statuses.get(500) ?? 0).toBeGreaterThan(100);
  });
});

describe('fuzzing Host headers', () => {
  it('either refuses a host with 400 URI_HOST_INVALID or gives a root that link resolution accepts (3,000 hosts)', () => {
    const pieces = [
      'a',
      'b',
      '.',
      '-',
      '_',
      '~',
      '1',
      ':',
      '80',
      '[',
      ']',
      '::1',
      '@',
      ' ',
      '/',
      '\\',
      '?',
      '#',
      '%',
      '%41',
      '%zz',
      '!',
      '$',
      "'",
      '(',
      ')',
      '*',
      '+',
      ',',
      ';',
      '=',
      'é',
      '\t',
      '\r\n',
      '|',
      '^',
      '"',
      '<',
    ];
    const failures: string[] = [];
    let valid = 0;
    for (let i = 0; i < 3000; i++) {
      let host = '';
      for (let j = 1 + Math.floor(random() * 6); j > 0; j--) host += pick(pieces);
      const root = `http://${host}/odata/`;
      try {
        checkServiceRoot(root, '/odata');
      } catch (error) {
        if (!(error instanceof ODataError) || error.code !== 'URI_HOST_INVALID') failures.push(`${JSON.stringify(host)}: ${String(error)}`);
        continue;
      }
      valid++;
      try {
        resolveLinkUri(`${root}Products(1)`, { model: DEMO_MODEL, serviceRoot: root });
        resolveLinkUri('Products(1)', { model: DEMO_MODEL, serviceRoot: root });
      } catch (error) {
        failures.push(`${JSON.stringify(host)} passed the check, but a link under it did not resolve: ${String(error)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(valid).toBeGreaterThan(100);
  });
});
