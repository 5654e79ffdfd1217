import type { EdmEntityType } from '../../lib/edm/model';
import { preciseInstant } from '../../lib/edm/precise-instant';
import type { EdmPrimitiveTypeName } from '../../lib/edm/primitives';
import type { ExprNode } from '../../lib/uri/expr/ast';
import { decodeSkipToken, encodeSkipToken } from '../../lib/uri/skiptoken';
import type { OrderByItem } from '../../lib/uri/types';
import { catchODataError, demoModel, uriModel } from './uri-fixtures';

function entityType(model: typeof demoModel, set: string): EdmEntityType {
  const entitySet = model.entitySets.get(set);
  if (entitySet === undefined) throw new Error(set);
  return entitySet.entityType;
}

const product = entityType(demoModel, 'Products');
const order = entityType(uriModel, 'Orders');
const reading = entityType(uriModel, 'Readings');

/** An order item on a property, typed as the checker types it. */
function by(name: string, type: EdmPrimitiveTypeName | 'Dynamic', direction: 'asc' | 'desc' = 'asc'): OrderByItem {
  const expression: ExprNode = {
    kind: 'Member',
    path: [name],
    type: type === 'Dynamic' ? { kind: 'Dynamic' } : { kind: 'Primitive', name: type },
  };
  return { expression, direction };
}

const sensor = '8f2b5a14-1c3e-4d5f-9a6b-7c8d9e0f1a2b';
const at = new Date(Date.UTC(2020, 0, 2, 3, 4, 5));
const atMs = new Date(Date.UTC(2020, 0, 2, 3, 4, 5, 120));
// A position's value at a store's precision: .120456, and .120000 (on the millisecond, exactly).
const precise = preciseInstant(atMs, '456');
const onTheMillisecond = preciseInstant(atMs, '0');

describe('encodeSkipToken', () => {
  it.each<[string, unknown[], Record<string, unknown>, EdmEntityType, OrderByItem[] | undefined, string]>([
    ['a single key', [], { ID: 5 }, product, [], '5'],
    ['an order value then the key', ['Milk'], { ID: 1 }, product, [by('Name', 'Edm.String')], "'Milk',1"],
    ['quotes doubled', ["O'Neil"], { ID: 1 }, product, [by('Name', 'Edm.String')], "'O''Neil',1"],
    ['null order values', [null], { ID: 1 }, product, [by('Name', 'Edm.String')], 'null,1'],
    ['undefined order values as null', [undefined], { ID: 1 }, product, [by('Name', 'Edm.String')], 'null,1'],
    ['a decimal with its suffix', ['2.5'], { ID: 3 }, product, [by('Price', 'Edm.Decimal', 'desc')], '2.5M,3'],
    ['a date', [at], { ID: 3 }, product, [by('ReleaseDate', 'Edm.DateTime')], "datetime'2020-01-02T03:04:05',3"],
    ['a composite key in key order', [], { Line: 'a,b', OrderID: 7 }, order, [], "7,'a,b'"],
    ['guid and datetime keys', [], { At: at, Sensor: sensor }, reading, [], `guid'${sensor}',datetime'2020-01-02T03:04:05'`],
    // Without the order items, types are inferred from the JS values.
    ['inferred string', ['Milk'], { ID: 1 }, product, undefined, "'Milk',1"],
    ['inferred integer', [4], { ID: 1 }, product, undefined, '4,1'],
    ['inferred double', [2.5], { ID: 1 }, product, undefined, '2.5,1'],
    ['inferred boolean', [true], { ID: 1 }, product, undefined, 'true,1'],
    ['inferred date', [at], { ID: 1 }, product, undefined, "datetime'2020-01-02T03:04:05',1"],
    ['a dynamic item, inferred', [7], { ID: 1 }, product, [by('Extra', 'Dynamic')], '7,1'],
    // A precise instant writes every digit: always more than three, so it decodes as one again.
    ['a precise instant', [precise], { ID: 3 }, product, [by('ReleaseDate', 'Edm.DateTime')], "datetime'2020-01-02T03:04:05.120456',3"],
    [
      'a precise instant on the millisecond',
      [onTheMillisecond],
      { ID: 3 },
      product,
      [by('ReleaseDate', 'Edm.DateTime')],
      "datetime'2020-01-02T03:04:05.120000',3",
    ],
    ['a precise instant offset', [precise], { ID: 3 }, product, [by('At', 'Edm.DateTimeOffset')], "datetimeoffset'2020-01-02T03:04:05.120456Z',3"],
    ['a precise instant, inferred', [precise], { ID: 3 }, product, undefined, "datetime'2020-01-02T03:04:05.120456',3"],
  ])('%s', (_, values, key, type, orderBy, expected) => {
    expect(encodeSkipToken(values, key, type, orderBy)).toBe(expected);
  });

  it('refuses non-primitive values (a provider bug, so a plain Error that becomes a 500)', () => {
    expect(() => encodeSkipToken([{ a: 1 }], { ID: 1 }, product)).toThrow('$skiptoken: $orderby value 1 is not a primitive value');
    expect(() => encodeSkipToken([], { ID: [1] }, product)).toThrow("$skiptoken: key property 'ID' is not a primitive value");
    expect(() => encodeSkipToken([precise], { ID: 1 }, product, [by('Name', 'Edm.String')])).toThrow(
      'Cannot write a precise instant as a literal of Edm.String.',
    );
  });
});

