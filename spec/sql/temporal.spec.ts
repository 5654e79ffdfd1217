/**
 * PostgreSQL's text forms of timestamps, intervals and bytea, read and written without a Date in
 * local time or a JS number on the way: tables of text and value.
 */
import { formatIntervalParameter, formatTimestampParameter, parseIntervalText, parsePreciseTimestampText, parseTimestampText } from '../../lib/sql/temporal';
import { fromSqlPosition } from '../../lib/sql/postgres/values';
import { PGLITE_PARSERS, PG_QUERY_TYPES, TYPE_OID, parseByteaText } from '../../lib/sql/postgres/type-parsers';

describe('parseTimestampText', () => {
  it.each([
    ['2020-01-02 03:04:05', false, '2020-01-02T03:04:05.000Z'],
    ['2020-01-02T03:04:05.1', false, '2020-01-02T03:04:05.100Z'],
    ['2020-01-02 03:04:05.123456', false, '2020-01-02T03:04:05.123Z'],
    ['1969-12-31 23:59:59.999999', false, '1969-12-31T23:59:59.999Z'],
    ['0001-01-01 00:00:00', false, '0001-01-01T00:00:00.000Z'],
    ['10000-01-01 00:00:00', false, '+010000-01-01T00:00:00.000Z'],
    ['0001-01-01 00:00:00 BC', false, '0000-01-01T00:00:00.000Z'],
    ['2020-01-02 03:04:05+00', true, '2020-01-02T03:04:05.000Z'],
    ['2020-01-02 08:49:05.5+05:45', true, '2020-01-02T03:04:05.500Z'],
    ['2020-01-01 12:45:00.123456+12:45', true, '2020-01-01T00:00:00.123Z'],
    ['1900-01-01 00:00:00-00:53:28', true, '1900-01-01T00:53:28.000Z'],
  ] as const)('%s (with zone: %s) is %s', (text, withZone, iso) => {
    expect(parseTimestampText(text, withZone).toISOString()).toBe(iso);
  });

  it.each([
    ['2020-01-02 03:04:05+00', false],
    ['2020-01-02 03:04:05', true],
    ['infinity', false],
    ['01/02/2020 03:04:05', false],
    ['2020-13-45 03:04:05', false],
  ] as const)('refuses %s (with zone: %s)', (text, withZone) => {
    expect(() => parseTimestampText(text, withZone)).toThrow(TypeError);
  });
});

describe('parsePreciseTimestampText and fromSqlPosition: a position keeps digits 4 to 6', () => {
  it.each([
    ['2020-01-02 03:04:05', false, '2020-01-02T03:04:05.000Z', '000'],
    ['2020-01-02 03:04:05.1', false, '2020-01-02T03:04:05.100Z', '000'],
    ['2020-01-02 03:04:05.123456', false, '2020-01-02T03:04:05.123Z', '456'],
    ['2020-01-02 03:04:05.1234', false, '2020-01-02T03:04:05.123Z', '400'],
    // Before 1970 the digits follow the millisecond toward the past: .999999 is .999 and 999.
    ['1969-12-31 23:59:59.999999', false, '1969-12-31T23:59:59.999Z', '999'],
    ['2020-01-02', false, '2020-01-02T00:00:00.000Z', '000'],
    ['2020-01-01 12:45:00.123456+12:45', true, '2020-01-01T00:00:00.123Z', '456'],
    ['2024-05-01 12:00:00.50025+02', true, '2024-05-01T10:00:00.500Z', '250'],
  ] as const)('%s (with zone: %s) is %s and %s', (text, withZone, iso, digits) => {
    const value = parsePreciseTimestampText(text, withZone);
    expect([value.date.toISOString(), value.subMilliseconds]).toEqual([iso, digits]);
    expect(fromSqlPosition(withZone ? 'Edm.DateTimeOffset' : 'Edm.DateTime', text)).toEqual(value);
  });

  it('reads every other type as fromSqlValue does, null as null', () => {
    expect(fromSqlPosition('Edm.Int64', '9007199254740993')).toBe('9007199254740993');
    expect(fromSqlPosition('Edm.Time', '01:00:00.123456')).toBe('PT1H0.123S');
    expect(fromSqlPosition('Edm.DateTime', null)).toBeNull();
    expect(() => fromSqlPosition('Edm.DateTime', 12)).toThrow(TypeError);
  });

  it('writes a precise instant back as a parameter with every digit', () => {
    const value = parsePreciseTimestampText('2020-01-02 03:04:05.123456', false);
    expect(formatTimestampParameter(value.date, false, value.subMilliseconds)).toBe('2020-01-02 03:04:05.123456');
    expect(formatTimestampParameter(value.date, true, value.subMilliseconds)).toBe('2020-01-02 03:04:05.123456+00');
  });
});

