/**
 * How result values leave the drivers: one table of PostgreSQL type OIDs to text parsers, handed
 * to `pg` per query (never by changing the global `pg.types`) and to PGlite per query. Exact types
 * (int8, numeric, the date/time types, uuid, json) stay text and bytea becomes a Buffer, so nothing
 * passes through a JS number or a local-time Date; `values.ts` turns them into the EDM JS forms.
 */

/** The OIDs of the built-in types the table names (pg_type.oid, fixed across PostgreSQL versions). */
export const TYPE_OID = Object.freeze({
  bool: 16,
  bytea: 17,
  int8: 20,
  int2: 21,
  int4: 23,
  text: 25,
  json: 114,
  float4: 700,
  float8: 701,
  date: 1082,
  time: 1083,
  timestamp: 1114,
  timestamptz: 1184,
  interval: 1186,
  timetz: 1266,
  numeric: 1700,
  uuid: 2950,
  jsonb: 3802,
});

/** Array types of the exact types: kept as their text (`{1,2}`) rather than parsed element by element. */
const EXACT_ARRAY_OIDS: readonly number[] = [
  1016 /* int8[] */, 1231 /* numeric[] */, 1115 /* timestamp[] */, 1185 /* timestamptz[] */, 1182 /* date[] */, 1183 /* time[] */, 1270 /* timetz[] */,
  1187 /* interval[] */, 2951 /* uuid[] */, 1001 /* bytea[] */, 199 /* json[] */, 3807 /* jsonb[] */,
];

const keepText = (text: string): string => text;

/**
 * A bytea in either output format (PostgreSQL's `bytea_output`): `\x0aff` (hex, the default) or the
 * escape format (`a\\b\001`: backslash doubled, other bytes as three octal digits).
 */
export function parseByteaText(text: string): Buffer {
  if (text.startsWith('\\x')) return Buffer.from(text.slice(2), 'hex');
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code !== 92 /* \ */) {
      bytes.push(code);
    } else if (text.charCodeAt(i + 1) === 92) {
      bytes.push(92);
      i++;
    } else {
      bytes.push(parseInt(text.slice(i + 1, i + 4), 8));
      i += 3;
    }
  }
  return Buffer.from(bytes);
}

function parseFloatText(text: string): number {
  // PostgreSQL writes the non-finite doubles as words, which Number() does not read.
  if (text === 'NaN') return NaN;
  if (text === 'Infinity') return Infinity;
  if (text === '-Infinity') return -Infinity;
  return Number(text);
}

const PARSERS = new Map<number, (text: string) => unknown>([
  [TYPE_OID.bool, (text) => text === 't' || text === 'true'],
  [TYPE_OID.int2, Number],
  [TYPE_OID.int4, Number],
  [TYPE_OID.float4, parseFloatText],
  [TYPE_OID.float8, parseFloatText],
  [TYPE_OID.bytea, parseByteaText],
  [TYPE_OID.text, keepText],
  ...[
    TYPE_OID.int8,
    TYPE_OID.numeric,
    TYPE_OID.date,
    TYPE_OID.time,
    TYPE_OID.timetz,
    TYPE_OID.timestamp,
    TYPE_OID.timestamptz,
    TYPE_OID.interval,
    TYPE_OID.uuid,
    // Open types keep typed values in JSON: JSON.parse would turn an Int64 into a double.
    TYPE_OID.json,
    TYPE_OID.jsonb,
    ...EXACT_ARRAY_OIDS,
  ].map((oid): [number, (text: string) => unknown] => [oid, keepText]),
]);

/** The parsers by OID, for PGlite's `parsers` query option (other types keep PGlite's defaults). */
export const PGLITE_PARSERS: Readonly<Record<number, (text: string) => unknown>> = Object.freeze(Object.fromEntries(PARSERS));

/** The shape of `pg`'s `types` query option. */
export interface PgTypeParsers {
  /** The parser of a result column's text, by the column's type OID. */
  getTypeParser(oid: number): (text: string) => unknown;
}

/**
 * The `types` option of a `pg` query: the table above, and every other type as its text. (`pg`
 * asks for text-format results unless told otherwise, so `format` is always 'text' here.)
 */
export const PG_QUERY_TYPES: PgTypeParsers = Object.freeze({
  getTypeParser(oid: number): (text: string) => unknown {
    return PARSERS.get(oid) ?? keepText;
  },
});
