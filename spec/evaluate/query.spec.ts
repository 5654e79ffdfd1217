/**
 * Ordering and paging: $orderby comparators (nulls first, ordinal strings, exact numbers), the
 * $skiptoken position filter, applyQuery's protocol order, and a 5,000-entity walk in pages of 37.
 */
import { afterPosition, applyQuery, compareValues, compileOrderBy, compileSkipTokenFilter, evaluate } from '../../lib/evaluate/evaluate';
import type { Entity } from '../../lib/provider/types';
import { checkExpression, checkFilter, parseExpression, parseOrderBy } from '../../lib/uri/expr';
import type { ExprNode } from '../../lib/uri/expr/ast';
import type { OrderByItem, SkipTokenPosition } from '../../lib/uri/types';
import { catchODataError, Item, Person, testModel } from '../uri/expr/support';

/** Typed `$orderby` items for Item (or Person), with the key tie-breaker appended unless told otherwise. */
function orderBy(text: string, tieBreaker = true, type = Item): OrderByItem[] {
  const items: OrderByItem[] = parseOrderBy(text).map((item) => ({
    expression: checkExpression(item.expression, type, testModel),
    direction: item.direction,
  }));
  if (tieBreaker && !items.some((item) => item.expression.kind === 'Member' && item.expression.path.join('/') === 'ID')) {
    items.push({ expression: checkExpression(parseExpression('ID'), type, testModel), direction: 'asc' });
  }
  return items;
}

function filter(text: string): ExprNode {
  return checkFilter(parseExpression(text), Item, testModel);
}

function sortedIds(entities: readonly Entity[], text: string, type = Item): unknown[] {
  return [...entities].sort(compileOrderBy(orderBy(text, true, type))).map((entity) => entity.ID);
}

describe('compileOrderBy', () => {
  const rows: Entity[] = [
    { ID: 1, String: 'b', Decimal: '10', Int64: '9007199254740993', Double: 1, DateTime: new Date('2020-01-02T00:00:00Z'), Int32: 1 },
    { ID: 2, String: null, Decimal: '9.99', Int64: '9007199254740992', Double: NaN, DateTime: null, Int32: 1 },
    { ID: 3, String: 'B', Decimal: '-1', Int64: '-5', Double: -Infinity, DateTime: new Date('1999-01-01T00:00:00Z'), Int32: 2 },
    { ID: 4, String: 'é', Decimal: '0.10000000000000000001', Int64: null, Double: null, DateTime: new Date('2020-01-01T23:59:59.999Z'), Int32: 2 },
    { ID: 5, String: 'a', Decimal: '0.1', Int64: '0', Double: 0, DateTime: new Date('2020-01-02T00:00:00Z'), Int32: 1 },
  ];

  it.each([
    // Strings compare ordinally (code units): null < 'B' < 'a' < 'b' < 'é'.
    ['String', [2, 3, 5, 1, 4]],
    ['String desc', [4, 1, 5, 3, 2]],
    // Decimals exactly, not as doubles.
    ['Decimal', [3, 5, 4, 2, 1]],
    ['Decimal desc', [1, 2, 4, 5, 3]],
    // Int64 exactly past 2^53; null first.
    ['Int64', [4, 3, 5, 2, 1]],
    // Doubles: null, then NaN (as .NET), then -INF...
    ['Double', [4, 2, 3, 5, 1]],
    ['DateTime', [2, 3, 4, 1, 5]],
    ['DateTime desc', [1, 5, 4, 3, 2]],
    ['Int32, String desc', [1, 5, 2, 4, 3]],
    ['Int32 desc, ID desc', [4, 3, 5, 2, 1]],
    ['length(String) desc, ID', [1, 3, 4, 5, 2]],
    ['Decimal mul -1', [1, 2, 4, 5, 3]],
  ])('%s -> %j', (text, expected) => {
    expect(sortedIds(rows, text)).toEqual(expected);
  });

  it('orders dynamic properties by the types of their values', () => {
    const people: Entity[] = [{ ID: 1, Age: 30 }, { ID: 2, Age: '12.5' }, { ID: 3 }, { ID: 4, Age: 2.5 }, { ID: 5, Age: 'x' }];
    // null first; numbers (and the numeric string '12.5') by value; 'x' after them by type name.
    expect(sortedIds(people, 'Age', Person)).toEqual([3, 4, 2, 1, 5]);
  });
});

