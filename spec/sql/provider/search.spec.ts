/**
 * SAP's `search` on SqlProvider (PGlite), against MemoryProvider on the same Shop data: the same
 * answers for terms, phrases, case beyond ASCII, LIKE wildcards, every query option at once,
 * navigation, counts and errors, and the same pages when a search is walked by its next links.
 * In the database: the search is in the page's one statement (a LIKE on the lowered column per
 * searched property), which reads at most a page and one row more, never the rest for the
 * evaluator; `/$count` is one COUNT(*) with the same condition. Without an ICU collation
 * (`caseMappingCollation: null`) the search still runs in SQL, under the database's own lower().
 */
import type { PGlite } from '@electric-sql/pglite';
import { SqlProvider } from '../../../lib/sql';
import type { SqlDatabase } from '../../../lib/sql/database';
import { pglite } from '../../../lib/sql/postgres/pglite';
import { FIXED_NOW } from '../../helpers/demo';
import { inProcess, type InProcessService } from '../../helpers/in-process';
import { openTestPGlite } from '../../helpers/pglite';
import { SHOP_LINKS, SHOP_MODEL, shopData } from '../../helpers/search-shop';
import { describeSearchParity } from './search-cases';
import { ReadLog, comparable, get, loadDatabase, servePair, walk, type Served, type ServicePair } from './support';

const log = new ReadLog();
let instance: PGlite;
let pair: ServicePair;
let paged: ServicePair;
let noIcu: InProcessService;

function logged(db: SqlDatabase): SqlDatabase {
  return { ...db, kysely: db.kysely.withPlugin(log) };
}

beforeAll(async () => {
  instance = await openTestPGlite();
  const db = pglite(instance);
  await loadDatabase(db, SHOP_MODEL, shopData(), SHOP_LINKS);
  pair = await servePair(SHOP_MODEL, shopData(), logged(db), { links: SHOP_LINKS });
  paged = await servePair(SHOP_MODEL, shopData(), logged(db), { links: SHOP_LINKS, service: { maxPageSize: 4 } });
  const provider = new SqlProvider({ model: SHOP_MODEL, db: logged(pglite(instance, { caseMappingCollation: null })) });
  noIcu = inProcess({ model: SHOP_MODEL, provider, now: () => FIXED_NOW, maxPageSize: 4 });
}, 60_000);

afterAll(async () => {
  await Promise.all([pair?.close(), paged?.close()]);
  await instance.close();
});

describeSearchParity('search: SqlProvider answers as MemoryProvider', () => ({ pair, paged }));

/** The reads of one GET on `server` (status 200), in order. */
async function readsOf(server: Served, path: string): Promise<typeof log.reads> {
  log.reads = [];
  const answer = await get(server, path);
  expect([path, answer.status]).toEqual([path, 200]);
  return log.reads;
}

/** The search condition on one column, as a RegExp source: the column lowered as tolower does, LIKE a bound pattern. */
const LOWERED = (column: string) => String.raw`\(\(lower\("t"\."${column}" collate "und-x-icu"\) collate "C"\) like \$\d+::text escape E'\\\\'\)`;

