import type { EdmEntitySet, EdmModel } from '../../lib/edm/model';
import { parseSelectExpand } from '../../lib/uri/expand-select';
import type { SelectExpand } from '../../lib/uri/types';
import { catchODataError, demoModel, uriModel } from './uri-fixtures';

const LIMITS = { maxExpandDepth: 3, maxExpandBreadth: 4 };

interface Picture {
  select?: string;
  expand?: Record<string, Picture>;
}

/**
 * A compact picture of a SelectExpand level: select as `*|Name,Price|>Category` (`*` all properties,
 * `>` navigation properties, sorted), expand by property name (with `@Set` when the set differs).
 */
function picture(level: SelectExpand): Picture {
  const result: Picture = {};
  if (level.select !== undefined) {
    const parts = [
      ...(level.select.allProperties ? ['*'] : []),
      ...[...level.select.properties].sort(),
      ...[...level.select.navigationProperties].sort().map((name) => `>${name}`),
    ];
    result.select = parts.join(',');
  }
  if (level.expand.length > 0) {
    result.expand = {};
    for (const item of level.expand) {
      const name = item.entitySet.name === item.property.name ? item.property.name : `${item.property.name}@${item.entitySet.name}`;
      result.expand[name] = picture(item);
    }
  }
  return result;
}

function set(model: EdmModel, name: string): EdmEntitySet {
  const entitySet = model.entitySets.get(name);
  if (entitySet === undefined) throw new Error(name);
  return entitySet;
}

function parse(model: EdmModel, setName: string, select: string | undefined, expand: string | undefined): SelectExpand {
  const entitySet = set(model, setName);
  return parseSelectExpand(select, expand, entitySet, entitySet.entityType, model, LIMITS);
}

