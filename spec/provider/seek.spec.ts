/**
 * seekCondition: the $skiptoken keyset condition as a filter AST. Property: evaluated by the shared
 * evaluator, it keeps exactly the entities compileSkipTokenFilter keeps, over generated rows with
 * nulls, NaN, duplicates and ties, orders of one to three items in mixed directions (plain
 * properties and computed expressions), composite keys covered or not, and positions taken from
 * rows or made up (date/times among them finer than milliseconds: PreciseInstants). Also: the kept
 * rows are exactly the sorted suffix after a row's own position.
 */
import { defineModel } from '../../lib/edm';
import type { EdmEntityType } from '../../lib/edm/model';
import { preciseInstant } from '../../lib/edm/precise-instant';
import type { PrimitiveValue } from '../../lib/edm/primitives';
import { compileFilter, compileOrderBy, compileSkipTokenFilter, evaluate } from '../../lib/evaluate/evaluate';
import { seekCondition } from '../../lib/provider/seek';
import type { Entity } from '../../lib/provider/types';
import { withKeyTieBreaker } from '../../lib/uri';
import { checkExpression, parseExpression, printExpression } from '../../lib/uri/expr';
import type { OrderByItem, PositionValue, SkipTokenPosition } from '../../lib/uri/types';
import { catchODataError } from '../helpers/odata-error';
import { seededRandom } from '../helpers/random';
import { DEMO_MODEL } from '../helpers/demo';

const model = defineModel({
  namespace: 'Seek',
  entityTypes: [
    {
      name: 'Row',
      key: ['K1', 'K2'],
      properties: [
        { name: 'K1', type: 'Edm.Int32', nullable: false },
        { name: 'K2', type: 'Edm.String', nullable: false },
        { name: 'Int', type: 'Edm.Int32' },
        { name: 'Req', type: 'Edm.Int32', nullable: false },
        { name: 'Str', type: 'Edm.String' },
        { name: 'Dbl', type: 'Edm.Double' },
        { name: 'ReqDbl', type: 'Edm.Double', nullable: false },
        { name: 'Dec', type: 'Edm.Decimal' },
        { name: 'Big', type: 'Edm.Int64' },
        { name: 'When', type: 'Edm.DateTime' },
        { name: 'Flag', type: 'Edm.Boolean' },
        { name: 'Id', type: 'Edm.Guid' },
      ],
    },
  ],
  entityContainers: [{ name: 'C', isDefaultEntityContainer: true, entitySets: [{ name: 'Rows', entityType: 'Seek.Row' }] }],
});
const Row = model.entityTypes.get('Seek.Row') as EdmEntityType;

/** Small pools: many ties, nulls, NaN and both zeros. */
const POOLS: Readonly<Record<string, readonly (PrimitiveValue | null)[]>> = {
  K1: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24],
  K2: ['a', 'B', 'b', 'é', ''],
  Int: [null, -1, 0, 7],
  Req: [0, 1, 2],
  Str: [null, '', 'a', 'A', 'ab', '😀'],
  Dbl: [null, NaN, -Infinity, -0, 0, 1.5, Infinity],
  ReqDbl: [NaN, -1, 0, 2.5],
  Dec: [null, '-1.5', '0', '0.1', '10'],
  Big: [null, '-9007199254740993', '0', '9007199254740993'],
  When: [null, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00.001Z'), new Date('1999-12-31T23:59:59.999Z')],
  Flag: [null, false, true],
  Id: [null, '00000000-0000-0000-0000-000000000000', '01234567-89ab-cdef-0123-456789abcdef', 'ffffffff-ffff-ffff-ffff-ffffffffffff'],
};

/** Made-up When positions finer than milliseconds: on a stored millisecond, inside one, just before the next. */
const PRECISE_WHEN: readonly PositionValue[] = [
  preciseInstant(new Date('2020-01-01T00:00:00Z'), '000'),
  preciseInstant(new Date('2020-01-01T00:00:00Z'), '500'),
  preciseInstant(new Date('2020-01-01T00:00:00.001Z'), '001'),
  preciseInstant(new Date('1999-12-31T23:59:59.999Z'), '999'),
];

/** Order expressions: every property, and some computed ones. */
const EXPRESSIONS = [...Object.keys(POOLS), 'length(Str)', 'Int add 1', 'Dbl mul -1', 'tolower(Str)', 'year(When)', 'K1 add Int'];

