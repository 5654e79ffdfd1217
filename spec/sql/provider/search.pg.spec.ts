/**
 * SAP's `search` on a PostgreSQL server (`npm run test:postgres`): SqlProvider answers the search
 * differential as MemoryProvider does (ICU's case mapping on the server), and the trigram indexes
 * docs/sql-provider.md recommends serve the statement it runs: with one GIN index per searched
 * column on the column's lowered form, the plan is a BitmapOr of those indexes, with the ICU
 * collation (the default) and with `caseMappingCollation: null`; and a plain trigram index serves
 * `substringof` with a literal in `$filter`.
 */
import { Client } from 'pg';
import { sql } from 'kysely';
import { SqlProvider } from '../../../lib/sql';
import type { SqlDatabase } from '../../../lib/sql/database';
import { postgres } from '../../../lib/sql/postgres/server';
import { checkFilter, parseExpression } from '../../../lib/uri/expr';
import { createTestDatabase } from '../../helpers/postgres-database';
import { SHOP_LINKS, SHOP_MODEL, shopData } from '../../helpers/search-shop';
import { SEARCH_CASES, SEARCH_WALKS } from './search-cases';
import { ReadLog, both, comparable, errorShape, loadDatabase, servePair, walk, type ServicePair } from './support';

let created: { url: string; drop: () => Promise<void> };
let db: SqlDatabase;
let pair: ServicePair;
let paged: ServicePair;

beforeAll(async () => {
  created = await createTestDatabase();
  db = postgres(created.url);
  await loadDatabase(db, SHOP_MODEL, shopData(), SHOP_LINKS);
  pair = await servePair(SHOP_MODEL, shopData(), db, { links: SHOP_LINKS });
  paged = await servePair(SHOP_MODEL, shopData(), db, { links: SHOP_LINKS, service: { maxPageSize: 4 } });
});

afterAll(async () => {
  await Promise.all([pair?.close(), paged?.close()]);
  await db?.close();
  await created?.drop();
});

describe('search on a PostgreSQL server: SqlProvider answers as MemoryProvider', () => {
  it.each(SEARCH_CASES)('%s', async (path) => {
    const { memory, sql: answer } = await both(pair, path);
    if (memory.status >= 400) expect(errorShape(answer)).toEqual(errorShape(memory));
    else expect(comparable(answer)).toEqual(comparable(memory));
  });

  it.each(SEARCH_WALKS)('walking %s gives the same pages', async (path) => {
    const [memory, answer] = await Promise.all([walk(paged.memory, path), walk(paged.sql, path)]);
    expect(answer.map(comparable)).toEqual(memory.map(comparable));
  });
});

/** The plan of the page statement SqlProvider runs for Customers with `search` or `filter`, with sequential scans discouraged. */
async function planOf(caseMappingCollation: string | null, search: readonly string[] | undefined, filter?: string): Promise<string> {
  const log = new ReadLog();
  const base = postgres(created.url, { caseMappingCollation });
  const provider = new SqlProvider({ model: SHOP_MODEL, db: { ...base, kysely: base.kysely.withPlugin(log) } });
  const customers = SHOP_MODEL.entitySets.get('Customers');
  if (customers === undefined) throw new Error('no Customers');
  await provider.query(
    {
      entitySet: customers,
      entityType: customers.entityType,
      path: { root: { entitySet: customers, key: undefined }, navigation: [] },
      single: false,
      filter: filter === undefined ? undefined : checkFilter(parseExpression(filter), customers.entityType, SHOP_MODEL),
      orderBy: [],
      skip: undefined,
      top: 10,
      skipToken: undefined,
      selectExpand: { select: undefined, expand: [] },
      count: false,
      search,
      customOptions: {},
    },
    { request: {} as never, state: new Map() },
  );
  await base.close();
  expect(log.reads).toHaveLength(1);
  const client = new Client({ connectionString: created.url });
  await client.connect();
  try {
    await client.query('set enable_seqscan = off');
    const result = await client.query<{ 'QUERY PLAN': string }>(`explain ${log.reads[0].text}`, [...log.reads[0].parameters]);
    return result.rows.map((row) => row['QUERY PLAN']).join('\n');
  } finally {
    await client.end();
  }
}

describe('the trigram indexes of docs/sql-provider.md', () => {
  it('serve a search under the ICU case mapping (the default)', async () => {
    await sql`create extension if not exists pg_trgm`.execute(db.kysely);
    for (const column of ['ID', 'Name', 'City']) {
      await sql
        .raw(`create index "Customers_${column}_search" on "Customers" using gin ((lower("${column}" collate "und-x-icu") collate "C") gin_trgm_ops)`)
        .execute(db.kysely);
    }
    const plan = await planOf('und-x-icu', ['dairy']);
    expect(plan).toContain('BitmapOr');
    for (const column of ['ID', 'Name', 'City']) expect(plan).toContain(`Bitmap Index Scan on "Customers_${column}_search"`);
  });

  it('serve a search without ICU (caseMappingCollation: null) on the column lowered under the default collation', async () => {
    for (const column of ['ID', 'Name', 'City']) {
      await sql
        .raw(`create index "Customers_${column}_search_default" on "Customers" using gin (lower("${column}" collate "default") gin_trgm_ops)`)
        .execute(db.kysely);
    }
    const plan = await planOf(null, ['dairy']);
    for (const column of ['ID', 'Name', 'City']) expect(plan).toContain(`Bitmap Index Scan on "Customers_${column}_search_default"`);
  });

  it("serve substringof with a literal in $filter, on the column itself (a LIKE '%...%' pattern)", async () => {
    await sql`create index "Customers_Name_trgm" on "Customers" using gin ("Name" gin_trgm_ops)`.execute(db.kysely);
    expect(await planOf('und-x-icu', undefined, "substringof('Dairy', Name)")).toContain('Bitmap Index Scan on "Customers_Name_trgm"');
  });
});