describe('parseSelectExpand', () => {
  it.each<[string, string | undefined, string | undefined, Picture]>([
    ['Products', undefined, undefined, {}],
    ['Products', 'Name', undefined, { select: 'Name' }],
    ['Products', 'Name,Price', undefined, { select: 'Name,Price' }],
    ['Products', ' Name , Price ', undefined, { select: 'Name,Price' }],
    ['Products', '*', undefined, { select: '*' }],
    ['Products', '*,Name', undefined, { select: '*,Name' }],
    // A navigation property selected without $expand: the deferred link only.
    ['Products', 'Name,Category', undefined, { select: 'Name,>Category' }],
    ['Products', undefined, 'Category', { expand: { 'Category@Categories': {} } }],
    ['Products', undefined, 'Category,Supplier', { expand: { 'Category@Categories': {}, 'Supplier@Suppliers': {} } }],
    ['Products', undefined, 'Category/Products', { expand: { 'Category@Categories': { expand: { Products: {} } } } }],
    [
      'Products',
      undefined,
      'Category/Products,Category,Supplier/Products',
      { expand: { 'Category@Categories': { expand: { Products: {} } }, 'Supplier@Suppliers': { expand: { Products: {} } } } },
    ],
    // Paths into expanded entities.
    ['Products', 'Name,Category/Name', 'Category', { select: 'Name,>Category', expand: { 'Category@Categories': { select: 'Name' } } }],
    ['Products', 'Category/*', 'Category', { select: '>Category', expand: { 'Category@Categories': { select: '*' } } }],
    // Selecting the whole navigation property writes the whole expanded entity, even with a narrower item too.
    ['Products', 'Category', 'Category', { select: '>Category', expand: { 'Category@Categories': {} } }],
    ['Products', 'Category/Name,Category', 'Category', { select: '>Category', expand: { 'Category@Categories': {} } }],
    // An expanded navigation property is written even when $select does not name it.
    ['Products', 'Name', 'Category', { select: 'Name,>Category', expand: { 'Category@Categories': {} } }],
    [
      'Categories',
      'Products/Supplier/Name',
      'Products/Supplier',
      { select: '>Products', expand: { Products: { select: '>Supplier', expand: { 'Supplier@Suppliers': { select: 'Name' } } } } },
    ],
    // Complex properties are selected whole; dynamic properties of open types by name.
    ['Suppliers', 'Address', undefined, { select: 'Address' }],
    ['Bags', 'Label,Color', undefined, { select: 'Color,Label' }],
    [
      'Orders',
      'ShipTo,Customer/Name',
      'Customer,Items',
      { select: 'ShipTo,>Customer,>Items', expand: { 'Customer@Customers': { select: 'Name' }, Items: {} } },
    ],
  ])('%s ?$select=%s&$expand=%s', (setName, select, expand, expected) => {
    const model = ['Products', 'Categories', 'Suppliers'].includes(setName) ? demoModel : uriModel;
    expect(picture(parse(model, setName, select, expand))).toEqual(expected);
  });

  it('resolves expanded sets through the association sets', () => {
    const result = parse(demoModel, 'Products', undefined, 'Category');
    expect(result.expand[0].entitySet).toBe(demoModel.entitySets.get('Categories'));
    expect(result.expand[0].property).toBe(demoModel.entityTypes.get('ODataDemo.Product')?.navigationPropertiesByName.get('Category'));
  });

  it.each<[string, string | undefined, string | undefined, string, string]>([
    [
      'Products',
      'Nme',
      undefined,
      'QUERY_INVALID_VALUE',
      "Invalid value 'Nme' for the query option '$select': no property 'Nme' exists in 'ODataDemo.Product' (position 0). Did you mean 'Name'?",
    ],
    ['Products', 'Name,,Price', undefined, 'QUERY_INVALID_VALUE', "Invalid value 'Name,,Price' for the query option '$select': an empty item at position 5"],
    ['Products', 'Name,', undefined, 'QUERY_INVALID_VALUE', "Invalid value 'Name,' for the query option '$select': an empty item at position 5"],
    [
      'Products',
      'Category/Name',
      undefined,
      'QUERY_INVALID_VALUE',
      "Invalid value 'Category/Name' for the query option '$select': 'Category/Name' selects into 'Category', which is not expanded; add it to $expand",
    ],
    ['Products', '*/Name', undefined, 'QUERY_INVALID_VALUE', "Invalid value '*/Name' for the query option '$select': '*' must end a select path (position 0)"],
    [
      'Products',
      'Name/Foo',
      undefined,
      'QUERY_INVALID_VALUE',
      "Invalid value 'Name/Foo' for the query option '$select': 'Name/Foo': 'Name' is a property; only navigation properties may be followed by '/'",
    ],
    [
      'Suppliers',
      'Address/City',
      undefined,
      'QUERY_INVALID_VALUE',
      "Invalid value 'Address/City' for the query option '$select': 'Address/City': 'Address' is a property; only navigation properties may be followed by '/'",
    ],
    [
      'Products',
      'Category/Nme',
      'Category',
      'QUERY_INVALID_VALUE',
      "Invalid value 'Category/Nme' for the query option '$select': no property 'Nme' exists in 'ODataDemo.Category' (position 9). Did you mean 'Name'?",
    ],
    [
      'Products',
      undefined,
      'Categry',
      'QUERY_INVALID_VALUE',
      "Invalid value 'Categry' for the query option '$expand': no navigation property 'Categry' exists in 'ODataDemo.Product' (position 0). Did you mean 'Category'?",
    ],
    [
      'Products',
      undefined,
      'Name',
      'QUERY_INVALID_VALUE',
      "Invalid value 'Name' for the query option '$expand': 'Name' at position 0 is not a navigation property of 'ODataDemo.Product'",
    ],
    [
      'Products',
      undefined,
      'Category/Produkts',
      'QUERY_INVALID_VALUE',
      "Invalid value 'Category/Produkts' for the query option '$expand': no navigation property 'Produkts' exists in 'ODataDemo.Category' (position 9). Did you mean 'Products'?",
    ],
    [
      'Products',
      undefined,
      '*',
      'QUERY_INVALID_VALUE',
      "Invalid value '*' for the query option '$expand': no navigation property '*' exists in 'ODataDemo.Product' (position 0).",
    ],
    ['Products', undefined, 'Category,', 'QUERY_INVALID_VALUE', "Invalid value 'Category,' for the query option '$expand': an empty item at position 9"],
    [
      'Products',
      undefined,
      'Category//Products',
      'QUERY_INVALID_VALUE',
      "Invalid value 'Category//Products' for the query option '$expand': no navigation property '' exists in 'ODataDemo.Category' (position 9).",
    ],
    [
      'Customers',
      undefined,
      'Favorites',
      'QUERY_INVALID_VALUE',
      "Invalid value 'Favorites' for the query option '$expand': the navigation property 'Favorites' is bound to no entity set",
    ],
    [
      'Products',
      undefined,
      'Category/Products/Supplier/Products',
      'QUERY_LIMIT_EXCEEDED',
      "$expand exceeds the limit of 3: 'Category/Products/Supplier/Products' is 4 levels deep",
    ],
    [
      'Products',
      undefined,
      'Category,Supplier,Category/Products,Supplier/Products,Category',
      'QUERY_LIMIT_EXCEEDED',
      '$expand exceeds the limit of 4: it lists 5 paths',
    ],
  ])('rejects %s ?$select=%s&$expand=%s', (setName, select, expand, code, message) => {
    const model = ['Products', 'Categories', 'Suppliers'].includes(setName) ? demoModel : uriModel;
    const error = catchODataError(() => parse(model, setName, select, expand));
    expect([error.code, error.status, error.message]).toEqual([code, 400, message]);
  });

  it('points at the offending name', () => {
    const error = catchODataError(() => parse(demoModel, 'Products', 'Name, Category/Nme', 'Category'));
    expect([error.target, error.position]).toEqual(['$select', 15]);
  });
});
