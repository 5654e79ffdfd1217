import { convertLiteral, encodeLiteral, parseLiteral, printKeyPredicate, printLiteral, scanLiteral } from '../../lib/edm/literals';
import type { ParsedLiteral } from '../../lib/edm/literals';
import type { EdmEntityType, EdmProperty } from '../../lib/edm/model';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../lib/edm/primitives';
import { failureOf as failure } from '../helpers/odata-error';

const utc = (iso: string): Date => new Date(iso);
const bytes = (...values: number[]): Uint8Array => new Uint8Array(values);

// ---------------------------------------------------------------------------------------------
// parseLiteral: valid forms
// ---------------------------------------------------------------------------------------------

describe('parseLiteral reads every literal form', () => {
  it.each<[string, EdmPrimitiveTypeName | null, PrimitiveValue | null]>([
    ['null', null, null],
    ['true', 'Edm.Boolean', true],
    ['false', 'Edm.Boolean', false],
    // strings
    ["'abc'", 'Edm.String', 'abc'],
    ["''", 'Edm.String', ''],
    ["'O''Neil'", 'Edm.String', "O'Neil"],
    ["''''", 'Edm.String', "'"],
    ["'a,b)c=d'", 'Edm.String', 'a,b)c=d'],
    ["'日本'", 'Edm.String', '日本'],
    // untyped integers
    ['0', 'Edm.Int32', 0],
    ['-0', 'Edm.Int32', 0],
    ['42', 'Edm.Int32', 42],
    ['007', 'Edm.Int32', 7],
    ['-2147483648', 'Edm.Int32', -2147483648],
    ['2147483647', 'Edm.Int32', 2147483647],
    ['2147483648', 'Edm.Int64', '2147483648'],
    ['-2147483649', 'Edm.Int64', '-2147483649'],
    ['9223372036854775807', 'Edm.Int64', '9223372036854775807'],
    ['9223372036854775808', 'Edm.Decimal', '9223372036854775808'],
    // Int64
    ['12L', 'Edm.Int64', '12'],
    ['12l', 'Edm.Int64', '12'],
    ['-9223372036854775808L', 'Edm.Int64', '-9223372036854775808'],
    ['00012L', 'Edm.Int64', '12'],
    // Decimal
    ['2.5M', 'Edm.Decimal', '2.5'],
    ['20m', 'Edm.Decimal', '20'],
    ['-0.50M', 'Edm.Decimal', '-0.5'],
    ['1E3M', 'Edm.Decimal', '1000'],
    ['1.5e-2m', 'Edm.Decimal', '0.015'],
    ['79228162514264337593543950335M', 'Edm.Decimal', '79228162514264337593543950335'],
    ['0.00000000000000000001M', 'Edm.Decimal', '0.00000000000000000001'],
    // Double (unsuffixed fraction or exponent: WCF lexer)
    ['2.5', 'Edm.Double', 2.5],
    ['-2.5', 'Edm.Double', -2.5],
    ['1E10', 'Edm.Double', 1e10],
    ['1e+10', 'Edm.Double', 1e10],
    ['1.5E-3', 'Edm.Double', 0.0015],
    ['1.5D', 'Edm.Double', 1.5],
    ['3d', 'Edm.Double', 3],
    ['INF', 'Edm.Double', Infinity],
    ['-INF', 'Edm.Double', -Infinity],
    ['NaN', 'Edm.Double', NaN],
    ['INFD', 'Edm.Double', Infinity],
    ['NaNd', 'Edm.Double', NaN],
    // Single
    ['2.5f', 'Edm.Single', 2.5],
    ['2F', 'Edm.Single', 2],
    ['INFf', 'Edm.Single', Infinity],
    ['-INFF', 'Edm.Single', -Infinity],
    ['NaNf', 'Edm.Single', NaN],
    ['3.4028234E38f', 'Edm.Single', 3.4028234e38],
    // DateTime, case-insensitive prefix, optional seconds, fraction, space, trailing Z
    ["datetime'2000-01-01T00:00'", 'Edm.DateTime', utc('2000-01-01T00:00:00Z')],
    ["datetime'2000-01-01T12:30:45'", 'Edm.DateTime', utc('2000-01-01T12:30:45Z')],
    ["DateTime'2000-02-29T23:59:59.1234567'", 'Edm.DateTime', utc('2000-02-29T23:59:59.123Z')],
    ["DATETIME'1992-01-01T00:00:00.5'", 'Edm.DateTime', utc('1992-01-01T00:00:00.500Z')],
    ["datetime'2000-01-01 08:00'", 'Edm.DateTime', utc('2000-01-01T08:00:00Z')],
    ["datetime'2000-01-01T08:00:00Z'", 'Edm.DateTime', utc('2000-01-01T08:00:00Z')],
    ["datetime'0001-01-01T00:00:00'", 'Edm.DateTime', utc('0001-01-01T00:00:00Z')],
    ["datetime'0050-06-01T00:00:00'", 'Edm.DateTime', utc('0050-06-01T00:00:00Z')],
    ["datetime'9999-12-31T23:59:59.999'", 'Edm.DateTime', utc('9999-12-31T23:59:59.999Z')],
    // DateTimeOffset
    ["datetimeoffset'2002-10-10T17:00:00Z'", 'Edm.DateTimeOffset', utc('2002-10-10T17:00:00Z')],
    ["datetimeoffset'2002-10-10T17:00:00+01:00'", 'Edm.DateTimeOffset', utc('2002-10-10T16:00:00Z')],
    ["datetimeoffset'2002-10-10T17:00:00-05:30'", 'Edm.DateTimeOffset', utc('2002-10-10T22:30:00Z')],
    ["datetimeoffset'2002-10-10T17:00:00 01:00'", 'Edm.DateTimeOffset', utc('2002-10-10T16:00:00Z')],
    ["DateTimeOffset'2002-10-10T17:00'", 'Edm.DateTimeOffset', utc('2002-10-10T17:00:00Z')],
    // Time (canonical xs:duration)
    ["time'PT13H20M'", 'Edm.Time', 'PT13H20M'],
    ["time'PT11H00M00S'", 'Edm.Time', 'PT11H'],
    ["TIME'PT0S'", 'Edm.Time', 'PT0S'],
    ["time'P1DT2H'", 'Edm.Time', 'P1DT2H'],
    ["time'PT26H'", 'Edm.Time', 'P1DT2H'],
    ["time'PT1.5S'", 'Edm.Time', 'PT1.5S'],
    ["time'-PT1M'", 'Edm.Time', '-PT1M'],
    ["time'13:20:00'", 'Edm.Time', 'PT13H20M'],
    // Guid
    ["guid'12345678-aaaa-bbbb-cccc-ddddeeeeffff'", 'Edm.Guid', '12345678-aaaa-bbbb-cccc-ddddeeeeffff'],
    ["GUID'12345678-AAAA-BBBB-CCCC-DDDDEEEEFFFF'", 'Edm.Guid', '12345678-aaaa-bbbb-cccc-ddddeeeeffff'],
    // Binary
    ["X'0AFF'", 'Edm.Binary', bytes(0x0a, 0xff)],
    ["x'0aff'", 'Edm.Binary', bytes(0x0a, 0xff)],
    ["binary'00'", 'Edm.Binary', bytes(0)],
    ["Binary''", 'Edm.Binary', bytes()],
  ])('%s -> %s %p', (text, type, value) => {
    const literal = parseLiteral(text);
    expect(literal.type).toBe(type);
    expect(literal.value).toEqual(value);
  });

  it('keeps the text as written', () => {
    expect(parseLiteral('2.50').text).toBe('2.50');
    expect(parseLiteral("'x'").text).toBe("'x'");
  });
});

