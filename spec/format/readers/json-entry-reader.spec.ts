import { readJsonEntry } from '../../../lib/format/readers';
import type { EntryTarget, ReadContext } from '../../../lib/format/readers';
import { BAD_VALUE_CASES, PRIMITIVE_CASES } from './primitive-cases';
import { catchODataError, contextFor, summarize, targetOf, writeModel } from './reader-fixtures';
import type { EntrySummary } from './reader-fixtures';

const items = targetOf(writeModel, 'Items');
const context = contextFor();

function read(body: unknown, target: EntryTarget = items, readContext: ReadContext = context): EntrySummary {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  return summarize(readJsonEntry(Buffer.from(text, 'utf8'), target, readContext));
}

const PRIMITIVE_JSON_CASES = PRIMITIVE_CASES.flatMap(([name, type, , forms, expected]) => forms.map((form) => [name, type, form, expected] as const));

describe('readJsonEntry: every primitive type', () => {
  it.each(PRIMITIVE_JSON_CASES)('%s (%s) %j', (name, _type, json, expected) => {
    expect(read({ [name]: json })).toEqual({ type: 'WriteTest.Item', properties: { [name]: expected } });
    expect(read({ d: { [name]: json } }).properties).toEqual({ [name]: expected });
  });

  it('keeps the escaped "\\/Date(...)\\/" form that WCF and SAPUI5 send', () => {
    expect(read('{"PDateTime":"\\/Date(1262401445000)\\/"}').properties).toEqual({ PDateTime: new Date(Date.UTC(2010, 0, 2, 3, 4, 5)) });
  });

  it.each(BAD_VALUE_CASES)('a bad %s value (Atom %j, JSON %j) -> 400 VALUE_INVALID naming the property', (name, _text, json) => {
    const error = catchODataError(() => read({ [name]: json }));
    expect([error.status, error.code]).toEqual([400, 'VALUE_INVALID']);
    expect(error.message).toContain(`'${name}'`);
  });

  it('reads null for every nullable type', () => {
    const nulls = Object.fromEntries(PRIMITIVE_CASES.map(([name]) => [name, null]));
    expect(read(nulls).properties).toEqual(nulls);
  });
});

