/**
 * The write half of MemoryProvider through its DataProvider methods: create (keys, tokens,
 * bindings, deep insert, POST through navigation), update, delete, link, transactions and media.
 * Every failure is checked to leave the store exactly as before (records, their order, links, media).
 */
import type { IncomingMessage } from 'http';
import type { EdmEntitySet, EdmEntityType, EdmModel } from '../../../lib/edm/model';
import type { PropertyValue } from '../../../lib/edm/primitives';
import type { ODataError } from '../../../lib/errors';
import { decodeETag, encodeETag, matchesIfMatch, parseETagList } from '../../../lib/protocol';
import type { RequestContext } from '../../../lib/protocol/message';
import type { CreateRequest, Entity, EntityReference, LinkRequest, Precondition, UpdateRequest } from '../../../lib/provider/types';
import { MemoryProvider, storeOf } from '../../../lib/providers/memory';
import type { EntityKey } from '../../../lib/uri/types';
import { DEMO_LINKS, ORDER_A, ORDER_B, demoData, demoModel, galleryModel, navOf, setOf, shopData, shopModel } from './models';
import { describeRejection as errorOf } from '../../helpers/odata-error';

const CONTEXT: RequestContext = { request: {} as IncomingMessage, state: new Map() };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

/** Everything observable in the store: records in order, every link pair from both sides, media resources. */
function snapshot(provider: MemoryProvider): unknown {
  const { model } = provider;
  const store = storeOf(provider);
  const out: Record<string, unknown> = {};
  for (const set of model.entitySets.values()) {
    out[set.name] = store.all(set).map((values) => {
      const key = store.locate(values)?.key ?? '?';
      const links = set.entityType.navigationProperties.map((property) => `${property.name}->${[...store.relatedKeys(set, key, property)].sort().join(',')}`);
      const media = store.media(set, key);
      return { values: { ...values }, links, media: media === undefined ? null : `${media.contentType}:${media.body.toString('base64')}` };
    });
  }
  return out;
}

/** Expect the write to fail with `expected` and leave the store exactly as before. */
async function expectRefused(provider: MemoryProvider, write: () => Promise<unknown>, expected: string | RegExp): Promise<void> {
  const before = snapshot(provider);
  const message = await errorOf(write());
  if (typeof expected === 'string') expect(message).toBe(expected);
  else expect(message).toMatch(expected);
  expect(snapshot(provider)).toEqual(before);
}

/** The precondition the handlers build from an If-Match header. */
function ifMatch(header: string, type: EdmEntityType): Precondition {
  const list = parseETagList(header);
  if (list === undefined) throw new Error(`bad If-Match ${header}`);
  const any = list.includes('*');
  const etags = list.filter((tag) => tag !== '*');
  const concurrencyValues = etags.flatMap((tag) => {
    const values = decodeETag(tag, type);
    return values === undefined ? [] : [values];
  });
  return { any, etags, concurrencyValues, matches: (current) => any || matchesIfMatch(list, encodeETag(current, type)) };
}

function createOf(set: EdmEntitySet, values: Record<string, PropertyValue>, extra: Partial<CreateRequest> = {}): CreateRequest {
  return {
    entitySet: set,
    entityType: set.entityType,
    values,
    bindings: [],
    inline: [],
    parent: undefined,
    media: undefined,
    ...extra,
  };
}

function updateOf(
  set: EdmEntitySet,
  key: EntityKey,
  mode: 'replace' | 'merge',
  values: Record<string, PropertyValue>,
  extra: Partial<UpdateRequest> = {},
): UpdateRequest {
  return { entitySet: set, entityType: set.entityType, key, mode, values, sent: new Set(Object.keys(values)), bindings: [], precondition: undefined, ...extra };
}

function ref(model: EdmModel, set: string, key: EntityKey): EntityReference {
  return { entitySet: setOf(model, set), key };
}

/** The first key property of each entity linked from `set(key)` over `navigation`. */
function related(provider: MemoryProvider, set: string, key: string, navigation: string): unknown[] {
  const { model } = provider;
  const property = navOf(model, set, navigation);
  return storeOf(provider)
    .related(setOf(model, set), key, property)
    .map((values) => values[property.target.key[0].name]);
}

const PRODUCT = { ReleaseDate: new Date('2020-01-01T00:00:00Z'), Rating: 3, Price: '9.99', Name: 'New', Description: null, DiscontinuedDate: null };

// ---------------------------------------------------------------------------------------------
// create
// ---------------------------------------------------------------------------------------------

const ORDER_C = '22222222-2222-4222-8222-222222222222';

/** A new Customer (of the shop `model`) with order ORDER_C inline, holding two inline lines numbered `lineNos`, then `more` orders. */
function deepCustomer(model: EdmModel, lineNos: readonly [number, number], ...more: CreateRequest[]): CreateRequest {
  const Lines = setOf(model, 'Lines');
  const order = createOf(
    setOf(model, 'Orders'),
    { ID: ORDER_C, Total: '3', Modified: new Date(0) },
    {
      inline: [
        {
          property: navOf(model, 'Orders', 'Lines'),
          entries: [createOf(Lines, { OrderID: ORDER_C, No: lineNos[0], Quantity: 2 }), createOf(Lines, { OrderID: ORDER_C, No: lineNos[1], Quantity: 4 })],
        },
      ],
    },
  );
  return createOf(
    setOf(model, 'Customers'),
    { Name: 'Deep', Version: 0 },
    { inline: [{ property: navOf(model, 'Customers', 'Orders'), entries: [order, ...more] }] },
  );
}

