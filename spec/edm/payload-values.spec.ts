import {
  formatAtomValue,
  formatRawValue,
  fromJsonValue,
  inferPrimitiveType,
  jsonValueText,
  parseAtomValue,
  parseRawValue,
  toJsonValue,
} from '../../lib/edm/payload-values';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../lib/edm/primitives';
import { failureOf as failure } from '../helpers/odata-error';

const utc = (iso: string): Date => new Date(iso);
const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

// =============================================================================================
// One table of every type: value, Atom text, verbose-JSON value, JSON text
// =============================================================================================

const FORMS: readonly [EdmPrimitiveTypeName, PrimitiveValue, string, string | number | boolean, string][] = [
  ['Edm.String', 'Bread', 'Bread', 'Bread', '"Bread"'],
  ['Edm.String', ' a "q" \\ <x> ', ' a "q" \\ <x> ', ' a "q" \\ <x> ', '" a \\"q\\" \\\\ <x> "'],
  ['Edm.String', '', '', '', '""'],
  ['Edm.Boolean', true, 'true', true, 'true'],
  ['Edm.Boolean', false, 'false', false, 'false'],
  ['Edm.Byte', 255, '255', 255, '255'],
  ['Edm.SByte', -128, '-128', -128, '-128'],
  ['Edm.Int16', 32767, '32767', 32767, '32767'],
  ['Edm.Int32', 0, '0', 0, '0'],
  ['Edm.Int32', -2147483648, '-2147483648', -2147483648, '-2147483648'],
  ['Edm.Int64', '9223372036854775807', '9223372036854775807', '9223372036854775807', '"9223372036854775807"'],
  ['Edm.Int64', '-1', '-1', '-1', '"-1"'],
  ['Edm.Decimal', '2.5', '2.5', '2.5', '"2.5"'],
  ['Edm.Decimal', '-0.000000000000000000000001', '-0.000000000000000000000001', '-0.000000000000000000000001', '"-0.000000000000000000000001"'],
  ['Edm.Decimal', '79228162514264337593543950335', '79228162514264337593543950335', '79228162514264337593543950335', '"79228162514264337593543950335"'],
  ['Edm.Double', 1.5, '1.5', 1.5, '1.5'],
  ['Edm.Double', 1e21, '1E+21', 1e21, '1e+21'],
  ['Edm.Double', 0.1, '0.1', 0.1, '0.1'],
  ['Edm.Double', Infinity, 'INF', 'INF', '"INF"'],
  ['Edm.Double', -Infinity, '-INF', '-INF', '"-INF"'],
  ['Edm.Double', NaN, 'NaN', 'NaN', '"NaN"'],
  ['Edm.Single', 2.5, '2.5', 2.5, '2.5'],
  ['Edm.Single', -Infinity, '-INF', '-INF', '"-INF"'],
  ['Edm.DateTime', utc('1992-01-01T00:00:00Z'), '1992-01-01T00:00:00', '/Date(694224000000)/', '"\\/Date(694224000000)\\/"'],
  ['Edm.DateTime', utc('1969-12-31T23:59:59.5Z'), '1969-12-31T23:59:59.5', '/Date(-500)/', '"\\/Date(-500)\\/"'],
  ['Edm.DateTime', utc('2000-02-29T12:34:56.789Z'), '2000-02-29T12:34:56.789', '/Date(951827696789)/', '"\\/Date(951827696789)\\/"'],
  ['Edm.DateTimeOffset', utc('2002-10-10T16:00:00Z'), '2002-10-10T16:00:00Z', '/Date(1034265600000+0000)/', '"\\/Date(1034265600000+0000)\\/"'],
  ['Edm.Time', 'PT13H20M', 'PT13H20M', 'PT13H20M', '"PT13H20M"'],
  ['Edm.Time', 'PT0S', 'PT0S', 'PT0S', '"PT0S"'],
  [
    'Edm.Guid',
    '12345678-aaaa-bbbb-cccc-ddddeeeeffff',
    '12345678-aaaa-bbbb-cccc-ddddeeeeffff',
    '12345678-aaaa-bbbb-cccc-ddddeeeeffff',
    '"12345678-aaaa-bbbb-cccc-ddddeeeeffff"',
  ],
  ['Edm.Binary', bytes(0, 1, 254, 255), 'AAH+/w==', 'AAH+/w==', '"AAH+/w=="'],
  ['Edm.Binary', bytes(), '', '', '""'],
];

