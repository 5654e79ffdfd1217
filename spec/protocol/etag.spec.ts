import { computeETag, matchesIfMatch, matchesIfNoneMatch, parseETagList } from '../../lib/protocol/etag';
import type { EdmEntityType, EdmProperty } from '../../lib/edm/model';
import type { EdmPrimitiveTypeName } from '../../lib/edm/primitives';

function prop(name: string, type: EdmPrimitiveTypeName): EdmProperty {
  return { kind: 'Property', name, type: { kind: 'Primitive', name: type }, concurrencyMode: 'Fixed' } as unknown as EdmProperty;
}

function entityType(...concurrencyProperties: EdmProperty[]): EdmEntityType {
  return { qualifiedName: 'Demo.T', concurrencyProperties } as unknown as EdmEntityType;
}

describe('computeETag', () => {
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
    expect(computeETag(entity, type)).toBe(etag);
    expect(computeETag(entity, type)).toBe(etag); // compiled once, same answer
  });

  it('writes tags that parseETagList reads back', () => {
    const etag = computeETag({ Version: '5', Name: 'a "b", c', Stamp: null }, several);
    expect(etag).toBeDefined();
    expect(parseETagList(etag ?? '')).toEqual([etag]);
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
