/**
 * Sent properties (issue 13): CreateRequest and UpdateRequest say which properties the client
 * listed, a create that omits a required property is 400 PROPERTY_REQUIRED before the provider is
 * called (at every level of a deep insert), a replace (PUT) resets what it omits by one rule
 * (`replacedValues`) before the provider is called, and the helper that fills the model's defaults
 * for a provider that stores them (a create's `values` are only what was sent).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx, MemoryProvider } from '../../lib';
import type { EdmEntityType, EdmModel } from '../../lib';
import type { ODataRequest, RequestContext } from '../../lib/protocol/message';
import { assertRequiredSent, fillDefaults, isRequiredOnCreate, isStoreGenerated, replacedValues, requiredProperties } from '../../lib/provider/sent';
import type { CreateRequest, Entity, UpdateRequest } from '../../lib/provider/types';
import { createService } from '../../lib/service';
import { catchODataError } from '../helpers/odata-error';

const MODEL: EdmModel = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'provider', 'orders.xml'), 'utf8'));
const ROOT = 'http://localhost/odata/';

function typeOf(name: string): EdmEntityType {
  const type = MODEL.entityTypes.get(`Shop.${name}`);
  if (type === undefined) throw new Error(`no type ${name}`);
  return type;
}

function propertyOf(type: string, name: string) {
  const property = typeOf(type).propertiesByName.get(name);
  if (property === undefined) throw new Error(`no property ${name}`);
  return property;
}

/** A MemoryProvider that records the write requests the service hands it. */
class RecordingProvider extends MemoryProvider {
  readonly creates: CreateRequest[] = [];
  readonly updates: UpdateRequest[] = [];

  override async create(request: CreateRequest, context: RequestContext): Promise<Entity> {
    this.creates.push(request);
    return super.create(request, context);
  }

  override async update(request: UpdateRequest, context: RequestContext): Promise<Entity> {
    this.updates.push(request);
    return super.update(request, context);
  }
}

function setup() {
  const provider = new RecordingProvider(MODEL, {
    Customers: [{ ID: 1, Name: 'Ada' }],
    Orders: [
      {
        ID: 1,
        CustomerID: 1,
        Total: '9.50',
        Status: 'paid',
        CreatedAt: '2026-01-01T00:00:00Z',
        Version: 1,
        ShipTo: { Street: null, City: 'Oslo' },
        Options: { Gift: true },
        Customer: 1,
      },
    ],
    Lines: [],
  });
  const service = createService({ model: MODEL, provider, requireIfMatch: false, logger: () => undefined });
  const send = async (method: string, path: string, body?: unknown) => {
    const request: ODataRequest = {
      method,
      path,
      query: '',
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
      serviceRoot: ROOT,
      context: { request: {} as RequestContext['request'], state: new Map() },
    };
    const response = await service.handle(request);
    const text = typeof response.body === 'string' ? response.body : Buffer.isBuffer(response.body) ? response.body.toString('utf8') : '';
    return {
      status: response.status,
      json: text === '' ? undefined : (JSON.parse(text) as { d?: Record<string, unknown>; error?: { code: string; message: { value: string } } }),
    };
  };
  return { provider, send };
}

const CUSTOMER_1 = { __metadata: { uri: 'Customers(1)' } };
const ORDER = { ID: 7, CustomerID: 1, Total: '12.00', ShipTo: { City: 'Bergen' }, Customer: CUSTOMER_1 };

describe('isStoreGenerated and isRequiredOnCreate', () => {
  it.each([
    ['Order', 'ID', false, 'a key: the provider generates it or refuses the entry'],
    ['Order', 'CustomerID', true, 'not nullable, no default'],
    ['Order', 'Total', true, 'not nullable, no default'],
    ['Order', 'Note', false, 'nullable'],
    ['Order', 'Status', false, 'has a DefaultValue'],
    ['Order', 'CreatedAt', false, 'annotation:StoreGeneratedPattern="Computed"'],
    ['Order', 'Version', false, 'a concurrency token: the provider sets it'],
    ['Order', 'ShipTo', true, 'a complex property with a required member (City)'],
    ['Order', 'Options', false, 'a complex property whose members all have defaults'],
    ['Customer', 'Name', true, 'not nullable, no default'],
  ])('%s.%s required on create: %s (%s)', (type, name, required) => {
    expect(isRequiredOnCreate(propertyOf(type, name))).toBe(required);
  });

  it('recognises StoreGeneratedPattern only in the CSDL annotation namespace, for Identity and Computed', () => {
    expect(isStoreGenerated(propertyOf('Order', 'CreatedAt'))).toBe(true);
    expect(isStoreGenerated(propertyOf('Order', 'Total'))).toBe(false);
  });

  it('lists the required properties of a type in declaration order, computed once', () => {
    expect(requiredProperties(typeOf('Order')).map((property) => property.name)).toEqual(['CustomerID', 'Total', 'ShipTo']);
    expect(requiredProperties(typeOf('Order'))).toBe(requiredProperties(typeOf('Order')));
  });
});