const random = seededRandom(1402);
const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)];

function rows(count: number): Entity[] {
  const seen = new Set<string>();
  const out: Entity[] = [];
  while (out.length < count) {
    const row: Entity = {};
    for (const [name, pool] of Object.entries(POOLS)) row[name] = pick(pool);
    const key = JSON.stringify([row.K1, row.K2]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(row);
  }
  return out;
}

function orderItem(text: string, direction: 'asc' | 'desc'): OrderByItem {
  return { expression: checkExpression(parseExpression(text), Row, model), direction };
}

function randomOrder(): { client: OrderByItem[]; orderBy: readonly OrderByItem[] } {
  const count = 1 + Math.floor(random() * 3);
  const client: OrderByItem[] = [];
  for (let i = 0; i < count; i++) client.push(orderItem(pick(EXPRESSIONS), random() < 0.5 ? 'asc' : 'desc'));
  return { client, orderBy: withKeyTieBreaker(client, Row) };
}

function positionOf(entity: Entity, client: readonly OrderByItem[]): SkipTokenPosition {
  return { orderByValues: client.map((item) => evaluate(item.expression, entity)), key: { K1: entity.K1 as number, K2: entity.K2 as string } };
}

/** A position no row has: one order value or a key part replaced from its pool. */
function madeUpPosition(entity: Entity, client: readonly OrderByItem[]): SkipTokenPosition {
  const position = positionOf(entity, client);
  const values: (PositionValue | null)[] = [...position.orderByValues];
  if (values.length > 0 && random() < 0.7) {
    const index = Math.floor(random() * values.length);
    const expression = client[index].expression;
    const name = expression.kind === 'Member' ? expression.path[0] : undefined;
    if (name === 'When' && random() < 0.5) values[index] = pick(PRECISE_WHEN);
    else values[index] = name !== undefined && name in POOLS ? pick(POOLS[name]) : null;
  }
  return { orderByValues: values, key: { K1: pick(POOLS.K1) as number, K2: pick(POOLS.K2) as string } };
}

describe('seekCondition keeps exactly what compileSkipTokenFilter keeps', () => {
  const data = rows(80);

  it('over 400 generated orders and positions (rows with nulls, NaN, ties; mixed directions; composite keys)', () => {
    const mismatches: string[] = [];
    let kept = 0;
    for (let trial = 0; trial < 400; trial++) {
      const { client, orderBy } = randomOrder();
      const source = pick(data);
      const position = trial % 3 === 2 ? madeUpPosition(source, client) : positionOf(source, client);
      const expected = compileSkipTokenFilter(orderBy, position);
      const condition = seekCondition(orderBy, position, Row);
      const actual = compileFilter(condition);
      for (const row of data) {
        const want = expected(row);
        if (want) kept++;
        if (actual(row) !== want) {
          const order = orderBy.map((item) => `${printExpression(item.expression)} ${item.direction}`).join(', ');
          mismatches.push(`${order} after ${JSON.stringify(position)}: row ${JSON.stringify(row)} expected ${want}; condition ${printExpression(condition)}`);
          break;
        }
      }
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
    // The generator reaches both answers often.
    expect(kept).toBeGreaterThan(400 * 80 * 0.2);
    expect(kept).toBeLessThan(400 * 80 * 0.8);
  });

  it('after a row, the kept rows are exactly the sorted rows that follow it', () => {
    for (let trial = 0; trial < 100; trial++) {
      const { client, orderBy } = randomOrder();
      const sorted = [...data].sort(compileOrderBy(orderBy));
      const index = Math.floor(random() * sorted.length);
      const keep = compileFilter(seekCondition(orderBy, positionOf(sorted[index], client), Row));
      expect(sorted.filter(keep)).toEqual(sorted.slice(index + 1));
    }
  });
});

describe('seekCondition: shapes and refusals', () => {
  it('adds a range on the first key an index can serve, and compares key parts the order leaves out last', () => {
    const orderBy = withKeyTieBreaker([orderItem('Req', 'asc')], Row);
    const condition = seekCondition(orderBy, { orderByValues: [5], key: { K1: 1, K2: 'x' } }, Row);
    expect(printExpression(condition)).toBe("Req ge 5 and (Req gt 5 or Req eq 5 and (K1 gt 1 or K1 eq 1 and K2 gt 'x'))");
  });

  it('descending over nulls: nulls come last; a null position leaves nothing after it on that key', () => {
    const orderBy = withKeyTieBreaker([orderItem('Int', 'desc')], Row);
    expect(printExpression(seekCondition(orderBy, { orderByValues: [3], key: { K1: 1, K2: 'x' } }, Row))).toBe(
      "Int lt 3 or Int eq null or Int eq 3 and (K1 gt 1 or K1 eq 1 and K2 gt 'x')",
    );
    expect(printExpression(seekCondition(orderBy, { orderByValues: [null], key: { K1: 1, K2: 'x' } }, Row))).toBe(
      "Int eq null and (K1 gt 1 or K1 eq 1 and K2 gt 'x')",
    );
  });

  it('carries a date/time bound at its precision: a PreciseInstant literal prints every digit, a Date its milliseconds', () => {
    const orderBy = withKeyTieBreaker([orderItem('When', 'asc')], Row);
    const at = new Date('2020-01-01T00:00:00.001Z');
    expect(printExpression(seekCondition(orderBy, { orderByValues: [preciseInstant(at, '250')], key: { K1: 1, K2: 'x' } }, Row))).toBe(
      "When ge datetime'2020-01-01T00:00:00.001250' and (When gt datetime'2020-01-01T00:00:00.001250' or When eq datetime'2020-01-01T00:00:00.001250' and (K1 gt 1 or K1 eq 1 and K2 gt 'x'))",
    );
    expect(printExpression(seekCondition(orderBy, { orderByValues: [at], key: { K1: 1, K2: 'x' } }, Row))).toBe(
      "When ge datetime'2020-01-01T00:00:00.001' and (When gt datetime'2020-01-01T00:00:00.001' or When eq datetime'2020-01-01T00:00:00.001' and (K1 gt 1 or K1 eq 1 and K2 gt 'x'))",
    );
    // Over rows that hold milliseconds (MemoryProvider's), a bound inside a millisecond comes after it.
    const rowsAt = [
      { K1: 1, K2: 'a', When: at },
      { K1: 2, K2: 'a', When: new Date('2020-01-01T00:00:00.002Z') },
    ];
    const keep = compileFilter(seekCondition(orderBy, { orderByValues: [preciseInstant(at, '250')], key: { K1: 9, K2: 'x' } }, Row));
    expect(rowsAt.filter(keep).map((row) => row.K1)).toEqual([2]);
  });

  it('refuses a position with more values than the order has items, or none for a non-key item (400 SKIPTOKEN_INVALID)', () => {
    const orderBy = withKeyTieBreaker([orderItem('Int', 'asc')], Row);
    for (const position of [
      { orderByValues: [1, 2, 3, 4], key: { K1: 1, K2: 'x' } },
      { orderByValues: [], key: { K1: 1, K2: 'x' } },
    ]) {
      const error = catchODataError(() => seekCondition(orderBy, position, Row));
      expect([error.status, error.code]).toEqual([400, 'SKIPTOKEN_INVALID']);
      expect(catchODataError(() => compileSkipTokenFilter(orderBy, position)).code).toBe('SKIPTOKEN_INVALID');
    }
  });
});

describe('seekCondition over the demo model (the example in docs/query-options.md)', () => {
  it('Products by Price desc after (20.9, 2), and by Price asc', () => {
    const Product = DEMO_MODEL.entityTypes.get('ODataDemo.Product') as EdmEntityType;
    const order = (direction: 'asc' | 'desc'): readonly OrderByItem[] =>
      withKeyTieBreaker([{ expression: checkExpression(parseExpression('Price'), Product, DEMO_MODEL), direction }], Product);
    const position = { orderByValues: ['20.9'], key: { ID: 2 } };
    expect(printExpression(seekCondition(order('desc'), position, Product))).toBe('Price le 20.9M and (Price lt 20.9M or Price eq 20.9M and ID gt 2)');
    expect(printExpression(seekCondition(order('asc'), position, Product))).toBe('Price ge 20.9M and (Price gt 20.9M or Price eq 20.9M and ID gt 2)');
    const byName = withKeyTieBreaker([{ expression: checkExpression(parseExpression('Name'), Product, DEMO_MODEL), direction: 'desc' }], Product);
    expect(printExpression(seekCondition(byName, { orderByValues: ['Milk'], key: { ID: 1 } }, Product))).toBe(
      "Name lt 'Milk' or Name eq null or Name eq 'Milk' and ID gt 1",
    );
  });
});