// ---------------------------------------------------------------------------------------------
// parseLiteral: invalid forms
// ---------------------------------------------------------------------------------------------

describe('parseLiteral refuses bad literals with 400 URI_LITERAL_SYNTAX', () => {
  it.each<[string, string]>([
    ['', 'the literal is empty'],
    ["'abc", 'the closing quote is missing'],
    ["'a''", 'the closing quote is missing'],
    ["'a'b'", 'unexpected text after the closing quote'],
    ["'a' ", 'unexpected text after the closing quote'],
    ['abc', 'not a literal of any type'],
    ['True', 'not a literal of any type'],
    ['NULL', 'not a literal of any type'],
    ['inf', 'not a literal of any type'],
    ['-NaN', 'not a literal of any type'],
    ['-null', 'not a literal of any type'],
    ["foo'1'", 'not a literal of any type'],
    ['+1', 'not a literal of any type'],
    ['1.', 'not a valid number'],
    ['.5', 'not a literal of any type'],
    ['1.5.3', 'not a valid number'],
    ['1E', 'not a valid number'],
    ['12x', 'not a valid number'],
    ['2.5Mx', 'not a valid number'],
    ['1LL', 'not a valid number'],
    ['0x1F', 'not a valid number'],
    ['1.5L', 'an Edm.Int64 literal takes digits only'],
    ['1E3L', 'an Edm.Int64 literal takes digits only'],
    ['99999999999999999999L', 'out of range for Edm.Int64'],
    ['9223372036854775808L', 'out of range for Edm.Int64'],
    ['-9223372036854775809L', 'out of range for Edm.Int64'],
    ['1E400', 'out of range for Edm.Double'],
    ['1E400D', 'out of range for Edm.Double'],
    ['3.5E38f', 'out of range for Edm.Single'],
    ['1E9999M', 'out of range for Edm.Decimal'],
    ["datetime'2000-13-01T00:00'", 'expected a valid date and time'],
    ["datetime'2001-02-29T00:00'", 'expected a valid date and time'],
    ["datetime'2000-04-31T00:00'", 'expected a valid date and time'],
    ["datetime'2000-01-01T24:00'", 'expected a valid date and time'],
    ["datetime'2000-01-01T23:60'", 'expected a valid date and time'],
    ["datetime'2000-01-01T23:59:60'", 'expected a valid date and time'],
    ["datetime'2000-01-01'", 'expected a valid date and time'],
    ["datetime'2000-1-01T00:00'", 'expected a valid date and time'],
    ["datetime'0000-01-01T00:00'", 'expected a valid date and time'],
    ["datetime'2000-01-01T00:00:00.'", 'expected a valid date and time'],
    ["datetime'2000-01-01T00:00:00+25:00'", 'expected a valid date and time'],
    ["datetime'2000-01-01T00:00:00X'", 'expected a valid date and time'],
    ["datetime''", 'expected a valid date and time'],
    ["datetime'2000-01-01T00:00", 'the closing quote is missing'],
    ["datetime'", 'the closing quote is missing'],
    ["datetimeoffset'2002-10-10T17:00:00+1:00'", 'expected a valid date and time with offset'],
    ["guid'12345678-aaaa-bbbb-cccc-ddddeeeefff'", 'expected a GUID'],
    ["guid'12345678aaaabbbbccccddddeeeeffff'", 'expected a GUID'],
    ["guid'g2345678-aaaa-bbbb-cccc-ddddeeeeffff'", 'expected a GUID'],
    ["X'0AF'", 'expected an even number of hex digits'],
    ["X'0G'", 'expected an even number of hex digits'],
    ["binary'0A FF'", 'expected an even number of hex digits'],
    ["time'13H'", 'expected an xs:duration'],
    ["time'P1Y'", 'expected an xs:duration'],
    ["time'P1M'", 'expected an xs:duration'],
    ["time'PT'", 'expected an xs:duration'],
    ["time'P'", 'expected an xs:duration'],
    ["time'PT1H1H'", 'expected an xs:duration'],
    ["time'PT1M1H'", 'expected an xs:duration'],
    ["time'PT1.5H'", 'expected an xs:duration'],
    ["time'25:00:00'", 'expected an xs:duration'],
    ["guid'a''b'", 'expected a GUID'],
  ])('%p: %s', (text, detail) => {
    const [code, status, message] = failure(() => parseLiteral(text));
    expect([code, status]).toEqual(['URI_LITERAL_SYNTAX', 400]);
    expect(message).toContain(`'${text}'`);
    expect(message).toContain(detail);
  });

  it('refuses an unsuffixed integer too long even for Edm.Decimal', () => {
    const [code, , message] = failure(() => parseLiteral('1'.repeat(500)));
    expect(code).toBe('URI_LITERAL_SYNTAX');
    expect(message).toContain('out of range for Edm.Decimal');
  });

  it('shortens a very long literal in the message', () => {
    const [, , message] = failure(() => parseLiteral("'" + 'a'.repeat(5000)));
    expect(message.length).toBeLessThan(400);
  });
});

