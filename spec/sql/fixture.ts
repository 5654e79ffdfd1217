/**
 * The differential fixture: Items (every EDM type, complex columns, a derived type, an owner) and
 * People, filled with values that break naive translations: nulls, non-ASCII and supplementary
 * characters, LIKE wildcards, 15+ digit decimals, Int64 beyond 2^53, NaN and infinities, negative
 * numbers for div/mod/round, timestamps and intervals with microseconds. Characters from U+E000 to
 * U+FFFF are left out on purpose: they order differently in UTF-16 and in code points (a documented
 * difference, pinned in its own spec).
 */
import { sql, type RawBuilder } from 'kysely';
import type { EdmEntityType } from '../../lib/edm/model';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../lib/edm/primitives';
import type { Entity } from '../../lib/provider/types';
import type { SqlDatabase } from '../../lib/sql/database';
import { fromSqlPosition, fromSqlValue, toSqlParameter } from '../../lib/sql/postgres/values';
import { seededRandom } from '../helpers/random';
import { Item, SpecialItem, testModel } from './support';

/** Column, EDM type, SQL type of each Items column (besides ID, $type and Owner_ID). */
const ITEM_COLUMNS: readonly (readonly [string, EdmPrimitiveTypeName, string])[] = [
  ['Binary', 'Edm.Binary', 'bytea'],
  ['Boolean', 'Edm.Boolean', 'boolean'],
  ['Byte', 'Edm.Byte', 'smallint'],
  ['SByte', 'Edm.SByte', 'smallint'],
  ['Int16', 'Edm.Int16', 'smallint'],
  ['Int32', 'Edm.Int32', 'integer'],
  ['Int64', 'Edm.Int64', 'bigint'],
  ['Decimal', 'Edm.Decimal', 'numeric'],
  ['Single', 'Edm.Single', 'real'],
  ['Double', 'Edm.Double', 'double precision'],
  ['DateTime', 'Edm.DateTime', 'timestamp'],
  ['DateTimeOffset', 'Edm.DateTimeOffset', 'timestamptz'],
  ['Time', 'Edm.Time', 'interval'],
  ['Guid', 'Edm.Guid', 'uuid'],
  ['String', 'Edm.String', 'text'],
  ['Address_Street', 'Edm.String', 'text'],
  ['Address_City', 'Edm.String', 'text'],
  ['Address_Geo_Lat', 'Edm.Double', 'double precision'],
  ['Address_Geo_Lon', 'Edm.Double', 'double precision'],
  ['Extra', 'Edm.String', 'text'],
  ['Bonus', 'Edm.Int32', 'integer'],
];

/** Strings: wildcards, quotes, case pairs with special mappings, combining marks, emoji. */
const STRINGS: readonly (string | null)[] = [
  null,
  '',
  'a',
  'A',
  'ab',
  'abc',
  'b',
  'B',
  'Z',
  'é',
  'É',
  'ß',
  'straße',
  'ẞ',
  'Σ',
  'ΑΣ ΟΔΟΣ',
  'İ',
  'ǅ',
  'ŉ',
  '😀',
  'a😀b',
  '😀😀',
  '𝒳y',
  'x𝒳',
  '100%',
  'a_b',
  'a\\b',
  "O'Neil",
  ' padded ',
  '\u00a0nbsp\u3000',
  '\ttab\n',
  '中文',
  'ab😀',
  'abcabc',
  '9',
  '10',
];

