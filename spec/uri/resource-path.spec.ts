import { parseResourcePath } from '../../lib/uri/resource-path';
import { catchODataError, demoModel, summarize, uriModel } from './uri-fixtures';

const PRODUCT = { entitySet: 'Products', entityType: 'ODataDemo.Product' };
const CATEGORY = { entitySet: 'Categories', entityType: 'ODataDemo.Category' };
const SUPPLIER = { entitySet: 'Suppliers', entityType: 'ODataDemo.Supplier' };
const ORDER = { entitySet: 'Orders', entityType: 'UriTest.Order', root: 'Orders' };
const ORDER_KEY = { OrderID: 1, Line: 'x' };

// ---------------------------------------------------------------------------------------------
// Valid paths against the ODataDemo model
// ---------------------------------------------------------------------------------------------
describe('parseResourcePath (ODataDemo)', () => {
  it.each<[string, Record<string, unknown>]>([
    ['', { kind: 'ServiceDocument' }],
    ['/', { kind: 'ServiceDocument' }],
    ['$metadata', { kind: 'Metadata' }],
    ['/$metadata', { kind: 'Metadata' }],
    ['$batch', { kind: 'Batch' }],
    ['Products', { kind: 'EntitySet', ...PRODUCT, root: 'Products' }],
    ['/Products', { kind: 'EntitySet', ...PRODUCT, root: 'Products' }],
    ['Products/', { kind: 'EntitySet', ...PRODUCT, root: 'Products' }],
    ['Products()', { kind: 'EntitySet', ...PRODUCT, root: 'Products' }],
    ['DemoService.Products', { kind: 'EntitySet', ...PRODUCT, root: 'Products' }],
    ['Products(1)', { kind: 'Entity', ...PRODUCT, root: 'Products', rootKey: { ID: 1 } }],
    ['Products(ID=1)', { kind: 'Entity', ...PRODUCT, root: 'Products', rootKey: { ID: 1 } }],
    ['Products(%31)', { kind: 'Entity', ...PRODUCT, root: 'Products', rootKey: { ID: 1 } }],
    ['Products(ID%3D7)', { kind: 'Entity', ...PRODUCT, root: 'Products', rootKey: { ID: 7 } }],
    ['Products(-3)', { kind: 'Entity', ...PRODUCT, root: 'Products', rootKey: { ID: -3 } }],
    ['Products/$count', { kind: 'CollectionCount', ...PRODUCT, root: 'Products' }],
    ['Products(1)/Category', { kind: 'NavigationEntity', ...CATEGORY, root: 'Products', rootKey: { ID: 1 }, navigation: ['Category->Categories'] }],
    ['Categories(1)/Products', { kind: 'NavigationCollection', ...PRODUCT, root: 'Categories', rootKey: { ID: 1 }, navigation: ['Products->Products'] }],
    ['Categories(1)/Products()', { kind: 'NavigationCollection', ...PRODUCT, root: 'Categories', rootKey: { ID: 1 }, navigation: ['Products->Products'] }],
    ['Categories(1)/Products(2)', { kind: 'Entity', ...PRODUCT, root: 'Categories', rootKey: { ID: 1 }, navigation: [['Products->Products', { ID: 2 }]] }],
    [
      'Categories(ID=1)/Products(ID=2)',
      { kind: 'Entity', ...PRODUCT, root: 'Categories', rootKey: { ID: 1 }, navigation: [['Products->Products', { ID: 2 }]] },
    ],
    [
      'Categories(1)/Products(2)/Supplier',
      {
        kind: 'NavigationEntity',
        ...SUPPLIER,
        root: 'Categories',
        rootKey: { ID: 1 },
        navigation: [['Products->Products', { ID: 2 }], 'Supplier->Suppliers'],
      },
    ],
    [
      'Categories(1)/Products(2)/Supplier/Products/$count',
      {
        kind: 'CollectionCount',
        ...PRODUCT,
        root: 'Categories',
        rootKey: { ID: 1 },
        navigation: [['Products->Products', { ID: 2 }], 'Supplier->Suppliers', 'Products->Products'],
      },
    ],
    ['Products(1)/Name', { kind: 'PrimitiveProperty', ...PRODUCT, root: 'Products', rootKey: { ID: 1 }, properties: ['Name'] }],
    ['Products(1)/Name/$value', { kind: 'PropertyValue', ...PRODUCT, root: 'Products', rootKey: { ID: 1 }, properties: ['Name'] }],
    ['Suppliers(0)/Address', { kind: 'ComplexProperty', ...SUPPLIER, root: 'Suppliers', rootKey: { ID: 0 }, properties: ['Address'] }],
    ['Suppliers(0)/Address/City', { kind: 'PrimitiveProperty', ...SUPPLIER, root: 'Suppliers', rootKey: { ID: 0 }, properties: ['Address', 'City'] }],
    ['Suppliers(0)/Address/City/$value', { kind: 'PropertyValue', ...SUPPLIER, root: 'Suppliers', rootKey: { ID: 0 }, properties: ['Address', 'City'] }],
    [
      'Products(1)/Supplier/Address/Street',
      {
        kind: 'PrimitiveProperty',
        ...SUPPLIER,
        root: 'Products',
        rootKey: { ID: 1 },
        navigation: ['Supplier->Suppliers'],
        properties: ['Address', 'Street'],
      },
    ],
    ['Products(1)/$links/Category', { kind: 'Link', ...PRODUCT, root: 'Products', rootKey: { ID: 1 }, link: 'Category->Categories' }],
    ['Categories(1)/$links/Products', { kind: 'Links', ...CATEGORY, root: 'Categories', rootKey: { ID: 1 }, link: 'Products->Products' }],
    ['Categories(1)/$links/Products()', { kind: 'Links', ...CATEGORY, root: 'Categories', rootKey: { ID: 1 }, link: 'Products->Products' }],
    [
      'Categories(1)/$links/Products(2)',
      { kind: 'Link', ...CATEGORY, root: 'Categories', rootKey: { ID: 1 }, link: 'Products->Products', targetKey: { ID: 2 } },
    ],
    ['Categories(1)/$links/Products/$count', { kind: 'LinksCount', ...CATEGORY, root: 'Categories', rootKey: { ID: 1 }, link: 'Products->Products' }],
    [
      'Categories(1)/Products(2)/$links/Supplier',
      {
        kind: 'Link',
        ...PRODUCT,
        root: 'Categories',
        rootKey: { ID: 1 },
        navigation: [['Products->Products', { ID: 2 }]],
        link: 'Supplier->Suppliers',
      },
    ],
    ['GetProductsByRating', { kind: 'ServiceOperation', functionImport: 'GetProductsByRating' }],
    ['GetProductsByRating()', { kind: 'ServiceOperation', functionImport: 'GetProductsByRating' }],
    ['GetProductsByRating/$count', { kind: 'ServiceOperation', functionImport: 'GetProductsByRating', suffix: 'count' }],
  ])('%s', (path, expected) => {
    expect(summarize(parseResourcePath(path, demoModel))).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// Valid paths against the URI test model: composite and typed keys, complex members, open types,
// media resources, service operations of every shape
// ---------------------------------------------------------------------------------------------
describe('parseResourcePath (URI test model)', () => {
  const sensor = '8f2b5a14-1c3e-4d5f-9a6b-7c8d9e0f1a2b';
  it.each<[string, Record<string, unknown>]>([
    ["Orders(OrderID=1,Line='x')", { kind: 'Entity', ...ORDER, rootKey: ORDER_KEY }],
    ["Orders(Line='x',OrderID=1)", { kind: 'Entity', ...ORDER, rootKey: ORDER_KEY }],
    ['Orders(OrderID=1,Line=%27x%27)', { kind: 'Entity', ...ORDER, rootKey: ORDER_KEY }],
    ["Orders(OrderID=1,Line='a/b')", { kind: 'Entity', ...ORDER, rootKey: { OrderID: 1, Line: 'a/b' } }],
    ['Orders(OrderID=1,Line=%27a/b%27)', { kind: 'Entity', ...ORDER, rootKey: { OrderID: 1, Line: 'a/b' } }],
    ["Orders(OrderID=1,Line='a%2Fb')", { kind: 'Entity', ...ORDER, rootKey: { OrderID: 1, Line: 'a/b' } }],
    ["Orders(OrderID=1,Line='O''Neil')", { kind: 'Entity', ...ORDER, rootKey: { OrderID: 1, Line: "O'Neil" } }],
    ['Orders(OrderID=1,Line=%27O%27%27Neil%27)', { kind: 'Entity', ...ORDER, rootKey: { OrderID: 1, Line: "O'Neil" } }],
    ["Orders(OrderID=1,Line='it''s/a,b')", { kind: 'Entity', ...ORDER, rootKey: { OrderID: 1, Line: "it's/a,b" } }],
    ["Orders(OrderID=1,Line='(x)')", { kind: 'Entity', ...ORDER, rootKey: { OrderID: 1, Line: '(x)' } }],
    ["Orders(OrderID=1,Line='%C3%A4%20b')", { kind: 'Entity', ...ORDER, rootKey: { OrderID: 1, Line: 'ä b' } }],
    ["Orders(OrderID=1,Line='a+b')", { kind: 'Entity', ...ORDER, rootKey: { OrderID: 1, Line: 'a+b' } }],
    [
      "Orders(OrderID=1,Line='a/b')/Items",
      {
        kind: 'NavigationCollection',
        ...ORDER,
        entitySet: 'Items',
        entityType: 'UriTest.Item',
        rootKey: { OrderID: 1, Line: 'a/b' },
        navigation: ['Items->Items'],
      },
    ],
    [
      "Orders(OrderID=1,Line='x')/Items(5L)",
      { kind: 'Entity', ...ORDER, entitySet: 'Items', entityType: 'UriTest.Item', rootKey: ORDER_KEY, navigation: [['Items->Items', { ItemID: '5' }]] },
    ],
    [
      "Orders(OrderID=1,Line='x')/Items(ItemID=5)",
      { kind: 'Entity', ...ORDER, entitySet: 'Items', entityType: 'UriTest.Item', rootKey: ORDER_KEY, navigation: [['Items->Items', { ItemID: '5' }]] },
    ],
    ['Items(9007199254740993L)', { kind: 'Entity', entitySet: 'Items', entityType: 'UriTest.Item', root: 'Items', rootKey: { ItemID: '9007199254740993' } }],
    [
      'Items(5L)/Order',
      { kind: 'NavigationEntity', entitySet: 'Orders', entityType: 'UriTest.Order', root: 'Items', rootKey: { ItemID: '5' }, navigation: ['Order->Orders'] },
    ],
    [
      "Customers('ALFKI')/Orders(OrderID=1,Line='x')/Items/$count",
      {
        kind: 'CollectionCount',
        entitySet: 'Items',
        entityType: 'UriTest.Item',
        root: 'Customers',
        rootKey: { CustomerID: 'ALFKI' },
        navigation: [['Orders->Orders', ORDER_KEY], 'Items->Items'],
      },
    ],
    ["Orders(OrderID=1,Line='x')/ShipTo", { kind: 'ComplexProperty', ...ORDER, rootKey: ORDER_KEY, properties: ['ShipTo'] }],
    ["Orders(OrderID=1,Line='x')/ShipTo/Geo", { kind: 'ComplexProperty', ...ORDER, rootKey: ORDER_KEY, properties: ['ShipTo', 'Geo'] }],
    ["Orders(OrderID=1,Line='x')/ShipTo/Geo/Lat", { kind: 'PrimitiveProperty', ...ORDER, rootKey: ORDER_KEY, properties: ['ShipTo', 'Geo', 'Lat'] }],
    ["Orders(OrderID=1,Line='x')/ShipTo/Geo/Lat/$value", { kind: 'PropertyValue', ...ORDER, rootKey: ORDER_KEY, properties: ['ShipTo', 'Geo', 'Lat'] }],
    ['Photos(1)/$value', { kind: 'MediaResource', entitySet: 'Photos', entityType: 'UriTest.Photo', root: 'Photos', rootKey: { PhotoID: 1 } }],
    [
      'Photos(1)/Title/$value',
      { kind: 'PropertyValue', entitySet: 'Photos', entityType: 'UriTest.Photo', root: 'Photos', rootKey: { PhotoID: 1 }, properties: ['Title'] },
    ],
    ['Bags(1)/Label', { kind: 'PrimitiveProperty', entitySet: 'Bags', entityType: 'UriTest.Bag', root: 'Bags', rootKey: { BagID: 1 }, properties: ['Label'] }],
    [
      'Bags(1)/Color',
      { kind: 'PrimitiveProperty', entitySet: 'Bags', entityType: 'UriTest.Bag', root: 'Bags', rootKey: { BagID: 1 }, properties: ['dynamic:Color'] },
    ],
    [
      'Bags(1)/Color/$value',
      { kind: 'PropertyValue', entitySet: 'Bags', entityType: 'UriTest.Bag', root: 'Bags', rootKey: { BagID: 1 }, properties: ['dynamic:Color'] },
    ],
    ['Rates(20m)', { kind: 'Entity', entitySet: 'Rates', entityType: 'UriTest.Rate', root: 'Rates', rootKey: { Amount: '20' } }],
    ['Rates(20M)', { kind: 'Entity', entitySet: 'Rates', entityType: 'UriTest.Rate', root: 'Rates', rootKey: { Amount: '20' } }],
    ['Rates(2.50M)', { kind: 'Entity', entitySet: 'Rates', entityType: 'UriTest.Rate', root: 'Rates', rootKey: { Amount: '2.5' } }],
    ['Rates(Amount=20)', { kind: 'Entity', entitySet: 'Rates', entityType: 'UriTest.Rate', root: 'Rates', rootKey: { Amount: '20' } }],
    [
      `Readings(Sensor=guid'${sensor.toUpperCase()}',At=datetime'2020-01-02T03:04:05')`,
      {
        kind: 'Entity',
        entitySet: 'Readings',
        entityType: 'UriTest.Reading',
        root: 'Readings',
        rootKey: { Sensor: sensor, At: new Date(Date.UTC(2020, 0, 2, 3, 4, 5)) },
      },
    ],
    [
      `Readings(At=datetime%272020-01-02T03:04%27,Sensor=guid%27${sensor}%27)`,
      {
        kind: 'Entity',
        entitySet: 'Readings',
        entityType: 'UriTest.Reading',
        root: 'Readings',
        rootKey: { Sensor: sensor, At: new Date(Date.UTC(2020, 0, 2, 3, 4)) },
      },
    ],
    ['UriTestService.Orders', { kind: 'EntitySet', ...ORDER }],
    ['GetOrders', { kind: 'ServiceOperation', functionImport: 'GetOrders' }],
    ['GetOrders/$count', { kind: 'ServiceOperation', functionImport: 'GetOrders', suffix: 'count' }],
    ['GetOrder', { kind: 'ServiceOperation', functionImport: 'GetOrder' }],
    ['GetAddress', { kind: 'ServiceOperation', functionImport: 'GetAddress' }],
    ['GetAddresses', { kind: 'ServiceOperation', functionImport: 'GetAddresses' }],
    ['GetCount', { kind: 'ServiceOperation', functionImport: 'GetCount' }],
    ['GetCount()/$value', { kind: 'ServiceOperation', functionImport: 'GetCount', suffix: 'value' }],
    ['GetNames', { kind: 'ServiceOperation', functionImport: 'GetNames' }],
    ['Reset', { kind: 'ServiceOperation', functionImport: 'Reset' }],
  ])('%s', (path, expected) => {
    expect(summarize(parseResourcePath(path, uriModel))).toEqual(expected);
  });

  it('returns composite keys in key order, whatever order the client named them in', () => {
    const path = parseResourcePath("Orders(Line='x',OrderID=1)", uriModel);
    expect(path.kind === 'Entity' && Object.keys(path.path.root.key ?? {})).toEqual(['OrderID', 'Line']);
  });

  it('resolves model objects, not copies', () => {
    const path = parseResourcePath('Orders', uriModel);
    expect(path.kind === 'EntitySet' && path.entitySet).toBe(uriModel.entitySets.get('Orders'));
  });
});

// ---------------------------------------------------------------------------------------------
// Invalid paths: exact code, status and message
// ---------------------------------------------------------------------------------------------
describe('parseResourcePath errors', () => {
  it.each<[string, string, number, string]>([
    // Names that resolve to nothing: 404 with suggestions
    ['Produkts', 'URI_UNKNOWN_SEGMENT', 404, "Resource not found for the segment 'Produkts'. Did you mean 'Products'?"],
    ['products(1)', 'URI_UNKNOWN_SEGMENT', 404, "Resource not found for the segment 'products(1)'. Did you mean 'Products'?"],
    ['Xyzzy', 'URI_UNKNOWN_SEGMENT', 404, "Resource not found for the segment 'Xyzzy'."],
    ['$metdata', 'URI_UNKNOWN_SEGMENT', 404, "Resource not found for the segment '$metdata'. Did you mean '$metadata'?"],
    ['Products(1)/Nme', 'URI_UNKNOWN_SEGMENT', 404, "Resource not found for the segment 'Nme'. Did you mean 'Name'?"],
    ['Products(1)/$cout', 'URI_UNKNOWN_SEGMENT', 404, "Resource not found for the segment '$cout'. Did you mean '$count'?"],
    ['Products(1)/$links/Categry', 'URI_UNKNOWN_SEGMENT', 404, "Resource not found for the segment 'Categry'. Did you mean 'Category'?"],
    ['Suppliers(0)/Address/Citi', 'URI_UNKNOWN_SEGMENT', 404, "Resource not found for the segment 'Citi'. Did you mean 'City'?"],
    ['Suppliers(0)/Address/$foo', 'URI_UNKNOWN_SEGMENT', 404, "Resource not found for the segment '$foo'."],
    // Known segments in the wrong place: 400
    ['$metadata/Products', 'URI_INVALID_SEGMENT', 400, "The segment 'Products' is not valid here: '$metadata' must be the last segment"],
    ['$batch/x', 'URI_INVALID_SEGMENT', 400, "The segment 'x' is not valid here: '$batch' must be the last segment"],
    ['$metadata()', 'URI_INVALID_SEGMENT', 400, "The segment '$metadata()' is not valid here: $metadata takes no parenthesised part"],
    ['$count', 'URI_INVALID_SEGMENT', 400, "The segment '$count' is not valid here: '$count' must follow an entity set, an entity or a property"],
    [
      'Products/Name',
      'URI_INVALID_SEGMENT',
      400,
      "The segment 'Name' is not valid here: 'Products' is a collection; address one entity with a key predicate before 'Name'",
    ],
    [
      'Products/$value',
      'URI_INVALID_SEGMENT',
      400,
      "The segment '$value' is not valid here: 'Products' is a collection; address one entity with a key predicate before '$value'",
    ],
    [
      'Products(1)/Category(1)',
      'URI_INVALID_SEGMENT',
      400,
      "The segment 'Category(1)' is not valid here: 'Category' addresses a single entity; a key predicate is not allowed",
    ],
    [
      'Products(1)/Category()',
      'URI_INVALID_SEGMENT',
      400,
      "The segment 'Category()' is not valid here: 'Category' addresses a single entity; a key predicate is not allowed",
    ],
    [
      'Products(1)/$value',
      'URI_INVALID_SEGMENT',
      400,
      "The segment '$value' is not valid here: the entity type 'ODataDemo.Product' has no media resource (m:HasStream)",
    ],
    ['Products(1)/$count(1)', 'URI_INVALID_SEGMENT', 400, "The segment '$count(1)' is not valid here: $count takes no parenthesised part"],
    ['Products(1)/Name/$value/x', 'URI_INVALID_SEGMENT', 400, "The segment 'x' is not valid here: '$value' must be the last segment"],
    ['Products/$count/$count', 'URI_INVALID_SEGMENT', 400, "The segment '$count' is not valid here: '$count' must be the last segment"],
    ['Products(1)/Name/Foo', 'URI_INVALID_SEGMENT', 400, "The segment 'Foo' is not valid here: only '$value' may follow the primitive property 'Name'"],
    ['Products(1)/Name(1)', 'URI_INVALID_SEGMENT', 400, "The segment 'Name(1)' is not valid here: the property 'Name' takes no parenthesised part"],
    [
      'Suppliers(0)/Address/$value',
      'URI_INVALID_SEGMENT',
      400,
      "The segment '$value' is not valid here: '$value' cannot follow the complex property 'Address'",
    ],
    ['Products(1)/$links', 'URI_INVALID_SEGMENT', 400, "The segment '$links' is not valid here: '$links' must be followed by a navigation property"],
    ['Products(1)/$links/Name', 'URI_INVALID_SEGMENT', 400, "The segment 'Name' is not valid here: '$links' must be followed by a navigation property"],
    ['Products(1)/$links/$count', 'URI_INVALID_SEGMENT', 400, "The segment '$count' is not valid here: '$links' must be followed by a navigation property"],
    [
      'Products(1)/$links/Category/Name',
      'URI_INVALID_SEGMENT',
      400,
      "The segment 'Name' is not valid here: nothing may follow the single link '$links/Category'",
    ],
    ['Categories(1)/$links/Products/Name', 'URI_INVALID_SEGMENT', 400, "The segment 'Name' is not valid here: only '$count' may follow '$links/Products'"],
    [
      'Products(1)/$links/Category(1)',
      'URI_INVALID_SEGMENT',
      400,
      "The segment 'Category(1)' is not valid here: 'Category' addresses a single entity; a key predicate is not allowed",
    ],
    [
      'Products/$links',
      'URI_INVALID_SEGMENT',
      400,
      "The segment '$links' is not valid here: 'Products' is a collection; address one entity with a key predicate before '$links'",
    ],
    [
      'GetProductsByRating(1)',
      'URI_INVALID_SEGMENT',
      400,
      "The segment 'GetProductsByRating(1)' is not valid here: the service operation 'GetProductsByRating' takes its parameters in the query string, not in parentheses",
    ],
    [
      'GetProductsByRating/$value',
      'URI_INVALID_SEGMENT',
      400,
      "The segment '$value' is not valid here: only $count (after a collection of entities) or $value (after a single primitive value) may follow the service operation 'GetProductsByRating'",
    ],
    ['GetProductsByRating/$count/x', 'URI_INVALID_SEGMENT', 400, "The segment 'x' is not valid here: '$count' must be the last segment"],
    [
      'Products(1)x',
      'URI_INVALID_SEGMENT',
      400,
      "The segment 'Products(1)x' is not valid here: the parenthesised part must close with ')' at the end of the segment",
    ],
    ['Products)', 'URI_INVALID_SEGMENT', 400, "The segment 'Products)' is not valid here: ')' without a matching '('"],
    ['Products(1)//Name', 'URI_INVALID_SEGMENT', 400, "The segment '' is not valid here: a path segment must not be empty"],
    // Percent-encoding
    ['Products(%ZZ)', 'URI_PERCENT_ENCODING', 400, "Bad percent-encoding in 'Products(%ZZ)'."],
    ['Products(%C3)', 'URI_PERCENT_ENCODING', 400, "Bad percent-encoding in 'Products(%C3)'."],
    // Keys
    [
      'Products(1.5M)',
      'URI_KEY_SYNTAX',
      400,
      "Bad key predicate '1.5M' for entity type 'ODataDemo.Product': the value 1.5M is not compatible with the key property 'ID' of type Edm.Int32",
    ],
    [
      "Products('1')",
      'URI_KEY_SYNTAX',
      400,
      "Bad key predicate ''1'' for entity type 'ODataDemo.Product': the value '1' is not compatible with the key property 'ID' of type Edm.Int32",
    ],
    ['Products(null)', 'URI_KEY_SYNTAX', 400, "Bad key predicate 'null' for entity type 'ODataDemo.Product': the key property 'ID' (Edm.Int32) cannot be null"],
    [
      'Products(ID=null)',
      'URI_KEY_SYNTAX',
      400,
      "Bad key predicate 'ID=null' for entity type 'ODataDemo.Product': the key property 'ID' (Edm.Int32) cannot be null",
    ],
    ['Products(1,2)', 'URI_KEY_SYNTAX', 400, "Bad key predicate '1,2' for entity type 'ODataDemo.Product': expected 1 key value (ID Edm.Int32), got 2"],
    [
      'Products(Id=1)',
      'URI_KEY_SYNTAX',
      400,
      "Bad key predicate 'Id=1' for entity type 'ODataDemo.Product': 'Id' is not a key property; the key is (ID Edm.Int32). Did you mean 'ID'?",
    ],
    [
      'Products(Name=1)',
      'URI_KEY_SYNTAX',
      400,
      "Bad key predicate 'Name=1' for entity type 'ODataDemo.Product': 'Name' is not a key property; the key is (ID Edm.Int32).",
    ],
    [
      'Products(ID=1,ID=2)',
      'URI_KEY_SYNTAX',
      400,
      "Bad key predicate 'ID=1,ID=2' for entity type 'ODataDemo.Product': the key property 'ID' is given more than once",
    ],
    ['Products(ID=)', 'URI_KEY_SYNTAX', 400, "Bad key predicate 'ID=' for entity type 'ODataDemo.Product': a key value is missing (position 3)"],
    ['Products(abc)', 'URI_KEY_SYNTAX', 400, "Bad key predicate 'abc' for entity type 'ODataDemo.Product': no valid literal starts at 'abc' (position 0)"],
    [
      'Categories(1)/Products(x)',
      'URI_KEY_SYNTAX',
      400,
      "Bad key predicate 'x' for entity type 'ODataDemo.Product': no valid literal starts at 'x' (position 0)",
    ],
    // $count follows collections only (MS-ODATA §2.2.3.1 `count`; WCF answers these 400 too)
    [
      'Products(1)/$count',
      'URI_INVALID_SEGMENT',
      400,
      "The segment '$count' is not valid here: $count can only follow a collection; 'Products' addresses a single entity",
    ],
    [
      'Products(1)/Category/$count',
      'URI_INVALID_SEGMENT',
      400,
      "The segment '$count' is not valid here: $count can only follow a collection; 'Category' addresses a single entity",
    ],
    [
      'Categories(1)/Products(2)/$count',
      'URI_INVALID_SEGMENT',
      400,
      "The segment '$count' is not valid here: $count can only follow a collection; 'Products' addresses a single entity",
    ],
    [
      'Products(1)/$links/Category/$count',
      'URI_INVALID_SEGMENT',
      400,
      "The segment '$count' is not valid here: $count can only follow a collection; '$links/Category' addresses a single link",
    ],
    [
      'Categories(1)/$links/Products(2)/$count',
      'URI_INVALID_SEGMENT',
      400,
      "The segment '$count' is not valid here: $count can only follow a collection; '$links/Products' addresses a single link",
    ],
    ['Categories(1)/$links/Products/$count/x', 'URI_INVALID_SEGMENT', 400, "The segment 'x' is not valid here: '$count' must be the last segment"],
  ])('%s -> %s', (path, code, status, message) => {
    const error = catchODataError(() => parseResourcePath(path, demoModel));
    expect([error.code, error.status, error.message]).toEqual([code, status, message]);
  });

  it.each<[string, string, string]>([
    [
      'Orders(1)',
      'URI_KEY_SYNTAX',
      "Bad key predicate '1' for entity type 'UriTest.Order': the key has 2 properties (OrderID Edm.Int32, Line Edm.String); name each one as Name=value",
    ],
    [
      'Orders(OrderID=1)',
      'URI_KEY_SYNTAX',
      "Bad key predicate 'OrderID=1' for entity type 'UriTest.Order': the key property 'Line' is missing; the key is (OrderID Edm.Int32, Line Edm.String)",
    ],
    [
      "Orders(OrderID=1,'x')",
      'URI_KEY_SYNTAX',
      "Bad key predicate 'OrderID=1,'x'' for entity type 'UriTest.Order': either name every key value or give a single unnamed value",
    ],
    [
      "Orders(OrderID=1,Line='x)",
      'URI_KEY_SYNTAX',
      "Bad key predicate 'OrderID=1,Line='x' for entity type 'UriTest.Order': key property 'Line': Bad literal ''x': the closing quote is missing",
    ],
    [
      "Orders(OrderID=1;Line='x')",
      'URI_KEY_SYNTAX',
      "Bad key predicate 'OrderID=1;Line='x'' for entity type 'UriTest.Order': expected ',' or the end of the key at position 9",
    ],
    ['Orders(OrderID=1,)', 'URI_KEY_SYNTAX', "Bad key predicate 'OrderID=1,' for entity type 'UriTest.Order': a key value is missing (position 10)"],
    [
      'Orders(OrderID=1,Line=null)',
      'URI_KEY_SYNTAX',
      "Bad key predicate 'OrderID=1,Line=null' for entity type 'UriTest.Order': the key property 'Line' (Edm.String) cannot be null",
    ],
    [
      "Orders(OrderID='1',Line='x')",
      'URI_KEY_SYNTAX',
      "Bad key predicate 'OrderID='1',Line='x'' for entity type 'UriTest.Order': the value '1' is not compatible with the key property 'OrderID' of type Edm.Int32",
    ],
    [
      "Orders(OrderID=1,Line='x')/Customer(1)",
      'URI_INVALID_SEGMENT',
      "The segment 'Customer(1)' is not valid here: 'Customer' addresses a single entity; a key predicate is not allowed",
    ],
    ["Customers('A')/Favorites", 'RESOURCE_NOT_FOUND', "Resource not found for the segment 'Favorites'."],
    ["Customers('A')/$links/Favorites", 'RESOURCE_NOT_FOUND', "Resource not found for the segment 'Favorites'."],
    ['Bags(1)/Color(1)', 'URI_INVALID_SEGMENT', "The segment 'Color(1)' is not valid here: the dynamic property 'Color' takes no parenthesised part"],
    ['Bags(1)/Color/Shade', 'URI_INVALID_SEGMENT', "The segment 'Shade' is not valid here: only '$value' may follow the primitive property 'Color'"],
    ['Photos(1)/$value/x', 'URI_INVALID_SEGMENT', "The segment 'x' is not valid here: '$value' must be the last segment"],
    [
      'GetOrder/$count',
      'URI_INVALID_SEGMENT',
      "The segment '$count' is not valid here: only $count (after a collection of entities) or $value (after a single primitive value) may follow the service operation 'GetOrder'",
    ],
    [
      'GetNames/$count',
      'URI_INVALID_SEGMENT',
      "The segment '$count' is not valid here: only $count (after a collection of entities) or $value (after a single primitive value) may follow the service operation 'GetNames'",
    ],
    [
      'Reset/$value',
      'URI_INVALID_SEGMENT',
      "The segment '$value' is not valid here: only $count (after a collection of entities) or $value (after a single primitive value) may follow the service operation 'Reset'",
    ],
    ['GetCount/$value/x', 'URI_INVALID_SEGMENT', "The segment 'x' is not valid here: '$value' must be the last segment"],
    [
      'GetOrder/Customer',
      'URI_INVALID_SEGMENT',
      "The segment 'Customer' is not valid here: only $count (after a collection of entities) or $value (after a single primitive value) may follow the service operation 'GetOrder'",
    ],
    [
      'Items(1.5)',
      'URI_KEY_SYNTAX',
      "Bad key predicate '1.5' for entity type 'UriTest.Item': the value 1.5 is not compatible with the key property 'ItemID' of type Edm.Int64",
    ],
  ])('%s -> %s', (path, code, message) => {
    const error = catchODataError(() => parseResourcePath(path, uriModel));
    expect([error.code, error.message]).toEqual([code, message]);
  });

  it('reports the raw offset of the offending segment', () => {
    const error = catchODataError(() => parseResourcePath("Orders(OrderID=1,Line='a/b')/Nope", uriModel));
    expect([error.position, error.target]).toEqual([29, 'Nope']);
  });

  it('reports key errors with the offset inside the key predicate', () => {
    const error = catchODataError(() => parseResourcePath("Orders(OrderID=1;Line='x')", uriModel));
    expect([error.target, error.position]).toEqual(['key', 9]);
  });

  it('keeps literal errors as the cause of a key error', () => {
    const error = catchODataError(() => parseResourcePath("Readings(Sensor=guid'nope',At=datetime'2020-01-01T00:00')", uriModel));
    expect(error.code).toBe('URI_KEY_SYNTAX');
    expect(error.message.startsWith("Bad key predicate 'Sensor=guid'nope',At=datetime'2020-01-01T00:00'' for entity type 'UriTest.Reading': ")).toBe(true);
    expect((error.cause as { code?: string } | undefined)?.code).toBe('URI_LITERAL_SYNTAX');
  });
});
