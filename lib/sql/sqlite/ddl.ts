/**
 * SQLite's tables and columns (the engine's `ddl`): declared types that name their EDM type for
 * introspection, foreign keys declared with their table, rowid keys.
 */
import { integerRange, laneOf, type EdmPrimitiveTypeName } from '../../edm/primitives';
import type { ColumnFacets, SqlDdl } from '../engine';

/**
 * Declared column types. Each names its EDM type for introspection and has the storage class
 * the codec writes as its affinity: a name containing TEXT has text affinity (a Decimal or a
 * timestamp must never be turned into a number), INT integer affinity, REAL real.
 */
const COLUMN_TYPES: Readonly<Record<EdmPrimitiveTypeName, string>> = {
  'Edm.Binary': 'blob',
  'Edm.Boolean': 'boolean',
  'Edm.Byte': 'unsigned tinyint',
  'Edm.SByte': 'tinyint',
  'Edm.Int16': 'smallint',
  'Edm.Int32': 'int',
  'Edm.Int64': 'bigint',
  'Edm.Decimal': 'decimal_text',
  'Edm.Single': 'float4',
  'Edm.Double': 'double',
  'Edm.DateTime': 'datetime_text',
  'Edm.DateTimeOffset': 'datetimeoffset_text',
  'Edm.Time': 'time_text',
  'Edm.Guid': 'guid_text',
  'Edm.String': 'text',
};

/** SQLite's DDL. */
export const SQLITE_DDL: SqlDdl = Object.freeze<SqlDdl>({
  quoteIdentifier(name) {
    if (name.length === 0 || name.includes('\0')) throw new TypeError(`'${name.slice(0, 80)}' cannot be a SQLite identifier (not empty, no U+0000).`);
    return '"' + name.replace(/"/g, '""') + '"';
  },
  columnType(type, facets: ColumnFacets = {}) {
    if (type === 'Edm.Decimal' && facets.precision !== undefined) return `decimal_text(${facets.precision},${facets.scale ?? 0})`;
    if ((laneOf(type) === 'instant' || type === 'Edm.Time') && facets.precision !== undefined) return `${COLUMN_TYPES[type]}(${facets.precision})`;
    return COLUMN_TYPES[type];
  },
  columnCheck(type, quotedColumn) {
    const range = type === 'Edm.Byte' || type === 'Edm.SByte' ? integerRange(type) : undefined;
    return range === undefined ? undefined : `${quotedColumn} between ${range.min} and ${range.max}`;
  },
  jsonColumnType: 'json_text',
  // SQLite adds no constraint to a table that exists: foreign keys are declared with the table.
  foreignKeys: 'inline',
  schemas: false,
  // A single key column declared exactly INTEGER is SQLite's rowid: an INSERT without it takes the largest plus one.
  generatedKeyColumn: () => 'integer',
  advanceGeneratedKey: () => undefined,
});