const INT32S: readonly (number | null)[] = [null, 0, 1, -1, 2, -2, 3, 7, -7, 100, 2147483647, -2147483648, 65536, 46341];
const INT16S: readonly (number | null)[] = [null, 0, 1, -1, 3, -3, 32767, -32768, 255];
const BYTES: readonly (number | null)[] = [null, 0, 1, 2, 7, 128, 255];
const SBYTES: readonly (number | null)[] = [null, 0, 1, -1, 7, -7, 127, -128];
const INT64S: readonly (string | null)[] = [
  null,
  '0',
  '1',
  '-1',
  '3',
  '-7',
  '9007199254740993',
  '-9007199254740993',
  '9223372036854775807',
  '-9223372036854775808',
  '1234567890123',
];
const DECIMALS: readonly (string | null)[] = [
  null,
  '0',
  '1',
  '-1',
  '1.5',
  '-1.5',
  '2.5',
  '-2.5',
  '0.1',
  '0.3',
  '3',
  '7',
  '-7',
  '12345678901234567.123456789',
  '-0.000000000000000001',
  '99999999999999999999.99',
  '1234567890123456789012',
  '0.333333333333333333',
];
// Doubles stay within ±1e70 (and away from 0 beyond 1e-70): products of three stay finite and
// normal, so PostgreSQL's overflow/underflow errors (a documented difference) cannot trigger.
const DOUBLES: readonly (number | null)[] = [
  null,
  0,
  -0,
  1,
  -1,
  1.5,
  -1.5,
  2.5,
  -2.5,
  0.5,
  -0.5,
  0.1,
  0.3,
  7,
  -7,
  NaN,
  Infinity,
  -Infinity,
  1e70,
  -1e-70,
  123456.789,
  0.49999999999999994,
  4503599627370497,
  3,
];
const SINGLES: readonly (number | null)[] = [null, 0, 1.5, -2.5, 2.5, 0.1, 3.4e38, NaN, -Infinity, 16777217, -0.5, 7];
/** Timestamps as PostgreSQL text: microseconds, the ends of the EDM range, a leap day. */
const DATETIMES: readonly (string | null)[] = [
  null,
  '2020-01-01 00:00:00',
  '2020-01-01 00:00:00.123456',
  '2020-01-01 00:00:00.123',
  '2020-01-01 00:00:00.1239',
  '1999-12-31 23:59:59.999999',
  '0001-01-01 00:00:00',
  '9999-12-31 23:59:59.999',
  '2020-02-29 12:34:56.789012',
  '1970-01-01 00:00:00',
];
const OFFSETS: readonly (string | null)[] = [
  null,
  '2020-01-01 00:00:00+00',
  '2020-01-01 05:30:00.123456+05:30',
  '2019-12-31 23:59:59.9999-00:00',
  '2020-06-15 12:00:00+14:00',
  '1969-07-20 20:17:40.5+00',
  '2020-01-01 00:00:00.123+00',
];
const TIMES: readonly (string | null)[] = [
  null,
  '00:00:00',
  '01:00:00',
  '26:00:00.5',
  '-00:00:01.5',
  '00:00:00.000123',
  '1 day 02:03:04.567891',
  '-1 day +01:00:00',
  '23:59:59.9996',
];
const GUIDS: readonly (string | null)[] = [
  null,
  '01234567-89ab-cdef-0123-456789abcdef',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '00000000-0000-0000-0000-000000000000',
];
const BINARIES: readonly (Uint8Array | null)[] = [null, new Uint8Array([]), new Uint8Array([0]), new Uint8Array([0, 255]), new Uint8Array([1])];
const BOOLEANS: readonly (boolean | null)[] = [null, true, false];

/** People: the owners. */
const PEOPLE: readonly { readonly ID: number; readonly Name: string | null }[] = [
  { ID: 1, Name: 'Ann' },
  { ID: 2, Name: null },
  { ID: 3, Name: 'ß😀' },
  { ID: 4, Name: 'ann' },
];

/** A column's value in a row: an EDM JS value, or (temporal columns) PostgreSQL text with microseconds. */
type CellValue = PrimitiveValue | null;

const POOLS: Readonly<Record<string, readonly CellValue[]>> = {
  Binary: BINARIES,
  Boolean: BOOLEANS,
  Byte: BYTES,
  SByte: SBYTES,
  Int16: INT16S,
  Int32: INT32S,
  Int64: INT64S,
  Decimal: DECIMALS,
  Single: SINGLES,
  Double: DOUBLES,
  DateTime: DATETIMES,
  DateTimeOffset: OFFSETS,
  Time: TIMES,
  Guid: GUIDS,
  String: STRINGS,
  Address_Street: STRINGS,
  Address_City: ['Berlin', 'berlin', 'Zürich', '', null, 'a😀b'],
  Address_Geo_Lat: [0, 1.5, -1.5, NaN, null, 52.52],
  Address_Geo_Lon: [13.4, -0.5, null, Infinity],
  Extra: STRINGS,
  Bonus: INT32S,
};

/** Values that reach the fixture as PostgreSQL text (they carry more than a Date or a duration holds). */
const TEXT_COLUMNS: ReadonlySet<string> = new Set(['DateTime', 'DateTimeOffset', 'Time']);

/** One generated row: ID, type tag, owner, and a value per column. */
export interface FixtureRow {
  readonly ID: number;
  readonly type: 'Item' | 'SpecialItem';
  readonly ownerId: number | null;
  readonly cells: Readonly<Record<string, CellValue>>;
}

/** `count` rows; every pool value appears at least once per column (rows walk the pools, then pick at random). */
export function fixtureRows(count: number, seed = 7): FixtureRow[] {
  const next = seededRandom(seed);
  const rows: FixtureRow[] = [];
  for (let id = 1; id <= count; id++) {
    const type = id % 4 === 0 ? 'SpecialItem' : 'Item';
    const cells: Record<string, CellValue> = {};
    for (const [column] of ITEM_COLUMNS) {
      const pool = POOLS[column];
      const index = id <= pool.length ? (id * 7 + column.length) % pool.length : Math.floor(next() * pool.length);
      cells[column] = type === 'Item' && (column === 'Extra' || column === 'Bonus') ? null : pool[index];
    }
    rows.push({ ID: id, type, ownerId: id % 5 === 0 ? null : PEOPLE[Math.floor(next() * PEOPLE.length)].ID, cells });
  }
  return rows;
}