describe('fillDefaults', () => {
  it('fills every declared non-key property the values lack with the model default, in declaration order, dynamic ones after', () => {
    const filled = fillDefaults(typeOf('Order'), { Total: '1.00', Extra: 'x', Note: null });
    expect(Object.keys(filled)).toEqual(['CustomerID', 'Total', 'Note', 'Status', 'CreatedAt', 'Version', 'ShipTo', 'Options', 'Extra']);
    expect(filled).toMatchObject({
      CustomerID: 0,
      Total: '1.00',
      Note: null,
      Status: 'new',
      Version: 0,
      ShipTo: { Street: null, City: '' },
      Options: { Gift: false },
    });
    expect(filled.CreatedAt).toEqual(new Date(0));
    expect('ID' in filled).toBe(false);
  });
});

describe('replacedValues: what a PUT stores', () => {
  const order = typeOf('Order');
  const customerOf = order.navigationPropertiesByName.get('Customer');
  const customers = MODEL.defaultContainer.entitySets.find((set) => set.name === 'Customers');
  if (customerOf === undefined || customers === undefined) throw new Error('no Order/Customer');
  const full = { ID: 1, CustomerID: 1, Total: '3.00', ShipTo: { City: 'Oslo' } };

  it('resets each omitted property to its DefaultValue, else null (a complex one to its members), and leaves out key-less, token and store-generated ones', () => {
    const values = replacedValues(order, full, []);
    expect(Object.keys(values)).toEqual(['ID', 'CustomerID', 'Total', 'Note', 'Status', 'ShipTo', 'Options']);
    expect(values).toEqual({ ID: 1, CustomerID: 1, Total: '3.00', Note: null, Status: 'new', ShipTo: { City: 'Oslo' }, Options: { Gift: false } });
  });

  it('keeps what the body sends, also for a token or a store-generated property, and dynamic properties after the declared ones', () => {
    const at = new Date(0);
    expect(replacedValues(order, { ...full, Extra: 'x', Version: 4, CreatedAt: at, Note: 'n' }, [])).toEqual({
      ...full,
      Note: 'n',
      Status: 'new',
      CreatedAt: at,
      Version: 4,
      Options: { Gift: false },
      Extra: 'x',
    });
  });

  it.each([
    ['Total', 'not nullable, no DefaultValue'],
    ['CustomerID', 'a foreign key the body does not link'],
    ['ShipTo', 'a complex property with a required member'],
  ] as const)('omitting %s (%s) is 400 PROPERTY_REQUIRED naming it', (name, _why) => {
    const { [name]: _omitted, ...body } = full;
    const error = catchODataError(() => replacedValues(order, body, []));
    expect([error.status, error.code, error.target]).toEqual([400, 'PROPERTY_REQUIRED', name]);
    expect(error.message).toContain(`'${name}' of Shop.Order`);
  });

  it('leaves out a foreign key that a link in the body supplies (a binding with a target, not the explicit null)', () => {
    const { CustomerID: _omitted, ...body } = full;
    const linked = replacedValues(order, body, [{ property: customerOf, targets: [{ entitySet: customers, key: { ID: 1 } }] }]);
    expect('CustomerID' in linked).toBe(false);
    expect(catchODataError(() => replacedValues(order, body, [{ property: customerOf, targets: [] }])).code).toBe('PROPERTY_REQUIRED');
  });
});

