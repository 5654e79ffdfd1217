/**
 * The EDM form of each PostgreSQL column type, as a table (docs/sql-provider.md "Introspection"
 * lists it): the EDM type, its facets from the type modifier, whether the provider reads the
 * column as it is or converted (the mapping's `columnTypes`), and whether it can be part of a key
 * or a foreign key. Domains take their base type's form; types without an EDM equivalent either
 * become Edm.String holding PostgreSQL's own text form of the value (which reads back as the same
 * value: nothing is cut) or are left out with the reason.
 */
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import type { CatalogType } from './catalog';

/** Facets a column type gives its property. */
interface TypeFacets {
  readonly maxLength?: number;
  readonly precision?: number;
  readonly scale?: number;
}

/** A column type with an EDM form. */
export interface MappedType {
  readonly kind: 'mapped';
  readonly type: EdmPrimitiveTypeName;
  readonly facets: TypeFacets;
  /**
   * The SQL type to record in the mapping's `columnTypes` (the column is read converted), or
   * undefined when the column holds the EDM type's own SQL type.
   */
  readonly storedType: string | undefined;
  /** True when the column can be a key or foreign-key column (compared with key values as it is). */
  readonly keyable: boolean;
  /** `sap:display-format` for SAP clients (`Date` for a date shown without a time). */
  readonly displayFormat?: 'Date';
  /** Timestamps and times: the fractional-second digits the column stores (the Precision facet says what is served). */
  readonly storedDigits?: number;
  /** False when a column default's SQL text is not the value as served, so it cannot be a DefaultValue. */
  readonly constantDefaults: boolean;
}

/** A column type left out, and what it is. */
interface UnmappedType {
  readonly kind: 'unmapped';
  /** `tsvector (full-text search)`, `public.address (a composite type)`. */
  readonly description: string;
}

/** What a column type becomes. */
export type ColumnType = MappedType | UnmappedType;

/** A type resolved through its domains: the base type, its modifier, and what the domains add. */
export interface ResolvedType {
  readonly base: CatalogType;
  readonly typmod: number;
  /** The outermost domain, when the column's type is one. */
  readonly domain: CatalogType | undefined;
  /** NOT NULL on some domain of the chain. */
  readonly notNull: boolean;
  /** The nearest default of the chain. */
  readonly defaultExpression: string | null;
}

/** Follow a column's type through its domains (a domain over a domain too). */
export function resolveType(oid: string, typmod: number, types: ReadonlyMap<string, CatalogType>): ResolvedType | undefined {
  let type = types.get(oid);
  let modifier = typmod;
  let notNull = false;
  let defaultExpression: string | null = null;
  const domain = type?.kind === 'd' ? type : undefined;
  for (let depth = 0; type?.kind === 'd' && depth < 100; depth++) {
    notNull ||= type.notNull;
    defaultExpression ??= type.defaultExpression;
    modifier = type.baseTypmod;
    type = types.get(type.baseType);
  }
  if (type === undefined || type.kind === 'd') return undefined;
  return { base: type, typmod: modifier, domain, notNull, defaultExpression };
}

/** `"schema"."name"` for a type outside pg_catalog (a search_path at serving time must not matter). */
function qualifiedName(type: CatalogType, quote: (name: string) => string): string {
  return type.schema === 'pg_catalog' ? type.name : `${quote(type.schema)}.${quote(type.name)}`;
}

const VARIABLE_HEADER = 4; // varchar, bpchar and numeric modifiers carry the 4-byte varlena header

function lengthOf(typmod: number): TypeFacets {
  return typmod >= VARIABLE_HEADER ? { maxLength: typmod - VARIABLE_HEADER } : {};
}

/** numeric(p,s): p and s from the modifier; none (unbounded) when unset or when EDM cannot say it (negative scale, s > p). */
function numericFacets(typmod: number): TypeFacets {
  if (typmod < VARIABLE_HEADER) return {};
  const precision = ((typmod - VARIABLE_HEADER) >> 16) & 0xffff;
  const scale = (typmod - VARIABLE_HEADER) & 0x7ff;
  return scale <= precision && ((typmod - VARIABLE_HEADER) & 0x400) === 0 ? { precision, scale } : {};
}

