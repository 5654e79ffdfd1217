import type { EdmEntityType, EdmModel } from '../../lib/edm/model';
import { printExpression } from '../../lib/uri/expr';
import { parseOrderByOption, withKeyTieBreaker } from '../../lib/uri/orderby';
import type { OrderByItem } from '../../lib/uri/types';
import { catchODataError, demoModel, uriModel } from './uri-fixtures';

function typeOf(model: EdmModel, set: string): EdmEntityType {
  const entitySet = model.entitySets.get(set);
  if (entitySet === undefined) throw new Error(set);
  return entitySet.entityType;
}

const product = typeOf(demoModel, 'Products');
const supplier = typeOf(demoModel, 'Suppliers');
const order = typeOf(uriModel, 'Orders');

/** `expression direction:type` per item. */
function show(items: readonly OrderByItem[]): string[] {
  return items.map((item) => {
    const type = item.expression.type;
    const typeName = type?.kind === 'Primitive' ? type.name : type?.kind;
    return `${printExpression(item.expression)} ${item.direction}:${typeName}`;
  });
}

describe('parseOrderByOption', () => {
  it.each<[string, EdmEntityType, EdmModel, string[]]>([
    ['Name', product, demoModel, ['Name asc:Edm.String']],
    ['Name desc', product, demoModel, ['Name desc:Edm.String']],
    ['Name asc,Price desc', product, demoModel, ['Name asc:Edm.String', 'Price desc:Edm.Decimal']],
    ['Name desc, Price', product, demoModel, ['Name desc:Edm.String', 'Price asc:Edm.Decimal']],
    ['Category/Name', product, demoModel, ['Category/Name asc:Edm.String']],
    ['Address/City desc', supplier, demoModel, ['Address/City desc:Edm.String']],
    ['ShipTo/Geo/Lat', order, uriModel, ['ShipTo/Geo/Lat asc:Edm.Double']],
  ])('%s', (text, type, model, expected) => {
    expect(show(parseOrderByOption(text, type, model))).toEqual(expected);
  });

  it('keeps the typed member steps for providers', () => {
    const [item] = parseOrderByOption('Category/Name', product, demoModel);
    expect(item.expression.kind === 'Member' && item.expression.steps?.map((step) => step.kind)).toEqual(['Navigation', 'Property']);
  });

  it.each<[string, string, EdmEntityType]>([
    ['null', 'QUERY_INVALID_VALUE', product],
    ['Category', 'FILTER_TYPE', product],
    ['Address', 'FILTER_TYPE', supplier],
    ['Nme', 'FILTER_UNKNOWN_PROPERTY', product],
    ['Name desc desc', 'FILTER_SYNTAX', product],
    ['Name,', 'FILTER_SYNTAX', product],
  ])('rejects %s with %s', (text, code, type) => {
    const error = catchODataError(() => parseOrderByOption(text, type, demoModel));
    expect([error.code, error.status]).toEqual([code, 400]);
  });

  it('names the item that is not primitive', () => {
    const error = catchODataError(() => parseOrderByOption('Name,null desc', product, demoModel));
    expect(error.message).toBe(
      "Invalid value 'Name,null desc' for the query option '$orderby': 'null' at position 5 is not of a primitive type and cannot be sorted on",
    );
    expect(error.position).toBe(5);
  });
});

describe('withKeyTieBreaker', () => {
  it.each<[string, EdmEntityType, EdmModel, string[]]>([
    ['', product, demoModel, ['ID asc:Edm.Int32']],
    ['Name', product, demoModel, ['Name asc:Edm.String', 'ID asc:Edm.Int32']],
    ['ID desc', product, demoModel, ['ID desc:Edm.Int32']],
    ['Name,ID desc', product, demoModel, ['Name asc:Edm.String', 'ID desc:Edm.Int32']],
    // A member path that merely ends in a key name is not the key.
    ['Category/ID', product, demoModel, ['Category/ID asc:Edm.Int32', 'ID asc:Edm.Int32']],
    ['', order, uriModel, ['OrderID asc:Edm.Int32', 'Line asc:Edm.String']],
    ['Line desc', order, uriModel, ['Line desc:Edm.String', 'OrderID asc:Edm.Int32']],
    ['Amount', order, uriModel, ['Amount asc:Edm.Decimal', 'OrderID asc:Edm.Int32', 'Line asc:Edm.String']],
  ])('%j', (text, type, model, expected) => {
    const orderBy = text === '' ? [] : parseOrderByOption(text, type, model);
    expect(show(withKeyTieBreaker(orderBy, type))).toEqual(expected);
  });

  it('returns the same array when the key is already sorted on', () => {
    const orderBy = parseOrderByOption('ID desc', product, demoModel);
    expect(withKeyTieBreaker(orderBy, product)).toBe(orderBy);
  });

  it('types the key items like the checker does', () => {
    const [item] = withKeyTieBreaker([], product);
    expect(item.expression).toEqual({
      kind: 'Member',
      path: ['ID'],
      steps: [{ kind: 'Property', name: 'ID', property: product.propertiesByName.get('ID') }],
      type: { kind: 'Primitive', name: 'Edm.Int32' },
    });
  });
});
