/**
 * The plain code the conformance cases compute their expectations with: exact decimals, instants
 * of ISO 8601 text in 100 ns ticks (microseconds included), the verbose-JSON date forms and the
 * reference ordering.
 */
import { compareDecimal, decimalArithmetic, decimalKey, jsonDate, milliseconds, sortRows, ticks, utcDate } from '../../lib/testing/reference';

describe('decimals', () => {
  it.each([
    ['0.1', 'add', '0.2', '0.3'],
    ['12345678901234567890.123456789', 'add', '1', '12345678901234567891.123456789'],
    ['-0.0000000001', 'add', '0.0000000001', '0'],
    ['0.3', 'sub', '0.1', '0.2'],
    ['-2.5', 'sub', '-2.5', '0'],
    ['0.3', 'mul', '2', '0.6'],
    ['-1.5', 'mul', '-1.5', '2.25'],
  ] as const)('%s %s %s is %s', (a, operator, b, expected) => {
    expect(decimalArithmetic(a, operator, b)).toBe(expected);
  });

  it.each([
    ['12345678901234567890.1234567891', '12345678901234567890.123456789', 1],
    ['0.10', '0.1', 0],
    ['-2.5', '-0.0000000001', -1],
    ['99999999999999999999.9999999999', '100000000000000000000', -1],
  ])('compares %s with %s: %i', (a, b, expected) => {
    expect(compareDecimal(a, b)).toBe(expected);
    expect(Math.sign(Number(decimalKey(a) - decimalKey(b)))).toBe(expected);
  });
});

describe('instants', () => {
  it('reads ISO 8601 text with offsets, milliseconds and microseconds into exact ticks', () => {
    expect(ticks('2024-03-10T09:00:00.000+01:00')).toBe(ticks('2024-03-10T08:00:00Z'));
    expect(ticks('2024-05-01T10:00:00.123456Z') - ticks('2024-05-01T10:00:00.123Z')).toBe(4560n);
    expect(ticks('1969-07-20T20:17:40Z')).toBe(BigInt(Date.UTC(1969, 6, 20, 20, 17, 40)) * 10_000n);
    expect(ticks('2020-02-29T23:30:00.000-05:00')).toBe(ticks('2020-03-01T04:30:00Z'));
    expect(() => ticks('yesterday')).toThrow('not an ISO 8601 date/time');
  });

  it('gives milliseconds (floored), UTC dates and the verbose-JSON forms', () => {
    expect(milliseconds('1969-12-31T23:59:59.9995Z')).toBe(-1);
    expect(utcDate('2025-01-01T05:00:00.000+14:00').toISOString()).toBe('2024-12-31T15:00:00.000Z');
    expect(jsonDate('2000-02-29T00:00:00.000Z', false)).toBe('/Date(951782400000)/');
    expect(jsonDate('2000-02-29T01:00:00.000+01:00', true)).toBe('/Date(951782400000+0000)/');
  });
});

describe('the reference ordering', () => {
  const rows = [
    { id: 1, value: 2 as number | null },
    { id: 2, value: null },
    { id: 3, value: 1 },
    { id: 4, value: 2 },
    { id: 5, value: null },
  ];
  const order = (descending: boolean, flipped = false) =>
    sortRows(rows, [{ value: (row) => row.value, descending }], (row) => [row.id], flipped).map((row) => row.id);

  it('sorts nulls first ascending and last descending, ties by key ascending', () => {
    expect(order(false)).toEqual([2, 5, 3, 1, 4]);
    expect(order(true)).toEqual([1, 4, 3, 2, 5]);
  });

  it('puts nulls on the other end when flipped (what a broken store does)', () => {
    expect(order(false, true)).toEqual([3, 1, 4, 2, 5]);
    expect(order(true, true)).toEqual([2, 5, 1, 4, 3]);
  });

  it('compares strings by UTF-16 code units', () => {
    const names = [{ n: 'apple' }, { n: 'Zebra' }, { n: 'Äpfel' }, { n: '𝄞' }, { n: '日本' }];
    expect(sortRows(names, [{ value: (row) => row.n }], (row) => [row.n]).map((row) => row.n)).toEqual(['Zebra', 'apple', 'Äpfel', '日本', '𝄞']);
  });
});