/** The library's values keep milliseconds: what the model says of a column that stores more. */
const SERVED_DIGITS = 3;

/** Fractional-second digits a column stores: the modifier, else PostgreSQL's default of 6. */
function secondsDigits(typmod: number): number {
  return typmod >= 0 ? typmod : 6;
}

/** The Precision facet of a timestamp or time: what is served (milliseconds at most); the mapping records more. */
function servedPrecision(typmod: number): TypeFacets {
  return { precision: Math.min(secondsDigits(typmod), SERVED_DIGITS) };
}

interface Rule {
  readonly type: EdmPrimitiveTypeName;
  readonly facets?: (typmod: number) => TypeFacets;
  /** Read as it is (no columnTypes entry); a function: as it is when it returns true for the modifier. */
  readonly native?: boolean | ((typmod: number) => boolean);
  readonly keyable?: boolean;
  readonly displayFormat?: 'Date';
  /** Fractional-second digits the column stores (timestamps and times). */
  readonly digits?: (typmod: number) => number;
  /** False when a default's SQL text is not the value as served (an interval's default, served as ISO 8601). */
  readonly constantDefaults?: false;
}

/** Stored at most at milliseconds: read as it is; with more digits the mapping records the column type (its real precision). */
const atMilliseconds = (typmod: number): boolean => secondsDigits(typmod) <= SERVED_DIGITS;

/** Built-in types by pg_type.typname. */
const BUILT_IN: ReadonlyMap<string, Rule> = new Map<string, Rule>([
  ['bool', { type: 'Edm.Boolean', native: true, keyable: true }],
  ['int2', { type: 'Edm.Int16', native: true, keyable: true }],
  ['int4', { type: 'Edm.Int32', native: true, keyable: true }],
  ['int8', { type: 'Edm.Int64', native: true, keyable: true }],
  ['numeric', { type: 'Edm.Decimal', facets: numericFacets, native: true, keyable: true }],
  ['float4', { type: 'Edm.Single', native: true, keyable: true }],
  ['float8', { type: 'Edm.Double', native: true, keyable: true }],
  ['money', { type: 'Edm.Decimal' }],
  ['text', { type: 'Edm.String', native: true, keyable: true }],
  ['varchar', { type: 'Edm.String', facets: lengthOf, native: true, keyable: true }],
  // Read as text, which drops char(n)'s padding as PostgreSQL's own char -> text cast does.
  ['bpchar', { type: 'Edm.String', facets: lengthOf, keyable: true }],
  ['name', { type: 'Edm.String', keyable: true }],
  ['char', { type: 'Edm.String', facets: () => ({ maxLength: 1 }) }],
  ['uuid', { type: 'Edm.Guid', native: true, keyable: true }],
  ['bytea', { type: 'Edm.Binary', native: true, keyable: true }],
  ['date', { type: 'Edm.DateTime', facets: () => ({ precision: 0 }), keyable: true, displayFormat: 'Date' }],
  ['timestamp', { type: 'Edm.DateTime', facets: servedPrecision, native: atMilliseconds, keyable: true, digits: secondsDigits }],
  ['timestamptz', { type: 'Edm.DateTimeOffset', facets: servedPrecision, native: atMilliseconds, keyable: true, digits: secondsDigits }],
  ['time', { type: 'Edm.Time', facets: servedPrecision, native: atMilliseconds, digits: secondsDigits }],
  // A duration, which Edm.Time (a time of day) cannot hold: its ISO 8601 form (`P1DT2H`) as a string.
  ['interval', { type: 'Edm.String', constantDefaults: false }],
  ['timetz', { type: 'Edm.String' }],
  ['json', { type: 'Edm.String' }],
  ['jsonb', { type: 'Edm.String' }],
  ['xml', { type: 'Edm.String' }],
  ['bit', { type: 'Edm.String', facets: (typmod) => (typmod > 0 ? { maxLength: typmod } : {}) }],
  ['varbit', { type: 'Edm.String', facets: (typmod) => (typmod > 0 ? { maxLength: typmod } : {}) }],
  ['inet', { type: 'Edm.String' }],
  ['cidr', { type: 'Edm.String' }],
  ['macaddr', { type: 'Edm.String' }],
  ['macaddr8', { type: 'Edm.String' }],
]);

