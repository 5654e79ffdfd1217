/** What a columnTypes entry says about a date/time column: its kind and the fractional-second digits it stores. */
import { storedTemporal } from '../../../lib/sql/mapping/stored-types';

describe('storedTemporal', () => {
  it.each([
    ['date', { kind: 'date', digits: 0 }],
    ['timestamp without time zone', { kind: 'timestamp', digits: 6 }],
    ['timestamp(6) without time zone', { kind: 'timestamp', digits: 6 }],
    ['timestamp(3)', { kind: 'timestamp', digits: 3 }],
    ['TIMESTAMP(4) WITHOUT TIME ZONE', { kind: 'timestamp', digits: 4 }],
    ['timestamp(6) with time zone', { kind: 'timestamptz', digits: 6 }],
    ['timestamptz', { kind: 'timestamptz', digits: 6 }],
    ['timestamptz(5)', { kind: 'timestamptz', digits: 5 }],
    ['time(0) without time zone', { kind: 'time', digits: 0 }],
    ['time', { kind: 'time', digits: 6 }],
    ['interval', { kind: 'interval', digits: 6 }],
    ['interval(2)', { kind: 'interval', digits: 2 }],
    ['interval day to second(3)', { kind: 'interval', digits: 3 }],
    ['pg_catalog.timestamp(6) without time zone', { kind: 'timestamp', digits: 6 }],
  ])('%j is %j', (type, expected) => {
    expect(storedTemporal(type)).toEqual(expected);
  });

  it.each(['time with time zone', 'jsonb', '"public"."mood"', 'timestamp[]', 'character(5)', 'daterange'])('%j is no date/time column', (type) => {
    expect(storedTemporal(type)).toBeUndefined();
  });
});
