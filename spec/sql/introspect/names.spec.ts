/** Names of the introspected model: identifiers made from SQL names, scopes, key suffixes. */
import { NameScope, toIdentifier, withoutKeySuffix } from '../../../lib/sql/introspect/names';

describe('toIdentifier', () => {
  it.each([
    ['orders', 'orders'],
    ['Order_Lines', 'Order_Lines'],
    ['first name', 'first_name'],
    ['note#', 'note_'],
    ['$rate', '_rate'],
    ['2fa', '_2fa'],
    ['größe', 'größe'],
    ['a-b.c', 'a_b_c'],
    ['', '_'],
  ])('%j -> %j', (name, identifier) => {
    expect(toIdentifier(name)).toBe(identifier);
  });
});

describe('NameScope', () => {
  it('takes the first free candidate, then numbers the first', () => {
    const scope = new NameScope(['orders']);
    expect(scope.claim('orders', 'orders_by_customer')).toBe('orders_by_customer');
    expect(scope.claim('orders', 'orders_by_customer')).toBe('orders_2');
    expect(scope.claim('orders')).toBe('orders_3');
    expect(scope.claim('first name')).toBe('first_name');
    expect(scope.has('first_name')).toBe(true);
  });
});

describe('withoutKeySuffix', () => {
  it.each([
    ['customer_id', 'customer'],
    ['CUSTOMER_ID', 'CUSTOMER'],
    ['region_code', 'region'],
    ['parent__key', 'parent'],
    ['CustomerID', 'Customer'],
    ['customerId', 'customer'],
    ['regionCode', 'region'],
    ['order2Id', 'order2'],
    ['id', undefined],
    ['_id', undefined],
    ['paid', undefined],
    ['manager', undefined],
    ['ID', undefined],
    ['Identity', undefined],
  ])('%j -> %j', (column, name) => {
    expect(withoutKeySuffix(column)).toBe(name);
  });
});
