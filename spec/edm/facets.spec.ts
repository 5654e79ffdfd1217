import { checkFacets, defaultValueOf } from '../../lib/edm/payload-values';
import type { EdmComplexType, EdmFacets, EdmProperty } from '../../lib/edm/model';
import type { EdmPrimitiveTypeName, PropertyValue } from '../../lib/edm/primitives';

function property(type: EdmPrimitiveTypeName, facets: Partial<EdmFacets> = {}): EdmProperty {
  return {
    kind: 'Property',
    name: 'P',
    type: { kind: 'Primitive', name: type },
    nullable: true,
    concurrencyMode: 'None',
    extraAttributes: [],
    annotationAttributes: [],
    annotationElements: [],
    isKey: false,
    ...facets,
  } as unknown as EdmProperty;
}

function complexProperty(type: EdmComplexType, facets: Partial<EdmFacets> = {}): EdmProperty {
  return { ...property('Edm.String', facets), name: 'Address', type: { kind: 'Complex', type } } as unknown as EdmProperty;
}

const address = {
  kind: 'ComplexType',
  name: 'Address',
  namespace: 'Demo',
  qualifiedName: 'Demo.Address',
  properties: [
    { ...property('Edm.String', { maxLength: 5 }), name: 'Street' },
    { ...property('Edm.Int32', { nullable: false }), name: 'Number' },
  ],
} as unknown as EdmComplexType;

describe('checkFacets accepts values that fit', () => {
  it.each<[string, EdmProperty, PropertyValue]>([
    ['null on a nullable property', property('Edm.String'), null],
    ['a string within MaxLength', property('Edm.String', { maxLength: 3 }), 'abc'],
    ['astral characters counted once', property('Edm.String', { maxLength: 2 }), '😀😀'],
    ['MaxLength=Max', property('Edm.String', { maxLength: 'Max' }), 'x'.repeat(10000)],
    ['a fixed-length string of that length', property('Edm.String', { maxLength: 2, fixedLength: true }), 'ab'],
    ['binary within MaxLength', property('Edm.Binary', { maxLength: 2 }), new Uint8Array(2)],
    ['Byte 255', property('Edm.Byte'), 255],
    ['SByte -128', property('Edm.SByte'), -128],
    ['Int16 -32768', property('Edm.Int16'), -32768],
    ['Int32 max', property('Edm.Int32'), 2147483647],
    ['Int64 max', property('Edm.Int64'), '9223372036854775807'],
    ['Int64 as a JS integer', property('Edm.Int64'), 5],
    ['Decimal within Precision 4 Scale 2', property('Edm.Decimal', { precision: 4, scale: 2 }), '12.34'],
    ['Decimal 0.5 with Precision 1 Scale 1', property('Edm.Decimal', { precision: 1, scale: 1 }), '0.5'],
    ['Decimal with Precision only counts all digits', property('Edm.Decimal', { precision: 3 }), '1.25'],
    ['Decimal with trailing zeros', property('Edm.Decimal', { precision: 3, scale: 1 }), '12.50'],
    ['Decimal without facets', property('Edm.Decimal'), '123456789012345678901234567890.5'],
    ['Single max', property('Edm.Single'), 3.4028234e38],
    ['Double infinity', property('Edm.Double'), -Infinity],
    ['Single NaN', property('Edm.Single'), NaN],
    ['a DateTime', property('Edm.DateTime'), new Date(0)],
    ['a Time', property('Edm.Time'), 'PT1H'],
    ['a Guid', property('Edm.Guid'), '12345678-aaaa-bbbb-cccc-ddddeeeeffff'],
    ['a Boolean', property('Edm.Boolean', { nullable: false }), false],
    ['a complex value', complexProperty(address), { Street: 'Main', Number: 1 }],
    ['a complex value with members left out', complexProperty(address), { Street: 'Main' }],
    ['null complex on nullable', complexProperty(address), null],
  ])('%s', (_name, prop, value) => {
    expect(checkFacets(prop, value)).toBeUndefined();
  });
});

