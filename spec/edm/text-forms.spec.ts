import { canonicalDecimal, canonicalInteger, decimalShape, isInt64, numberToDecimalText, significantDigits } from '../../lib/edm/decimal-text';
import { formatDuration, formatJsonDateText, parseDateTimeText, parseDurationText, parseJsonDateText, timeToMilliseconds } from '../../lib/edm/temporal-text';

describe('canonicalInteger', () => {
  it.each<[string, string | undefined]>([
    ['0', '0'],
    ['-0', '0'],
    ['+0', '0'],
    ['007', '7'],
    ['-007', '-7'],
    ['123', '123'],
    ['', undefined],
    ['-', undefined],
    ['+', undefined],
    ['1.0', undefined],
    ['1e3', undefined],
    [' 1', undefined],
    ['--1', undefined],
  ])('%p -> %p', (text, expected) => {
    expect(canonicalInteger(text)).toBe(expected);
  });

  it('refuses + when asked', () => {
    expect(canonicalInteger('+1', false)).toBeUndefined();
  });
});

describe('isInt64', () => {
  it.each<[string, boolean]>([
    ['9223372036854775807', true],
    ['-9223372036854775808', true],
    ['9223372036854775808', false],
    ['-9223372036854775809', false],
    ['123456789012345678901', false],
    ['0', true],
  ])('%s -> %p', (text, expected) => {
    expect(isInt64(text)).toBe(expected);
  });
});

describe('canonicalDecimal', () => {
  it.each<[string, string | undefined]>([
    ['2.5', '2.5'],
    ['2.50', '2.5'],
    ['002.500', '2.5'],
    ['-0.0', '0'],
    ['+1', '1'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['1E3', '1000'],
    ['1.5e-3', '0.0015'],
    ['-12.5E+1', '-125'],
    ['0E999999', '0'],
    ['123.456E-10', '0.0000000123456'],
    ['', undefined],
    ['.', undefined],
    ['1E', undefined],
    ['1E1.5', undefined],
    ['abc', undefined],
    ['1e9999999', undefined],
    ['1E999', undefined],
    ['NaN', undefined],
    ['1 ', undefined],
  ])('%p -> %p', (text, expected) => {
    expect(canonicalDecimal(text)).toBe(expected);
  });

  it('refuses an exponent when asked (xs:decimal)', () => {
    expect(canonicalDecimal('1E3', false)).toBeUndefined();
  });
});

describe('decimalShape, numberToDecimalText, significantDigits', () => {
  it.each<[string, number, number]>([
    ['0', 0, 0],
    ['12.34', 4, 2],
    ['-0.05', 2, 2],
    ['100', 3, 0],
    ['0.5', 1, 1],
  ])('%s has precision %i and scale %i', (text, precision, scale) => {
    expect(decimalShape(text)).toEqual({ precision, scale });
  });

  it.each<[number, string | undefined]>([
    [2.5, '2.5'],
    [-0, '0'],
    [1e21, '1000000000000000000000'],
    [1e-7, '0.0000001'],
    [NaN, undefined],
    [Infinity, undefined],
  ])('%p -> %p', (value, expected) => {
    expect(numberToDecimalText(value)).toBe(expected);
  });

  it.each<[number, number]>([
    [0, 1],
    [2.5, 2],
    [123456789012345, 15],
    [0.1, 1],
    [0.12345678901234568, 17],
  ])('%p has %i digits', (value, digits) => {
    expect(significantDigits(value)).toBe(digits);
  });
});

describe('parseDateTimeText', () => {
  it.each<[string, boolean, string | undefined]>([
    ['2000-01-01T00:00', false, '2000-01-01T00:00:00.000Z'],
    ['2000-02-29T12:00:00', false, '2000-02-29T12:00:00.000Z'],
    ['1900-02-28T00:00:00', false, '1900-02-28T00:00:00.000Z'],
    ['1900-02-29T00:00:00', false, undefined],
    ['2100-02-29T00:00:00', false, undefined],
    ['2000-01-01 00:00', false, undefined],
    ['2000-01-01 00:00', true, '2000-01-01T00:00:00.000Z'],
    ['2000-01-01T00:00:00.9999', false, '2000-01-01T00:00:00.999Z'],
    ['2000-01-01T00:00:00+14:00', false, '1999-12-31T10:00:00.000Z'],
    ['2000-01-01T00:00:00+15:00', false, undefined],
    ['2000-01-01T00:00:00Z ', false, undefined],
    ['2000-01-01T00:00:00ZZ', false, undefined],
    ['20000-01-01T00:00:00', false, undefined],
  ])('%p (space %p) -> %p', (text, allowSpace, iso) => {
    expect(parseDateTimeText(text, allowSpace)?.toISOString()).toBe(iso);
  });
});

describe('durations', () => {
  it.each<[string, number | undefined]>([
    ['PT0S', 0],
    ['PT1H', 3600000],
    ['P1D', 86400000],
    ['P1DT1S', 86401000],
    ['-PT1.5S', -1500],
    ['PT1.0001S', 1000],
    ['PT13H20M', 48000000],
    ['P', undefined],
    ['PT', undefined],
    ['P1DT', undefined],
    ['1H', undefined],
    ['PT1S1M', undefined],
    ['PT1D', undefined],
    ['P1H', undefined],
    ['PTH', undefined],
    ['PT.5S', undefined],
    ['P-1D', undefined],
    ['PT1HT1M', undefined],
    ['P9999999999999999D', undefined],
  ])('%p -> %p', (text, ms) => {
    expect(parseDurationText(text)).toBe(ms);
  });

  it.each<[number, string]>([
    [0, 'PT0S'],
    [48000000, 'PT13H20M'],
    [93600000, 'P1DT2H'],
    [86400000, 'P1D'],
    [500, 'PT0.5S'],
    [-60000, '-PT1M'],
    [61001, 'PT1M1.001S'],
  ])('%i ms -> %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
    expect(timeToMilliseconds(text)).toBe(ms);
  });

  it('refuses a fractional number of milliseconds', () => {
    expect(() => formatDuration(0.5)).toThrow(TypeError);
  });
});

describe('JSON dates', () => {
  it.each<[string, number | undefined]>([
    ['/Date(0)/', 0],
    ['/Date(-1)/', -1],
    ['/Date(694224000000)/', 694224000000],
    ['/Date(1+0060)/', 1],
    ['/Date(1-5)/', 1],
    ['/Date()/', undefined],
    ['/Date(1+)/', undefined],
    ['/Date(1+00000)/', undefined],
    ['Date(1)', undefined],
    ['/Date(1)', undefined],
    ['/Date(1.5)/', undefined],
    ['/Date(8640000000000001)/', undefined],
  ])('%p -> %p', (text, ms) => {
    expect(parseJsonDateText(text)?.getTime()).toBe(ms);
  });

  it('writes both forms', () => {
    expect(formatJsonDateText(new Date(5), false)).toBe('/Date(5)/');
    expect(formatJsonDateText(new Date(5), true)).toBe('/Date(5+0000)/');
    expect(() => formatJsonDateText(new Date(NaN), false)).toThrow(TypeError);
  });
});