// ---------------------------------------------------------------------------------------------
// scanLiteral
// ---------------------------------------------------------------------------------------------

describe('scanLiteral finds where a literal ends', () => {
  it.each<[string, number, number]>([
    ["Name eq 'abc' and", 8, 13],
    ["'O''Neil')", 0, 9],
    ["'a''')", 0, 5],
    ["'unterminated", 0, 13],
    ["'x''", 0, 4],
    ['(12)', 1, 3],
    ['(A=1,B=2)', 3, 4],
    ['-12 add', 0, 3],
    ['2.5M)', 0, 4],
    ['1E+10 eq', 0, 5],
    ['1.5e-3d,', 0, 7],
    ['2.5Mx eq', 0, 5],
    ['12.x', 0, 4],
    ["datetime'2000-01-01T00:00')", 0, 26],
    ["DateTimeOffset'2002-10-10T17:00:00+01:00' ", 0, 41],
    ["X'0AFF',", 0, 7],
    ["binary'00'", 0, 10],
    ["guid'12345678-aaaa-bbbb-cccc-ddddeeeeffff')", 0, 42],
    ["time'PT1H' eq", 0, 10],
    ["datetime'unterminated", 0, 21],
    ['true)', 0, 4],
    ['false and', 0, 5],
    ['null,', 0, 4],
    ['INF ', 0, 3],
    ['-INF)', 0, 4],
    ['NaN', 0, 3],
    ['INFf', 0, 4],
    ['x eq null', 5, 9],
  ])('%p from %i ends at %i', (text, start, end) => {
    expect(scanLiteral(text, start)).toBe(end);
  });

  it.each<[string, number]>([
    ['Name eq 1', 0],
    ['trueValue', 0],
    ['True', 0],
    ['nullable', 0],
    ['null_x', 0],
    ['INFO', 0],
    ['-INFO', 0],
    ['-Price', 0],
    ['-null', 0],
    ["foo'x'", 0],
    ['(1)', 0],
    [' 1', 0],
    ['', 0],
    ['+1', 0],
    ['.5', 0],
  ])('no literal starts in %p at %i', (text, start) => {
    expect(scanLiteral(text, start)).toBe(-1);
  });

  it('agrees with parseLiteral on every token it finds', () => {
    const text = "(A=1,B='x''y',C=datetime'2000-01-01T00:00',D=2.5M,E=-INF,F=null)";
    const values: (PrimitiveValue | null)[] = [];
    for (let i = 0; i < text.length; i++) {
      if (text[i] !== '=') continue;
      const end = scanLiteral(text, i + 1);
      values.push(parseLiteral(text.slice(i + 1, end)).value);
      i = end - 1;
    }
    expect(values).toEqual([1, "x'y", utc('2000-01-01T00:00:00Z'), '2.5', -Infinity, null]);
  });
});