describe('parseTimestampText: the common form read without a regular expression', () => {
  it.each([
    ['2020-01-02 03:04:05.12', '2020-01-02T03:04:05.120Z'],
    ['2020-01-02 03:04:05.0009', '2020-01-02T03:04:05.000Z'],
    ['2020-01-02 03:04:05.99999', '2020-01-02T03:04:05.999Z'],
    ['1000-01-01 00:00:00', '1000-01-01T00:00:00.000Z'],
    ['0999-12-31 23:59:59.5', '0999-12-31T23:59:59.500Z'],
    ['2020-02-30 00:00:00', '2020-03-01T00:00:00.000Z'],
  ] as const)('%s is %s', (text, iso) => {
    expect(parseTimestampText(text, false).toISOString()).toBe(iso);
  });

  it.each([
    '2020-01-02 03:04:05.',
    '2020-01-02 24:00:00',
    '2020-01-02 03:04:60',
    '2020-00-02 03:04:05',
    '2020-01-00 03:04:05',
    '2020-01-02 03:04:05.1234567',
    '2020-01-02 3:04:05.123',
  ])('refuses %s', (text) => {
    expect(() => parseTimestampText(text, false)).toThrow(TypeError);
  });

  it('reads 2,000 generated timestamps as the zone-aware reader reads them with +00', () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const two = (n: number): string => String(n).padStart(2, '0');
    for (let i = 0; i < 2000; i++) {
      const fraction =
        next(7) === 0
          ? ''
          : `.${String(next(1_000_000))
              .padStart(6, '0')
              .slice(0, 1 + next(6))}`;
      const text = `${1000 + next(9000)}-${two(1 + next(12))}-${two(1 + next(28))} ${two(next(24))}:${two(next(60))}:${two(next(60))}${fraction}`;
      expect({ text, iso: parseTimestampText(text, false).toISOString() }).toEqual({ text, iso: parseTimestampText(`${text}+00`, true).toISOString() });
    }
  });
});

describe('formatTimestampParameter', () => {
  it.each([
    ['2020-01-02T03:04:05.006Z', false, '2020-01-02 03:04:05.006'],
    ['2020-01-02T03:04:05Z', true, '2020-01-02 03:04:05.000+00'],
    ['+010000-01-01T00:00:00.000Z', false, '10000-01-01 00:00:00.000'],
    ['-000001-01-01T00:00:00.000Z', false, '0002-01-01 00:00:00.000 BC'],
  ] as const)('%s (with zone: %s) is %s', (iso, withZone, text) => {
    expect(formatTimestampParameter(new Date(iso), withZone)).toBe(text);
  });

  it('refuses an invalid Date', () => {
    expect(() => formatTimestampParameter(new Date(NaN), false)).toThrow('Cannot write an invalid Date.');
  });
});

describe('parseIntervalText (milliseconds, toward zero)', () => {
  it.each([
    ['00:00:00', 0],
    ['26:00:00.5', 93_600_500],
    ['-00:00:01.0005', -1000],
    ['00:00:00.0009', 0],
    ['1 day 02:03:04.567891', 93_784_567],
    ['-1 days +01:00:00', -82_800_000],
    ['1 year 2 mons 3 days', (360 + 60 + 3) * 86_400_000],
    ['3 days', 3 * 86_400_000],
    ['P1Y2M3DT4H5M6.789S', (360 + 60 + 3) * 86_400_000 + 14_706_789],
    ['PT-1.5S', -1500],
    ['P-1DT2H', -79_200_000],
    ['P1W', 7 * 86_400_000],
    ['PT0S', 0],
  ] as const)('%s is %d ms', (text, milliseconds) => {
    expect(parseIntervalText(text)).toBe(milliseconds);
  });

  it.each(['@ 1 day', '1 day ago', 'P', 'PT', '1 fortnight', '178000000 years'])('refuses %s', (text) => {
    expect(() => parseIntervalText(text)).toThrow(TypeError);
  });
});

describe('formatIntervalParameter', () => {
  it.each([
    [0, '0:00:00.000'],
    [93_600_500, '26:00:00.500'],
    [-1500, '-0:00:01.500'],
  ] as const)('%d ms is %s', (milliseconds, text) => {
    expect(formatIntervalParameter(milliseconds)).toBe(text);
  });

  it('refuses a fraction of a millisecond', () => {
    expect(() => formatIntervalParameter(0.5)).toThrow(TypeError);
  });
});

describe('type parsers', () => {
  it('keeps the exact types as text and parses the rest', () => {
    const parse = (oid: number, text: string): unknown => PG_QUERY_TYPES.getTypeParser(oid)(text);
    expect(parse(TYPE_OID.int8, '9223372036854775807')).toBe('9223372036854775807');
    expect(parse(TYPE_OID.numeric, '1.50')).toBe('1.50');
    expect(parse(TYPE_OID.timestamp, '2020-01-01 00:00:00')).toBe('2020-01-01 00:00:00');
    expect(parse(TYPE_OID.jsonb, '{"n": 9007199254740993}')).toBe('{"n": 9007199254740993}');
    expect(parse(1016, '{1,9007199254740993}')).toBe('{1,9007199254740993}');
    expect(parse(TYPE_OID.int4, '42')).toBe(42);
    expect(parse(TYPE_OID.bool, 't')).toBe(true);
    expect([parse(TYPE_OID.float8, 'NaN'), parse(TYPE_OID.float8, '-Infinity'), parse(TYPE_OID.float4, '0.1')]).toEqual([NaN, -Infinity, 0.1]);
    // A type we do not know stays text.
    expect(parse(600 /* point */, '(1,2)')).toBe('(1,2)');
    expect(PGLITE_PARSERS[TYPE_OID.int8]('9223372036854775807')).toBe('9223372036854775807');
  });

  it.each([
    ['\\x', []],
    ['\\x00ff5c', [0, 255, 92]],
    ['a\\\\b\\001\\377', [97, 92, 98, 1, 255]],
  ] as const)('bytea %s', (text, bytes) => {
    expect([...parseByteaText(text)]).toEqual(bytes);
  });
});