describe('readJsonEntry: entries', () => {
  it.each<[string, unknown, EntryTarget, EntrySummary]>([
    [
      'the d wrapper and __metadata naming the target type',
      { d: { __metadata: { type: 'WriteTest.Item', uri: 'http://localhost:4004/odata/Items(1)' }, ID: 1, Code: 'AB' } },
      items,
      { type: 'WriteTest.Item', properties: { ID: 1, Code: 'AB' }, id: 'http://localhost:4004/odata/Items(1)' },
    ],
    ['no wrapper, no __metadata', { Code: 'AB' }, items, { type: 'WriteTest.Item', properties: { Code: 'AB' } }],
    ['an empty object', {}, items, { type: 'WriteTest.Item', properties: {} }],
    ['an empty d', { d: {} }, items, { type: 'WriteTest.Item', properties: {} }],
    [
      'a derived type',
      { __metadata: { type: 'WriteTest.Employee' }, ID: 3, Salary: '1000.50' },
      targetOf(writeModel, 'People'),
      { type: 'WriteTest.Employee', properties: { ID: 3, Salary: '1000.5' } },
    ],
    [
      'nested complex values, with and without __metadata',
      { Address: { __metadata: { type: 'WriteTest.Address' }, Street: 'Main 1', Geo: { Lat: 1.5, Lon: null } } },
      items,
      { type: 'WriteTest.Item', properties: { Address: { Street: 'Main 1', Geo: { Lat: 1.5, Lon: null } } } },
    ],
    [
      'bindings: __metadata.uri, __deferred.uri, an array and {"results":[...]} of references',
      {
        Owner: { __metadata: { uri: 'http://localhost:4004/odata/People(5)' } },
        Detail: { __deferred: { uri: 'ItemDetails(3)' } },
        Parts: { results: [{ __metadata: { uri: "Parts(ItemID=1,PartNo='a')" } }, { __metadata: { uri: "/odata/Parts(ItemID=1,PartNo='b')" } }] },
      },
      items,
      {
        type: 'WriteTest.Item',
        properties: {},
        bindings: { Owner: ['People(ID=5)'], Detail: ['ItemDetails(ID=3)'], Parts: ['Parts(ItemID=1,PartNo=a)', 'Parts(ItemID=1,PartNo=b)'] },
      },
    ],
    [
      'a reference echoed with the properties of an expanded read stays a reference',
      { Owner: { __metadata: { uri: 'People(5)', type: 'WriteTest.Person' }, ID: 5, Name: 'Ann' } },
      items,
      { type: 'WriteTest.Item', properties: {}, bindings: { Owner: ['People(ID=5)'] } },
    ],
    [
      'the deferred links of a read entry are echoed and ignored',
      { Code: 'A', Owner: { __deferred: { uri: 'http://localhost:4004/odata/Items(1)/Owner' } }, Parts: { __deferred: { uri: 'Items(1)/Parts' } } },
      items,
      { type: 'WriteTest.Item', properties: { Code: 'A' } },
    ],
    [
      'deep insert: an object, an array, {"results":[...]}, and null for a single-valued navigation',
      {
        ID: 1,
        Owner: { __metadata: { type: 'WriteTest.Employee' }, ID: 9, Name: 'Eve' },
        Parts: [{ PartNo: 'a' }, { __metadata: { uri: "Parts(ItemID=1,PartNo='c')" } }, { PartNo: 'b', Quantity: 2 }],
        Detail: null,
      },
      items,
      {
        type: 'WriteTest.Item',
        properties: { ID: 1 },
        bindings: { Parts: ['Parts(ItemID=1,PartNo=c)'] },
        inline: {
          Owner: { set: 'People', entries: [{ type: 'WriteTest.Employee', properties: { ID: 9, Name: 'Eve' } }] },
          Parts: {
            set: 'Parts',
            entries: [
              { type: 'WriteTest.Part', properties: { PartNo: 'a' } },
              { type: 'WriteTest.Part', properties: { PartNo: 'b', Quantity: 2 } },
            ],
          },
          Detail: { set: 'ItemDetails', entries: [] },
        },
      },
    ],
    [
      'an empty array and empty results insert nothing',
      { Parts: { results: [] } },
      items,
      { type: 'WriteTest.Item', properties: {}, inline: { Parts: { set: 'Parts', entries: [] } } },
    ],
    [
      'inline entries carry their own bindings and inline entries',
      { Owner: { ID: 2, Items: [{ __metadata: { uri: 'Items(4)' } }, { ID: 5, Parts: [{ PartNo: 'q' }] }] } },
      items,
      {
        type: 'WriteTest.Item',
        properties: {},
        inline: {
          Owner: {
            set: 'People',
            entries: [
              {
                type: 'WriteTest.Person',
                properties: { ID: 2 },
                bindings: { Items: ['Items(ID=4)'] },
                inline: {
                  Items: {
                    set: 'Items',
                    entries: [
                      {
                        type: 'WriteTest.Item',
                        properties: { ID: 5 },
                        inline: { Parts: { set: 'Parts', entries: [{ type: 'WriteTest.Part', properties: { PartNo: 'q' } }] } },
                      },
                    ],
                  },
                },
              },
            ],
          },
        },
      },
    ],
    [
      'a media link entry (__metadata with media_src and content_type)',
      { __metadata: { type: 'WriteTest.Photo', media_src: 'Photos(1)/$value', content_type: 'image/png' }, ID: 1, Caption: 'Sea' },
      targetOf(writeModel, 'Photos'),
      { type: 'WriteTest.Photo', properties: { ID: 1, Caption: 'Sea' }, mediaLinkEntry: true },
    ],
    [
      'an open type: dynamic property types inferred from JSON',
      {
        ID: 1,
        Color: 'red',
        Count: 5,
        Big: 5000000000,
        Ratio: 0.5,
        Flag: true,
        When: '/Date(0)/',
        Local: '/Date(0+0060)/',
        Nothing: null,
        Where: { __metadata: { type: 'WriteTest.GeoPoint' }, Lat: 1 },
      },
      targetOf(writeModel, 'Bags'),
      {
        type: 'WriteTest.Bag',
        properties: {
          ID: 1,
          Color: 'red',
          Count: 5,
          Big: 5000000000,
          Ratio: 0.5,
          Flag: true,
          When: new Date(0),
          Local: new Date(0),
          Nothing: null,
          Where: { Lat: 1 },
        },
        dynamicTypes: {
          Color: 'Edm.String',
          Count: 'Edm.Int32',
          Big: 'Edm.Double',
          Ratio: 'Edm.Double',
          Flag: 'Edm.Boolean',
          When: 'Edm.DateTime',
          Local: 'Edm.DateTimeOffset',
          Nothing: 'Edm.String',
          Where: 'WriteTest.GeoPoint',
        },
      },
    ],
    [
      'a composite key equal to the URL key (MERGE)',
      { ItemID: 4, PartNo: 'a', Quantity: 1 },
      targetOf(writeModel, 'Parts', { ItemID: 4, PartNo: 'a' }),
      { type: 'WriteTest.Part', properties: { ItemID: 4, PartNo: 'a', Quantity: 1 } },
    ],
  ])('%s', (_name, body, target, expected) => {
    expect(read(body, target)).toEqual(expected);
  });

  it('resolves $<ContentID> references of a change set', () => {
    const batch = contextFor(writeModel, {
      contentIds: new Map([
        ['1', 'People(9)'],
        ['p', "Parts(ItemID=2,PartNo='z')"],
      ]),
    });
    expect(read({ Owner: { __metadata: { uri: '$1' } }, Parts: [{ __metadata: { uri: '$p' } }] }, items, batch).bindings).toEqual({
      Owner: ['People(ID=9)'],
      Parts: ['Parts(ItemID=2,PartNo=z)'],
    });
  });

  it('takes a lone "d" as data when the type has a member named d', () => {
    // Bags is open: {"d": {...}} is still the wrapper, since no declared member is called d.
    expect(read({ d: { ID: 1 } }, targetOf(writeModel, 'Bags')).properties).toEqual({ ID: 1 });
  });
});