// ---------------------------------------------------------------------------------------------
// convertLiteral
// ---------------------------------------------------------------------------------------------

describe('convertLiteral', () => {
  const lit = (text: string): ParsedLiteral => parseLiteral(text);

  it.each<[string, EdmPrimitiveTypeName, PrimitiveValue | null]>([
    ['1', 'Edm.Int64', '1'],
    ['1', 'Edm.Decimal', '1'],
    ['1', 'Edm.Byte', 1],
    ['-128', 'Edm.SByte', -128],
    ['32767', 'Edm.Int16', 32767],
    ['1', 'Edm.Int32', 1],
    ['1', 'Edm.Double', 1],
    ['1', 'Edm.Single', 1],
    ['1', 'Edm.Boolean', true],
    ['0', 'Edm.Boolean', false],
    ['12L', 'Edm.Int64', '12'],
    ['12L', 'Edm.Int32', 12],
    ['12L', 'Edm.Decimal', '12'],
    ['12L', 'Edm.Double', 12],
    ['9223372036854775807', 'Edm.Decimal', '9223372036854775807'],
    ['2.5M', 'Edm.Decimal', '2.5'],
    ['2.5M', 'Edm.Double', 2.5],
    ['2.5M', 'Edm.Single', 2.5],
    ['2.5', 'Edm.Double', 2.5],
    ['2.5', 'Edm.Single', 2.5],
    ['2.5', 'Edm.Decimal', '2.5'],
    ['2.50', 'Edm.Decimal', '2.5'],
    ['0.1', 'Edm.Decimal', '0.1'],
    ['1.23456789012345678901', 'Edm.Decimal', '1.23456789012345678901'],
    ['1E3', 'Edm.Decimal', '1000'],
    ['2.5D', 'Edm.Decimal', '2.5'],
    ['2.5f', 'Edm.Double', 2.5],
    ['2.5f', 'Edm.Decimal', '2.5'],
    ['INF', 'Edm.Single', Infinity],
    ['NaN', 'Edm.Double', NaN],
    ['true', 'Edm.Boolean', true],
    ["'x'", 'Edm.String', 'x'],
    ["datetime'2000-01-01T00:00'", 'Edm.DateTime', utc('2000-01-01T00:00:00Z')],
    ["datetime'2000-01-01T00:00'", 'Edm.DateTimeOffset', utc('2000-01-01T00:00:00Z')],
    ["datetimeoffset'2000-01-01T00:00:00+01:00'", 'Edm.DateTime', utc('1999-12-31T23:00:00Z')],
    ["time'PT1H'", 'Edm.Time', 'PT1H'],
    ["guid'12345678-aaaa-bbbb-cccc-ddddeeeeffff'", 'Edm.Guid', '12345678-aaaa-bbbb-cccc-ddddeeeeffff'],
    ["X'01'", 'Edm.Binary', bytes(1)],
    ['null', 'Edm.Int32', null],
    ['null', 'Edm.String', null],
  ])('%s as %s -> %p', (text, target, expected) => {
    expect(convertLiteral(lit(text), target)).toEqual(expected);
  });

  it.each<[string, EdmPrimitiveTypeName]>([
    ['256', 'Edm.Byte'],
    ['-1', 'Edm.Byte'],
    ['128', 'Edm.SByte'],
    ['32768', 'Edm.Int16'],
    ['2147483648', 'Edm.Int32'],
    ['9223372036854775808', 'Edm.Int64'],
    ['2', 'Edm.Boolean'],
    ['2.5', 'Edm.Int32'],
    ['2.5M', 'Edm.Int64'],
    ['2M', 'Edm.Int32'],
    ['1E300', 'Edm.Single'],
    ['INF', 'Edm.Decimal'],
    ['NaN', 'Edm.Decimal'],
    ["'1'", 'Edm.Int32'],
    ["'x'", 'Edm.Guid'],
    ['1', 'Edm.String'],
    ['true', 'Edm.Int32'],
    ["datetime'2000-01-01T00:00'", 'Edm.String'],
    ["time'PT1H'", 'Edm.DateTime'],
    ["X'01'", 'Edm.String'],
    ["guid'12345678-aaaa-bbbb-cccc-ddddeeeeffff'", 'Edm.String'],
  ])('%s is not an %s', (text, target) => {
    expect(convertLiteral(lit(text), target)).toBeUndefined();
  });

  it('converts literals built without text', () => {
    expect(convertLiteral({ type: 'Edm.Double', value: 0.25 }, 'Edm.Decimal')).toBe('0.25');
    expect(convertLiteral({ type: 'Edm.Int16', value: 7 }, 'Edm.Int64')).toBe('7');
  });
});

