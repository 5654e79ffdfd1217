/**
 * SqlProvider's pushdown split: a `$filter` half of which SQL translates (`Kind eq 'a'`) and half
 * not (`mod` of doubles has no exact SQL) runs the translated half in the WHERE clause and the
 * residual in the evaluator, reading in the database's order and in keyset chunks that stop once
 * the page is full. Answers equal MemoryProvider's; the statements are shown and counted.
 */
import type { PGlite } from '@electric-sql/pglite';
import { defineModel } from '../../../lib/edm';
import type { MemoryData } from '../../../lib/provider/entity-data';
import type { SqlDatabase } from '../../../lib/sql/database';
import { pglite } from '../../../lib/sql/postgres/pglite';
import { openTestPGlite } from '../../helpers/pglite';
import { comparable, both, get, loadDatabase, servePair, walk, type ServicePair } from './support';

const METER = defineModel({
  namespace: 'Meter',
  entityTypes: [
    {
      name: 'Reading',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Kind', type: 'Edm.String' },
        { name: 'Value', type: 'Edm.Double' },
      ],
    },
  ],
  entityContainers: [{ name: 'M', isDefaultEntityContainer: true, entitySets: [{ name: 'Readings', entityType: 'Meter.Reading' }] }],
});

// 120 readings: Kind a, b, c or null in turn; Value 0, 0.25, 0.5, ... with every seventh null:
// of the 30 of Kind 'a' (Value 0, 1, 2, ...), the residual `Value mod 2 eq 1` keeps 13.
const DATA: MemoryData = {
  Readings: Array.from({ length: 120 }, (_, i) => ({ ID: i + 1, Kind: ['a', 'b', 'c', null][i % 4], Value: i % 7 === 6 ? null : i * 0.25 })),
};
const HALF = "$filter=Kind eq 'a' and Value mod 2 eq 1";

let instance: PGlite;
let pair: ServicePair;
let paged: ServicePair;
let selects: string[] = [];

beforeAll(async () => {
  instance = await openTestPGlite();
  const db: SqlDatabase = pglite(instance);
  await loadDatabase(db, METER, DATA);
  pair = await servePair(METER, DATA, db, { sql: { chunkSize: 10 } });
  paged = await servePair(METER, DATA, db, { sql: { chunkSize: 10 }, service: { maxPageSize: 4 } });
  const query = instance.query.bind(instance);
  jest.spyOn(instance, 'query').mockImplementation((text, ...rest) => {
    if (/^\s*select/i.test(text)) selects.push(text.replace(/\s+/g, ' ').trim());
    return query(text, ...rest);
  });
}, 60_000);

afterAll(async () => {
  await Promise.all([pair?.close(), paged?.close()]);
  await instance.close();
});

async function selectsOf(server: ServicePair['sql'], path: string): Promise<string[]> {
  selects = [];
  expect((await get(server, path)).status).toBe(200);
  return selects;
}

describe('a half-translatable $filter', () => {
  it.each([
    `Readings?$format=json&${HALF}`,
    `Readings?$format=json&${HALF}&$orderby=Value desc&$top=3`,
    `Readings?$format=json&${HALF}&$orderby=Kind,Value&$skip=2&$top=2`,
    `Readings?$format=json&${HALF}&$inlinecount=allpages&$top=2`,
    `Readings?$format=json&${HALF}&$inlinecount=allpages&$skiptoken=9`,
    `Readings?$format=json&${HALF}&$skiptoken=9&$top=3`,
    `Readings/$count?${HALF}`,
    `Readings(5)?$format=json&${HALF}`,
    `Readings(9)?$format=json&${HALF}`,
    `Readings?$format=json&$filter=Value mod 2 eq 1 or Kind eq 'b'&$top=5`,
  ])('%s: the same answer as MemoryProvider', async (path) => {
    const { memory, sql } = await both(pair, path);
    expect(comparable(sql)).toEqual(comparable(memory));
  });

  it('runs the translated conjunct in SQL and leaves the residual out of it', async () => {
    const [first, second, ...rest] = await selectsOf(pair.sql, `Readings?$format=json&${HALF}&$top=3`);
    expect(first).toBe(
      'select "t"."ID" as "c0", "t"."Kind" as "c1", "t"."Value" as "c2" from "Readings" as "t" where ("t"."Kind" = $1::text) order by "t"."ID" asc limit $2',
    );
    // The first chunk (3 rows and one ahead) gave one match: the next starts after its last row.
    expect(second).toMatch(
      / where \("t"\."Kind" = \$1::text\) and \(\("t"\."ID" >= \$2::integer\) and \("t"\."ID" > \$3::integer\)\) order by "t"\."ID" asc limit \$4$/,
    );
    expect(rest).toEqual([]);
  });

  it('reads in keyset chunks until the page is full, in statements that do not grow with the page size', async () => {
    // The page's first chunk is its own size (and one row ahead: whether more follow), each next
    // one twice the last, up to the chunk size: the residual keeps about half of Kind 'a', so a
    // second chunk completes any page.
    const counts = [];
    for (const top of [1, 2, 3, 4, 5]) counts.push((await selectsOf(pair.sql, `Readings?$format=json&${HALF}&$top=${top}`)).length);
    expect(counts).toEqual([2, 2, 2, 2, 2]);
    // A $skiptoken is a keyset condition in the first statement already.
    const later = await selectsOf(pair.sql, `Readings?$format=json&${HALF}&$top=2&$skiptoken=60`);
    expect(later[0]).toMatch(/ where \("t"\."Kind" = \$1::text\) and \(\("t"\."ID" >= \$2::integer\) and \("t"\."ID" > \$3::integer\)\)/);
  });

  it('reads every row the translated part keeps, a chunk at a time, only for a count', async () => {
    // 30 readings of Kind 'a', chunks of 10 read one row ahead: 3 statements.
    expect(await selectsOf(pair.sql, `Readings?$format=json&${HALF}&$inlinecount=allpages&$top=1`)).toHaveLength(3);
    // The count is taken before the skiptoken: one scan from the start gives the count and the page
    // (the kit's finishQuery applies the skiptoken on each row's position), the same 3 statements.
    const withToken = await selectsOf(pair.sql, `Readings?$format=json&${HALF}&$inlinecount=allpages&$top=1&$skiptoken=60`);
    expect(withToken).toHaveLength(3);
    expect(withToken[0]).not.toMatch(/"ID" > /);
  });

  it('pages through the whole feed with $skiptoken, each entity exactly once', async () => {
    const ids = (pages: Awaited<ReturnType<typeof walk>>): number[] =>
      pages.flatMap((answer) => (JSON.parse(answer.body) as { d: { results: { ID: number }[] } }).d.results.map((row) => row.ID));
    const path = `Readings?$format=json&${HALF}&$orderby=Value desc`;
    const [memory, sql] = await Promise.all([walk(paged.memory, path), walk(paged.sql, path)]);
    expect(ids(sql)).toEqual(ids(memory));
    expect(new Set(ids(sql)).size).toBe(ids(sql).length);
    expect(ids(sql).length).toBeGreaterThan(4);
  });
});