describe('compareValues', () => {
  it.each([
    [null, 1, -1],
    [undefined, null, 0],
    [1, null, 1],
    [1, 2, -1],
    ['9007199254740993', '9007199254740992', 1],
    ['b', 'a', 1],
    [new Date(5), new Date(5), 0],
    [true, false, 1],
    [new Uint8Array([1, 2]), new Uint8Array([1, 3]), -1],
    [NaN, -Infinity, -1],
  ])('compareValues(%p, %p) = %i', (a, b, expected) => {
    expect(compareValues(a, b)).toBe(expected);
  });

  it('compares declared Int64 and Decimal strings exactly', () => {
    expect(compareValues('10', '9.99', 'Edm.Decimal', 'Edm.Decimal')).toBe(1);
    expect(compareValues('10', '9', 'Edm.String', 'Edm.String')).toBe(-1);
  });
});

describe('applyQuery', () => {
  const rows: Entity[] = Array.from({ length: 10 }, (_, i) => ({ ID: i, Int32: i % 3, String: `s${9 - i}` }));

  it('filters, counts before paging, orders, skips and takes', () => {
    const result = applyQuery(rows, {
      filter: filter('Int32 ne 1'),
      orderBy: orderBy('String'),
      skip: 1,
      top: 3,
      skipToken: undefined,
      count: true,
    });
    expect(result.count).toBe(7);
    expect(result.entities.map((entity) => entity.ID)).toEqual([8, 6, 5]);
  });

  it('leaves the count undefined unless asked, and the input untouched', () => {
    const input = [...rows].reverse();
    const before = input.map((entity) => entity.ID);
    const result = applyQuery(input, { filter: undefined, orderBy: orderBy('ID'), skip: undefined, top: undefined, skipToken: undefined, count: false });
    expect(result.count).toBeUndefined();
    expect(result.entities.map((entity) => entity.ID)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(input.map((entity) => entity.ID)).toEqual(before);
    expect(result.entities[0]).toBe(rows[0]);
  });

  it('is stable: equal keys keep their input order', () => {
    const result = applyQuery(rows, { filter: undefined, orderBy: orderBy('Int32', false), skip: 0, top: undefined, skipToken: undefined, count: false });
    expect(result.entities.map((entity) => entity.ID)).toEqual([0, 3, 6, 9, 1, 4, 7, 2, 5, 8]);
  });

  it.each([
    [{ skip: 20, top: undefined }, []],
    [{ skip: 0, top: 0 }, []],
    [{ skip: 8, top: 5 }, [8, 9]],
    [{ skip: undefined, top: 2 }, [0, 1]],
  ])('pages %j -> %j', (paging, expected) => {
    const result = applyQuery(rows, { filter: undefined, orderBy: orderBy('ID'), skipToken: undefined, count: true, ...paging });
    expect(result.entities.map((entity) => entity.ID)).toEqual(expected);
    expect(result.count).toBe(10);
  });

  it('counts before the skiptoken is applied', () => {
    const position: SkipTokenPosition = { orderByValues: [], key: { ID: 6 } };
    const result = applyQuery(rows, { filter: undefined, orderBy: orderBy('ID'), skip: undefined, top: undefined, skipToken: position, count: true });
    expect(result.count).toBe(10);
    expect(result.entities.map((entity) => entity.ID)).toEqual([7, 8, 9]);
  });
});

describe('skiptoken positions', () => {
  const rows: Entity[] = [
    { ID: 1, String: 'a', Int32: 5 },
    { ID: 2, String: null, Int32: 5 },
    { ID: 3, String: 'a', Int32: 7 },
    { ID: 4, String: 'b', Int32: null },
  ];

  it.each([
    // [orderby, position values, key, entities after it]
    ['String', ['a'], { ID: 1 }, [3, 4]],
    ['String', [null], { ID: 2 }, [1, 3, 4]],
    ['String desc', ['a'], { ID: 1 }, [3, 2]],
    ['String desc', [null], { ID: 2 }, []],
    ['Int32 desc, String', [5, null], { ID: 2 }, [1, 4]],
    ['Int32', [null], { ID: 4 }, [1, 2, 3]],
    ['ID desc', [3], { ID: 3 }, [2, 1]],
  ] as const)('%s after %j %j -> %j', (text, values, key, expected) => {
    const position: SkipTokenPosition = { orderByValues: values, key };
    const items = orderBy(text);
    const sorted = [...rows].sort(compileOrderBy(items));
    expect(sorted.filter(compileSkipTokenFilter(items, position)).map((entity) => entity.ID)).toEqual(expected);
    expect(
      rows
        .filter((entity) => afterPosition(entity, items, position))
        .map((entity) => entity.ID)
        .sort(),
    ).toEqual([...expected].sort());
  });

  it('uses the key even when the ordering lacks the tie-breaker', () => {
    const position: SkipTokenPosition = { orderByValues: ['a'], key: { ID: 1 } };
    expect(rows.filter(compileSkipTokenFilter(orderBy('String', false), position)).map((entity) => entity.ID)).toEqual([3, 4]);
  });

  it.each([
    ['more values than $orderby items', orderBy('String', false), { orderByValues: ['a', 'b'], key: { ID: 1 } }],
    ['no value for a non-key item', orderBy('String, Int32', false), { orderByValues: ['a'], key: { ID: 1 } }],
  ])('refuses a position with %s', (_why, items, position) => {
    const error = catchODataError(() => compileSkipTokenFilter(items, position));
    expect([error.code, error.status, error.target]).toEqual(['SKIPTOKEN_INVALID', 400, '$skiptoken']);
  });
});

describe('walking 5,000 entities in pages of 37 via $skiptoken', () => {
  /** Deterministic pseudo-random data with many duplicate sort values and nulls. */
  const entities: Entity[] = Array.from({ length: 5000 }, (_, i) => {
    const n = (i * 7919) % 5000;
    return {
      ID: n,
      Int32: n % 7,
      String: n % 11 === 0 ? null : `name${n % 13}`,
      Decimal: n % 5 === 0 ? null : `${(n % 17) / 4}`,
      Int64: `${9007199254740990 + (n % 6)}`,
    };
  });

  it.each([['Int32 desc, String'], ['String desc, Decimal, Int32 desc'], ['Int64 desc, Decimal desc'], ['ID desc']])(
    '$orderby=%s visits each entity exactly once, in order',
    (text) => {
      const items = orderBy(text);
      const userItems = parseOrderBy(text).length;
      const expected = applyQuery(entities, {
        filter: undefined,
        orderBy: items,
        skip: undefined,
        top: undefined,
        skipToken: undefined,
        count: false,
      }).entities.map((e) => e.ID);
      const seen: unknown[] = [];
      let position: SkipTokenPosition | undefined;
      let pages = 0;
      for (;;) {
        const page = applyQuery(entities, { filter: undefined, orderBy: items, skip: undefined, top: 37, skipToken: position, count: false }).entities;
        if (page.length === 0) break;
        pages++;
        seen.push(...page.map((entity) => entity.ID));
        const last = page[page.length - 1];
        // What the paging handler puts in the token: the user's $orderby values, then the key.
        position = {
          orderByValues: items.slice(0, userItems).map((item) => evaluate(item.expression, last)),
          key: { ID: last.ID as number },
        };
      }
      expect(pages).toBe(Math.ceil(5000 / 37));
      expect(seen).toEqual(expected);
      expect(new Set(seen).size).toBe(5000);
    },
  );

  it('pages with a filter keep the filtered order', () => {
    const items = orderBy('String, Int32 desc');
    const where = filter('Int32 ne 3 and Decimal ne null');
    const all = applyQuery(entities, { filter: where, orderBy: items, skip: undefined, top: undefined, skipToken: undefined, count: true });
    const seen: unknown[] = [];
    let position: SkipTokenPosition | undefined;
    for (;;) {
      const result = applyQuery(entities, { filter: where, orderBy: items, skip: undefined, top: 37, skipToken: position, count: true });
      expect(result.count).toBe(all.count);
      if (result.entities.length === 0) break;
      seen.push(...result.entities.map((entity) => entity.ID));
      const last = result.entities[result.entities.length - 1];
      position = { orderByValues: items.slice(0, 2).map((item) => evaluate(item.expression, last)), key: { ID: last.ID as number } };
    }
    expect(seen).toEqual(all.entities.map((entity) => entity.ID));
  });
});
