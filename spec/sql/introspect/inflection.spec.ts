/** The committed word rules of OData-style names: words, PascalCase, singular and plural, readable labels. */
import {
  pascalName,
  pluralName,
  pluralWord,
  readableName,
  singularName,
  singularWord,
  withoutPreposition,
  words,
} from '../../../lib/sql/introspect/inflection';

describe('words and PascalCase', () => {
  it.each([
    ['order_id', ['order', 'id'], 'OrderID'],
    ['ship_via', ['ship', 'via'], 'ShipVia'],
    ['id', ['id'], 'ID'],
    ['ORDER_ID', ['ORDER', 'ID'], 'OrderID'],
    ['ORDER_DETAILS', ['ORDER', 'DETAILS'], 'OrderDetails'],
    ['CustomerID', ['Customer', 'ID'], 'CustomerID'],
    ['customerId', ['customer', 'Id'], 'CustomerID'],
    ['HTMLParser', ['HTML', 'Parser'], 'HTMLParser'],
    ['orderdetails', ['orderdetails'], 'Orderdetails'],
    ['first name', ['first', 'name'], 'FirstName'],
    ['note#', ['note'], 'Note'],
    ['$rate', ['rate'], 'Rate'],
    ['address2', ['address2'], 'Address2'],
    ['order2Id', ['order2', 'Id'], 'Order2ID'],
    ['2fa', ['2fa'], '2fa'],
    ['größe', ['größe'], 'Größe'],
    ['$', [], ''],
  ])('%j: words %j, PascalCase %j', (name, expectedWords, pascal) => {
    expect(words(name)).toEqual(expectedWords);
    expect(pascalName(name)).toBe(pascal);
  });

  it.each([
    ['unit_price', 'Unit Price'],
    ['customer_id', 'Customer ID'],
    ['ShipVia', 'Ship Via'],
  ])('readable label of %j is %j', (name, label) => {
    expect(readableName(name)).toBe(label);
  });
});

describe('singular and plural: -s, -es, -ies and the irregulars', () => {
  it.each([
    // singular, plural
    ['order', 'orders'],
    ['category', 'categories'],
    ['day', 'days'],
    ['key', 'keys'],
    ['address', 'addresses'],
    ['box', 'boxes'],
    ['match', 'matches'],
    ['dish', 'dishes'],
    ['buzz', 'buzzes'],
    ['size', 'sizes'],
    ['house', 'houses'],
    ['shoe', 'shoes'],
    ['archive', 'archives'],
    ['photo', 'photos'],
    ['person', 'people'],
    ['child', 'children'],
    ['status', 'statuses'],
    ['bus', 'buses'],
    ['analysis', 'analyses'],
    ['criterion', 'criteria'],
    ['leaf', 'leaves'],
    ['movie', 'movies'],
    ['hero', 'heroes'],
    ['quiz', 'quizzes'],
    ['cache', 'caches'],
    ['staff', 'staff'],
    ['data', 'data'],
    ['series', 'series'],
  ])('%s <-> %s', (singular, plural) => {
    expect(pluralWord(singular)).toBe(plural);
    expect(singularWord(plural)).toBe(singular);
    expect(singularWord(singular)).toBe(singular);
  });

  it.each([
    // table name, entity type, entity set
    ['orders', 'Order', 'Orders'],
    ['order_details', 'OrderDetail', 'OrderDetails'],
    ['order_detail', 'OrderDetail', 'OrderDetails'],
    ['album', 'Album', 'Albums'],
    ['track', 'Track', 'Tracks'],
    ['people', 'Person', 'People'],
    ['categories', 'Category', 'Categories'],
    ['ORDER_LINES', 'OrderLine', 'OrderLines'],
    ['orderdetails', 'Orderdetail', 'Orderdetails'],
    ['staff', 'Staff', 'Staff'],
    ['CustomerID', 'CustomerID', 'CustomerID'],
  ])('table %j: type %j, set %j', (table, type, set) => {
    expect(singularName(table)).toBe(type);
    expect(pluralName(table)).toBe(set);
  });

  it.each([
    ['ReportsTo', 'Reports'],
    ['BillTo', 'Bill'],
    ['Manager', undefined],
    ['To', undefined],
  ])('%j without its trailing preposition: %j', (role, name) => {
    expect(withoutPreposition(role)).toBe(name);
  });
});
