/**
 * The kit's key helpers: the EntityKey of an entity's values, a caller's key in model form, one
 * identity string per entity whatever the spelling, and the one printed form messages use.
 */
import { describeKey, entityKey, keyIdentity, normalizeKey } from '../../lib';
import { defineModel } from '../../lib/edm';
import type { EdmEntityType } from '../../lib/edm/model';

const model = defineModel({
  namespace: 'Keys',
  entityTypes: [
    {
      name: 'One',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Name', type: 'Edm.String' },
      ],
    },
    {
      name: 'Line',
      key: ['OrderID', 'Code'],
      properties: [
        { name: 'OrderID', type: 'Edm.Int32', nullable: false },
        { name: 'Code', type: 'Edm.String', nullable: false },
      ],
    },
    {
      name: 'Every',
      key: ['Big', 'Dec', 'Id', 'When', 'At', 'Span', 'Bytes', 'Flag'],
      properties: [
        { name: 'Big', type: 'Edm.Int64', nullable: false },
        { name: 'Dec', type: 'Edm.Decimal', nullable: false },
        { name: 'Id', type: 'Edm.Guid', nullable: false },
        { name: 'When', type: 'Edm.DateTime', nullable: false },
        { name: 'At', type: 'Edm.DateTimeOffset', nullable: false },
        { name: 'Span', type: 'Edm.Time', nullable: false },
        { name: 'Bytes', type: 'Edm.Binary', nullable: false },
        { name: 'Flag', type: 'Edm.Boolean', nullable: false },
      ],
    },
    { name: 'ByDecimal', key: ['Dec'], properties: [{ name: 'Dec', type: 'Edm.Decimal', nullable: false }] },
  ],
  entityContainers: [
    {
      name: 'C',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Ones', entityType: 'Keys.One' },
        { name: 'Lines', entityType: 'Keys.Line' },
        { name: 'Everies', entityType: 'Keys.Every' },
        { name: 'ByDecimals', entityType: 'Keys.ByDecimal' },
      ],
    },
  ],
});
const type = (name: string): EdmEntityType => model.entityTypes.get(`Keys.${name}`) as EdmEntityType;
const When = new Date(Date.UTC(2000, 0, 2, 3, 4, 5));
const every = {
  Big: '12',
  Dec: '2.5',
  Id: '01234567-89ab-cdef-0123-456789abcdef',
  When,
  At: When,
  Span: 'PT2H',
  Bytes: new Uint8Array([1, 255]),
  Flag: true,
};

describe('entityKey', () => {
  it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    ['a single key, other properties left out', 'One', { ID: 1, Name: 'Bread' }, { ID: 1 }],
    ['a composite key', 'Line', { OrderID: 7, Code: 'a', Extra: true }, { OrderID: 7, Code: 'a' }],
    ['a Date key value kept as is', 'Every', { ...every, Other: 1 }, every],
  ])('%s', (_name, name, entity, expected) => {
    expect(entityKey(type(name), entity)).toEqual(expected);
  });

  it.each<[string, string, Record<string, unknown>, string]>([
    ['a missing key value', 'One', { Name: 'Bread' }, 'ID'],
    ['a null key value', 'One', { ID: null }, 'ID'],
    ['an object as key value', 'One', { ID: { value: 1 } }, 'ID'],
    ['one part of a composite key missing', 'Line', { OrderID: 7 }, 'Code'],
  ])('refuses %s as a provider bug (TypeError, answered 500)', (_name, name, entity, missing) => {
    const names = type(name)
      .key.map((property) => property.name)
      .join(', ');
    expect(() => entityKey(type(name), entity)).toThrow(
      new TypeError(`An entity of Keys.${name} has no primitive value for its key property '${missing}' (the key is ${names}).`),
    );
  });
});

describe('normalizeKey', () => {
  it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    ['a key in model form', 'One', { ID: 1 }, { ID: 1 }],
    [
      'data-file forms',
      'Every',
      { ...every, Big: 12, Dec: '2.50', Id: every.Id.toUpperCase(), When: '2000-01-02T03:04:05Z', Span: 'PT1H60M', Bytes: 'Af8=' },
      every,
    ],
  ])('converts %s', (_name, name, given, expected) => {
    expect(normalizeKey(type(name), given)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, string, Record<string, unknown>, string]>([
    ['a missing key property', 'Line', { OrderID: 1 }, `key property 'Code': the property is not nullable (Nullable="false")`],
    ['a value of the wrong form', 'One', { ID: '1' }, "key property 'ID': expected an integer number"],
    ['a name that is not a key property', 'One', { ID: 1, Name: 'x' }, "'Name' is not a key property of Keys.One"],
  ])('refuses %s', (_name, name, given, detail) => {
    expect(normalizeKey(type(name), given)).toEqual({ ok: false, detail });
  });
});

