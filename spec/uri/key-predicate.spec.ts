import type { EdmEntityType, EdmModel } from '../../lib/edm/model';
import { parseKeyPredicate, scanIdentifier } from '../../lib/uri/key-predicate';
import { catchODataError, demoModel, uriModel } from './uri-fixtures';

function typeOf(model: EdmModel, set: string): EdmEntityType {
  const entitySet = model.entitySets.get(set);
  if (entitySet === undefined) throw new Error(set);
  return entitySet.entityType;
}

describe('scanIdentifier', () => {
  it.each<[string, number, number]>([
    ['ID=1', 0, 2],
    ['OrderID=1', 0, 7],
    ['_x1=2', 0, 3],
    ['1abc', 0, 0],
    ["'x'", 0, 0],
    ['a,Line=2', 2, 6],
    ['Größe=1', 0, 5],
    ['', 0, 0],
  ])('%j from %d ends at %d', (text, start, end) => {
    expect(scanIdentifier(text, start)).toBe(end);
  });
});

describe('parseKeyPredicate', () => {
  const product = typeOf(demoModel, 'Products');
  const order = typeOf(uriModel, 'Orders');
  const item = typeOf(uriModel, 'Items');
  const rate = typeOf(uriModel, 'Rates');

  it.each<[string, EdmEntityType, Record<string, unknown>]>([
    ['1', product, { ID: 1 }],
    ['ID=1', product, { ID: 1 }],
    ['-0', product, { ID: 0 }],
    ["OrderID=1,Line='x'", order, { OrderID: 1, Line: 'x' }],
    ["Line='x',OrderID=1", order, { OrderID: 1, Line: 'x' }],
    ["OrderID=1,Line='a,b=c'", order, { OrderID: 1, Line: 'a,b=c' }],
    ["OrderID=1,Line=''''", order, { OrderID: 1, Line: "'" }],
    ["OrderID=1,Line=''", order, { OrderID: 1, Line: '' }],
    ['5L', item, { ItemID: '5' }],
    ['5l', item, { ItemID: '5' }],
    ['5', item, { ItemID: '5' }],
    ['ItemID=9223372036854775807L', item, { ItemID: '9223372036854775807' }],
    ['20m', rate, { Amount: '20' }],
    ['20M', rate, { Amount: '20' }],
    ['-1.50m', rate, { Amount: '-1.5' }],
    ['2.5', rate, { Amount: '2.5' }],
  ])('%j', (predicate, type, expected) => {
    expect(parseKeyPredicate(predicate, type)).toEqual(expected);
  });

  it('returns a frozen key', () => {
    expect(Object.isFrozen(parseKeyPredicate('1', product))).toBe(true);
  });

  it.each<[string, number, EdmEntityType]>([
    ['', 0, product],
    ['ID', 0, product],
    ['ID==1', 3, product],
    ['1 ', 1, product],
    [' 1', 0, product],
    ['ID = 1', 0, product],
    ["OrderID=1,Line='x',OrderID=2", 19, order],
    ['9223372036854775808L', 0, item],
    ['20x', 0, rate],
    ['2147483648', 0, product],
    ['true', 0, product],
    ["X'00'", 0, product],
  ])('rejects %j at position %d', (predicate, position, type) => {
    const error = catchODataError(() => parseKeyPredicate(predicate, type));
    expect([error.code, error.status, error.target, error.position]).toEqual(['URI_KEY_SYNTAX', 400, 'key', position]);
  });
});
