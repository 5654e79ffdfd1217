/**
 * PreciseInstant: a date/time order value finer than a Date's millisecond. Built from the
 * millisecond and the digits after it (normalized: three at least, no trailing zero past the
 * third), told apart from primitive values, compared by the full value (a Date counts as its exact
 * millisecond), and written with every digit.
 */
import { compareInstants, isPreciseInstant, preciseInstant } from '../../lib/edm/precise-instant';
import { dateTimeFraction, formatPreciseDateTimeText } from '../../lib/edm/temporal-text';

const at = new Date('2024-05-01T10:00:00.123Z');

describe('preciseInstant', () => {
  it.each([
    ['456', '456'],
    ['4', '400'],
    ['45', '450'],
    ['000', '000'],
    ['0', '000'],
    ['4560', '456'],
    ['4567', '4567'],
    ['456789', '456789'],
    ['450000', '450'],
  ])('keeps the digits %p as %p', (digits, kept) => {
    const value = preciseInstant(at, digits);
    expect(value.subMilliseconds).toBe(kept);
    expect(value.date.getTime()).toBe(at.getTime());
    expect(Object.isFrozen(value)).toBe(true);
  });

  it('holds a copy of the Date, not the caller’s', () => {
    const date = new Date(at.getTime());
    const value = preciseInstant(date, '1');
    date.setTime(0);
    expect(value.date.getTime()).toBe(at.getTime());
  });

  it.each([
    ['no digits', at, ''],
    ['more than six digits', at, '1234567'],
    ['a sign', at, '-1'],
    ['a dot', at, '.5'],
    ['an invalid date', new Date(NaN), '1'],
    ['a year past 9999', new Date('+010000-01-01T00:00:00Z'), '1'],
  ])('refuses %s with a TypeError', (_, date, digits) => {
    expect(() => preciseInstant(date, digits)).toThrow(TypeError);
  });
});

describe('isPreciseInstant', () => {
  it.each([
    [preciseInstant(at, '1'), true],
    [at, false],
    ['2024-05-01T10:00:00.123456', false],
    [null, false],
    [{ date: '2024', subMilliseconds: '1' }, false],
    [new Uint8Array([1]), false],
  ])('%p: %p', (value, expected) => {
    expect(isPreciseInstant(value)).toBe(expected);
  });
});

describe('compareInstants', () => {
  const next = new Date(at.getTime() + 1);
  it.each([
    [preciseInstant(at, '456'), preciseInstant(at, '457'), -1],
    [preciseInstant(at, '456'), preciseInstant(at, '4560'), 0],
    [preciseInstant(at, '4561'), preciseInstant(at, '456'), 1],
    [at, preciseInstant(at, '000'), 0],
    [at, preciseInstant(at, '001'), -1],
    [preciseInstant(at, '999999'), next, -1],
    [next, preciseInstant(at, '999'), 1],
    [at, next, -1],
  ] as const)('%p against %p: %i', (a, b, expected) => {
    expect(compareInstants(a, b)).toBe(expected);
    expect(compareInstants(b, a)).toBe(-expected || 0);
  });
});

describe('the text of a precise instant', () => {
  it.each([
    [preciseInstant(at, '456'), '', '2024-05-01T10:00:00.123456'],
    [preciseInstant(at, '0'), 'Z', '2024-05-01T10:00:00.123000Z'],
    [preciseInstant(new Date('1969-12-31T23:59:59.999Z'), '5'), '', '1969-12-31T23:59:59.999500'],
    [preciseInstant(new Date('2024-05-01T10:00:00Z'), '4567'), '', '2024-05-01T10:00:00.0004567'],
  ] as const)('%p writes as %s%s', (value, suffix, text) => {
    expect(formatPreciseDateTimeText(value, suffix)).toBe(text);
    expect(dateTimeFraction(text)).toBe(text.slice(20).replace('Z', ''));
  });

  it.each([
    ['2024-05-01T10:00:00', ''],
    ['2024-05-01T10:00', ''],
    ['2024-05-01T10:00:00.5Z', '5'],
    ['2024-05-01T12:00:00.500250+02:00', '500250'],
    ['2024-05-01 10:00:00.12', '12'],
  ])('the fraction of %s is %p', (text, fraction) => {
    expect(dateTimeFraction(text)).toBe(fraction);
  });
});