describe('search in the database', () => {
  it('is in the page statement: a LIKE on each lowered searched column, every term, and a page and one row read', async () => {
    const reads = await readsOf(paged.sql, 'Orders?$format=json&search=milk+%23');
    expect(reads).toHaveLength(1);
    const [page] = reads;
    // Two terms, each one conjunct of the WHERE: in Title or in Comment.
    const term = `\\(${LOWERED('Title')} or ${LOWERED('Comment')}\\)`;
    expect(page.text).toMatch(new RegExp(` from "Orders" as "t" where ${term} and ${term} order by "t"\\."ID" asc limit \\$5$`));
    expect(page.rows).toBeLessThanOrEqual(5);
  });

  it('reads at most a page and one row for every page of a walk, with the count in the same statement', async () => {
    log.reads = [];
    const pages = await walk(paged.sql, 'Orders?$format=json&$select=ID&search=MILK&$inlinecount=allpages');
    expect(pages.length).toBeGreaterThan(2);
    expect(log.reads).toHaveLength(pages.length);
    for (const read of log.reads) {
      expect(read.text).toMatch(
        new RegExp(
          `^select "t"\\."ID" as "c0", \\(select count\\(\\*\\) as n from "Orders" as "t" where \\(${LOWERED('Title')} or ${LOWERED('Comment')}\\)\\) as n from "Orders" as "t" where \\(${LOWERED('Title')} or ${LOWERED('Comment')}\\)`,
        ),
      );
      expect(read.rows).toBeLessThanOrEqual(5);
    }
  });

  it('counts with one COUNT(*) that carries the same condition', async () => {
    const reads = await readsOf(pair.sql, 'Orders/$count?search=bread');
    expect(reads.map((read) => read.rows)).toEqual([1]);
    expect(reads[0].text).toMatch(new RegExp(`^select count\\(\\*\\) as n from "Orders" as "t" where \\(${LOWERED('Title')} or ${LOWERED('Comment')}\\)$`));
  });

  it('searches a navigation collection in the statement that reads it', async () => {
    const reads = await readsOf(pair.sql, "Customers('ALFKI')/Orders?$format=json&search=milk");
    expect(reads).toHaveLength(1);
    expect(reads[0].text).toMatch(new RegExp(`where "p1"\\."ID" = \\$1::text and \\(${LOWERED('Title')} or ${LOWERED('Comment')}\\) order by`));
  });

  it('binds each term once per column, lowered, with %, _ and \\ escaped, inside %...%', async () => {
    const reads = await readsOf(pair.sql, 'Customers?$format=json&search=100%25+A_C%5C+%C3%84');
    expect(reads).toHaveLength(1);
    const patterns = reads[0].parameters.filter((value) => typeof value === 'string' && value.startsWith('%'));
    // ID, Name and City are searched (Internal is marked unsearchable, Address is complex).
    expect(patterns).toEqual(['%100\\%%', '%100\\%%', '%100\\%%', '%a\\_c\\\\%', '%a\\_c\\\\%', '%a\\_c\\\\%', '%ä%', '%ä%', '%ä%']);
  });

  it("runs in SQL without ICU too, under the database's lower(): the same rows for ASCII letters", async () => {
    const reads = await readsOf(noIcu, 'Customers?$format=json&search=MILK');
    expect(reads).toHaveLength(1);
    expect(reads[0].text).toContain(
      `where ((lower("t"."ID" collate "default") like $1::text escape E'\\\\') or ((lower("t"."Name" collate "default") like $2::text escape E'\\\\') or (lower("t"."City" collate "default") like $3::text escape E'\\\\')))`,
    );
    expect(reads[0].text).not.toContain('und-x-icu');
    const [memory, sql] = await Promise.all([get(pair.memory, 'Customers?$format=json&search=MILK'), get(noIcu, 'Customers?$format=json&search=MILK')]);
    expect(comparable(sql)).toEqual(comparable(memory));
  });

  it("differs where the database's lower() is not JavaScript's: PGlite's C.UTF-8 lowers Ä to ä, but a final Σ to σ, not ς", async () => {
    const ids = async (server: Served, search: string): Promise<unknown[]> =>
      (JSON.parse((await get(server, `Customers?$format=json&$select=ID&search=${search}`)).body) as { d: { results: { ID: unknown }[] } }).d.results.map(
        (entry) => entry.ID,
      );
    // οδος (final ς) and οδοσ: JavaScript and ICU find the first, PGlite's own lower() the second.
    expect(await ids(pair.memory, '%CE%BF%CE%B4%CE%BF%CF%82')).toEqual(['ODOS1']);
    expect(await ids(pair.sql, '%CE%BF%CE%B4%CE%BF%CF%82')).toEqual(['ODOS1']);
    expect(await ids(noIcu, '%CE%BF%CE%B4%CE%BF%CF%82')).toEqual([]);
    expect(await ids(noIcu, '%CE%BF%CE%B4%CE%BF%CF%83')).toEqual(['ODOS1']);
    expect(await ids(noIcu, '%C3%A4pfel')).toEqual(['ALFKI']);
  });
});