/**
 * A cell as SQLite stores it, or null where SQLite cannot hold the value (NaN; a Time outside one
 * day): the PostgreSQL texts of the temporal pools are read by the PostgreSQL codec first, with
 * every digit (a PreciseInstant), and written by the SQLite codec.
 */
function sqliteCell(db: SqlDatabase, name: string, type: EdmPrimitiveTypeName, value: PrimitiveValue): unknown {
  const typed = !TEXT_COLUMNS.has(name) ? value : type === 'Edm.Time' ? fromSqlValue(type, value) : fromSqlPosition(type, value);
  try {
    return db.sqlEngine.values.toParameter(type, typed as PrimitiveValue);
  } catch (error) {
    if (error instanceof RangeError) return null;
    throw error;
  }
}

/** One Items value as an SQL fragment of the engine of `db`. */
function cellSql(db: SqlDatabase, name: string, type: EdmPrimitiveTypeName, sqlType: string, value: PrimitiveValue | null): RawBuilder<unknown> {
  if (value === null) return sql`null`;
  if (db.engine === 'sqlite') return sql`${sql.val(sqliteCell(db, name, type, value))}`;
  if (TEXT_COLUMNS.has(name)) return sql`${sql.val(value)}::${sql.raw(sqlType)}`;
  return sql`${sql.val(toSqlParameter(type, value))}::${sql.raw(sqlType)}`;
}

/** Create and fill the two tables (dropping old ones); on SQLite with the column types createSchema gives. */
export async function createFixture(db: SqlDatabase, rows: readonly FixtureRow[]): Promise<void> {
  const { kysely } = db;
  await sql`drop table if exists items`.execute(kysely);
  await sql`drop table if exists people`.execute(kysely);
  await sql`create table people ("ID" integer primary key, "Name" text)`.execute(kysely);
  const columnType = (type: EdmPrimitiveTypeName, sqlType: string): string => (db.engine === 'sqlite' ? db.sqlEngine.ddl.columnType(type) : sqlType);
  const columns = ITEM_COLUMNS.map(([name, type, sqlType]) => `${db.sqlEngine.ddl.quoteIdentifier(name)} ${columnType(type, sqlType)}`).join(', ');
  await sql.raw(`create table items ("ID" integer primary key, "$type" text not null, "Owner_ID" integer references people, ${columns})`).execute(kysely);
  for (const person of PEOPLE) {
    await sql`insert into people values (${sql.val(person.ID)}, ${person.Name === null ? sql`null` : db.sqlEngine.values.parameter('Edm.String', person.Name)})`.execute(
      kysely,
    );
  }
  for (const row of rows) {
    const values = ITEM_COLUMNS.map(([name, type, sqlType]) => cellSql(db, name, type, sqlType, row.cells[name]));
    await sql`insert into items values (${sql.val(row.ID)}, ${sql.val(row.type)}, ${sql.val(row.ownerId)}, ${sql.join(values)})`.execute(kysely);
  }
}

/** The fixture as the evaluator sees it: read back through the engine's codec (so both sides hold the same data). */
export async function readEntities(db: SqlDatabase): Promise<{ entities: Entity[]; typeOf: (entity: Entity) => EdmEntityType }> {
  const people = new Map<number, Entity>();
  const personRows = await sql<Record<string, unknown>>`select * from people`.execute(db.kysely);
  for (const row of personRows.rows) people.set(Number(row.ID), { ID: Number(row.ID), Name: db.sqlEngine.values.fromValue('Edm.String', row.Name) });
  const types = new WeakMap<Entity, EdmEntityType>();
  const itemRows = await sql<Record<string, unknown>>`select * from items order by "ID"`.execute(db.kysely);
  const entities = itemRows.rows.map((row) => {
    const value = (column: string): PrimitiveValue | null => {
      const type = ITEM_COLUMNS.find(([name]) => name === column)?.[1];
      if (type === undefined) throw new Error(`no column ${column}`);
      return db.sqlEngine.values.fromValue(type, row[column]);
    };
    const entity: Record<string, unknown> = { ID: Number(row.ID) };
    for (const property of Item.properties) {
      if (property.type.kind === 'Primitive' && property.name !== 'ID') entity[property.name] = value(property.name);
    }
    entity.Address = {
      Street: value('Address_Street'),
      City: value('Address_City'),
      Geo: { Lat: value('Address_Geo_Lat'), Lon: value('Address_Geo_Lon') },
    };
    entity.Owner = row.Owner_ID === null ? null : (people.get(Number(row.Owner_ID)) ?? null);
    const special = row.$type === 'SpecialItem';
    if (special) {
      entity.Extra = value('Extra');
      entity.Bonus = value('Bonus');
    }
    types.set(entity as Entity, special ? SpecialItem : Item);
    return entity as Entity;
  });
  const person = testModel.entityTypes.get('ExprTest.Person');
  return {
    entities,
    typeOf: (entity) => types.get(entity) ?? person ?? Item,
  };
}