describe('Atom text form', () => {
  it.each(FORMS)('%s %p is written as %p', (type, value, atom) => {
    expect(formatAtomValue(type, value)).toBe(atom);
  });

  it.each(FORMS)('%s %p reads back from %p', (type, value, atom) => {
    expect(parseAtomValue(type, atom, 'P')).toEqual(value);
  });
});

describe('verbose JSON form', () => {
  it.each(FORMS)('%s %p -> toJsonValue %p', (type, value, _atom, json) => {
    expect(toJsonValue(type, value)).toEqual(json);
  });

  it.each(FORMS)('%s %p -> jsonValueText %s', (type, value, _atom, _json, text) => {
    expect(jsonValueText(type, value)).toBe(text);
  });

  it.each(FORMS)('%s %p reads back from its JSON text', (type, value, _atom, _json, text) => {
    expect(fromJsonValue(type, JSON.parse(text), 'P')).toEqual(value);
  });

  it('writes the Supplier-style Int32 and the demo Product date exactly as the reference service', () => {
    expect(`{"ReleaseDate":${jsonValueText('Edm.DateTime', utc('1992-01-01T00:00:00Z'))},"Price":${jsonValueText('Edm.Decimal', '2.5')}}`).toBe(
      '{"ReleaseDate":"\\/Date(694224000000)\\/","Price":"2.5"}',
    );
  });
});

describe('raw $value form', () => {
  it.each(FORMS.filter(([type]) => type !== 'Edm.Binary'))('%s %p is the text %p', (type, value, atom) => {
    expect(formatRawValue(type, value)).toBe(atom);
    expect(parseRawValue(type, Buffer.from(atom, 'utf8'), 'P')).toEqual(value);
  });

  it('keeps binary as bytes both ways', () => {
    const value = bytes(0, 10, 255);
    expect(formatRawValue('Edm.Binary', value)).toBe(value);
    const read = parseRawValue('Edm.Binary', Buffer.from([1, 2, 3]), 'Photo');
    expect(read).toEqual(bytes(1, 2, 3));
  });

  it('drops a UTF-8 byte order mark from text bodies', () => {
    expect(parseRawValue('Edm.String', Buffer.from('\uFEFFhello', 'utf8'), 'Name')).toBe('hello');
    expect(parseRawValue('Edm.Int32', Buffer.from('\uFEFF 42 \n', 'utf8'), 'ID')).toBe(42);
  });

  it('refuses a bad text body with VALUE_INVALID', () => {
    expect(failure(() => parseRawValue('Edm.Int32', Buffer.from('x'), 'ID'))[0]).toBe('VALUE_INVALID');
  });
});

// =============================================================================================
// Atom readers: more accepted spellings, and the invalid half
// =============================================================================================

describe('parseAtomValue accepts other valid spellings', () => {
  it.each<[EdmPrimitiveTypeName, string, PrimitiveValue]>([
    ['Edm.String', '  padded  ', '  padded  '],
    ['Edm.Boolean', '1', true],
    ['Edm.Boolean', '0', false],
    ['Edm.Boolean', ' true ', true],
    ['Edm.Int32', '+7', 7],
    ['Edm.Int32', '007', 7],
    ['Edm.Int32', '-0', 0],
    ['Edm.Byte', '0', 0],
    ['Edm.Int64', '+0012', '12'],
    ['Edm.Decimal', '2.50', '2.5'],
    ['Edm.Decimal', '.5', '0.5'],
    ['Edm.Decimal', '5.', '5'],
    ['Edm.Decimal', '-000', '0'],
    ['Edm.Double', '1e3', 1000],
    ['Edm.Double', '+INF', Infinity],
    ['Edm.Double', '.5', 0.5],
    ['Edm.Single', '3.4028234E38', 3.4028234e38],
    ['Edm.DateTime', '1992-01-01T00:00:00Z', utc('1992-01-01T00:00:00Z')],
    ['Edm.DateTime', '1992-01-01T01:00:00+01:00', utc('1992-01-01T00:00:00Z')],
    ['Edm.DateTime', '1992-01-01T00:00', utc('1992-01-01T00:00:00Z')],
    ['Edm.DateTime', '1992-01-01T00:00:00.1234567', utc('1992-01-01T00:00:00.123Z')],
    ['Edm.DateTimeOffset', '2002-10-10T17:00:00+01:00', utc('2002-10-10T16:00:00Z')],
    ['Edm.DateTimeOffset', '2002-10-10T17:00:00-00:30', utc('2002-10-10T17:30:00Z')],
    ['Edm.DateTimeOffset', '2002-10-10T17:00:00', utc('2002-10-10T17:00:00Z')],
    ['Edm.Time', 'PT11H00M00S', 'PT11H'],
    ['Edm.Time', 'PT0.001S', 'PT0.001S'],
    ['Edm.Time', 'P0D', 'PT0S'],
    ['Edm.Time', '13:20', 'PT13H20M'],
    ['Edm.Time', '13:20:05.25', 'PT13H20M5.25S'],
    ['Edm.Guid', '12345678-AAAA-BBBB-CCCC-DDDDEEEEFFFF', '12345678-aaaa-bbbb-cccc-ddddeeeeffff'],
    ['Edm.Binary', 'AAH+\n/w==', bytes(0, 1, 254, 255)],
    ['Edm.Binary', 'AAE', bytes(0, 1)],
  ])('%s from %p -> %p', (type, text, value) => {
    expect(parseAtomValue(type, text, 'P')).toEqual(value);
  });
});