describe('sent properties through the service', () => {
  it('POST: `values` holds what the body listed (the key too) and nothing else', async () => {
    const { provider, send } = setup();
    const created = await send('POST', 'Orders', ORDER);
    expect(created.status).toBe(201);
    const [request] = provider.creates;
    expect(request.values).toEqual({ ID: 7, CustomerID: 1, Total: '12', ShipTo: { City: 'Bergen' } });
    // MemoryProvider stores the model's defaults for what was not sent (fillDefaults).
    expect(created.json?.d).toMatchObject({ ID: 7, Status: 'new', Note: null, Options: { Gift: false } });
  });

  it.each([
    ['Total', { ID: 8, CustomerID: 1, ShipTo: { City: 'Bergen' } }],
    ['CustomerID', { ID: 8, Total: '1.00', ShipTo: { City: 'Bergen' } }],
    ['ShipTo', { ID: 8, CustomerID: 1, Total: '1.00', Customer: CUSTOMER_1 }],
  ])('POST without %s: 400 PROPERTY_REQUIRED naming it, and the provider is not called', async (name, body) => {
    const { provider, send } = setup();
    const response = await send('POST', 'Orders', body);
    expect([response.status, response.json?.error?.code, response.json?.error?.message.value]).toEqual([
      400,
      'PROPERTY_REQUIRED',
      `The property '${name}' of Shop.Order is required: it is not nullable and has no default value, so a new entry, and a replace (PUT) of one, must give it.`,
    ]);
    expect(provider.creates).toEqual([]);
  });

  it('a foreign key of a referential constraint is supplied by the link: POST through the navigation or with a binding', async () => {
    const { send } = setup();
    const { CustomerID: _omitted, Customer: _link, ...withoutForeignKey } = ORDER;
    expect((await send('POST', 'Customers(1)/Orders', withoutForeignKey)).status).toBe(201);
    expect((await send('POST', 'Orders', { ...withoutForeignKey, ID: 9, Customer: CUSTOMER_1 })).status).toBe(201);
  });

  it('deep insert: each inline entry has its own `values`, its parent supplies its foreign key, and a required property it omits is a 400 naming its type', async () => {
    const { provider, send } = setup();
    const ok = await send('POST', 'Orders', { ...ORDER, Lines: [{ ID: 1, Quantity: 2 }] });
    expect(ok.status).toBe(201);
    const [inline] = provider.creates[0].inline;
    expect(inline.entries[0].values).toEqual({ ID: 1, Quantity: 2 });

    const refused = await send('POST', 'Orders', { ...ORDER, ID: 10, Lines: [{ ID: 2, Quantity: 1 }, { ID: 3 }] });
    expect([refused.status, refused.json?.error?.code, refused.json?.error?.message.value]).toEqual([
      400,
      'PROPERTY_REQUIRED',
      "The property 'Quantity' of Shop.Line is required: it is not nullable and has no default value, so a new entry, and a replace (PUT) of one, must give it.",
    ]);
    expect(provider.creates).toHaveLength(1);
  });

  it('PUT: `sent` names the non-key properties listed, `values` resets the rest and lacks the kept ones; MERGE and a property PUT send only theirs', async () => {
    const { provider, send } = setup();
    expect((await send('PUT', 'Orders(1)', { CustomerID: 1, Total: '3.00', ShipTo: { City: 'Oslo' } })).status).toBe(204);
    expect((await send('MERGE', 'Orders(1)', { Note: 'ring twice' })).status).toBe(204);
    expect((await send('PUT', 'Orders(1)/Note', { Note: 'ring once' })).status).toBe(204);
    const [put, merge, property] = provider.updates;
    expect([put.mode, [...put.sent].sort()]).toEqual(['replace', ['CustomerID', 'ShipTo', 'Total']]);
    expect(put.values).toEqual({ ID: 1, CustomerID: 1, Total: '3', Note: null, Status: 'new', ShipTo: { City: 'Oslo' }, Options: { Gift: false } });
    expect([merge.mode, [...merge.sent], merge.values]).toEqual(['merge', ['Note'], { Note: 'ring twice' }]);
    expect([property.mode, [...property.sent], property.values]).toEqual(['merge', ['Note'], { Note: 'ring once' }]);
  });

  it('PUT keeps the store-generated CreatedAt and advances the token it omits; omitting a required property is 400 before the provider is called', async () => {
    const { provider, send } = setup();
    expect((await send('PUT', 'Orders(1)', { CustomerID: 1, Total: '3.00', ShipTo: { City: 'Oslo' } })).status).toBe(204);
    const read = await send('GET', 'Orders(1)');
    expect(read.json?.d).toMatchObject({ Total: '3', Status: 'new', Note: null, CreatedAt: '/Date(1767225600000)/', Version: 2 });

    const refused = await send('PUT', 'Orders(1)', { CustomerID: 1, ShipTo: { City: 'Bergen' } });
    expect([refused.status, refused.json?.error?.code, refused.json?.error?.message.value]).toEqual([
      400,
      'PROPERTY_REQUIRED',
      "The property 'Total' of Shop.Order is required: it is not nullable and has no default value, so a new entry, and a replace (PUT) of one, must give it.",
    ]);
    expect(provider.updates).toHaveLength(1);
    expect((await send('GET', 'Orders(1)')).json?.d).toMatchObject({ Total: '3', ShipTo: { City: 'Oslo' } });
  });
});

describe('assertRequiredSent', () => {
  const orders = MODEL.defaultContainer.entitySets.find((set) => set.name === 'Orders');
  if (orders === undefined) throw new Error('no Orders');
  const request = (sent: string[]): CreateRequest => ({
    entitySet: orders,
    entityType: orders.entityType,
    // What a request sent is its values' names; the values themselves do not matter here.
    values: Object.fromEntries(sent.map((name) => [name, null])),
    bindings: [],
    inline: [],
    parent: undefined,
    media: undefined,
  });

  it('passes when every required property was sent, and requires nothing of a media link entry created from its media resource', () => {
    expect(() => assertRequiredSent(request(['CustomerID', 'Total', 'ShipTo']))).not.toThrow();
    expect(() => assertRequiredSent({ ...request([]), media: { contentType: 'image/png', body: Buffer.alloc(0) } })).not.toThrow();
  });

  it('names the first missing one, with the property as the error target', () => {
    const error = catchODataError(() => assertRequiredSent(request(['CustomerID'])));
    expect([error.status, error.code, error.target]).toEqual([400, 'PROPERTY_REQUIRED', 'Total']);
  });
});