describe('readJsonEntry: refused bodies', () => {
  const deepEntry = (levels: number): unknown => {
    let inner: Record<string, unknown> = {};
    for (let level = levels; level > 0; level--) inner = level % 2 === 1 ? { Parts: [inner] } : { Item: inner };
    return inner;
  };

  it.each<[string, unknown, number, string, string]>([
    ['malformed JSON', '{"Code": }', 400, 'BODY_SYNTAX', 'The request body is not well-formed JSON'],
    ['trailing garbage', '{"Code":"A"} x', 400, 'BODY_SYNTAX', 'JSON'],
    ['an empty body', '', 400, 'BODY_MISSING', 'A request body is required'],
    ['an array', [{ Code: 'A' }], 400, 'BODY_INVALID', 'an entry must be a JSON object'],
    ['a string', '"Items"', 400, 'BODY_INVALID', 'an entry must be a JSON object'],
    ['an unknown property', { Cod: 'A' }, 400, 'BODY_INVALID', "has no property 'Cod'. Did you mean 'Code'?"],
    ['an unknown navigation-like name', { Ownr: null }, 400, 'BODY_INVALID', "Did you mean 'Owner'?"],
    ['__metadata not an object', { __metadata: 'x' }, 400, 'BODY_INVALID', '__metadata must be an object'],
    ['__metadata.type not a string', { __metadata: { type: 1 } }, 400, 'BODY_INVALID', '__metadata.type must be a string'],
    [
      'an unrelated __metadata.type',
      { __metadata: { type: 'WriteTest.Part' } },
      400,
      'BODY_INVALID',
      "'WriteTest.Part' is not 'WriteTest.Item' or a type derived from it",
    ],
    ['an unknown __metadata.type', { __metadata: { type: 'Nope.Item' } }, 400, 'BODY_INVALID', "'Nope.Item' is not defined in the model"],
    [
      'a complex value of the wrong type',
      { Address: { __metadata: { type: 'WriteTest.GeoPoint' } } },
      400,
      'VALUE_INVALID',
      "__metadata.type 'WriteTest.GeoPoint' does not match",
    ],
    ['a complex value that is not an object', { Address: 'Main 1' }, 400, 'VALUE_INVALID', 'a complex value must be a JSON object'],
    ['an unknown complex member', { Address: { Zip: '1' } }, 400, 'BODY_INVALID', "'WriteTest.Address' has no property 'Zip'"],
    ['MaxLength', { PString: '12345678901' }, 400, 'VALUE_INVALID', "'PString'"],
    ['Nullable="false"', { Code: null }, 400, 'VALUE_INVALID', "'Code'"],
    ['a null non-nullable complex value', { Address: null }, 400, 'VALUE_INVALID', "'Address'"],
    ['a nested non-nullable complex value', { Address: { Geo: null } }, 400, 'VALUE_INVALID', "'Geo'"],
    ['a nested MaxLength', { Address: { Street: 'x'.repeat(21) } }, 400, 'VALUE_INVALID', "'Street'"],
    ['Decimal scale', { PDecimal: '1.234' }, 400, 'VALUE_INVALID', "'PDecimal'"],
    [
      'an array for a single-valued navigation',
      { Owner: [{ __metadata: { uri: 'People(1)' } }] },
      400,
      'BODY_INVALID',
      "single-valued navigation property 'Owner' cannot hold an array",
    ],
    ['null for a many-valued navigation', { Parts: null }, 400, 'BODY_INVALID', "many-valued navigation property 'Parts' cannot be null"],
    ['an object for a many-valued navigation', { Parts: { PartNo: 'a' } }, 400, 'BODY_INVALID', 'must hold an array or {"results":[...]}'],
    ['a number for a navigation', { Owner: 5 }, 400, 'BODY_INVALID', "'Owner' must hold entry objects"],
    ['a string in a navigation array', { Parts: ['Parts(1)'] }, 400, 'BODY_INVALID', "'Parts' must hold entry objects"],
    ['__deferred without uri', { Owner: { __deferred: {} } }, 400, 'BODY_INVALID', "__deferred in 'Owner' has no uri"],
    ['a uri that is not a string', { Owner: { __metadata: { uri: 5 } } }, 400, 'BODY_INVALID', "the uri in 'Owner' must be a string"],
    [
      'a link to another service',
      { Owner: { __metadata: { uri: 'http://evil.example/odata/People(1)' } } },
      400,
      'BODY_INVALID',
      'does not address a resource of this service',
    ],
    ['a link to a collection', { Owner: { __metadata: { uri: 'People' } } }, 400, 'BODY_INVALID', 'does not address a single entry by its key'],
    [
      'a link to the wrong set',
      { Owner: { __metadata: { uri: 'FormerPeople(1)' } } },
      400,
      'BODY_INVALID',
      "addresses the entity set 'FormerPeople', but 'Owner' links to entries of 'People'",
    ],
    ['a link to another navigation', { Owner: { __deferred: { uri: 'Items(1)/Parts' } } }, 400, 'BODY_INVALID', 'does not address a single entry by its key'],
    ['an empty link', { Owner: { __metadata: { uri: ' ' } } }, 400, 'BODY_INVALID', 'is empty'],
    ['a bad value in an inline entry', { Parts: [{ Quantity: 'many' }] }, 400, 'VALUE_INVALID', "'Quantity'"],
    ['an unknown property in an inline entry', { Owner: { Nme: 'x' } }, 400, 'BODY_INVALID', "'WriteTest.Person' has no property 'Nme'. Did you mean 'Name'?"],
    ['inline entries nested too deep', deepEntry(9), 400, 'BODY_INVALID', 'nested deeper than 8 levels'],
    [
      'JSON nested too deep',
      '{"Address":' + '['.repeat(200) + ']'.repeat(200) + '}',
      400,
      'BODY_INVALID',
      'the JSON is nested deeper than 100 levels (at position',
    ],
  ])('%s', (_name, body, status, code, fragment) => {
    const error = catchODataError(() => read(body));
    expect([error.status, error.code]).toEqual([status, code]);
    expect(error.message).toContain(fragment);
  });

  it('accepts inline entries up to the depth limit', () => {
    expect(read(deepEntry(8)).inline?.Parts.entries).toHaveLength(1);
  });

  it.each<[string, unknown, string, string]>([
    ['an array value', { Tags: ['a'] }, 'BODY_INVALID', 'OData 2.0 has no collection properties'],
    ['an object without a type', { Where: { Lat: 1 } }, 'BODY_INVALID', 'holds an object without __metadata.type'],
    [
      'an object of an unknown type',
      { Where: { __metadata: { type: 'WriteTest.Nowhere' } } },
      'BODY_INVALID',
      "'WriteTest.Nowhere' of the dynamic property 'Where'",
    ],
    ['a reserved __ name', { __proto__x: 1 }, 'BODY_INVALID', "has no property '__proto__x'"],
  ])('open type: %s -> 400 %s', (_name, body, code, fragment) => {
    const error = catchODataError(() => read(body, targetOf(writeModel, 'Bags')));
    expect([error.status, error.code]).toEqual([400, code]);
    expect(error.message).toContain(fragment);
  });

  it.each([
    ['a key other than the URL key', { ID: 1 }, targetOf(writeModel, 'Items', { ID: 2 })],
    ['one part of a composite key differs', { ItemID: 4, PartNo: 'b' }, targetOf(writeModel, 'Parts', { ItemID: 4, PartNo: 'a' })],
  ])('%s -> 400 KEY_MISMATCH', (_name, body, target) => {
    const error = catchODataError(() => read(body, target));
    expect([error.status, error.code]).toEqual([400, 'KEY_MISMATCH']);
  });

  it('refuses a charset other than UTF-8 with 415', () => {
    const latin = contextFor(writeModel, { contentType: 'application/json; charset=windows-1252' });
    expect(catchODataError(() => read({ Code: 'A' }, items, latin)).status).toBe(415);
    expect(read({ Code: 'A' }, items, contextFor(writeModel, { contentType: 'application/json;charset=UTF-8' })).properties).toEqual({ Code: 'A' });
  });

  it('bounds JSON nesting by the configured limit', () => {
    const tight = contextFor(writeModel, { limits: { maxNesting: 3 } });
    expect(catchODataError(() => read({ Address: { Geo: { Lat: [1] } } }, items, tight)).message).toContain('nested deeper than 3 levels');
  });
});