describe('parseAtomValue refuses bad text with 400 VALUE_INVALID naming property and type', () => {
  it.each<[EdmPrimitiveTypeName, string]>([
    ['Edm.Boolean', 'yes'],
    ['Edm.Boolean', 'TRUE'],
    ['Edm.Boolean', ''],
    ['Edm.Byte', '256'],
    ['Edm.Byte', '-1'],
    ['Edm.SByte', '128'],
    ['Edm.Int16', '40000'],
    ['Edm.Int32', '2147483648'],
    ['Edm.Int32', '1.0'],
    ['Edm.Int32', '1e3'],
    ['Edm.Int32', ''],
    ['Edm.Int32', '0x10'],
    ['Edm.Int64', '9223372036854775808'],
    ['Edm.Int64', '1.5'],
    ['Edm.Decimal', '1e3'],
    ['Edm.Decimal', 'abc'],
    ['Edm.Decimal', '.'],
    ['Edm.Decimal', 'NaN'],
    ['Edm.Double', 'Infinity'],
    ['Edm.Double', '1e400'],
    ['Edm.Double', 'inf'],
    ['Edm.Double', '1,5'],
    ['Edm.Single', '1e39'],
    ['Edm.DateTime', '2000-13-01T00:00:00'],
    ['Edm.DateTime', '2000-01-01'],
    ['Edm.DateTime', '2000-01-01 00:00:00'],
    ['Edm.DateTime', '/Date(0)/'],
    ['Edm.DateTimeOffset', '2000-01-01T00:00:00+0100'],
    ['Edm.Time', 'P1Y'],
    ['Edm.Time', '24:00'],
    ['Edm.Time', 'PT'],
    ['Edm.Guid', '{12345678-aaaa-bbbb-cccc-ddddeeeeffff}'],
    ['Edm.Guid', '12345678aaaabbbbccccddddeeeeffff'],
    ['Edm.Binary', 'A'],
    ['Edm.Binary', 'AA=A'],
    ['Edm.Binary', '*!'],
  ])('%s from %p', (type, text) => {
    const [code, status, message] = failure(() => parseAtomValue(type, text, 'Price'));
    expect([code, status]).toEqual(['VALUE_INVALID', 400]);
    expect(message).toContain(`Invalid value for property 'Price' of type ${type}:`);
    expect(message).toContain(`'${text}' is not a valid ${type}`);
  });

  it('accepts a property object as the label', () => {
    expect(failure(() => parseAtomValue('Edm.Int32', 'x', { name: 'Rating' }))[2]).toContain("property 'Rating'");
  });
});

// =============================================================================================
// JSON readers: what real clients send, and garbage
// =============================================================================================