// ---------------------------------------------------------------------------------------------
// printLiteral and round trips
// ---------------------------------------------------------------------------------------------

const PRINTED: readonly [EdmPrimitiveTypeName, PrimitiveValue, string][] = [
  ['Edm.String', "O'Neil", "'O''Neil'"],
  ['Edm.String', '', "''"],
  ['Edm.String', 'a/b?c', "'a/b?c'"],
  ['Edm.Boolean', true, 'true'],
  ['Edm.Boolean', false, 'false'],
  ['Edm.Byte', 255, '255'],
  ['Edm.SByte', -128, '-128'],
  ['Edm.Int16', -32768, '-32768'],
  ['Edm.Int32', 0, '0'],
  ['Edm.Int32', -42, '-42'],
  ['Edm.Int64', '12', '12L'],
  ['Edm.Int64', '-9223372036854775808', '-9223372036854775808L'],
  ['Edm.Decimal', '2.5', '2.5M'],
  ['Edm.Decimal', '-0.000001', '-0.000001M'],
  ['Edm.Decimal', '79228162514264337593543950335', '79228162514264337593543950335M'],
  ['Edm.Double', 1.5, '1.5'],
  ['Edm.Double', 2, '2.0'],
  ['Edm.Double', -2, '-2.0'],
  ['Edm.Double', -0, '-0.0'],
  ['Edm.Double', 1e21, '1E+21'],
  ['Edm.Double', 1e-7, '1E-7'],
  ['Edm.Double', Infinity, 'INF'],
  ['Edm.Double', -Infinity, '-INF'],
  ['Edm.Double', NaN, 'NaN'],
  ['Edm.Double', 0.1, '0.1'],
  ['Edm.Single', 2.5, '2.5f'],
  ['Edm.Single', 2, '2f'],
  ['Edm.Single', Infinity, 'INFf'],
  ['Edm.Single', -Infinity, '-INFf'],
  ['Edm.Single', NaN, 'NaNf'],
  ['Edm.DateTime', utc('2000-01-01T00:00:00Z'), "datetime'2000-01-01T00:00:00'"],
  ['Edm.DateTime', utc('1992-01-01T10:20:30.120Z'), "datetime'1992-01-01T10:20:30.12'"],
  ['Edm.DateTime', utc('0001-01-01T00:00:00Z'), "datetime'0001-01-01T00:00:00'"],
  ['Edm.DateTimeOffset', utc('2002-10-10T16:00:00Z'), "datetimeoffset'2002-10-10T16:00:00Z'"],
  ['Edm.Time', 'PT13H20M', "time'PT13H20M'"],
  ['Edm.Time', 'PT0S', "time'PT0S'"],
  ['Edm.Guid', '12345678-aaaa-bbbb-cccc-ddddeeeeffff', "guid'12345678-aaaa-bbbb-cccc-ddddeeeeffff'"],
  ['Edm.Binary', bytes(0x0a, 0xff), "X'0AFF'"],
  ['Edm.Binary', bytes(), "X''"],
];

