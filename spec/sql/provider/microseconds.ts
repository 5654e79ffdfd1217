/**
 * Paging by microsecond timestamps through SqlProvider, shared by the PGlite spec (`npm test`) and
 * the server spec (`npm run test:postgres`). 48 Ticks in `timestamp(6)`/`timestamptz(6)` columns:
 * twelve per millisecond, each value twice (ties on the full value), keys out of step with the
 * values. Walked page by page to the end under ascending, descending and mixed orders, whatever
 * the model's Precision facet says; a millisecond `$skiptoken` (an earlier release's) sent back;
 * `$filter` at the milliseconds clients see; and the plan: the bare column in ORDER BY, served by
 * an index without a Sort node (`enable_seqscan = off`).
 */
import {
  CompiledQuery,
  sql,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type RootOperationNode,
} from 'kysely';
import { readBody } from '../../../lib/batch/executor';
import { defineModel } from '../../../lib/edm';
import type { EdmModel } from '../../../lib/edm/model';
import type { RequestContext } from '../../../lib/protocol/message';
import { createService } from '../../../lib/service';
import { SqlProvider, createSchema } from '../../../lib/sql';
import type { SqlDatabase } from '../../../lib/sql/database';

const ROOT = 'http://localhost/odata/';
const PAGE_SIZE = 5;

/** The Ticks model; `precision` is the Precision facet of both timestamps (absent: none). */
function ticksModel(precision: number | undefined): EdmModel {
  const facet = precision === undefined ? {} : { precision };
  return defineModel({
    namespace: 'Clock',
    entityTypes: [
      {
        name: 'Tick',
        key: ['ID'],
        properties: [
          { name: 'ID', type: 'Edm.Int32', nullable: false },
          { name: 'At', type: 'Edm.DateTime', nullable: false, ...facet },
          { name: 'AtOffset', type: 'Edm.DateTimeOffset', ...facet },
          { name: 'Kind', type: 'Edm.String', nullable: false },
        ],
      },
    ],
    entityContainers: [{ name: 'C', isDefaultEntityContainer: true, entitySets: [{ name: 'Ticks', entityType: 'Clock.Tick' }] }],
  });
}

/** A Tick: its values as microseconds since 1970 (the reference compares these), and the text inserted. */
interface Tick {
  readonly ID: number;
  readonly At: bigint;
  readonly AtOffset: bigint | null;
  readonly Kind: string;
  readonly atText: string;
  readonly offsetText: string | null;
}

/** ISO 8601 text of microseconds since 1970, written in the zone `offsetMinutes` east of UTC (`Z` for 0). */
function isoText(microseconds: bigint, offsetMinutes: number | undefined): string {
  const local = new Date(Number(microseconds / 1000n) + (offsetMinutes ?? 0) * 60_000).toISOString().slice(0, -1);
  const digits = String(microseconds % 1000n).padStart(3, '0');
  if (offsetMinutes === undefined) return local + digits;
  const zone = offsetMinutes === 0 ? 'Z' : `+${String(Math.floor(offsetMinutes / 60)).padStart(2, '0')}:${String(offsetMinutes % 60).padStart(2, '0')}`;
  return local + digits + zone;
}

const BASE = BigInt(Date.UTC(2024, 4, 1, 10, 0, 0, 123)) * 1000n;

// Twelve Ticks per millisecond of At, the six sub-millisecond values twice each (0 µs on the
// millisecond itself); IDs a permutation, so the key never follows the time.
const TICKS: readonly Tick[] = Array.from({ length: 48 }, (_, i) => {
  const at = BASE + BigInt(Math.floor(i / 12)) * 1000n + BigInt((i % 6) * 137);
  const offset = i % 7 === 3 ? null : BASE + 377_000n + BigInt(Math.floor(i / 16)) * 1000n + BigInt(((i * 7) % 4) * 250);
  return {
    ID: ((i * 29) % 48) + 1,
    At: at,
    AtOffset: offset,
    Kind: ['a', 'b', 'c'][i % 3],
    atText: isoText(at, undefined),
    offsetText: offset === null ? null : isoText(offset, i % 2 === 0 ? 0 : 330),
  };
});