describe('MemoryProvider.create', () => {
  let model: EdmModel;
  let demo: MemoryProvider;
  let shopModelValue: EdmModel;
  let shop: MemoryProvider;
  const clock = Date.UTC(2024, 0, 1);
  beforeEach(() => {
    model = demoModel();
    demo = new MemoryProvider(model, demoData(), { links: DEMO_LINKS });
    shopModelValue = shopModel();
    shop = new MemoryProvider(shopModelValue, shopData(), { now: () => new Date(clock) });
  });

  it('stores the entry with the key given and returns a copy of what was stored', async () => {
    const created = await demo.create(createOf(setOf(model, 'Categories'), { ID: 10, Name: 'Toys' }), CONTEXT);
    expect(created).toEqual({ ID: 10, Name: 'Toys' });
    created.Name = 'changed';
    expect(demo.store.get(setOf(model, 'Categories'), { ID: 10 })).toEqual({ ID: 10, Name: 'Toys' });
    expect(demo.store.all(setOf(model, 'Categories')).map((c) => c.ID)).toEqual([0, 1, 2, 10]);
  });

  it('starts an integer version column at 0 whatever the body says, and a DateTime token at now', async () => {
    const supplier = await demo.create(
      createOf(setOf(model, 'Suppliers'), {
        ID: 5,
        Name: 'S',
        Address: { Street: null, City: null, State: null, ZipCode: null, Country: null },
        Concurrency: 99,
      }),
      CONTEXT,
    );
    expect(supplier.Concurrency).toBe(0);
    const order = await shop.create(
      createOf(
        setOf(shopModelValue, 'Orders'),
        { ID: '11111111-2222-3333-4444-555555555555', Total: '1', Modified: new Date(0) },
        {
          bindings: [{ property: navOf(shopModelValue, 'Orders', 'Customer'), targets: [ref(shopModelValue, 'Customers', { ID: '2' })] }],
        },
      ),
      CONTEXT,
    );
    expect(order.Modified).toEqual(new Date(clock));
  });

  it.each<[string, string, Record<string, PropertyValue>, string, unknown]>([
    ['a single Int32 key: the largest plus one', 'Products', { ...PRODUCT }, 'ID', 9],
    ['a single Int32 key in an empty set: 1', 'Categories', { Name: 'first' }, 'ID', 1],
    ['a single Int64 key beyond 2^53: exact', 'Customers', { Name: 'n', Version: 0 }, 'ID', '9007199254740994'],
    ['an Int32 key given as null', 'Notes', { ID: null, Text: 't' }, 'ID', 2],
  ])('generates %s', async (_what, setName, values, keyName, expected) => {
    const provider = setName === 'Categories' ? new MemoryProvider(model, {}) : setName === 'Products' ? demo : shop;
    const created = await provider.create(createOf(setOf(provider.model, setName), values), CONTEXT);
    expect(created[keyName]).toEqual(expected);
  });

  it('generates a random UUID for a Guid key', async () => {
    const customer = ref(shopModelValue, 'Customers', { ID: '2' });
    const binding = { property: navOf(shopModelValue, 'Orders', 'Customer'), targets: [customer] };
    const first = await shop.create(createOf(setOf(shopModelValue, 'Orders'), { Total: '1', Modified: new Date(0) }, { bindings: [binding] }), CONTEXT);
    const second = await shop.create(createOf(setOf(shopModelValue, 'Orders'), { Total: '2', Modified: new Date(0) }, { bindings: [binding] }), CONTEXT);
    expect(first.ID).toMatch(UUID);
    expect(second.ID).toMatch(UUID);
    expect(first.ID).not.toBe(second.ID);
    expect(related(shop, 'Customers', '2', 'Orders')).toEqual([ORDER_B, first.ID, second.ID]);
  });

  it.each<[string, () => CreateRequest, string]>([
    [
      'a missing string key',
      () => createOf(setOf(shopModelValue, 'Products'), { Picture: null, Released: null }),
      "400 BODY_INVALID: The request body is invalid: the key property 'Code' of Shop.Product is missing; only a single integer key or a Guid key is generated.",
    ],
    [
      'a missing part of a composite key',
      () => createOf(setOf(shopModelValue, 'Lines'), { OrderID: ORDER_A, Quantity: 1 }),
      "400 BODY_INVALID: The request body is invalid: the key property 'No' of Shop.Line is missing; only a single integer key or a Guid key is generated.",
    ],
    [
      'a taken key',
      () => createOf(setOf(shopModelValue, 'Products'), { Code: 'P1', Picture: null, Released: null }),
      "409 ENTITY_EXISTS: An entity with the key ('P1') already exists in 'Products'.",
    ],
    [
      'a missing required link (the `1` end)',
      () => createOf(setOf(shopModelValue, 'Orders'), { ID: '11111111-2222-3333-4444-555555555555', Total: '1', Modified: new Date(0) }),
      "409 CONSTRAINT_VIOLATION: Orders(guid'11111111-2222-3333-4444-555555555555') must be linked to exactly one entity of 'Customers' over 'Customer' (multiplicity 1), but has 0.",
    ],
    [
      'a dangling binding',
      () =>
        createOf(
          setOf(shopModelValue, 'Orders'),
          { Total: '1', Modified: new Date(0) },
          {
            bindings: [{ property: navOf(shopModelValue, 'Orders', 'Customer'), targets: [ref(shopModelValue, 'Customers', { ID: '77' })] }],
          },
        ),
      "400 BODY_INVALID: The request body is invalid: 'Customer' links to Customers(77L), which does not exist.",
    ],
    [
      'a value that breaks a facet (MaxLength)',
      () => createOf(setOf(shopModelValue, 'Customers'), { ID: '5', Name: 'x'.repeat(21), Version: 0 }),
      "400 VALUE_INVALID: Invalid value for property 'Name' of type Edm.String: the length is 21 characters, more than the MaxLength of 20.",
    ],
    [
      'POST through navigation from a missing source',
      () =>
        createOf(
          setOf(shopModelValue, 'Orders'),
          { Total: '1', Modified: new Date(0) },
          {
            parent: { source: ref(shopModelValue, 'Customers', { ID: '8' }), navigationProperty: navOf(shopModelValue, 'Customers', 'Orders') },
          },
        ),
      "404 ENTITY_NOT_FOUND: No entity with the key (8L) exists in 'Customers'.",
    ],
  ])('refuses %s and changes nothing', async (_what, request, expected) => {
    await expectRefused(shop, () => shop.create(request(), CONTEXT), expected);
  });

  it('links the new entry to the targets of its bindings, seen from both sides', async () => {
    const created = await demo.create(
      createOf(
        setOf(model, 'Products'),
        { ...PRODUCT },
        {
          bindings: [
            { property: navOf(model, 'Products', 'Category'), targets: [ref(model, 'Categories', { ID: 2 })] },
            { property: navOf(model, 'Products', 'Supplier'), targets: [ref(model, 'Suppliers', { ID: 0 })] },
          ],
        },
      ),
      CONTEXT,
    );
    expect(created.ID).toBe(9);
    expect(related(demo, 'Categories', '2', 'Products')).toEqual([7, 8, 9]);
    expect(related(demo, 'Products', '9', 'Category')).toEqual([2]);
    expect(related(demo, 'Suppliers', '0', 'Products')).toEqual([1, 2, 3, 4, 5, 6, 9]);
  });

  it('links the new entry to the source of a POST through navigation (Categories(0)/Products)', async () => {
    const created = await demo.create(
      createOf(
        setOf(model, 'Products'),
        { ...PRODUCT },
        { parent: { source: ref(model, 'Categories', { ID: 0 }), navigationProperty: navOf(model, 'Categories', 'Products') } },
      ),
      CONTEXT,
    );
    expect(related(demo, 'Categories', '0', 'Products')).toEqual([0, created.ID]);
  });

  it('inserts an inline tree (deep insert) with generated keys, all linked', async () => {
    const Customers = setOf(shopModelValue, 'Customers');
    const Orders = setOf(shopModelValue, 'Orders');
    const created = await shop.create(deepCustomer(shopModelValue, [1, 2], createOf(Orders, { Total: '4', Modified: new Date(0) })), CONTEXT);
    expect(created).toEqual({ ID: '9007199254740994', Name: 'Deep', Version: 0 });
    const orders = storeOf(shop).related(Customers, '9007199254740994', navOf(shopModelValue, 'Customers', 'Orders'));
    expect(orders.map((order) => order.Total)).toEqual(['3', '4']);
    expect(orders[1].ID).toMatch(UUID);
    expect(
      storeOf(shop)
        .related(Orders, ORDER_C, navOf(shopModelValue, 'Orders', 'Lines'))
        .map((line) => line.Quantity),
    ).toEqual([2, 4]);
  });

  it('rolls a deep insert back completely when a nested entry fails', async () => {
    // The second line repeats the first one's key: the whole tree goes.
    const request = deepCustomer(shopModelValue, [1, 1]);
    await expectRefused(
      shop,
      () => shop.create(request, CONTEXT),
      `409 ENTITY_EXISTS: An entity with the key (OrderID=guid'${ORDER_C}',No=1) already exists in 'Lines'.`,
    );
  });

  it('keeps dynamic properties of an open type', async () => {
    const created = await shop.create(createOf(setOf(shopModelValue, 'Notes'), { ID: 7, Text: null, Mood: 'calm', Count: 3 }), CONTEXT);
    expect(created).toEqual({ ID: 7, Text: null, Mood: 'calm', Count: 3 });
  });
});

