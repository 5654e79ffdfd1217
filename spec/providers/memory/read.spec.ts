import type { EdmModel } from '../../../lib/edm/model';
import { fromForeignKeys } from '../../../lib/provider/entity-data';
import { loadData } from '../../../lib/providers/memory/load-data';
import type { Entity } from '../../../lib/provider/types';
import { projectEntity, resolvePath } from '../../../lib/providers/memory/read';
import { Store } from '../../../lib/providers/memory/store';
import { DEMO_LINKS, ORDER_A, ORDER_B, demoData, demoModel, setOf, shopData, shopModel } from './models';
import { pathOf, selectExpandOf } from './paths';
import { describeFailure as errorOf } from '../../helpers/odata-error';

describe('resolvePath', () => {
  let model: EdmModel;
  let store: Store;
  beforeEach(() => {
    model = shopModel();
    store = new Store(model);
    loadData(store, shopData());
  });

  it('gives every entity of a set, in insertion order', () => {
    expect(resolvePath(store, pathOf(model, 'Employees', undefined)).map((e) => e.ID)).toEqual([1, 2, 3, 4]);
  });

  it('finds one entity by key', () => {
    expect(resolvePath(store, pathOf(model, 'Customers', { ID: '9007199254740993' })).map((c) => c.Name)).toEqual(['Big']);
  });

  it('walks a chain with keys and a single-valued hop: Customers(2)/Orders(B)/Lines(B,1)/Product', () => {
    const path = pathOf(model, 'Customers', { ID: '2' }, ['Orders', { ID: ORDER_B }], ['Lines', { OrderID: ORDER_B, No: 1 }], ['Product']);
    expect(resolvePath(store, path).map((p) => p.Code)).toEqual(['P2']);
  });

  it('gives a many-valued hop as a collection', () => {
    expect(resolvePath(store, pathOf(model, 'Orders', { ID: ORDER_A }, ['Lines'])).map((l) => l.No)).toEqual([1, 2]);
  });

  it('gives no entity for a single-valued hop without a link at the end', () => {
    expect(resolvePath(store, pathOf(model, 'Lines', { OrderID: ORDER_A, No: 2 }, ['Product']))).toEqual([]);
  });

  it.each<[string, () => Parameters<typeof resolvePath>[1], string]>([
    ['a missing root key', () => pathOf(model, 'Customers', { ID: '5' }), "404 ENTITY_NOT_FOUND: No entity with the key (5L) exists in 'Customers'."],
    [
      'a key that exists but is not linked to the source',
      () => pathOf(model, 'Customers', { ID: '2' }, ['Orders', { ID: ORDER_A }]),
      `404 ENTITY_NOT_FOUND: No entity with the key (guid'${ORDER_A}') exists in 'Orders'.`,
    ],
    [
      'a composite key missing along the path',
      () => pathOf(model, 'Orders', { ID: ORDER_A }, ['Lines', { OrderID: ORDER_A, No: 9 }], ['Product']),
      `404 ENTITY_NOT_FOUND: No entity with the key (OrderID=guid'${ORDER_A}',No=9) exists in 'Lines'.`,
    ],
    [
      'a single-valued hop without a link before the end',
      () => pathOf(model, 'Employees', { ID: 1 }, ['Manager'], ['Reports']),
      "404 RESOURCE_NOT_FOUND: Resource not found for the segment 'Manager'.",
    ],
  ])('refuses %s', (_what, path, expected) => {
    expect(errorOf(() => resolvePath(store, path()))).toBe(expected);
  });
});

describe('projectEntity', () => {
  let model: EdmModel;
  let store: Store;
  beforeEach(() => {
    model = shopModel();
    store = new Store(model);
    loadData(store, shopData());
  });

  it('returns a copy: changing it, or its Dates and bytes, leaves the store alone', () => {
    const stored = store.get(setOf(model, 'Products'), { Code: 'P1' });
    if (stored === undefined) throw new Error('missing');
    const copy = projectEntity(store, setOf(model, 'Products'), stored, selectExpandOf(model, 'Products'));
    expect(copy).toEqual(stored);
    (copy.Released as Date).setTime(0);
    (copy.Picture as Uint8Array)[0] = 9;
    copy.Code = 'changed';
    expect(store.get(setOf(model, 'Products'), { Code: 'P1' })).toEqual({
      Code: 'P1',
      Picture: new Uint8Array([1, 2, 3]),
      Released: new Date('2019-05-01T00:00:00Z'),
    });
  });

  it('keeps every structural property whatever $select says (the writers apply $select; ETags and skip tokens need the rest)', () => {
    const stored = store.get(setOf(model, 'Customers'), { ID: '2' });
    if (stored === undefined) throw new Error('missing');
    expect(projectEntity(store, setOf(model, 'Customers'), stored, selectExpandOf(model, 'Customers', {}, []))).toEqual({ ID: '2', Name: 'Small', Version: 0 });
    expect(projectEntity(store, setOf(model, 'Customers'), stored, selectExpandOf(model, 'Customers', {}, ['Version']))).toEqual({
      ID: '2',
      Name: 'Small',
      Version: 0,
    });
  });

  it('includes dynamic properties of an open type, selected or not', () => {
    const stored = store.get(setOf(model, 'Notes'), { ID: 1 });
    if (stored === undefined) throw new Error('missing');
    expect(projectEntity(store, setOf(model, 'Notes'), stored, selectExpandOf(model, 'Notes', {}, ['Color', 'Missing']))).toEqual({
      ID: 1,
      Text: 'hello',
      Color: 'red',
      Size: 3,
    });
  });

  it('expands several levels: arrays for many-valued, entity or null for single-valued', () => {
    const stored = store.get(setOf(model, 'Customers'), { ID: '9007199254740993' });
    if (stored === undefined) throw new Error('missing');
    const entity = projectEntity(
      store,
      setOf(model, 'Customers'),
      stored,
      selectExpandOf(model, 'Customers', { Orders: { Lines: { Product: { $select: ['Code'] } } } }),
    );
    expect(entity).toEqual({
      ID: '9007199254740993',
      Name: 'Big',
      Version: 4,
      Orders: [
        {
          ID: ORDER_A,
          Total: '12.5',
          Modified: new Date('2020-01-01T10:00:00Z'),
          Lines: [
            { OrderID: ORDER_A, No: 1, Quantity: 3, Product: { Code: 'P1', Picture: new Uint8Array([1, 2, 3]), Released: new Date('2019-05-01T00:00:00Z') } },
            { OrderID: ORDER_A, No: 2, Quantity: 1, Product: null },
          ],
        },
      ],
    });
  });

  it('expands in both directions of one link table', () => {
    const employee = store.get(setOf(model, 'Employees'), { ID: 4 });
    if (employee === undefined) throw new Error('missing');
    const entity = projectEntity(store, setOf(model, 'Employees'), employee, selectExpandOf(model, 'Employees', { Manager: { Manager: {}, Reports: {} } }));
    expect(entity).toEqual({ ID: 4, Manager: { ID: 2, Manager: { ID: 1 }, Reports: [{ ID: 4 }] } });
  });
});

