/**
 * The kit's value coercion (`coerceProperty` and its parts), table-driven: what each EDM type
 * accepts in the forms a store or a data file holds, and the words it refuses the rest with.
 */
import { coerceDynamic, coercePrimitive, coerceProperty } from '../../lib';
import { describeValue } from '../../lib/provider/values';
import { defineModel } from '../../lib/edm';
import type { EdmComplexType, EdmEntityType, EdmProperty } from '../../lib/edm/model';
import type { EdmPrimitiveTypeName } from '../../lib/edm/primitives';

describe('coercePrimitive', () => {
  it.each<[EdmPrimitiveTypeName, unknown, unknown]>([
    ['Edm.String', 'a', 'a'],
    ['Edm.Boolean', false, false],
    ['Edm.Byte', 255, 255],
    ['Edm.SByte', -128, -128],
    ['Edm.Int16', -32768, -32768],
    ['Edm.Int32', 2147483647, 2147483647],
    ['Edm.Int64', '-0009223372036854775808', '-9223372036854775808'],
    ['Edm.Int64', 42, '42'],
    ['Edm.Int64', 12n, '12'],
    ['Edm.Decimal', '2.50', '2.5'],
    ['Edm.Decimal', 1088.8, '1088.8'],
    ['Edm.Decimal', 1e21, '1000000000000000000000'],
    ['Edm.Decimal', '-0.0', '0'],
    ['Edm.Decimal', '1.5E-3', '0.0015'],
    ['Edm.Decimal', '007.100', '7.1'],
    ['Edm.Time', 'PT1H60M', 'PT2H'],
    ['Edm.Double', 'INF', Number.POSITIVE_INFINITY],
    ['Edm.Single', 1.5, 1.5],
    ['Edm.Double', 'NaN', Number.NaN],
    ['Edm.DateTime', '1992-01-01T00:00:00Z', new Date(Date.UTC(1992, 0, 1))],
    ['Edm.DateTime', '1992-01-01T00:00:00', new Date(Date.UTC(1992, 0, 1))],
    ['Edm.DateTime', '1992-01-01T00:00:00.1234567Z', new Date(Date.UTC(1992, 0, 1, 0, 0, 0, 123))],
    ['Edm.DateTime', '/Date(694224000000)/', new Date(Date.UTC(1992, 0, 1))],
    ['Edm.DateTimeOffset', '1992-01-01T02:00:00+02:00', new Date(Date.UTC(1992, 0, 1))],
    ['Edm.DateTimeOffset', '2000-01-01T00:00:00-05:30', new Date(Date.UTC(2000, 0, 1, 5, 30))],
    ['Edm.DateTime', new Date(Date.UTC(2000, 0, 1)), new Date(Date.UTC(2000, 0, 1))],
    ['Edm.Time', 'PT13H20M', 'PT13H20M'],
    ['Edm.Guid', 'ABCDEF01-2345-6789-ABCD-EF0123456789', 'abcdef01-2345-6789-abcd-ef0123456789'],
    ['Edm.Binary', 'AQID', new Uint8Array([1, 2, 3])],
    ['Edm.Binary', '', new Uint8Array(0)],
  ])('%s accepts %p', (type, raw, expected) => {
    expect(coercePrimitive(type, raw)).toEqual({ ok: true, value: expected });
  });

  it.each<[EdmPrimitiveTypeName, unknown, string]>([
    ['Edm.String', 1, 'expected a string'],
    ['Edm.Boolean', 'true', 'expected true or false'],
    ['Edm.Byte', 256, 'out of the Edm.Byte range 0..255'],
    ['Edm.Int32', 1.5, 'expected an integer number'],
    ['Edm.Int64', '9223372036854775808', 'out of the Int64 range'],
    ['Edm.Int64', 2 ** 53, 'expected an integer string or a safe integer number'],
    ['Edm.Int64', '1.0', 'expected an integer string or a safe integer number'],
    ['Edm.Decimal', '1e401', 'expected a decimal number without exponent overflow'],
    ['Edm.Decimal', Number.POSITIVE_INFINITY, 'a Decimal must be finite'],
    ['Edm.Decimal', '.', 'expected a decimal number without exponent overflow'],
    ['Edm.Double', '1.5', 'expected a number'],
    ['Edm.DateTime', '1992-01-01', 'expected an ISO 8601 date-time such as "1992-01-01T00:00:00Z"'],
    ['Edm.DateTime', '2001-02-30T00:00:00Z', 'expected an ISO 8601 date-time such as "1992-01-01T00:00:00Z"'],
    ['Edm.DateTime', new Date(Date.UTC(10000, 0, 1)), 'a Date outside the years 0001 to 9999 (UTC)'],
    ['Edm.DateTime', '1992-13-01T00:00:00Z', 'expected an ISO 8601 date-time such as "1992-01-01T00:00:00Z"'],
    ['Edm.DateTime', '1992-01-01T24:00:00Z', 'expected an ISO 8601 date-time such as "1992-01-01T00:00:00Z"'],
    ['Edm.DateTime', 694224000000, 'expected an ISO 8601 date-time string or a Date'],
    ['Edm.DateTime', new Date(Number.NaN), 'invalid Date'],
    ['Edm.Time', 'P', 'expected an xs:duration such as "PT13H20M"'],
    ['Edm.Time', 'PT', 'expected an xs:duration such as "PT13H20M"'],
    ['Edm.Guid', 'abcdef01234567890abcdef012345678', 'expected a GUID such as "01234567-89ab-cdef-0123-456789abcdef"'],
    ['Edm.Binary', 'AQI=x', 'expected a base64 string or a Uint8Array'],
  ])('%s refuses %p', (type, raw, detail) => {
    expect(coercePrimitive(type, raw)).toEqual({ ok: false, detail });
  });
});

