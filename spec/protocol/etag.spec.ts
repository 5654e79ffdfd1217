import { decodeETag, encodeETag, matchesIfMatch, matchesIfNoneMatch, parseETagList } from '../../lib/protocol/etag';
import type { EdmEntityType, EdmProperty } from '../../lib/edm/model';
import type { EdmPrimitiveTypeName } from '../../lib/edm/primitives';

function prop(name: string, type: EdmPrimitiveTypeName): EdmProperty {
  return { kind: 'Property', name, type: { kind: 'Primitive', name: type }, concurrencyMode: 'Fixed' } as unknown as EdmProperty;
}

function entityType(...concurrencyProperties: EdmProperty[]): EdmEntityType {
  return { qualifiedName: 'Demo.T', concurrencyProperties } as unknown as EdmEntityType;
}

describe('encodeETag', () => {
  const supplier = entityType(prop('Concurrency', 'Edm.Int32'));
  const several = entityType(prop('Version', 'Edm.Int64'), prop('Name', 'Edm.String'), prop('Stamp', 'Edm.DateTime'));

  it.each<[EdmEntityType, Record<string, unknown>, string | undefined]>([
    [supplier, { ID: 0, Concurrency: 0 }, 'W/"0"'],
    [supplier, { ID: 0, Concurrency: 17 }, 'W/"17"'],
    [supplier, { ID: 0 }, 'W/"null"'],
    [supplier, { Concurrency: null }, 'W/"null"'],
    [several, { Version: '5', Name: 'abc', Stamp: new Date('2000-01-01T00:00:00Z') }, `W/"5L,'abc',datetime'2000-01-01T00:00:00'"`],
    [several, { Version: '5', Name: 'say "hi" 100%', Stamp: null }, `W/"5L,'say%20%22hi%22%20100%25',null"`],
    [several, { Version: '5', Name: 'é', Stamp: null }, `W/"5L,'%C3%A9',null"`],
    [entityType(), { ID: 1 }, undefined],
  ])('%#: %p -> %p', (type, entity, etag) => {
    expect(encodeETag(entity, type)).toBe(etag);
    expect(encodeETag(entity, type)).toBe(etag); // compiled once, same answer
  });

  it('writes tags that parseETagList reads back', () => {
    const etag = encodeETag({ Version: '5', Name: 'a "b", c', Stamp: null }, several);
    expect(etag).toBeDefined();
    expect(parseETagList(etag ?? '')).toEqual([etag]);
  });
});

describe('decodeETag, the inverse of encodeETag', () => {
  const supplier = entityType(prop('Concurrency', 'Edm.Int32'));
  const several = entityType(prop('Version', 'Edm.Int64'), prop('Name', 'Edm.String'), prop('Stamp', 'Edm.DateTime'));
  const typed = entityType(
    prop('Id', 'Edm.Guid'),
    prop('Amount', 'Edm.Decimal'),
    prop('Bytes', 'Edm.Binary'),
    prop('At', 'Edm.DateTimeOffset'),
    prop('Ok', 'Edm.Boolean'),
    prop('Ratio', 'Edm.Double'),
  );

  it.each<[EdmEntityType, Record<string, unknown>]>([
    [supplier, { Concurrency: 0 }],
    [supplier, { Concurrency: -17 }],
    [supplier, { Concurrency: null }],
    [several, { Version: '9223372036854775807', Name: 'abc', Stamp: new Date('2000-01-01T00:00:00.123Z') }],
    [several, { Version: '5', Name: "say \"hi\", it's 100% é,'x'", Stamp: null }],
    [several, { Version: '-1', Name: '', Stamp: new Date('1969-12-31T23:59:59.999Z') }],
    [
      typed,
      {
        Id: '0f8fad5b-d9cb-469f-a165-70867728950e',
        Amount: '12.5',
        Bytes: new Uint8Array([0, 255, 16]),
        At: new Date('2026-01-02T03:04:05.678Z'),
        Ok: true,
        Ratio: 0.1,
      },
    ],
  ])('%#: decodes every tag encodeETag writes back to the same typed values: %p', (type, values) => {
    const tag = encodeETag(values, type) ?? '';
    expect(decodeETag(tag, type)).toEqual(values);
    // The strong form of the same opaque tag decodes alike (If-Match compares weakly).
    expect(decodeETag(tag.slice(2), type)).toEqual(values);
  });

  it.each<[string, EdmEntityType, string]>([
    ['W/"1,2"', supplier, 'two values for one token'],
    ['W/""', supplier, 'no value'],
    ['W/"\'1\'"', supplier, 'a string for an Int32'],
    ['W/"2147483648"', supplier, 'out of the Int32 range'],
    ['W/"1 "', supplier, 'text after the value'],
    ['W/"%E0%A4%A"', supplier, 'a broken percent-encoding'],
    ['W/3', supplier, 'not quoted'],
    ['W/"5L,\'a\'"', several, 'too few values'],
    ['W/"1"', entityType(), 'a type without concurrency token'],
    ['W/"03"', supplier, 'a spelling encodeETag does not write'],
    ['W/"%33"', supplier, 'a percent-escape encodeETag does not write'],
    ['W/"3L"', supplier, 'an Int64 literal for an Int32'],
  ])('%p decodes to nothing for its type (%s)', (tag, type) => {
    expect(decodeETag(tag, type)).toBeUndefined();
  });
});

describe('parseETagList', () => {
  it.each<[string, string[]]>([
    ['*', ['*']],
    [' * ', ['*']],
    ['W/"0"', ['W/"0"']],
    ['"abc"', ['"abc"']],
    ['""', ['""']],
    ['W/""', ['W/""']],
    ['w/"0"', ['W/"0"']],
    ['W/"1", "2" ,W/"3"', ['W/"1"', '"2"', 'W/"3"']],
    ['"a,b", "c"', ['"a,b"', '"c"']],
    [', "x" ,,', ['"x"']],
    ['W/"5L,\'abc\'"', ['W/"5L,\'abc\'"']],
    ['"\u00e9"', ['"\u00e9"']],
    ['"x", *', ['"x"', '*']],
  ])('%p -> %p', (header, tags) => {
    expect(parseETagList(header)).toEqual(tags);
  });

  it.each<string>(['', ' ', ',', '0', 'W/0', 'W/', '"abc', 'W/"abc', '"a"b"', '"a" "b"', 'W "x"', '"a b"', '"tab\there"', '"\u0100"', '**'])(
    '%p is malformed',
    (header) => {
      expect(parseETagList(header)).toBeUndefined();
    },
  );
});

describe('If-Match and If-None-Match by weak comparison', () => {
  it.each<[string, string | undefined, boolean]>([
    ['*', 'W/"0"', true],
    ['*', undefined, true],
    ['W/"0"', 'W/"0"', true],
    ['"0"', 'W/"0"', true],
    ['W/"0"', '"0"', true],
    ['W/"1", W/"0"', 'W/"0"', true],
    ['W/"1"', 'W/"0"', false],
    ['W/"0"', undefined, false],
    ['"00"', 'W/"0"', false],
  ])('If-Match %p against %p -> %p', (header, current, matches) => {
    const list = parseETagList(header);
    expect(list).toBeDefined();
    expect(matchesIfMatch(list ?? [], current)).toBe(matches);
    expect(matchesIfNoneMatch(list ?? [], current)).toBe(!matches);
  });
});