// ---------------------------------------------------------------------------------------------
// update
// ---------------------------------------------------------------------------------------------

describe('MemoryProvider.update', () => {
  let model: EdmModel;
  let demo: MemoryProvider;
  let shopModelValue: EdmModel;
  let shop: MemoryProvider;
  let clock: number;
  beforeEach(() => {
    model = demoModel();
    demo = new MemoryProvider(model, demoData(), { links: DEMO_LINKS });
    shopModelValue = shopModel();
    clock = Date.UTC(2024, 0, 1);
    shop = new MemoryProvider(shopModelValue, shopData(), { now: () => new Date(clock) });
  });
  const Suppliers = () => setOf(model, 'Suppliers');
  const supplierType = () => Suppliers().entityType;

  it('merge changes only the given properties, bumps the version column and returns a copy of the new state', async () => {
    const updated = await demo.update(updateOf(Suppliers(), { ID: 0 }, 'merge', { Name: 'Renamed' }), CONTEXT);
    expect(updated).toEqual({ ID: 0, Name: 'Renamed', Address: expect.objectContaining({ City: 'Sammamish' }) as unknown, Concurrency: 1 });
    updated.Name = 'changed';
    expect(demo.store.get(Suppliers(), { ID: 0 })?.Name).toBe('Renamed');
  });

  it('replace sets every given value and drops dynamic properties that are not mentioned', async () => {
    const Notes = setOf(shopModelValue, 'Notes');
    const updated = await shop.update(updateOf(Notes, { ID: 1 }, 'replace', { ID: 1, Text: 'new', Size: 4 }), CONTEXT);
    expect(updated).toEqual({ ID: 1, Text: 'new', Size: 4 });
    expect(shop.store.get(Notes, { ID: 1 })).toEqual({ ID: 1, Text: 'new', Size: 4 });
  });

  it('gives a DateTime token the write time', async () => {
    clock += 5000;
    const updated = await shop.update(updateOf(setOf(shopModelValue, 'Orders'), { ID: ORDER_B }, 'merge', { Total: '8' }), CONTEXT);
    expect(updated.Modified).toEqual(new Date(clock));
  });

  it('merges bindings: a single-valued one replaces the current link, a many-valued one adds', async () => {
    await demo.update(
      updateOf(
        setOf(model, 'Products'),
        { ID: 1 },
        'merge',
        {},
        { bindings: [{ property: navOf(model, 'Products', 'Category'), targets: [ref(model, 'Categories', { ID: 2 })] }] },
      ),
      CONTEXT,
    );
    expect(related(demo, 'Products', '1', 'Category')).toEqual([2]);
    expect(related(demo, 'Categories', '1', 'Products')).toEqual([2, 3, 4, 5, 6]);
    await demo.update(
      updateOf(
        setOf(model, 'Categories'),
        { ID: 0 },
        'merge',
        {},
        { bindings: [{ property: navOf(model, 'Categories', 'Products'), targets: [ref(model, 'Products', { ID: 3 })] }] },
      ),
      CONTEXT,
    );
    expect(related(demo, 'Categories', '0', 'Products')).toEqual([0, 3]);
  });

  it.each<[string, string]>([
    ['the current ETag', 'W/"0"'],
    ['*', '*'],
    ['a list holding the current ETag', 'W/"7", W/"0"'],
  ])('writes when If-Match holds %s', async (_what, header) => {
    const updated = await demo.update(updateOf(Suppliers(), { ID: 1 }, 'merge', { Name: 'ok' }, { precondition: ifMatch(header, supplierType()) }), CONTEXT);
    expect(updated.Concurrency).toBe(1);
  });

  it.each<[string, () => UpdateRequest, string]>([
    [
      'a stale ETag',
      () => updateOf(Suppliers(), { ID: 1 }, 'merge', { Name: 'x' }, { precondition: ifMatch('W/"3"', supplierType()) }),
      '412 PRECONDITION_FAILED: The entity tag given in If-Match does not match the current entity tag.',
    ],
    [
      'a missing entity',
      () => updateOf(Suppliers(), { ID: 9 }, 'merge', { Name: 'x' }),
      "404 ENTITY_NOT_FOUND: No entity with the key (9) exists in 'Suppliers'.",
    ],
    [
      'a key change',
      () => updateOf(Suppliers(), { ID: 1 }, 'merge', { ID: 2 }),
      '400 KEY_MISMATCH: The key in the request body does not match the key in the URL.',
    ],
    [
      'a non-nullable property set to null',
      () => updateOf(setOf(model, 'Products'), { ID: 1 }, 'merge', { Rating: null }),
      `400 VALUE_INVALID: Invalid value for property 'Rating' of type Edm.Int32: the property is not nullable (Nullable="false")`,
    ],
    [
      'a dangling binding (after the values were written: both go)',
      () =>
        updateOf(
          setOf(model, 'Products'),
          { ID: 1 },
          'merge',
          { Name: 'x' },
          { bindings: [{ property: navOf(model, 'Products', 'Category'), targets: [ref(model, 'Categories', { ID: 9 })] }] },
        ),
      "400 BODY_INVALID: The request body is invalid: 'Category' links to Categories(9), which does not exist.",
    ],
  ])('refuses %s and changes nothing', async (_what, request, expected) => {
    await expectRefused(demo, () => demo.update(request(), CONTEXT), expected);
  });

  it('lets exactly one of 50 concurrent updates with the same If-Match win; the others get 412', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 50 }, (_, i) =>
        demo.update(updateOf(Suppliers(), { ID: 1 }, 'merge', { Name: `writer ${i}` }, { precondition: ifMatch('W/"0"', supplierType()) }), CONTEXT),
      ),
    );
    const won = results.filter((result): result is PromiseFulfilledResult<Entity> => result.status === 'fulfilled');
    const lost = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost.map((result) => (result.reason as ODataError).code)).toEqual(Array.from({ length: 49 }, () => 'PRECONDITION_FAILED'));
    expect(demo.store.get(Suppliers(), { ID: 1 })).toEqual({ ...won[0].value });
    expect(won[0].value.Concurrency).toBe(1);
  });
});

