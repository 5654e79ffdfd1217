/**
 * EDM values and PostgreSQL: the parameter writers' checks (pure), and the round trips of
 * round-trips.ts on PGlite, with the process in America/New_York and the session in Asia/Kathmandu.
 */
process.env.TZ = 'America/New_York';

import { sql } from 'kysely';
import type { PGlite } from '@electric-sql/pglite';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../lib/edm/primitives';
import { pglite } from '../../lib/sql/postgres/pglite';
import { isRetryableTransactionError, sqlStateOf } from '../../lib/sql/errors';
import { fromSqlValue, toSqlParameter } from '../../lib/sql/postgres/values';
import { openTestPGlite } from '../helpers/pglite';
import { describeRoundTrips } from './round-trips';

describe('toSqlParameter', () => {
  it.each([
    ['Edm.Int64', '-9223372036854775808', '-9223372036854775808'],
    ['Edm.Int64', 9007199254740991, '9007199254740991'],
    ['Edm.Int64', '+007', '7'],
    ['Edm.Decimal', '1.50', '1.5'],
    ['Edm.Decimal', 2.5, '2.5'],
    ['Edm.Double', -0, '-0'],
    ['Edm.Double', NaN, 'NaN'],
    ['Edm.Single', -Infinity, '-Infinity'],
    ['Edm.Double', 1e21, '1e+21'],
    ['Edm.DateTime', new Date('2000-01-02T03:04:05.006Z'), '2000-01-02 03:04:05.006'],
    ['Edm.DateTimeOffset', new Date('2000-01-02T03:04:05Z'), '2000-01-02 03:04:05.000+00'],
    ['Edm.DateTime', new Date('0000-06-01T00:00:00Z'), '0001-06-01 00:00:00.000 BC'],
    ['Edm.Time', 'P1DT2H0.5S', '26:00:00.500'],
    ['Edm.Time', '-PT1M', '-0:01:00.000'],
    ['Edm.Guid', '01234567-89AB-CDEF-0123-456789ABCDEF', '01234567-89ab-cdef-0123-456789abcdef'],
    ['Edm.Byte', 255, '255'],
    ['Edm.Int32', -0, '0'],
    ['Edm.Boolean', false, false],
    ['Edm.String', 'a😀', 'a😀'],
  ] as const)('%s %p -> %p', (type, value, parameter) => {
    expect(toSqlParameter(type, value)).toEqual(parameter);
  });

  it('passes bytes as a Buffer over the same memory', () => {
    const bytes = new Uint8Array([1, 2, 3]).subarray(1);
    const parameter = toSqlParameter('Edm.Binary', bytes);
    expect(Buffer.isBuffer(parameter) && [...parameter]).toEqual([2, 3]);
  });

  it.each([
    ['Edm.Byte', 256, RangeError, 'The value 256 is out of the range of Edm.Byte.'],
    ['Edm.SByte', -129, RangeError, 'The value -129 is out of the range of Edm.SByte.'],
    ['Edm.Int16', 32768, RangeError, 'The value 32768 is out of the range of Edm.Int16.'],
    ['Edm.Int32', 2147483648, RangeError, 'The value 2147483648 is out of the range of Edm.Int32.'],
    ['Edm.Int64', '9223372036854775808', RangeError, 'The value 9223372036854775808 is out of the range of Edm.Int64.'],
    ['Edm.Single', 3.4028235677973366e38, RangeError, 'The value 3.4028235677973366e+38 is out of the range of Edm.Single.'],
    ['Edm.String', 'a\u0000b', RangeError, 'A Edm.String value cannot contain U+0000 in PostgreSQL.'],
    ['Edm.String', 'a\uD83D', RangeError, 'A Edm.String value cannot contain an unpaired surrogate (it has no UTF-8 form).'],
    ['Edm.Int32', 1.5, TypeError, 'A Edm.Int32 value must be an integer number; got number 1.5.'],
    ['Edm.Int64', 2 ** 60, TypeError, 'A Edm.Int64 value must be an integer string; got number 1152921504606847000.'],
    ['Edm.Decimal', 'NaN', TypeError, 'A Edm.Decimal value must be a decimal string; got string NaN.'],
    ['Edm.DateTime', '2020-01-01', TypeError, 'A Edm.DateTime value must be a Date; got string 2020-01-01.'],
    ['Edm.Time', 'PT1Y', TypeError, 'A Edm.Time value must be an xs:duration string; got string PT1Y.'],
    ['Edm.Guid', 'nope', TypeError, 'A Edm.Guid value must be a GUID string; got string nope.'],
    ['Edm.Binary', 'AA==', TypeError, 'A Edm.Binary value must be a Uint8Array; got string AA==.'],
  ] as const)('%s %p: %p', (type, value, kind, message) => {
    expect(() => toSqlParameter(type as EdmPrimitiveTypeName, value as PrimitiveValue)).toThrow(new kind(message));
  });
});