/** Built-in types left out, with what they are. */
const LEFT_OUT: ReadonlyMap<string, string> = new Map([
  ['tsvector', 'full-text search data'],
  ['tsquery', 'a full-text search query'],
  ['pg_lsn', 'a write-ahead log position'],
  ['txid_snapshot', 'a transaction snapshot'],
  ['pg_snapshot', 'a transaction snapshot'],
]);

/** Categories (pg_type.typcategory) whose values are held as their text form. */
const TEXT_CATEGORIES: ReadonlyMap<string, string> = new Map([
  ['A', 'an array'],
  ['E', 'an enum'],
  ['G', 'a geometric type'],
  ['I', 'a network address'],
  ['R', 'a range'],
  ['S', 'a string type'],
  ['V', 'a bit string'],
]);

/** An array type's name: the declared name for built-in elements (`integer[]`), else the qualified element's (`"public"."mood"[]`). */
function arrayTypeName(array: CatalogType, declared: string, types: ReadonlyMap<string, CatalogType>, quote: (name: string) => string): string {
  const element = types.get(array.element);
  if (element === undefined || element.schema === 'pg_catalog') return declared;
  const dimensions = /(\[\])+$/.exec(declared)?.[0] ?? '[]';
  return qualifiedName(element, quote) + dimensions;
}

/**
 * The EDM form of a column type. `quote` quotes an identifier for the `columnTypes` entry of a
 * type outside pg_catalog; `declared` is the column's type as PostgreSQL prints it (built-in types).
 */
export function columnTypeOf(resolved: ResolvedType, declared: string, types: ReadonlyMap<string, CatalogType>, quote: (name: string) => string): ColumnType {
  const { base, typmod, domain } = resolved;
  // A converted column is cast to its declared type on writes: the domain when there is one (so its checks apply).
  const storedType = domain !== undefined ? qualifiedName(domain, quote) : base.schema === 'pg_catalog' ? declared : qualifiedName(base, quote);
  if (base.schema === 'pg_catalog') {
    const rule = BUILT_IN.get(base.name);
    if (rule !== undefined) {
      const native = typeof rule.native === 'function' ? rule.native(typmod) : rule.native === true;
      return {
        kind: 'mapped',
        type: rule.type,
        facets: rule.facets?.(typmod) ?? {},
        storedType: native ? undefined : storedType,
        keyable: rule.keyable === true,
        constantDefaults: rule.constantDefaults ?? true,
        ...(rule.digits === undefined ? {} : { storedDigits: rule.digits(typmod) }),
        ...(rule.displayFormat === undefined ? {} : { displayFormat: rule.displayFormat }),
      };
    }
    const leftOut = LEFT_OUT.get(base.name);
    if (leftOut !== undefined) return { kind: 'unmapped', description: `${base.name} (${leftOut})` };
  }
  const category = base.kind === 'm' ? 'R' : base.category;
  const described = TEXT_CATEGORIES.get(category);
  if (described !== undefined && base.kind !== 'c') {
    const facets = base.kind === 'e' ? { maxLength: Math.max(1, ...base.labels.map((label) => [...label].length)) } : {};
    return {
      kind: 'mapped',
      type: 'Edm.String',
      constantDefaults: true,
      facets,
      storedType: category === 'A' && domain === undefined ? arrayTypeName(base, declared, types, quote) : storedType,
      keyable: false,
    };
  }
  const name = qualifiedName(base, (part) => part);
  if (base.kind === 'c') return { kind: 'unmapped', description: `${name} (a composite type)` };
  if (base.kind === 'p') return { kind: 'unmapped', description: `${name} (a pseudo-type)` };
  return { kind: 'unmapped', description: `${name} (${base.schema === 'pg_catalog' ? 'a system type' : 'an extension or user-defined base type'})` };
}