describe('the ODataDemo data through foreign keys', () => {
  const model = demoModel();
  const store = new Store(model);
  loadData(store, fromForeignKeys(demoData(), DEMO_LINKS));
  const ids = (path: Parameters<typeof resolvePath>[1]): unknown[] => resolvePath(store, path).map((e) => e.ID);

  it('stores products with model values and without the foreign-key fields', () => {
    expect(store.get(setOf(model, 'Products'), { ID: 3 })).toEqual({
      ID: 3,
      Name: 'Havina Cola',
      Description: 'The Original Key Lime Cola',
      ReleaseDate: new Date(Date.UTC(2005, 9, 1)),
      DiscontinuedDate: new Date(Date.UTC(2006, 9, 1)),
      Rating: 3,
      Price: '19.9',
    });
  });

  it('resolves both directions of each association from one link table', () => {
    expect(ids(pathOf(model, 'Categories', { ID: 1 }, ['Products']))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(ids(pathOf(model, 'Categories', { ID: 2 }, ['Products']))).toEqual([7, 8]);
    expect(ids(pathOf(model, 'Suppliers', { ID: 1 }, ['Products']))).toEqual([0, 7, 8]);
    expect(ids(pathOf(model, 'Products', { ID: 8 }, ['Category']))).toEqual([2]);
  });

  it('walks Categories(1)/Products(3)/Supplier', () => {
    expect(resolvePath(store, pathOf(model, 'Categories', { ID: 1 }, ['Products', { ID: 3 }], ['Supplier'])).map((s) => s.Name)).toEqual(['Exotic Liquids']);
  });

  it('404s for Categories(0)/Products(3): product 3 exists but is not in category 0', () => {
    expect(errorOf(() => resolvePath(store, pathOf(model, 'Categories', { ID: 0 }, ['Products', { ID: 3 }])))).toBe(
      "404 ENTITY_NOT_FOUND: No entity with the key (3) exists in 'Products'.",
    );
  });

  it('404s for a missing root entity', () => {
    expect(errorOf(() => resolvePath(store, pathOf(model, 'Suppliers', { ID: 7 }, ['Products'])))).toBe(
      "404 ENTITY_NOT_FOUND: No entity with the key (7) exists in 'Suppliers'.",
    );
  });

  it('expands a supplier with its products and their categories', () => {
    const supplier = store.get(setOf(model, 'Suppliers'), { ID: 1 });
    if (supplier === undefined) throw new Error('missing');
    const entity = projectEntity(
      store,
      setOf(model, 'Suppliers'),
      supplier,
      selectExpandOf(model, 'Suppliers', { Products: { $select: ['Name'], $expand: { Category: { $select: ['Name'] } } } }, ['Name']),
    );
    const products = entity.Products as Entity[];
    expect(Object.keys(entity)).toEqual(['ID', 'Name', 'Address', 'Concurrency', 'Products']);
    expect(products.map((product) => [product.ID, product.Name, product.Price, (product.Category as Entity).Name])).toEqual([
      [0, 'Bread', '2.5', 'Food'],
      [7, 'DVD Player', '35.88', 'Electronics'],
      [8, 'LCD HDTV', '1088.8', 'Electronics'],
    ]);
    expect(products[1].Category).toEqual({ ID: 2, Name: 'Electronics' });
  });

  it('copies expansions past its allowance lazily: an async iterable, whose entries expand lazily too', async () => {
    const supplier = store.get(setOf(model, 'Suppliers'), { ID: 1 });
    if (supplier === undefined) throw new Error('missing');
    const expand = selectExpandOf(model, 'Suppliers', { Products: { Supplier: { Products: {} } } });
    // Two entries may be copied at once; the supplier has three products.
    const entity = projectEntity(store, setOf(model, 'Suppliers'), supplier, expand, { left: 2 });
    expect(Array.isArray(entity.Products)).toBe(false);
    const copies: Entity[] = [];
    for await (const product of entity.Products as AsyncIterable<Entity>) copies.push(product);
    expect(copies.map((product) => product.ID)).toEqual([0, 7, 8]);
    const inner = (copies[0].Supplier as Entity).Products;
    expect(Array.isArray(inner)).toBe(false);
    // Within the allowance, expansions stay arrays (the writers' fast path).
    expect(Array.isArray(projectEntity(store, setOf(model, 'Suppliers'), supplier, expand).Products)).toBe(true);
  });
});
