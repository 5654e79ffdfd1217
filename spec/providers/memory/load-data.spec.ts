import type { EdmModel } from '../../../lib/edm/model';
import { ODataError } from '../../../lib/errors';
import { fromForeignKeys } from '../../../lib/provider/entity-data';
import { loadData } from '../../../lib/providers/memory/load-data';
import type { MemoryData } from '../../../lib/provider/entity-data';
import { Store } from '../../../lib/providers/memory/store';
import { ORDER_A, ORDER_B, navOf, setOf, shopData, shopModel } from './models';

/** The problems a load reports, one per line, without the leading "- ". */
function problemsOf(model: EdmModel, data: MemoryData): string[] {
  try {
    loadData(new Store(model), data);
  } catch (error) {
    if (!(error instanceof ODataError)) throw error;
    expect(error.code).toBe('MEMORY_DATA_INVALID');
    const [head, ...lines] = error.message.split('\n');
    expect(head).toBe('The data given to MemoryProvider is invalid:');
    return lines.map((line) => line.replace(/^- /, ''));
  }
  return [];
}

const LINE_A1 = `Lines(OrderID=guid'${ORDER_A}',No=1)`;

describe('loadData', () => {
  const model = shopModel();

  it('loads the link convention: one key, a composite key object, arrays, null; both directions agree', () => {
    const store = new Store(model);
    loadData(store, shopData());
    expect(store.size(setOf(model, 'Lines'))).toBe(3);
    // Given only on the customer's side, read from the order's side.
    expect(store.related(setOf(model, 'Orders'), ORDER_A, navOf(model, 'Orders', 'Customer')).map((c) => c.ID)).toEqual(['9007199254740993']);
    expect(store.related(setOf(model, 'Customers'), '2', navOf(model, 'Customers', 'Orders')).map((o) => o.ID)).toEqual([ORDER_B]);
    expect(store.related(setOf(model, 'Employees'), '1', navOf(model, 'Employees', 'Reports')).map((e) => e.ID)).toEqual([2, 3]);
    expect(store.get(setOf(model, 'Products'), { Code: 'P1' })).toEqual({
      Code: 'P1',
      Picture: new Uint8Array([1, 2, 3]),
      Released: new Date('2019-05-01T00:00:00Z'),
    });
    // Dynamic properties of the open type are kept as given.
    expect(store.get(setOf(model, 'Notes'), { ID: 1 })).toEqual({ ID: 1, Text: 'hello', Color: 'red', Size: 3 });
  });

  it('accepts a composite-key link as an object, and the same link stated from both sides', () => {
    const data = shopData();
    const orders = [
      {
        ...data.Orders[0],
        Lines: [
          { OrderID: ORDER_A, No: 1 },
          { OrderID: ORDER_A.toUpperCase(), No: 2 },
        ],
      },
      data.Orders[1],
    ];
    expect(problemsOf(model, { ...data, Orders: orders })).toEqual([]);
  });

  const base = shopData();
  it.each<[string, MemoryData, string[]]>([
    ['an unknown set', { Custmers: [] }, ["Unknown entity set 'Custmers'. Did you mean 'Customers'?"]],
    ['a set that is not an array', { Products: {} as unknown as [] }, ['Products: expected an array of entities.']],
    ['an entity that is not an object', { Products: [5 as unknown as Record<string, unknown>] }, ['Products[0]: expected an object.']],
    [
      'an unknown property',
      { Products: [{ Code: 'X', Picturee: null }] },
      ["Products('X'): unknown property 'Picturee' (Shop.Product is not an open type). Did you mean 'Picture'?"],
    ],
    [
      'a bad value',
      { Products: [{ Code: 'X', Released: '2019-02-30T00:00:00Z' }] },
      ["Products('X'): Invalid value for property 'Released' of type Edm.DateTime: expected an ISO 8601 date-time such as \"1992-01-01T00:00:00Z\""],
    ],
    [
      'bad base64',
      { Products: [{ Code: 'X', Picture: 'A*B=' }] },
      ["Products('X'): Invalid value for property 'Picture' of type Edm.Binary: expected a base64 string or a Uint8Array"],
    ],
    [
      'a missing key',
      { Products: [{ Picture: null }] },
      ['Products[0]: Invalid value for property \'Code\' of type Edm.String: a value is required (Nullable="false" on Shop.Product)'],
    ],
    [
      'an Int64 out of range',
      { Customers: [{ ID: '9223372036854775808' }] },
      ['Customers("9223372036854775808"): Invalid value for property \'ID\' of type Edm.Int64: out of the Int64 range'],
    ],
    ['a duplicate key', { Products: [{ Code: 'P1' }, { Code: 'P1' }] }, ["Products('P1'): duplicate key in 'Products' (entry 1)."]],
    [
      'a Guid key duplicated in another letter case',
      { ...base, Orders: [...base.Orders, { ...base.Orders[0], ID: ORDER_A.toUpperCase() }] },
      [`Orders(guid'${ORDER_A.toUpperCase()}'): duplicate key in 'Orders' (entry 2).`],
    ],
    [
      'a dangling link',
      { ...base, Lines: [{ ...base.Lines[0], Product: 'P9' }, ...base.Lines.slice(1)] },
      [`${LINE_A1}: navigation property 'Product' links to Products('P9'), which does not exist.`],
    ],
    [
      'an array for a single-valued link',
      { Employees: [{ ID: 1 }, { ID: 2, Manager: [1] }] },
      ["Employees(2): navigation property 'Manager' must hold one key (or null)."],
    ],
    [
      'a scalar for a many-valued link',
      { Employees: [{ ID: 1, Reports: 2 }, { ID: 2 }] },
      ["Employees(1): navigation property 'Reports' must hold an array of keys."],
    ],
    [
      'a target key of the wrong type',
      { Employees: [{ ID: 1 }, { ID: 2, Manager: '1' }] },
      ["Employees(2): navigation property 'Manager' has a bad target key: key property 'ID': expected an integer number."],
    ],
    [
      'a scalar for a composite target key',
      { ...base, Orders: [{ ...base.Orders[0], Lines: [1] }, base.Orders[1]] },
      [`Orders(guid'${ORDER_A}'): navigation property 'Lines' has a bad target key: expected an object of key properties.`],
    ],
    [
      'two links for a 0..1 end',
      { Employees: [{ ID: 1 }, { ID: 2, Reports: [3] }, { ID: 3, Manager: 1 }] },
      ["Employees(3): 'Manager' links to more than one entity of 'Employees' (also Employees(1)), but its end allows one."],
    ],
    [
      'a missing required link (a 1 end)',
      { ...base, Customers: [{ ID: 1 }, base.Customers[1]] },
      [`Orders(guid'${ORDER_A}') must be linked to exactly one entity of 'Customers' over 'Customer' (multiplicity 1), but has 0.`],
    ],
  ])('reports %s', (_what, data, expected) => {
    expect(problemsOf(model, data)).toEqual(expected);
  });

  it('reports every problem at once, and lists at most 50', () => {
    const rows = Array.from({ length: 60 }, (_, i) => ({ Code: `X${i}`, Released: 1 }));
    const problems = problemsOf(model, { Products: rows, Nope: [] });
    expect(problems).toHaveLength(51);
    expect(problems[0]).toBe("Products('X0'): Invalid value for property 'Released' of type Edm.DateTime: expected an ISO 8601 date-time string or a Date");
    expect(problems[50]).toBe('... and 11 more');
  });
});