type Property = 'At' | 'AtOffset' | 'Kind';

/** The millisecond a value falls in (its JS Date), in microseconds. */
const millisecondOf = (microseconds: bigint): bigint => (microseconds / 1000n) * 1000n;

/** The Ticks in `$orderby` order by their stored values (nulls first ascending, last descending), then by ID. */
function ordered(orderby: string, ticks: readonly Tick[] = TICKS): number[] {
  const items = orderby.split(',').map((item) => {
    const [name, direction] = item.trim().split(' ');
    return { name: name as Property, sign: direction === 'desc' ? -1 : 1 };
  });
  return [...ticks]
    .sort((a, b) => {
      for (const { name, sign } of items) {
        const x = a[name];
        const y = b[name];
        if (x === y) continue;
        if (x === null || y === null) return (x === null ? -1 : 1) * sign;
        return (x < y ? -1 : 1) * sign;
      }
      return a.ID - b.ID;
    })
    .map((tick) => tick.ID);
}

/** Records the SELECT statements a provider runs (to EXPLAIN them afterwards). */
class SelectCapture implements KyselyPlugin {
  selects: { node: RootOperationNode; queryId: QueryId }[] = [];

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const { node } = args;
    if (node.kind === 'RawNode' && /^\s*select/i.test(node.sqlFragments[0])) this.selects.push({ node, queryId: args.queryId });
    return node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<PluginTransformResultArgs['result']> {
    return args.result;
  }
}

interface JsonFeed {
  readonly d: { readonly results: readonly { readonly ID: number }[]; readonly __next?: string; readonly __count?: string };
}

/** Create the Ticks table (timestamp(6), timestamptz(6)), its rows and the indexes a `$orderby=At` page uses. */
async function loadTicks(db: SqlDatabase): Promise<void> {
  await createSchema(db, ticksModel(6));
  const rows = TICKS.map(
    (tick) => sql`(${sql.val(tick.ID)}, ${sql.val(tick.atText)}::timestamp, ${sql.val(tick.offsetText)}::timestamptz, ${sql.val(tick.Kind)})`,
  );
  await sql`insert into "Ticks" ("ID", "At", "AtOffset", "Kind") values ${sql.join(rows)}`.execute(db.kysely);
  await sql`create index "Ticks_At" on "Ticks" ("At", "ID")`.execute(db.kysely);
  await sql`create index "Ticks_At_desc" on "Ticks" ("At" desc, "ID")`.execute(db.kysely);
}

