import type { EdmEntityType } from '../../lib/edm/model';
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
  ])('%s', (_, values, key, type, orderBy, expected) => {
    expect(encodeSkipToken(values, key, type, orderBy)).toBe(expected);
  });

  it('refuses non-primitive values (a provider bug, so a plain Error that becomes a 500)', () => {
    expect(() => encodeSkipToken([{ a: 1 }], { ID: 1 }, product)).toThrow('$skiptoken: $orderby value 1 is not a primitive value');
    expect(() => encodeSkipToken([], { ID: [1] }, product)).toThrow("$skiptoken: key property 'ID' is not a primitive value");
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
  ])('rejects %s', (_, token, orderBy, type) => {
    const error = catchODataError(() => decodeSkipToken(token, orderBy, type));
    expect([error.code, error.status, error.message]).toEqual(['SKIPTOKEN_INVALID', 400, `The $skiptoken '${token}' is not valid for this request.`]);
  });

  it('round-trips what encodeSkipToken writes, with and without order item types', () => {
    const orderBy = [by('Name', 'Edm.String', 'desc'), by('Price', 'Edm.Decimal'), by('ReleaseDate', 'Edm.DateTime')];
    const values = ["it's, fine", '12.75', at];
    for (const token of [encodeSkipToken(values, { ID: 9 }, product, orderBy), encodeSkipToken(values, { ID: 9 }, product)]) {
      expect(decodeSkipToken(token, orderBy, product)).toEqual({ orderByValues: values, key: { ID: 9 } });
    }
  });
});