describe('printLiteral', () => {
  it.each(PRINTED)('%s %p -> %s', (type, value, text) => {
    expect(printLiteral(type, value)).toBe(text);
  });

  it.each(PRINTED)('%s %p reads back as the same value', (type, value) => {
    const literal = parseLiteral(printLiteral(type, value));
    expect(convertLiteral(literal, type)).toEqual(value);
  });

  it('prints Int64 and Decimal given as JS numbers (a common provider slip)', () => {
    expect(printLiteral('Edm.Int64', 7)).toBe('7L');
    expect(printLiteral('Edm.Decimal', 2.5)).toBe('2.5M');
  });

  it.each<[EdmPrimitiveTypeName, PrimitiveValue]>([
    ['Edm.Int32', '1'],
    ['Edm.String', 1],
    ['Edm.DateTime', '2000-01-01'],
    ['Edm.DateTime', new Date(NaN)],
    ['Edm.Boolean', 1],
    ['Edm.Binary', 'AA=='],
    ['Edm.Int64', 1.5],
  ])('throws a TypeError for %s given %p (a provider bug, masked as 500)', (type, value) => {
    expect(() => printLiteral(type, value)).toThrow(TypeError);
  });
});

describe('encodeLiteral', () => {
  it.each<[string, string]>([
    ['12', '12'],
    ["'abc'", "'abc'"],
    ["'a b'", "'a%20b'"],
    ["'a/b'", "'a%2Fb'"],
    ["datetime'2000-01-01T00:00:00'", "datetime'2000-01-01T00%3A00%3A00'"],
    ["'100%'", "'100%25'"],
    ["'é'", "'%C3%A9'"],
    ["'\uD800'", "'%EF%BF%BD'"],
  ])('%p -> %p', (literal, encoded) => {
    expect(encodeLiteral(literal)).toBe(encoded);
  });
});