describe('keyIdentity', () => {
  it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    ['Decimal spellings', 'ByDecimal', { Dec: '2.50' }, { Dec: '2.5' }],
    ['a Decimal as a number', 'ByDecimal', { Dec: 2.5 }, { Dec: '2.5' }],
    ['Int64 leading zeros, a number, a bigint', 'Every', { ...every, Big: '0012' }, { ...every, Big: 12n }],
    ['GUID case', 'Every', { ...every, Id: every.Id.toUpperCase() }, every],
    ['equal Edm.Time durations', 'Every', { ...every, Span: 'PT1H60M' }, every],
    ['Dates by instant', 'Every', { ...every, When: new Date(When.getTime()) }, every],
    ['bytes by content', 'Every', { ...every, Bytes: Buffer.from([1, 255]) }, every],
    ['other properties ignored', 'Line', { OrderID: 1, Code: 'a', Name: 'x' }, { Code: 'a', OrderID: 1 }],
  ])('is one string for %s', (_name, name, a, b) => {
    expect(keyIdentity(type(name), a)).toBe(keyIdentity(type(name), b));
  });

  it.each<[string, string, Record<string, unknown>, Record<string, unknown>]>([
    ['different values', 'One', { ID: 1 }, { ID: 2 }],
    ['composite parts that would join alike', 'Line', { OrderID: 1, Code: '2,3' }, { OrderID: 12, Code: ',3' }],
    ['a quote inside a part', 'Line', { OrderID: 1, Code: '"],["' }, { OrderID: 1, Code: '' }],
    ['Dates a millisecond apart', 'Every', every, { ...every, When: new Date(When.getTime() + 1) }],
  ])('tells %s apart', (_name, name, a, b) => {
    expect(keyIdentity(type(name), a)).not.toBe(keyIdentity(type(name), b));
  });

  it('keeps the text of a single key and a JSON array for a composite one (the memory store keys by it)', () => {
    expect([keyIdentity(type('One'), { ID: 7 }), keyIdentity(type('Line'), { OrderID: 7, Code: 'a"b' })]).toEqual(['7', '["7","a\\"b"]']);
  });
});

describe('describeKey', () => {
  it.each<[string, string, Record<string, unknown>, string]>([
    ['a single key', 'One', { ID: 1 }, '(1)'],
    ['a composite key, by name', 'Line', { OrderID: 1, Code: "O'Neil" }, "(OrderID=1,Code='O''Neil')"],
    ['characters a URI would percent-encode, as typed', 'Line', { OrderID: 1, Code: 'a b/c' }, "(OrderID=1,Code='a b/c')"],
    [
      'every literal form',
      'Every',
      every,
      "(Big=12L,Dec=2.5M,Id=guid'01234567-89ab-cdef-0123-456789abcdef',When=datetime'2000-01-02T03:04:05'," +
        "At=datetimeoffset'2000-01-02T03:04:05Z',Span=time'PT2H',Bytes=X'01FF',Flag=true)",
    ],
    [
      'a data-file form, converted',
      'Every',
      { ...every, When: '2000-01-02T03:04:05Z', Bytes: 'Af8=' },
      "(Big=12L,Dec=2.5M,Id=guid'01234567-89ab-cdef-0123-456789abcdef',When=datetime'2000-01-02T03:04:05',At=datetimeoffset'2000-01-02T03:04:05Z',Span=time'PT2H',Bytes=X'01FF',Flag=true)",
    ],
    ['a value that does not fit, described', 'One', { ID: 'seven' }, '("seven")'],
    ['a missing value', 'Line', { OrderID: 1 }, '(OrderID=1,Code=undefined)'],
    ['null', 'One', { ID: null }, '(null)'],
  ])('prints %s', (_name, name, key, expected) => {
    expect(describeKey(type(name), key)).toBe(expected);
  });
});