describe('decodeSkipToken', () => {
  it.each<[string, string, OrderByItem[], EdmEntityType, unknown[], Record<string, unknown>]>([
    ['a single key', '5', [], product, [], { ID: 5 }],
    ['an order value and the key', "'Milk',1", [by('Name', 'Edm.String')], product, ['Milk'], { ID: 1 }],
    ['commas and quotes inside strings', "'a,''b''',1", [by('Name', 'Edm.String')], product, ["a,'b'"], { ID: 1 }],
    ['null order values', 'null,1', [by('Name', 'Edm.String')], product, [null], { ID: 1 }],
    ['decimals with either suffix case', '20m,3', [by('Price', 'Edm.Decimal')], product, ['20'], { ID: 3 }],
    ['decimals printed as strings by an inferred encoding', "'2.5',3", [by('Price', 'Edm.Decimal')], product, ['2.5'], { ID: 3 }],
    ['integers widened to Int64', '7,1', [by('Big', 'Edm.Int64')], product, ['7'], { ID: 1 }],
    ['Int64 printed as strings', "'9007199254740993',1", [by('Big', 'Edm.Int64')], product, ['9007199254740993'], { ID: 1 }],
    ['guids printed as strings', `'${sensor}',1`, [by('G', 'Edm.Guid')], product, [sensor], { ID: 1 }],
    ['dates', "datetime'2020-01-02T03:04:05',3", [by('ReleaseDate', 'Edm.DateTime')], product, [at], { ID: 3 }],
    ['dynamic items as written', "'x',1", [by('Extra', 'Dynamic')], product, ['x'], { ID: 1 }],
    ['composite keys', "7,'a,b'", [], order, [], { OrderID: 7, Line: 'a,b' }],
    ['guid and datetime keys', `guid'${sensor}',datetime'2020-01-02T03:04:05'`, [], reading, [], { Sensor: sensor, At: at }],
    // Three fractional digits or fewer (every token earlier releases wrote): a Date, its whole millisecond.
    ['a millisecond date (an earlier release’s token)', "datetime'2020-01-02T03:04:05.12',3", [by('ReleaseDate', 'Edm.DateTime')], product, [atMs], { ID: 3 }],
    // More digits: the exact stored value.
    ['a microsecond date', "datetime'2020-01-02T03:04:05.120456',3", [by('ReleaseDate', 'Edm.DateTime')], product, [precise], { ID: 3 }],
    [
      'a microsecond date on the millisecond',
      "datetime'2020-01-02T03:04:05.120000',3",
      [by('ReleaseDate', 'Edm.DateTime')],
      product,
      [onTheMillisecond],
      { ID: 3 },
    ],
    ['a 100 ns tick', "datetime'2020-01-02T03:04:05.1204567',3", [by('ReleaseDate', 'Edm.DateTime')], product, [preciseInstant(atMs, '4567')], { ID: 3 }],
    ['nanoseconds', "datetime'2020-01-02T03:04:05.120456789',3", [by('ReleaseDate', 'Edm.DateTime')], product, [preciseInstant(atMs, '456789')], { ID: 3 }],
    ['a microsecond offset, to UTC', "datetimeoffset'2020-01-02T05:04:05.120456+02:00',3", [by('At', 'Edm.DateTimeOffset')], product, [precise], { ID: 3 }],
    ['a microsecond date, inferred', "datetime'2020-01-02T03:04:05.120456',3", [by('Extra', 'Dynamic')], product, [precise], { ID: 3 }],
    // Keys stay at milliseconds.
    ['a microsecond datetime key', `guid'${sensor}',datetime'2020-01-02T03:04:05.120456'`, [], reading, [], { Sensor: sensor, At: atMs }],
  ])('%s', (_, token, orderBy, type, orderByValues, key) => {
    expect(decodeSkipToken(token, orderBy, type)).toEqual({ orderByValues, key });
  });

  it.each<[string, string, OrderByItem[], EdmEntityType]>([
    ['too few values', "'Milk'", [by('Name', 'Edm.String')], product],
    ['too many values', '1,2', [], product],
    ['a trailing comma', '1,', [], product],
    ['an empty token', '', [], product],
    ['a separator other than a comma', "'Milk';1", [by('Name', 'Edm.String')], product],
    ['garbage', 'abc', [], product],
    ['an unterminated string', "'Milk,1", [by('Name', 'Edm.String')], product],
    ['a null key', 'null', [], product],
    ['a key of the wrong type', "'1'", [], product],
    ['an order value of the wrong type', "'x',1", [by('Rating', 'Edm.Int32')], product],
    ['a malformed literal', "datetime'nope',1", [by('ReleaseDate', 'Edm.DateTime')], product],
    ['a string where a guid key belongs', `'${sensor}',datetime'2020-01-02T03:04:05'`, [], reading],
    ['more than nine fractional digits', "datetime'2020-01-02T03:04:05.1204567891',3", [by('ReleaseDate', 'Edm.DateTime')], product],
  ])('rejects %s', (_, token, orderBy, type) => {
    const error = catchODataError(() => decodeSkipToken(token, orderBy, type));
    expect([error.code, error.status, error.message]).toEqual(['SKIPTOKEN_INVALID', 400, `The $skiptoken '${token}' is not valid for this request.`]);
  });

  it('round-trips what encodeSkipToken writes, with and without order item types', () => {
    const orderBy = [by('Name', 'Edm.String', 'desc'), by('Price', 'Edm.Decimal'), by('ReleaseDate', 'Edm.DateTime'), by('At', 'Edm.DateTimeOffset')];
    const values = ["it's, fine", '12.75', at, precise];
    for (const token of [encodeSkipToken(values, { ID: 9 }, product, orderBy), encodeSkipToken(values, { ID: 9 }, product)]) {
      expect(decodeSkipToken(token, orderBy, product)).toEqual({ orderByValues: values, key: { ID: 9 } });
    }
  });
});