describe('fromJsonValue accepts what clients send', () => {
  it.each<[EdmPrimitiveTypeName, unknown, PrimitiveValue]>([
    ['Edm.String', 'x', 'x'],
    ['Edm.Boolean', 'true', true],
    ['Edm.Boolean', 'false', false],
    ['Edm.Byte', '200', 200],
    ['Edm.Int16', -5, -5],
    ['Edm.Int32', '42', 42],
    ['Edm.Int32', -0, 0],
    ['Edm.Int64', 42, '42'],
    ['Edm.Int64', -9007199254740991, '-9007199254740991'],
    ['Edm.Int64', ' 12 ', '12'],
    ['Edm.Int64', '00012', '12'],
    ['Edm.Decimal', 2.5, '2.5'],
    ['Edm.Decimal', 1e-7, '0.0000001'],
    ['Edm.Decimal', 123456789012345, '123456789012345'],
    ['Edm.Decimal', '2.50', '2.5'],
    ['Edm.Decimal', '1E2', '100'],
    ['Edm.Decimal', '12345678901234567890.123456789', '12345678901234567890.123456789'],
    ['Edm.Double', '1.5', 1.5],
    ['Edm.Double', 'INF', Infinity],
    ['Edm.Double', '-INF', -Infinity],
    ['Edm.Double', 'NaN', NaN],
    ['Edm.Double', 'Infinity', Infinity],
    ['Edm.Double', '-Infinity', -Infinity],
    ['Edm.Single', 2.5, 2.5],
    ['Edm.Single', '2.5', 2.5],
    ['Edm.DateTime', '/Date(694224000000)/', utc('1992-01-01T00:00:00Z')],
    ['Edm.DateTime', '/Date(-62135596800000)/', utc('0001-01-01T00:00:00Z')],
    ['Edm.DateTime', '/Date(694224000000+0060)/', utc('1992-01-01T00:00:00Z')],
    ['Edm.DateTime', '1992-01-01T00:00:00', utc('1992-01-01T00:00:00Z')],
    ['Edm.DateTime', '1992-01-01T00:00:00.000Z', utc('1992-01-01T00:00:00Z')],
    ['Edm.DateTimeOffset', '/Date(1034265600000+0000)/', utc('2002-10-10T16:00:00Z')],
    ['Edm.DateTimeOffset', '/Date(1034265600000-0120)/', utc('2002-10-10T16:00:00Z')],
    ['Edm.DateTimeOffset', '2002-10-10T17:00:00+01:00', utc('2002-10-10T16:00:00Z')],
    ['Edm.Time', 'PT13H20M00S', 'PT13H20M'],
    ['Edm.Time', '13:20:00', 'PT13H20M'],
    ['Edm.Guid', '12345678-AAAA-BBBB-CCCC-DDDDEEEEFFFF', '12345678-aaaa-bbbb-cccc-ddddeeeeffff'],
    ['Edm.Binary', 'AQI=', bytes(1, 2)],
  ])('%s from %p -> %p', (type, json, value) => {
    expect(fromJsonValue(type, json, 'P')).toEqual(value);
  });
});

describe('fromJsonValue refuses garbage with 400 VALUE_INVALID', () => {
  it.each<[EdmPrimitiveTypeName, unknown, string]>([
    ['Edm.String', 12, '12 is not a valid Edm.String'],
    ['Edm.String', null, 'null is not a valid Edm.String'],
    ['Edm.String', { a: 1 }, 'a JSON object is not a valid Edm.String'],
    ['Edm.Boolean', 1, '1 is not a valid Edm.Boolean'],
    ['Edm.Boolean', 'yes', "'yes' is not a valid Edm.Boolean"],
    ['Edm.Byte', 256, '256 is not a valid Edm.Byte'],
    ['Edm.SByte', -129, '-129 is not a valid Edm.SByte'],
    ['Edm.Int32', 1.5, '1.5 is not a valid Edm.Int32'],
    ['Edm.Int32', 2147483648, '2147483648 is not a valid Edm.Int32'],
    ['Edm.Int32', true, 'true is not a valid Edm.Int32'],
    ['Edm.Int32', [1], 'an array is not a valid Edm.Int32'],
    // eslint-disable-next-line no-loss-of-precision -- the point: a JS number cannot hold this Int64
    ['Edm.Int64', 9007199254740993, '9007199254740992 is not a valid Edm.Int64'],
    ['Edm.Int64', 1.5, '1.5 is not a valid Edm.Int64'],
    ['Edm.Int64', '9223372036854775808', "'9223372036854775808' is not a valid Edm.Int64"],
    ['Edm.Int64', '12L', "'12L' is not a valid Edm.Int64"],
    ['Edm.Decimal', 0.12345678901234568, 'is not a valid Edm.Decimal'],
    ['Edm.Decimal', 'NaN', "'NaN' is not a valid Edm.Decimal"],
    ['Edm.Decimal', '2.5M', "'2.5M' is not a valid Edm.Decimal"],
    ['Edm.Decimal', true, 'true is not a valid Edm.Decimal'],
    ['Edm.Double', 'abc', "'abc' is not a valid Edm.Double"],
    ['Edm.Double', null, 'null is not a valid Edm.Double'],
    ['Edm.Single', 1e39, 'is not a valid Edm.Single'],
    ['Edm.DateTime', '/Date(abc)/', "'/Date(abc)/' is not a valid Edm.DateTime"],
    ['Edm.DateTime', '/Date(0+)/', "'/Date(0+)/' is not a valid Edm.DateTime"],
    ['Edm.DateTime', '/Date(99999999999999999)/', 'is not a valid Edm.DateTime'],
    ['Edm.DateTime', '2000-02-30T00:00:00', "'2000-02-30T00:00:00' is not a valid Edm.DateTime"],
    ['Edm.DateTime', 694224000000, '694224000000 is not a valid Edm.DateTime'],
    ['Edm.DateTime', 'yesterday', "'yesterday' is not a valid Edm.DateTime"],
    ['Edm.DateTimeOffset', '/Date(0+00000)/', 'is not a valid Edm.DateTimeOffset'],
    ['Edm.Time', 'PT1Y', "'PT1Y' is not a valid Edm.Time"],
    ['Edm.Time', 3600, '3600 is not a valid Edm.Time'],
    ['Edm.Guid', 'not-a-guid', "'not-a-guid' is not a valid Edm.Guid"],
    ['Edm.Binary', 'a', "'a' is not a valid Edm.Binary"],
    ['Edm.Binary', [1, 2], 'an array is not a valid Edm.Binary'],
  ])('%s from %p', (type, json, detail) => {
    const [code, status, message] = failure(() => fromJsonValue(type, json, 'Field'));
    expect([code, status]).toEqual(['VALUE_INVALID', 400]);
    expect(message).toContain(`Invalid value for property 'Field' of type ${type}:`);
    expect(message).toContain(detail);
  });
});