describe('fromSqlValue refuses what is not the type', () => {
  it.each([
    ['Edm.Decimal', 'NaN', 'A Edm.Decimal value must be a numeric text; got string NaN.'],
    ['Edm.DateTime', new Date(0), 'A Edm.DateTime value must be timestamp text (pglite()/postgres() deliver it); got a Date.'],
    ['Edm.DateTime', '2020-01-01 00:00:00+00', "Cannot read the PostgreSQL timestamp '2020-01-01 00:00:00+00' (DateStyle must be ISO)."],
    ['Edm.DateTime', 'infinity', "Cannot read the PostgreSQL timestamp 'infinity' (DateStyle must be ISO)."],
    [
      'Edm.Time',
      '1 year 2 mons 3 days 04:05:06 ago',
      "Cannot read the PostgreSQL interval '1 year 2 mons 3 days 04:05:06 ago' (IntervalStyle must be postgres or iso_8601).",
    ],
    ['Edm.Int64', '9223372036854775808', 'A Edm.Int64 value must be an int8 text; got string 9223372036854775808.'],
  ] as const)('%s %p', (type, raw, message) => {
    expect(() => fromSqlValue(type, raw)).toThrow(message);
  });

  it('keeps null', () => {
    expect([fromSqlValue('Edm.String', null), fromSqlValue('Edm.Int32', undefined)]).toEqual([null, null]);
  });
});

describe('fromSqlValue reads what other drivers (or parsers) deliver too', () => {
  it.each([
    ['Edm.Binary', '\\x00ff', Buffer.from([0, 255])],
    ['Edm.Boolean', 't', true],
    ['Edm.Boolean', 'f', false],
    ['Edm.Int32', '-42', -42],
    ['Edm.Int64', 9007199254740991n, '9007199254740991'],
    ['Edm.Int64', 42, '42'],
    ['Edm.Double', 'NaN', NaN],
    ['Edm.Double', '-Infinity', -Infinity],
    ['Edm.Single', '0.1', 0.1],
    ['Edm.DateTimeOffset', new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z')],
  ] as const)('%s %p', (type, raw, value) => {
    expect(fromSqlValue(type, raw)).toEqual(value);
  });

  it.each([
    ['Edm.Binary', 1],
    ['Edm.Boolean', 'yes'],
    ['Edm.Int32', 1.5],
    ['Edm.Double', 'one'],
    ['Edm.DateTimeOffset', 0],
    ['Edm.Time', 0],
    ['Edm.Guid', 'x'],
    ['Edm.String', 1],
  ] as const)('refuses %s %p', (type, raw) => {
    expect(() => fromSqlValue(type, raw)).toThrow(TypeError);
  });
});

describe('SQLSTATEs', () => {
  it('reads the code of a driver error and knows which ones a transaction may retry', () => {
    const failure = (code: unknown): Error => Object.assign(new Error('x'), { code });
    expect([sqlStateOf(failure('40001')), sqlStateOf(failure('ECONNREFUSED')), sqlStateOf('40001'), sqlStateOf(null)]).toEqual([
      '40001',
      undefined,
      undefined,
      undefined,
    ]);
    expect([failure('40001'), failure('40P01'), failure('23505'), new Error('x')].map(isRetryableTransactionError)).toEqual([true, true, false, false]);
  });
});

let instance: PGlite;
let database: ReturnType<typeof pglite>;

beforeAll(async () => {
  instance = await openTestPGlite();
  database = pglite(instance);
  await sql`set time zone 'Asia/Kathmandu'`.execute(database.kysely);
}, 60_000);

afterAll(() => instance.close());

describeRoundTrips(() => database);
