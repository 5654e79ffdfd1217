/**
 * SQLite's value codec reading stored timestamps: the fixed-width text the codec writes (read on
 * every row, by a short path) and the other forms other programs and SQLite's `datetime()` write
 * give the same instants; a position keeps the digits past the millisecond.
 */
import { isPreciseInstant } from '../../../lib/edm/precise-instant';
import { SQLITE_VALUES } from '../../../lib/sql/sqlite/values';

describe('a stored timestamp read back', () => {
  it.each<[string, string]>([
    // [stored text, the instant (ISO)]
    ['2020-01-02 03:04:05.123', '2020-01-02T03:04:05.123Z'],
    ['1999-12-31 23:59:59.999', '1999-12-31T23:59:59.999Z'],
    ['9999-12-31 23:59:59.999', '9999-12-31T23:59:59.999Z'],
    ['1000-01-01 00:00:00.000', '1000-01-01T00:00:00.000Z'],
    // Years before 1000 (Date.UTC would read 0099 as 1999), and other spellings.
    ['0099-03-04 05:06:07.008', '0099-03-04T05:06:07.008Z'],
    ['0001-01-01 00:00:00.000', '0001-01-01T00:00:00.000Z'],
    ['2020-01-02 03:04:05.123456', '2020-01-02T03:04:05.123Z'],
    ['2020-01-02 03:04:05', '2020-01-02T03:04:05.000Z'],
    ['2020-01-02T03:04:05.5Z', '2020-01-02T03:04:05.500Z'],
    ['2020-01-02 03:04:05.000+01:00', '2020-01-02T02:04:05.000Z'],
    ['2020-01-02', '2020-01-02T00:00:00.000Z'],
  ])('%s is %s', (stored, iso) => {
    expect((SQLITE_VALUES.fromValue('Edm.DateTime', stored) as Date).toISOString()).toBe(iso);
  });

  it.each(['2020-01-02 03:04:05.12x', '2020-01-02 03:04:05,123', 'yesterday', '2020-1-2 03:04:05.123'])('refuses %j', (stored) => {
    expect(() => SQLITE_VALUES.fromValue('Edm.DateTime', stored)).toThrow('A Edm.DateTime value must be timestamp text (YYYY-MM-DD HH:MM:SS.fff)');
  });

  it('keeps the digits past the millisecond in a position, and none for the short form', () => {
    const fine = SQLITE_VALUES.fromPosition('Edm.DateTime', '2020-01-02 03:04:05.123456');
    const whole = SQLITE_VALUES.fromPosition('Edm.DateTime', '2020-01-02 03:04:05.123');
    expect(isPreciseInstant(fine) ? [fine.date.toISOString(), fine.subMilliseconds] : fine).toEqual(['2020-01-02T03:04:05.123Z', '456']);
    expect(isPreciseInstant(whole) ? [whole.date.toISOString(), whole.subMilliseconds] : whole).toEqual(['2020-01-02T03:04:05.123Z', '000']);
  });
});