// ---------------------------------------------------------------------------------------------
// printKeyPredicate
// ---------------------------------------------------------------------------------------------

function keyProperty(name: string, type: EdmPrimitiveTypeName): EdmProperty {
  return { kind: 'Property', name, type: { kind: 'Primitive', name: type }, isKey: true } as unknown as EdmProperty;
}

function entityType(...key: EdmProperty[]): EdmEntityType {
  return { qualifiedName: 'Test.Thing', key } as unknown as EdmEntityType;
}

describe('printKeyPredicate', () => {
  const single = entityType(keyProperty('ID', 'Edm.Int32'));
  const composite = entityType(keyProperty('A', 'Edm.Int32'), keyProperty('B', 'Edm.String'));
  const dated = entityType(keyProperty('When', 'Edm.DateTime'));

  it.each<[EdmEntityType, Record<string, unknown>, string]>([
    [single, { ID: 1, Name: 'x' }, '(1)'],
    [single, { ID: -7 }, '(-7)'],
    [composite, { A: 1, B: 'x' }, "(A=1,B='x')"],
    [composite, { B: "O'Neil / Sons", A: 2 }, "(A=2,B='O''Neil%20%2F%20Sons')"],
    [dated, { When: utc('2000-01-01T00:00:00Z') }, "(datetime'2000-01-01T00%3A00%3A00')"],
    [entityType(keyProperty('G', 'Edm.Guid')), { G: '12345678-aaaa-bbbb-cccc-ddddeeeeffff' }, "(guid'12345678-aaaa-bbbb-cccc-ddddeeeeffff')"],
    [entityType(keyProperty('L', 'Edm.Int64')), { L: '9007199254740993' }, '(9007199254740993L)'],
  ])('%#: -> %s', (type, entity, expected) => {
    expect(printKeyPredicate(type, entity)).toBe(expected);
    expect(printKeyPredicate(type, entity)).toBe(expected); // second call uses the compiled printer
  });

  it('names the missing key property', () => {
    expect(() => printKeyPredicate(composite, { A: 1 })).toThrow("key property 'B'");
    expect(() => printKeyPredicate(single, { ID: null })).toThrow(TypeError);
  });
});