describe('fromForeignKeys', () => {
  it('turns foreign-key fields into links and drops them', () => {
    const data = { Products: [{ ID: 1, CategoryID: 2, SupplierID: null }, { ID: 2 }], Categories: [{ ID: 2 }] };
    expect(fromForeignKeys(data, { Products: { Category: 'CategoryID', Supplier: 'SupplierID' } })).toEqual({
      Products: [{ ID: 1, Category: 2, Supplier: null }, { ID: 2 }],
      Categories: [{ ID: 2 }],
    });
  });

  it('maps composite foreign keys to a key object', () => {
    const data = {
      Items: [
        { ID: 1, OrderNo: 7, OrderYear: 2020 },
        { ID: 2, OrderNo: null, OrderYear: null },
      ],
    };
    expect(fromForeignKeys(data, { Items: { Order: { No: 'OrderNo', Year: 'OrderYear' } } })).toEqual({
      Items: [
        { ID: 1, Order: { No: 7, Year: 2020 } },
        { ID: 2, Order: null },
      ],
    });
  });

  it('does not change its input', () => {
    const data = { Products: [{ ID: 1, CategoryID: 2 }] };
    fromForeignKeys(data, { Products: { Category: 'CategoryID' } });
    expect(data).toEqual({ Products: [{ ID: 1, CategoryID: 2 }] });
  });

  it('keeps the order of the other fields, and a `__proto__` field as an own property (data, not a prototype)', () => {
    const row = JSON.parse('{"ID":1,"CategoryID":2,"__proto__":{"polluted":true},"Name":"x"}') as Record<string, unknown>;
    const [copy] = fromForeignKeys({ Products: [row] }, { Products: { Category: 'CategoryID' } }).Products;
    expect(Object.keys(copy)).toEqual(['ID', '__proto__', 'Name', 'Category']);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('refuses a link given both ways', () => {
    expect(() => fromForeignKeys({ Products: [{ ID: 1, CategoryID: 2, Category: 3 }] }, { Products: { Category: 'CategoryID' } })).toThrow(
      "The data given to MemoryProvider is invalid:\n- Products[0]: 'Category' is given both as a link and by the foreign key CategoryID.",
    );
  });
});
