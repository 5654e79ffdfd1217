import type { EdmPrimitiveTypeName } from '../../../lib/edm/primitives';
import { cloneValue, coerceDynamic, coercePrimitive, parseDateTime } from '../../../lib/providers/memory/values';

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

describe('parseDateTime', () => {
  it('reads a negative offset', () => {
    expect(parseDateTime('2000-01-01T00:00:00-05:30')).toEqual(new Date(Date.UTC(2000, 0, 1, 5, 30)));
  });
  it('refuses February 30', () => {
    expect(parseDateTime('2001-02-30T00:00:00Z')).toBeUndefined();
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

describe('cloneValue', () => {
  it('copies Dates, bytes and complex values deeply', () => {
    const date = new Date(0);
    const bytes = Buffer.from([1]);
    const complex = { Street: 'x', Inner: { When: date } };
    const copies = [cloneValue(date), cloneValue(bytes), cloneValue(complex)];
    expect(copies).toEqual([date, bytes, complex]);
    expect(copies[0]).not.toBe(date);
    expect(copies[1]).not.toBe(bytes);
    expect((copies[2] as { Inner: { When: Date } }).Inner.When).not.toBe(date);
  });
});