describe('checkFacets names the violation', () => {
  it.each<[EdmProperty, PropertyValue, string]>([
    [property('Edm.String', { nullable: false }), null, 'the property is not nullable.'],
    [property('Edm.String', { maxLength: 3 }), 'abcd', 'the length is 4 characters, more than the MaxLength of 3.'],
    [property('Edm.String', { maxLength: 1 }), '😀😀', 'the length is 2 characters, more than the MaxLength of 1.'],
    [property('Edm.String', { maxLength: 3, fixedLength: true }), 'ab', 'the length is 2 characters, but the property has a fixed length of 3.'],
    [property('Edm.Binary', { maxLength: 1 }), new Uint8Array(2), 'the length is 2 bytes, more than the MaxLength of 1.'],
    [property('Edm.Binary', { maxLength: 4, fixedLength: true }), new Uint8Array(2), 'the length is 2 bytes, but the property has a fixed length of 4.'],
    [property('Edm.Byte'), 256, '256 is outside the range 0 to 255.'],
    [property('Edm.SByte'), -129, '-129 is outside the range -128 to 127.'],
    [property('Edm.Int16'), 32768, '32768 is outside the range -32768 to 32767.'],
    [property('Edm.Int32'), -2147483649, '-2147483649 is outside the range -2147483648 to 2147483647.'],
    [property('Edm.Int32'), 1.5, 'expected an integer.'],
    [property('Edm.Int32'), '1', 'expected an integer.'],
    [property('Edm.Int64'), '9223372036854775808', '9223372036854775808 is outside the range of Edm.Int64.'],
    [property('Edm.Int64'), '012', 'expected an integer string.'],
    [property('Edm.Int64'), 1.5, 'expected an integer string.'],
    [property('Edm.Decimal', { precision: 4, scale: 2 }), '123.4', '123.4 has 3 digits before the point, more than Precision 4 with Scale 2 allow.'],
    [property('Edm.Decimal', { precision: 4, scale: 2 }), '1.234', '1.234 has 3 digits after the point, more than the Scale of 2.'],
    [property('Edm.Decimal', { scale: 0 }), '1.5', '1.5 has 1 digits after the point, more than the Scale of 0.'],
    [property('Edm.Decimal', { precision: 3 }), '12.34', '12.34 has 4 digits, more than the Precision of 3.'],
    [property('Edm.Decimal'), 'abc', 'expected a decimal string.'],
    [property('Edm.Single'), 1e39, '1e+39 is outside the range of Edm.Single.'],
    [property('Edm.Double'), '1', 'expected a number.'],
    [property('Edm.Boolean'), 'true', 'expected true or false.'],
    [property('Edm.String'), 1, 'expected a string.'],
    [property('Edm.String'), { a: 'x' }, 'expected a primitive Edm.String value, not an object.'],
    [property('Edm.DateTime'), new Date(NaN), 'expected a valid date.'],
    [property('Edm.DateTime'), '2000-01-01', 'expected a valid date.'],
    [property('Edm.Time'), 'PT1Y', 'expected an xs:duration of at most 10675199 days such as PT13H20M.'],
    [property('Edm.Guid'), 'nope', 'expected a GUID string.'],
    [property('Edm.Binary'), 'AAE=', 'expected binary data.'],
    [complexProperty(address, { nullable: false }), null, 'the property is not nullable.'],
    [complexProperty(address), 'x', 'expected a value of the complex type Demo.Address.'],
    [complexProperty(address), { Street: 'Main Street' }, 'Street: the length is 11 characters, more than the MaxLength of 5.'],
    [complexProperty(address), { Street: 'Main', Number: null }, 'Number: the property is not nullable.'],
  ])('%#: %p', (prop, value, message) => {
    expect(checkFacets(prop, value)).toBe(message);
  });
});

describe('defaultValueOf', () => {
  it.each<[string, EdmProperty, PropertyValue]>([
    ['DefaultValue of a string', property('Edm.String', { defaultValue: 'abc' }), 'abc'],
    ['DefaultValue of an Int32', property('Edm.Int32', { defaultValue: '5' }), 5],
    ['DefaultValue of a Boolean', property('Edm.Boolean', { defaultValue: 'true' }), true],
    ['DefaultValue of an Int64', property('Edm.Int64', { defaultValue: '10' }), '10'],
    ['DefaultValue of a Decimal', property('Edm.Decimal', { defaultValue: '1.50' }), '1.5'],
    ['DefaultValue of a DateTime', property('Edm.DateTime', { defaultValue: '2000-01-01T00:00:00' }), new Date('2000-01-01T00:00:00Z')],
    ['unreadable DefaultValue on a nullable property', property('Edm.Int32', { defaultValue: 'x' }), null],
    ['unreadable DefaultValue on a non-nullable property', property('Edm.Int32', { defaultValue: 'x', nullable: false }), 0],
    ['nullable without default', property('Edm.Int32'), null],
    ['String zero', property('Edm.String', { nullable: false }), ''],
    ['Boolean zero', property('Edm.Boolean', { nullable: false }), false],
    ['Byte zero', property('Edm.Byte', { nullable: false }), 0],
    ['Int64 zero', property('Edm.Int64', { nullable: false }), '0'],
    ['Decimal zero', property('Edm.Decimal', { nullable: false }), '0'],
    ['Double zero', property('Edm.Double', { nullable: false }), 0],
    ['DateTime zero (Unix epoch)', property('Edm.DateTime', { nullable: false }), new Date(0)],
    ['DateTimeOffset zero (Unix epoch)', property('Edm.DateTimeOffset', { nullable: false }), new Date(0)],
    ['Time zero', property('Edm.Time', { nullable: false }), 'PT0S'],
    ['Guid zero', property('Edm.Guid', { nullable: false }), '00000000-0000-0000-0000-000000000000'],
    ['Binary zero', property('Edm.Binary', { nullable: false }), new Uint8Array(0)],
    ['nullable complex', complexProperty(address), null],
    ['non-nullable complex', complexProperty(address, { nullable: false }), { Street: null, Number: 0 }],
  ])('%s', (_name, prop, expected) => {
    expect(defaultValueOf(prop)).toEqual(expected);
  });

  it('returns a fresh Date each time', () => {
    const prop = property('Edm.DateTime', { nullable: false });
    expect(defaultValueOf(prop)).not.toBe(defaultValueOf(prop));
  });
});