describe('coerceDynamic', () => {
  it('keeps JSON primitives and refuses structures', () => {
    expect(coerceDynamic('x')).toEqual({ ok: true, value: 'x' });
    expect(coerceDynamic({ a: 1 })).toEqual({
      ok: false,
      detail: 'a dynamic property holds a primitive value (string, number, boolean, Date, bytes or null)',
    });
  });
});

const model = defineModel({
  namespace: 'Kit',
  complexTypes: [
    {
      name: 'Address',
      properties: [
        { name: 'Street', type: 'Edm.String', nullable: false, maxLength: 5 },
        { name: 'Zip', type: 'Edm.String' },
      ],
    },
  ],
  entityTypes: [
    {
      name: 'Row',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Name', type: 'Edm.String', maxLength: 3 },
        { name: 'Code', type: 'Edm.String', maxLength: 2, fixedLength: true },
        { name: 'Price', type: 'Edm.Decimal', nullable: false, precision: 4, scale: 2 },
        { name: 'Address', type: 'Kit.Address' },
        { name: 'Home', type: 'Kit.Address', nullable: false },
      ],
    },
  ],
  entityContainers: [{ name: 'C', isDefaultEntityContainer: true, entitySets: [{ name: 'Rows', entityType: 'Kit.Row' }] }],
});
const Row = model.entityTypes.get('Kit.Row') as EdmEntityType;
const property = (name: string): EdmProperty => Row.propertiesByName.get(name) as EdmProperty;

describe('coerceProperty', () => {
  it.each<[string, unknown, unknown]>([
    ['Name', null, null],
    ['Name', undefined, null],
    ['Name', 'abc', 'abc'],
    ['Code', 'ab', 'ab'],
    ['Price', '12.50', '12.5'],
    ['Price', 12.5, '12.5'],
    ['Price', '-99.99', '-99.99'],
    ['Address', null, null],
    ['Address', { Street: 'Main' }, { Street: 'Main', Zip: null }],
    ['Home', { Street: 'Elm', Zip: '1000' }, { Street: 'Elm', Zip: '1000' }],
  ])('%s accepts %p', (name, raw, expected) => {
    expect(coerceProperty(property(name), raw)).toEqual({ ok: true, value: expected });
  });

  it.each<[string, unknown, string]>([
    ['ID', null, 'the property is not nullable (Nullable="false")'],
    ['ID', '1', 'expected an integer number'],
    ['Name', 'abcd', 'the length is 4 characters, more than the MaxLength of 3.'],
    ['Code', 'a', 'the length is 1 characters, but the property has a fixed length of 2.'],
    ['Price', '100', '100 has 3 digits before the point, more than Precision 4 with Scale 2 allow.'],
    ['Price', '1.234', '1.234 has 3 digits after the point, more than the Scale of 2.'],
    ['Price', undefined, 'the property is not nullable (Nullable="false")'],
    ['Home', null, 'the property is not nullable (Nullable="false")'],
    ['Address', 'Main', 'expected an object of type Kit.Address'],
    ['Address', { Street: 'Main', City: 'X' }, "Kit.Address has no property 'City'"],
    ['Address', { Zip: '1' }, 'Street: the property is not nullable (Nullable="false")'],
    ['Address', { Street: 'Boulevard' }, 'Street: the length is 9 characters, more than the MaxLength of 5.'],
  ])('%s refuses %p', (name, raw, detail) => {
    expect(coerceProperty(property(name), raw)).toEqual({ ok: false, detail });
  });

  it('gives the model form of a complex type the same members as its declaration', () => {
    const address = model.complexTypes.get('Kit.Address') as EdmComplexType;
    const coerced = coerceProperty(property('Address'), { Street: 'Main' });
    expect(coerced.ok && Object.keys(coerced.value ?? {})).toEqual(address.properties.map((member) => member.name));
  });
});

describe('describeValue', () => {
  it.each<[unknown, string]>([
    [null, 'null'],
    [undefined, 'undefined'],
    ["O'Neil", '"O\'Neil"'],
    ['x'.repeat(41), JSON.stringify(`${'x'.repeat(40)}...`)],
    [12, '12'],
    [12n, '12'],
    [true, 'true'],
    [new Date(0), 'Date(1970-01-01T00:00:00.000Z)'],
    [new Date(Number.NaN), 'Date(invalid)'],
    [new Uint8Array(3), '3 bytes'],
    [[1], 'an array'],
    [{ a: 1 }, 'an object'],
  ])('%p is %s', (value, expected) => {
    expect(describeValue(value)).toBe(expected);
  });
});