// =============================================================================================
// Writers refuse values that are not in their type's representation (provider bugs -> 500)
// =============================================================================================

describe('writers check the JS representation', () => {
  it.each<[EdmPrimitiveTypeName, PrimitiveValue]>([
    ['Edm.String', 5],
    ['Edm.Int32', '5'],
    ['Edm.Boolean', 'true'],
    ['Edm.DateTime', '1992-01-01T00:00:00Z'],
    ['Edm.DateTime', new Date(NaN)],
    ['Edm.Binary', 'AAE='],
    ['Edm.Guid', 1],
  ])('%s given %p throws a TypeError', (type, value) => {
    expect(() => formatAtomValue(type, value)).toThrow(TypeError);
    expect(() => jsonValueText(type, value)).toThrow(TypeError);
  });

  it('refuses years beyond 9999 in every form (no client reads them back), as provider bugs', () => {
    const far = new Date(Date.UTC(10000, 0, 1));
    expect(() => formatAtomValue('Edm.DateTime', far)).toThrow(
      new TypeError(`Cannot write the date ${String(far)}: it must be a valid date in the years 0001..9999 (UTC).`),
    );
    expect(() => jsonValueText('Edm.DateTime', far)).toThrow(TypeError);
    expect(() => jsonValueText('Edm.DateTimeOffset', new Date(-62135596800001))).toThrow(TypeError);
    expect(jsonValueText('Edm.DateTime', new Date(253402300799999))).toBe('"\\/Date(253402300799999)\\/"');
  });

  it('tolerates JS numbers for Int64 and Decimal', () => {
    expect(formatAtomValue('Edm.Int64', 7)).toBe('7');
    expect(jsonValueText('Edm.Int64', 7)).toBe('"7"');
    expect(jsonValueText('Edm.Decimal', 1e-7)).toBe('"0.0000001"');
  });
});

// =============================================================================================
// inferPrimitiveType (open types)
// =============================================================================================

describe('inferPrimitiveType', () => {
  it.each<[PrimitiveValue, EdmPrimitiveTypeName]>([
    ['x', 'Edm.String'],
    ['12', 'Edm.String'],
    [true, 'Edm.Boolean'],
    [0, 'Edm.Int32'],
    [-2147483648, 'Edm.Int32'],
    [2147483648, 'Edm.Double'],
    [1.5, 'Edm.Double'],
    [NaN, 'Edm.Double'],
    [utc('2000-01-01T00:00:00Z'), 'Edm.DateTime'],
    [bytes(1), 'Edm.Binary'],
    [Buffer.from([1]), 'Edm.Binary'],
  ])('%p -> %s', (value, type) => {
    expect(inferPrimitiveType(value)).toBe(type);
  });
});
