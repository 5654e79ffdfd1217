/** The writers' fast paths agree with the edm formatters, which stay the authority. */
import { formatAtomValue, jsonValueText } from '../../lib/edm/payload-values';
import { fastAtomDate, fastJsonDate } from '../../lib/format/fast-values';

const DATES: readonly Date[] = [
  new Date('1992-01-01T00:00:00Z'),
  new Date('0001-01-01T00:00:00Z'),
  new Date('9999-12-31T23:59:59.999Z'),
  new Date('1969-12-31T23:59:59.001Z'),
  new Date('2000-02-29T12:34:56.500Z'),
  new Date('2000-02-29T12:34:56.050Z'),
  new Date('2000-02-29T12:34:56.120Z'),
  new Date('1600-03-01T01:02:03.004Z'),
  ...Array.from({ length: 2000 }, (_, i) => new Date(-62135596800000 + i * 157_784_630_123)),
];

describe('fastAtomDate', () => {
  it.each([
    ['Edm.DateTime', ''],
    ['Edm.DateTimeOffset', 'Z'],
  ] as const)('writes %s exactly as formatAtomValue', (type, suffix) => {
    for (const date of DATES) expect([date.getTime(), fastAtomDate(date, suffix)]).toEqual([date.getTime(), formatAtomValue(type, date)]);
  });

  it.each([new Date(Number.NaN), new Date('0000-12-31T23:59:59.999Z'), new Date('+010000-01-01T00:00:00Z')])(
    'leaves %s to the edm formatter (it refuses it)',
    (date) => {
      expect(fastAtomDate(date, '')).toBeUndefined();
      expect(() => formatAtomValue('Edm.DateTime', date)).toThrow(TypeError);
    },
  );
});

describe('fastJsonDate', () => {
  it('writes Edm.DateTime exactly as jsonValueText', () => {
    for (const date of DATES) expect(fastJsonDate(date)).toBe(jsonValueText('Edm.DateTime', date));
  });

  it.each([new Date(Number.NaN), new Date('0000-12-31T23:59:59.999Z'), new Date('+010000-01-01T00:00:00Z')])(
    'leaves %s to the edm formatter (it refuses it)',
    (date) => {
      expect(fastJsonDate(date)).toBeUndefined();
      expect(() => jsonValueText('Edm.DateTime', date)).toThrow(TypeError);
    },
  );
});