// ---------------------------------------------------------------------------------------------
// delete
// ---------------------------------------------------------------------------------------------

describe('MemoryProvider.delete', () => {
  let model: EdmModel;
  let shop: MemoryProvider;
  beforeEach(() => {
    model = shopModel();
    shop = new MemoryProvider(model, shopData());
  });
  const Customers = () => setOf(model, 'Customers');

  it('deletes after a matching precondition, with its links', async () => {
    const Orders = setOf(model, 'Orders');
    await shop.link(
      {
        source: ref(model, 'Orders', { ID: ORDER_A }),
        property: navOf(model, 'Orders', 'Customer'),
        target: ref(model, 'Customers', { ID: '2' }),
        mode: 'replace',
      },
      CONTEXT,
    );
    await shop.delete(
      { entitySet: Customers(), entityType: Customers().entityType, key: { ID: '9007199254740993' }, precondition: ifMatch('W/"4"', Customers().entityType) },
      CONTEXT,
    );
    expect(shop.store.all(Customers()).map((c) => c.ID)).toEqual(['2']);
    expect(shop.store.size(Orders)).toBe(2);
    expect(related(shop, 'Customers', '2', 'Orders')).toEqual([ORDER_A, ORDER_B]);
  });

  it('cascades over OnDelete="Cascade" (an order takes its lines)', async () => {
    const Orders = setOf(model, 'Orders');
    await shop.delete({ entitySet: Orders, entityType: Orders.entityType, key: { ID: ORDER_A }, precondition: undefined }, CONTEXT);
    expect(shop.store.all(setOf(model, 'Lines')).map((line) => line.OrderID)).toEqual([ORDER_B]);
    expect(related(shop, 'Customers', '9007199254740993', 'Orders')).toEqual([]);
  });

  it.each<[string, () => Parameters<MemoryProvider['delete']>[0], string]>([
    [
      'a stale ETag',
      () => ({
        entitySet: Customers(),
        entityType: Customers().entityType,
        key: { ID: '9007199254740993' },
        precondition: ifMatch('W/"3"', Customers().entityType),
      }),
      '412 PRECONDITION_FAILED: The entity tag given in If-Match does not match the current entity tag.',
    ],
    [
      'a missing entity',
      () => ({ entitySet: Customers(), entityType: Customers().entityType, key: { ID: '5' }, precondition: undefined }),
      "404 ENTITY_NOT_FOUND: No entity with the key (5L) exists in 'Customers'.",
    ],
    [
      'a delete that would leave a required (`1`) end dangling without cascade',
      () => ({ entitySet: Customers(), entityType: Customers().entityType, key: { ID: '2' }, precondition: undefined }),
      "409 CONSTRAINT_VIOLATION: Orders(guid'7f3e2a10-1b2c-4d5e-8f90-abcdefabcdef') must be linked to exactly one entity of 'Customers' over 'Customer' (multiplicity 1), but has 0.",
    ],
  ])('refuses %s and changes nothing', async (_what, request, expected) => {
    await expectRefused(shop, () => shop.delete(request(), CONTEXT), expected);
  });
});