/** The specs, over a database `open` gives (empty; closed by the caller). */
export function describeMicrosecondPaging(engine: string, open: () => Promise<SqlDatabase>): void {
  describe(`SqlProvider pages by microsecond timestamps (${engine})`, () => {
    let db: SqlDatabase;
    const capture = new SelectCapture();

    beforeAll(async () => {
      db = await open();
      await loadTicks(db);
    }, 60_000);

    /** GET `target` (a path and query below the service root) as JSON from a service over the Ticks. */
    function client(precision: number | undefined, maxPageSize: number | undefined) {
      const model = ticksModel(precision);
      const provider = new SqlProvider({ model, db: { ...db, kysely: db.kysely.withPlugin(capture) } });
      const service = createService({ model, provider, logger: () => undefined, ...(maxPageSize === undefined ? {} : { maxPageSize }) });
      return async (target: string): Promise<{ status: number; feed: JsonFeed }> => {
        const [path, query = ''] = target.split('?');
        const response = await service.handle({
          method: 'GET',
          path,
          query: query === '' ? '$format=json' : `${query}&$format=json`,
          headers: { accept: 'application/json' },
          body: undefined,
          serviceRoot: ROOT,
          context: { request: {} as RequestContext['request'], state: new Map() },
        });
        const text = (await readBody(response.body))?.toString('utf8') ?? '';
        return { status: response.status, feed: JSON.parse(text) as JsonFeed };
      };
    }

    /** Follow the next links from `target`: the IDs in order and the `$skiptoken`s the links carried. */
    async function walk(get: ReturnType<typeof client>, target: string): Promise<{ ids: number[]; tokens: string[] }> {
      const ids: number[] = [];
      const tokens: string[] = [];
      let next: string | undefined = target;
      while (next !== undefined && tokens.length <= TICKS.length) {
        const { status, feed } = await get(next);
        expect({ next, status }).toEqual({ next, status: 200 });
        expect(feed.d.results.length).toBeLessThanOrEqual(PAGE_SIZE);
        ids.push(...feed.d.results.map((entry) => entry.ID));
        next = feed.d.__next === undefined ? undefined : feed.d.__next.slice(ROOT.length).replace('&$format=json', '');
        if (next !== undefined) tokens.push(decodeURIComponent(/\$skiptoken=([^&]*)/.exec(next)?.[1] ?? ''));
      }
      return { ids, tokens };
    }

    describe.each([
      ['no Precision facet', undefined],
      ['Precision="3"', 3],
      ['Precision="6"', 6],
    ])('the model says %s (the columns keep microseconds)', (_facet, precision) => {
      it.each(['At', 'At desc', 'AtOffset', 'AtOffset desc', 'Kind,At desc', 'At,Kind desc', 'AtOffset desc,At'])(
        '$orderby=%s: every Tick exactly once, in the stored order, page by page to the end',
        async (orderby) => {
          const { ids, tokens } = await walk(client(precision, PAGE_SIZE), `Ticks?$orderby=${orderby}&$select=ID`);
          expect(ids).toEqual(ordered(orderby));
          expect(tokens).toHaveLength(Math.ceil(TICKS.length / PAGE_SIZE) - 1);
          // Every timestamp in a token keeps its microseconds (six digits), also on the millisecond.
          for (const token of tokens) for (const [, digits] of token.matchAll(/datetime(?:offset)?'[^']*\.(\d+)Z?'/g)) expect(digits).toHaveLength(6);
        },
      );
    });

    // `mod` of doubles has no exact SQL: the kit's finishQuery applies it to rows read in keyset
    // chunks, and with a count (read from the start) the skiptoken too, on the rows' positions.
    const ODD = `$filter=${encodeURIComponent("cast(ID, 'Edm.Double') mod 2.0 eq 1.0")}`;
    it.each([
      ['At', ''],
      ['At desc', '&$inlinecount=allpages'],
      ['Kind,At desc', '&$inlinecount=allpages'],
      ['AtOffset desc,At', ''],
    ])('$orderby=%s with a residual filter%s: every kept Tick exactly once, in the stored order', async (orderby, count) => {
      const { ids, tokens } = await walk(client(undefined, PAGE_SIZE), `Ticks?$orderby=${orderby}&$select=ID&${ODD}${count}`);
      const odd = TICKS.filter((tick) => tick.ID % 2 === 1);
      expect(ids).toEqual(ordered(orderby, odd));
      expect(tokens).toHaveLength(Math.ceil(odd.length / PAGE_SIZE) - 1);
      for (const token of tokens) for (const [, digits] of token.matchAll(/datetime(?:offset)?'[^']*\.(\d+)Z?'/g)) expect(digits).toHaveLength(6);
      if (count !== '') {
        const second = await client(undefined, PAGE_SIZE)(`Ticks?$orderby=${orderby}&$select=ID&${ODD}${count}&$skiptoken=${encodeURIComponent(tokens[0])}`);
        expect(second.feed.d.__count).toBe(String(odd.length));
        expect(second.feed.d.results.map((entry) => entry.ID)).toEqual(ordered(orderby, odd).slice(PAGE_SIZE, 2 * PAGE_SIZE));
      }
    });

    it('an earlier release’s millisecond $skiptoken continues after its millisecond and key: every Tick it had not shown, once', async () => {
      // In millisecond order (the old one) the token names the 20th Tick; the Ticks after it are
      // the later milliseconds and, in its own millisecond, the greater IDs.
      const oldOrder = [...TICKS].sort((a, b) =>
        millisecondOf(a.At) === millisecondOf(b.At) ? a.ID - b.ID : millisecondOf(a.At) < millisecondOf(b.At) ? -1 : 1,
      );
      const last = oldOrder[19];
      const rest = oldOrder.slice(20);
      const token = `datetime'${new Date(Number(last.At / 1000n)).toISOString().slice(0, -1)}',${last.ID}`;
      const { status, feed } = await client(undefined, undefined)(`Ticks?$orderby=At&$select=ID&$skiptoken=${token}`);
      expect(status).toBe(200);
      expect(feed.d.results.map((entry) => entry.ID)).toEqual(ordered('At', rest));
      // Paged, the first page from it is the first five of those, and its next link is exact.
      const paged = await client(undefined, PAGE_SIZE)(`Ticks?$orderby=At&$select=ID&$skiptoken=${token}`);
      expect(paged.feed.d.results.map((entry) => entry.ID)).toEqual(ordered('At', rest).slice(0, PAGE_SIZE));
      expect(decodeURIComponent(paged.feed.d.__next ?? '')).toMatch(/\$skiptoken=datetime'2024-05-01T10:00:00\.\d{6}',\d+/);
    });

    it.each([
      // The millisecond clients see is what $filter compares: a microsecond inside it is equal to it.
      ['ge', (value: bigint, bound: bigint) => millisecondOf(value) >= bound],
      ['gt', (value: bigint, bound: bigint) => millisecondOf(value) > bound],
      ['eq', (value: bigint, bound: bigint) => millisecondOf(value) === bound],
      ['lt', (value: bigint, bound: bigint) => millisecondOf(value) < bound],
    ] as const)('$filter=At %s a millisecond literal compares the millisecond the payloads carry', async (operator, keeps) => {
      const bound = BASE + 1000n;
      const literal = `datetime'${new Date(Number(bound / 1000n)).toISOString().slice(0, -1)}'`;
      const expected = ordered(
        'At',
        TICKS.filter((tick) => keeps(tick.At, bound)),
      );
      const get = client(undefined, undefined);
      const { feed } = await get(`Ticks?$orderby=At&$select=ID&$filter=At ${operator} ${literal}`);
      expect(feed.d.results.map((entry) => entry.ID)).toEqual(expected);
      // Digits past the millisecond in a literal are dropped, as a Date drops them: the same answer.
      const precise = await get(`Ticks?$orderby=At&$select=ID&$filter=At ${operator} ${literal.slice(0, -1)}999'`);
      expect(precise.feed.d.results.map((entry) => entry.ID)).toEqual(expected);
    });

    it.each([
      ['At', '"t"."At" asc', 'Ticks_At'],
      ['At desc', '"t"."At" desc', 'Ticks_At_desc'],
    ])('$orderby=%s: the page after a $skiptoken orders by the bare column, which an index serves without a Sort', async (orderby, term, index) => {
      const get = client(undefined, PAGE_SIZE);
      const first = await get(`Ticks?$orderby=${orderby}&$select=ID`);
      const next = first.feed.d.__next?.slice(ROOT.length).replace('&$format=json', '') ?? '';
      capture.selects = [];
      expect((await get(next)).status).toBe(200);
      const [page] = capture.selects;
      const compiled = db.kysely.getExecutor().compileQuery(page.node, page.queryId);
      expect(compiled.sql).toContain(`order by ${term}, "t"."ID" asc`);
      expect(compiled.sql).not.toContain('date_trunc');
      const plan = await db.kysely.transaction().execute(async (trx) => {
        await sql`set local enable_seqscan = off`.execute(trx);
        const result = await trx.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]));
        return result.rows.map((row) => row['QUERY PLAN']).join('\n');
      });
      expect(plan).toContain(`using "${index}"`);
      expect(plan).not.toMatch(/Sort/);
    });
  });
}
