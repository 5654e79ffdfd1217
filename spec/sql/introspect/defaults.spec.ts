/**
 * Column defaults as PostgreSQL prints them (pg_get_expr): a literal that reads exactly as a value
 * of the property's EDM type is a DefaultValue in CSDL text form; anything else is a default only
 * the database knows (store-generated), and NULL is none.
 */
import type { EdmPrimitiveTypeName } from '../../../lib';
import { columnDefault } from '../../../lib/sql/introspect/defaults';

describe('columnDefault', () => {
  it.each<[string, EdmPrimitiveTypeName, string]>([
    ['true', 'Edm.Boolean', 'true'],
    ["'f'::boolean", 'Edm.Boolean', 'false'],
    ['0', 'Edm.Int32', '0'],
    ["'-1'::integer", 'Edm.Int32', '-1'],
    ['(-1)', 'Edm.Int16', '-1'],
    ['9007199254740993', 'Edm.Int64', '9007199254740993'],
    ['0.00', 'Edm.Decimal', '0'],
    ["'-1.50'::numeric", 'Edm.Decimal', '-1.5'],
    ["'15000000000'::numeric", 'Edm.Double', '15000000000'],
    ["'NaN'::real", 'Edm.Single', 'NaN'],
    ["'-Infinity'::double precision", 'Edm.Double', '-INF'],
    ["'it''s'::text", 'Edm.String', "it's"],
    ["''::character varying", 'Edm.String', ''],
    ["'ok'::mood", 'Edm.String', 'ok'],
    ["'{}'::integer[]", 'Edm.String', '{}'],
    [`'101'::"bit"`, 'Edm.String', '101'],
    ["'A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11'::uuid", 'Edm.Guid', 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'],
    ["'2020-01-01 10:00:00.123'::timestamp without time zone", 'Edm.DateTime', '2020-01-01T10:00:00.123'],
    ["'2020-01-01 12:45:00+12:45'::timestamp with time zone", 'Edm.DateTimeOffset', '2020-01-01T00:00:00Z'],
    ["'1 day 02:00:00'::interval", 'Edm.Time', 'P1DT2H'],
    ["'12:30:00'::time without time zone", 'Edm.Time', 'PT12H30M'],
  ])('%s as %s is the DefaultValue %j', (expression, type, value) => {
    expect(columnDefault(expression, type)).toEqual({ kind: 'constant', value });
  });

  it('reads a date literal as that day at midnight', () => {
    expect(columnDefault("'2020-02-29'::date", 'Edm.DateTime', true)).toEqual({ kind: 'constant', value: '2020-02-29T00:00:00' });
  });

  it.each<[string, EdmPrimitiveTypeName]>([
    ['now()', 'Edm.DateTimeOffset'],
    ['CURRENT_TIMESTAMP', 'Edm.DateTimeOffset'],
    ["nextval('orders_id_seq'::regclass)", 'Edm.Int32'],
    ['gen_random_uuid()', 'Edm.Guid'],
    ["('now'::text)::date", 'Edm.DateTime'],
    ["'a'::text || 'b'::text", 'Edm.String'],
    ["'2020-01-01 10:00:00.123456'::timestamp without time zone", 'Edm.DateTime'],
    ["'infinity'::timestamp without time zone", 'Edm.DateTime'],
    ["'\\x0102'::bytea", 'Edm.Binary'],
    ["'300'::integer", 'Edm.Byte'],
    ["'maybe'::text", 'Edm.Boolean'],
    ["'a\u0001b'::text", 'Edm.String'],
  ])('%s as %s is a default only the database knows', (expression, type) => {
    expect(columnDefault(expression, type)).toEqual({ kind: 'database' });
  });

  it.each([null, 'NULL', 'NULL::integer'])('%s is no default', (expression) => {
    expect(columnDefault(expression, 'Edm.Int32')).toEqual({ kind: 'none' });
  });
});