// ---------------------------------------------------------------------------------------------
// link
// ---------------------------------------------------------------------------------------------

describe('MemoryProvider.link', () => {
  let model: EdmModel;
  let demo: MemoryProvider;
  let shopModelValue: EdmModel;
  let shop: MemoryProvider;
  beforeEach(() => {
    model = demoModel();
    demo = new MemoryProvider(model, demoData(), { links: DEMO_LINKS });
    shopModelValue = shopModel();
    shop = new MemoryProvider(shopModelValue, shopData());
  });
  const linkOf = (set: string, key: EntityKey, navigation: string, mode: LinkRequest['mode'], target?: [string, EntityKey]): LinkRequest => ({
    source: ref(model, set, key),
    property: navOf(model, set, navigation),
    target: target === undefined ? undefined : ref(model, target[0], target[1]),
    mode,
  });

  it('adds to a many-valued navigation property; both directions agree', async () => {
    await demo.link(linkOf('Categories', { ID: 0 }, 'Products', 'add', ['Products', { ID: 1 }]), CONTEXT);
    expect(related(demo, 'Categories', '0', 'Products')).toEqual([0, 1]);
    expect(related(demo, 'Categories', '1', 'Products')).toEqual([2, 3, 4, 5, 6]);
    expect(related(demo, 'Products', '1', 'Category')).toEqual([0]);
  });

  it('replaces a single-valued link (PUT), and add on a single-valued end replaces too', async () => {
    await demo.link(linkOf('Products', { ID: 1 }, 'Supplier', 'replace', ['Suppliers', { ID: 0 }]), CONTEXT);
    expect(related(demo, 'Products', '1', 'Supplier')).toEqual([0]);
    expect(related(demo, 'Suppliers', '1', 'Products')).toEqual([0, 7, 8]);
    await demo.link(linkOf('Products', { ID: 1 }, 'Supplier', 'add', ['Suppliers', { ID: 1 }]), CONTEXT);
    expect(related(demo, 'Suppliers', '1', 'Products')).toEqual([0, 1, 7, 8]);
    expect(related(demo, 'Suppliers', '0', 'Products')).toEqual([2, 3, 4, 5, 6]);
  });

  it('removes a many-valued link by target and a single-valued one without target', async () => {
    await demo.link(linkOf('Categories', { ID: 1 }, 'Products', 'remove', ['Products', { ID: 2 }]), CONTEXT);
    expect(related(demo, 'Categories', '1', 'Products')).toEqual([1, 3, 4, 5, 6]);
    expect(related(demo, 'Products', '2', 'Category')).toEqual([]);
    await demo.link(linkOf('Products', { ID: 3 }, 'Category', 'remove'), CONTEXT);
    expect(related(demo, 'Categories', '1', 'Products')).toEqual([1, 4, 5, 6]);
  });

  it.each<[string, () => LinkRequest, string]>([
    [
      'a missing source',
      () => linkOf('Categories', { ID: 9 }, 'Products', 'add', ['Products', { ID: 1 }]),
      "404 ENTITY_NOT_FOUND: No entity with the key (9) exists in 'Categories'.",
    ],
    [
      'a missing target',
      () => linkOf('Categories', { ID: 0 }, 'Products', 'add', ['Products', { ID: 99 }]),
      "404 ENTITY_NOT_FOUND: No entity with the key (99) exists in 'Products'.",
    ],
    [
      'removing a link that is not there',
      () => linkOf('Categories', { ID: 0 }, 'Products', 'remove', ['Products', { ID: 1 }]),
      "404 ENTITY_NOT_FOUND: No entity with the key (1) exists in 'Categories(0)/Products'.",
    ],
  ])('refuses %s and changes nothing', async (_what, request, expected) => {
    await expectRefused(demo, () => demo.link(request(), CONTEXT), expected);
  });

  it('refuses to leave a required (`1`) end without its partner', async () => {
    const request: LinkRequest = {
      source: ref(shopModelValue, 'Orders', { ID: ORDER_A }),
      property: navOf(shopModelValue, 'Orders', 'Customer'),
      target: undefined,
      mode: 'remove',
    };
    await expectRefused(
      shop,
      () => shop.link(request, CONTEXT),
      /^409 CONSTRAINT_VIOLATION: Orders\(guid'0d9c1f9e-8d6a-4b61-9b39-5a0e8d3f4a11'\) must be linked/,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// transactions
// ---------------------------------------------------------------------------------------------

describe('MemoryProvider.transaction', () => {
  let model: EdmModel;
  let demo: MemoryProvider;
  beforeEach(() => {
    model = demoModel();
    demo = new MemoryProvider(model, demoData(), { links: DEMO_LINKS });
  });
  const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 1));

  it('undoes every write of a failed changeset, across several awaits', async () => {
    const before = snapshot(demo);
    const work = async (): Promise<void> => {
      await demo.create(createOf(setOf(model, 'Categories'), { ID: 3, Name: 'C' }), CONTEXT);
      await tick();
      await demo.update(updateOf(setOf(model, 'Suppliers'), { ID: 0 }, 'merge', { Name: 'X' }), CONTEXT);
      await tick();
      await demo.link(
        {
          source: ref(model, 'Categories', { ID: 3 }),
          property: navOf(model, 'Categories', 'Products'),
          target: ref(model, 'Products', { ID: 8 }),
          mode: 'add',
        },
        CONTEXT,
      );
      await demo.delete(
        { entitySet: setOf(model, 'Products'), entityType: setOf(model, 'Products').entityType, key: { ID: 0 }, precondition: undefined },
        CONTEXT,
      );
      await tick();
      throw new Error('part 5 failed');
    };
    await expect(demo.transaction(work, CONTEXT)).rejects.toThrow('part 5 failed');
    expect(snapshot(demo)).toEqual(before);
  });

  it('commits a changeset that succeeds and returns its result', async () => {
    const result = await demo.transaction(async () => {
      const created = await demo.create(createOf(setOf(model, 'Categories'), { Name: 'C' }), CONTEXT);
      await tick();
      await demo.create(
        createOf(
          setOf(model, 'Products'),
          { ...PRODUCT },
          { parent: { source: ref(model, 'Categories', { ID: created.ID as number }), navigationProperty: navOf(model, 'Categories', 'Products') } },
        ),
        CONTEXT,
      );
      return created.ID;
    }, CONTEXT);
    expect(result).toBe(3);
    expect(related(demo, 'Categories', '3', 'Products')).toEqual([9]);
  });

  it('makes writes of other requests wait for the open changeset, and never undoes them with it', async () => {
    const order: string[] = [];
    const changeset = demo.transaction(async () => {
      await demo.create(createOf(setOf(model, 'Categories'), { ID: 3, Name: 'inside' }), CONTEXT);
      order.push('inside');
      await tick();
      await tick();
      throw new Error('rolled back');
    }, CONTEXT);
    const outside = demo.create(createOf(setOf(model, 'Categories'), { ID: 4, Name: 'outside' }), CONTEXT).then(() => order.push('outside'));
    await expect(changeset).rejects.toThrow('rolled back');
    await outside;
    expect(order).toEqual(['inside', 'outside']);
    expect(demo.store.all(setOf(model, 'Categories')).map((c) => c.ID)).toEqual([0, 1, 2, 4]);
  });

  it('joins a nested transaction to the outer one: the outer failure undoes the inner writes', async () => {
    const before = snapshot(demo);
    const outer = demo.transaction(async () => {
      await demo.transaction(async () => {
        await demo.create(createOf(setOf(model, 'Categories'), { ID: 3, Name: 'inner' }), CONTEXT);
      }, CONTEXT);
      expect(demo.store.get(setOf(model, 'Categories'), { ID: 3 })?.Name).toBe('inner');
      throw new Error('outer failed');
    }, CONTEXT);
    await expect(outer).rejects.toThrow('outer failed');
    expect(snapshot(demo)).toEqual(before);
  });

  it('refuses at commit a changeset that leaves a required link missing, and undoes all of it', async () => {
    const shopModelValue = shopModel();
    const shop = new MemoryProvider(shopModelValue, shopData());
    const before = snapshot(shop);
    const Orders = setOf(shopModelValue, 'Orders');
    const message = await errorOf(
      shop.transaction(async () => {
        await shop.create(createOf(Orders, { ID: '33333333-3333-4333-8333-333333333333', Total: '1', Modified: new Date(0) }), CONTEXT);
        await shop.update(updateOf(setOf(shopModelValue, 'Customers'), { ID: '2' }, 'merge', { Name: 'Changed' }), CONTEXT);
      }, CONTEXT),
    );
    expect(message).toMatch(
      /^409 CONSTRAINT_VIOLATION: Orders\(guid'33333333-3333-4333-8333-333333333333'\) must be linked to exactly one entity of 'Customers'/,
    );
    expect(snapshot(shop)).toEqual(before);
  });
});

// ---------------------------------------------------------------------------------------------
// media resources
// ---------------------------------------------------------------------------------------------

describe('MemoryProvider media resources', () => {
  let model: EdmModel;
  let gallery: MemoryProvider;
  beforeEach(() => {
    model = galleryModel();
    gallery = new MemoryProvider(model, { Albums: [{ ID: 1, Name: 'Summer', Photos: [1] }], Photos: [{ ID: 1, Title: 'Beach', Version: 0 }] });
  });
  const Photos = () => setOf(model, 'Photos');
  const Documents = () => setOf(model, 'Documents');
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
  const mediaCreate = (set: EdmEntitySet, slug: string | undefined, body = png, contentType = 'image/png'): CreateRequest =>
    createOf(set, {}, { media: slug === undefined ? { contentType, body } : { contentType, body, slug } });

  it('creates a media link entry from its media resource: defaults, a generated key, the Slug as its title', async () => {
    const created = await gallery.create(mediaCreate(Photos(), 'Sunset%20%C3%A0 sea'), CONTEXT);
    expect(created).toEqual({ ID: 2, Title: 'Sunset à sea', Price: null, Version: 0 });
    expect(await gallery.readMedia(ref(model, 'Photos', { ID: 2 }), CONTEXT)).toEqual({ contentType: 'image/png', body: png });
  });

  it('takes the Slug as the key of a type with a single string key; without one that key is missing', async () => {
    const created = await gallery.create(mediaCreate(Documents(), 'notes.txt', Buffer.from('hello'), 'text/plain;charset=utf-8'), CONTEXT);
    expect(created).toEqual({ Name: 'notes.txt', Pages: 0 });
    expect(await gallery.readMedia(ref(model, 'Documents', { Name: 'notes.txt' }), CONTEXT)).toEqual({
      contentType: 'text/plain;charset=utf-8',
      body: Buffer.from('hello'),
    });
    await expectRefused(
      gallery,
      () => gallery.create(mediaCreate(Documents(), undefined), CONTEXT),
      "400 BODY_INVALID: The request body is invalid: the key property 'Name' of Gallery.Document is missing; only a single integer key or a Guid key is generated (a string key may be given in the Slug header).",
    );
    await expectRefused(
      gallery,
      () => gallery.create(mediaCreate(Documents(), 'notes.txt'), CONTEXT),
      "409 ENTITY_EXISTS: An entity with the key ('notes.txt') already exists in 'Documents'.",
    );
  });

  it('stores a copy of the bytes and hands out copies', async () => {
    const body = Buffer.from([1, 2, 3]);
    await gallery.create(mediaCreate(Photos(), undefined, body), CONTEXT);
    body[0] = 9;
    const read = await gallery.readMedia(ref(model, 'Photos', { ID: 2 }), CONTEXT);
    read.body[1] = 9;
    expect((await gallery.readMedia(ref(model, 'Photos', { ID: 2 }), CONTEXT)).body).toEqual(Buffer.from([1, 2, 3]));
  });

  it('tells the writers the content type of an entry it returned (mediaOf), by key', async () => {
    await gallery.create(mediaCreate(Photos(), 'x', png, 'image/jpeg'), CONTEXT);
    expect(gallery.mediaOf({ ID: 2, Title: 'x', Price: null, Version: 0 }, Photos().entityType)).toEqual({ contentType: 'image/jpeg' });
    expect(gallery.mediaOf({ ID: 1, Title: 'Beach', Price: null, Version: 0 }, Photos().entityType)).toBeUndefined();
    expect(gallery.mediaOf({ ID: 2 }, setOf(model, 'Albums').entityType)).toBeUndefined();
    expect(gallery.mediaOf({ ID: 'not a number' }, Photos().entityType)).toBeUndefined();
  });

  it('404s for an entry without a media resource and for a missing entry', async () => {
    expect(await errorOf(gallery.readMedia(ref(model, 'Photos', { ID: 1 }), CONTEXT))).toBe(
      "404 RESOURCE_NOT_FOUND: Resource not found for the segment '$value'.",
    );
    expect(await errorOf(gallery.readMedia(ref(model, 'Photos', { ID: 7 }), CONTEXT))).toBe(
      "404 ENTITY_NOT_FOUND: No entity with the key (7) exists in 'Photos'.",
    );
  });

  it("replaces the media resource after the precondition and moves the entry's version", async () => {
    await gallery.create(mediaCreate(Photos(), 'x'), CONTEXT);
    const updated = await gallery.writeMedia(
      ref(model, 'Photos', { ID: 2 }),
      { contentType: 'image/gif', body: Buffer.from('GIF89a') },
      ifMatch('W/"0"', Photos().entityType),
      CONTEXT,
    );
    expect(updated).toEqual({ ID: 2, Title: 'x', Price: null, Version: 1 });
    expect(await gallery.readMedia(ref(model, 'Photos', { ID: 2 }), CONTEXT)).toEqual({ contentType: 'image/gif', body: Buffer.from('GIF89a') });
    await expectRefused(
      gallery,
      () => gallery.writeMedia(ref(model, 'Photos', { ID: 2 }), { contentType: 'image/png', body: png }, ifMatch('W/"0"', Photos().entityType), CONTEXT),
      '412 PRECONDITION_FAILED: The entity tag given in If-Match does not match the current entity tag.',
    );
    await expectRefused(
      gallery,
      () => gallery.writeMedia(ref(model, 'Photos', { ID: 5 }), { contentType: 'image/png', body: png }, undefined, CONTEXT),
      "404 ENTITY_NOT_FOUND: No entity with the key (5) exists in 'Photos'.",
    );
  });

  it('gives a media resource to an entry that had none', async () => {
    await gallery.writeMedia(ref(model, 'Photos', { ID: 1 }), { contentType: 'image/png', body: png }, undefined, CONTEXT);
    expect((await gallery.readMedia(ref(model, 'Photos', { ID: 1 }), CONTEXT)).contentType).toBe('image/png');
  });

  it('deletes the media resource with its entry, also through a cascade, and brings it back on rollback', async () => {
    await gallery.create(mediaCreate(Photos(), 'a'), CONTEXT);
    await gallery.writeMedia(ref(model, 'Photos', { ID: 1 }), { contentType: 'image/png', body: png }, undefined, CONTEXT);
    await gallery.link(
      { source: ref(model, 'Albums', { ID: '1' }), property: navOf(model, 'Albums', 'Photos'), target: ref(model, 'Photos', { ID: 2 }), mode: 'add' },
      CONTEXT,
    );
    const before = snapshot(gallery);
    await expect(
      gallery.transaction(async () => {
        await gallery.delete(
          { entitySet: setOf(model, 'Albums'), entityType: setOf(model, 'Albums').entityType, key: { ID: '1' }, precondition: undefined },
          CONTEXT,
        );
        throw new Error('undo');
      }, CONTEXT),
    ).rejects.toThrow('undo');
    expect(snapshot(gallery)).toEqual(before);
    await gallery.delete(
      { entitySet: setOf(model, 'Albums'), entityType: setOf(model, 'Albums').entityType, key: { ID: '1' }, precondition: undefined },
      CONTEXT,
    );
    expect(gallery.store.size(Photos())).toBe(0);
    expect(storeOf(gallery).media(Photos(), '1')).toBeUndefined();
    expect(storeOf(gallery).media(Photos(), '2')).toBeUndefined();
    await gallery.create(createOf(Photos(), { ID: 2, Title: null, Price: null, Version: 0 }), CONTEXT);
    expect(await errorOf(gallery.readMedia(ref(model, 'Photos', { ID: 2 }), CONTEXT))).toBe(
      "404 RESOURCE_NOT_FOUND: Resource not found for the segment '$value'.",
    );
  });

  it('applies Decimal Precision and Scale on write', async () => {
    await expectRefused(
      gallery,
      () => gallery.update(updateOf(Photos(), { ID: 1 }, 'merge', { Price: '12.345' }), CONTEXT),
      "400 VALUE_INVALID: Invalid value for property 'Price' of type Edm.Decimal: 12.345 has 3 digits after the point, more than the Scale of 2.",
    );
    await expectRefused(
      gallery,
      () => gallery.update(updateOf(Photos(), { ID: 1 }, 'merge', { Price: '12345.5' }), CONTEXT),
      "400 VALUE_INVALID: Invalid value for property 'Price' of type Edm.Decimal: 12345.5 has 5 digits before the point, more than Precision 6 with Scale 2 allow.",
    );
    expect((await gallery.update(updateOf(Photos(), { ID: 1 }, 'merge', { Price: '1234.50' }), CONTEXT)).Price).toBe('1234.5');
  });
});
