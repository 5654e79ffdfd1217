/**
 * Tables and keyed views as entity drafts: which relations become entity sets (readable, with a
 * usable key), and each mapped column's EDM type, facets, default, store generation, label and
 * write permissions. Columns without an EDM form and tables without a key are left out with a
 * warning that says how to include them. Names and associations come later (introspect.ts).
 */
import type { SqlInsertMode, SqlStoreGenerated } from '../mapping/types';
import type { Catalog, CatalogColumn, CatalogRelation } from './catalog';
import { columnTypeOf, resolveType, type MappedType } from './column-types';
import { readComment, type CommentParts } from './comments';
import { columnDefault } from './defaults';
import { isBacked, missingKeyWarning, proposedKey, uniqueKeys } from './keys';
import type { IntrospectionWarning } from './types';

/** A column that becomes a property. */
export interface ColumnDraft {
  readonly column: CatalogColumn;
  readonly mapped: MappedType;
  /** NOT NULL on the column or its domain. */
  readonly notNull: boolean;
  readonly defaultValue: string | undefined;
  readonly generated: SqlStoreGenerated | undefined;
  readonly comment: CommentParts;
  readonly concurrencyToken: boolean;
}

/** A relation that becomes an entity type and set. */
export interface EntityDraft {
  readonly relation: CatalogRelation;
  /** `schema.name`, for messages and options. */
  readonly qualified: string;
  /** The mapped columns, in column order. */
  readonly columns: readonly ColumnDraft[];
  readonly byPosition: ReadonlyMap<number, ColumnDraft>;
  /** The key columns, in key order. */
  readonly key: readonly ColumnDraft[];
  /** True when a unique constraint or index makes the key unique (else check-keys.ts checks it at start). */
  readonly keyBacked: boolean;
  readonly comment: CommentParts;
  /** What the user may do with the set's rows (privileges, view updatability, required columns left out). */
  readonly creatable: boolean;
  readonly updatable: boolean;
  readonly deletable: boolean;
  /** How a create inserts a row (meaningful when `creatable`). */
  readonly insert: SqlInsertMode;
  /** `xmin`: the row version is the ETag (a table without a concurrency token column). */
  readonly etag: 'xmin' | undefined;
}

/** What drafting needs from the options. */
export interface DraftOptions {
  readonly keys: Readonly<Record<string, readonly string[]>>;
  readonly versionColumns: ReadonlySet<string>;
  /** The ETag of a relation without a version column: its row version (tables only), or none. */
  readonly etag: 'xmin' | 'none';
  readonly quote: (name: string) => string;
  /** The first schema read: its tables are named without their schema in `keys` suggestions. */
  readonly firstSchema: string;
}

const VIEW_KINDS = new Set(['v', 'm']);
/** Tables and partitioned tables: the relations ON CONFLICT works on (not views, not foreign tables). */
const TABLE_KINDS = new Set(['r', 'p']);

/** Key columns the options give a relation (by `schema.name` or by name). */
function configuredKey(options: DraftOptions, relation: CatalogRelation): readonly string[] | undefined {
  return options.keys[`${relation.schema}.${relation.name}`] ?? options.keys[relation.name];
}

/** How to name a relation in a `keys` option: by name in the first schema, else by `schema.name`. */
function keyOptionName(relation: CatalogRelation, firstSchema: string): string {
  return relation.schema === firstSchema ? relation.name : `${relation.schema}.${relation.name}`;
}

/** A column's draft, or undefined (with a warning) when it has no EDM form or cannot be read. */
function draftColumn(
  catalog: Catalog,
  relation: CatalogRelation,
  column: CatalogColumn,
  options: DraftOptions,
  warnings: IntrospectionWarning[],
): ColumnDraft | undefined {
  const target = `${relation.schema}.${relation.name}.${column.name}`;
  if (!column.canSelect) {
    warnings.push({ code: 'COLUMN_NOT_READABLE', target, message: `The column ${target} is left out: the user has no SELECT privilege on it.` });
    return undefined;
  }
  const resolved = resolveType(column.typeOid, column.typmod, catalog.types);
  const type = resolved === undefined ? undefined : columnTypeOf(resolved, column.declaredType, catalog.types, options.quote);
  if (resolved === undefined || type === undefined || type.kind === 'unmapped') {
    const what = type?.kind === 'unmapped' ? type.description : column.declaredType;
    warnings.push({
      code: 'COLUMN_NOT_MAPPED',
      target,
      message: `The column ${target} of type ${what} is left out: it has no EDM type. A view that casts it (${column.name}::text) can show it.`,
    });
    return undefined;
  }
  const comment = readComment(column.comment, column.name);
  const expression = column.generated === 's' ? null : (column.defaultExpression ?? resolved.defaultExpression);
  const stated = columnDefault(expression, type.type, type.storedType === 'date');
  const fromDefault = stated.kind === 'constant' && !type.constantDefaults ? ({ kind: 'database' } as const) : stated;
  let generated: SqlStoreGenerated | undefined;
  // A sequence makes a value per inserted row, as an identity column does (serial is one).
  if (column.identity === 'a' || column.identity === 'd' || (expression !== null && /^nextval\(/i.test(expression.trim()))) generated = 'identity';
  else if (column.generated === 's') generated = 'computed';
  else if (fromDefault.kind === 'database') generated = 'default';
  const token = options.versionColumns.has(column.name.toLowerCase()) || comment.markers.has('@version');
  let concurrencyToken = false;
  // A timestamp with more digits than served is recorded with its type, but compared as it is.
  if (token && type.storedType !== undefined && type.storedDigits === undefined) {
    warnings.push({
      code: 'VERSION_COLUMN',
      target,
      message: `The column ${target} is not a concurrency token: a ${column.declaredType} column is compared converted; use an integer or timestamp version column.`,
    });
  } else if (token) {
    concurrencyToken = true;
    if ((type.type === 'Edm.DateTime' || type.type === 'Edm.DateTimeOffset') && (type.storedDigits ?? 0) > 3) {
      warnings.push({
        code: 'VERSION_COLUMN',
        target,
        message: `The version column ${target} keeps microseconds, but ETags keep milliseconds: two writes within one millisecond have the same ETag. An integer version, or ${column.declaredType.replace(/\(\d\)/, '')}(3), has none of that.`,
      });
    }
  }
  return {
    column,
    mapped: type,
    notNull: column.notNull || resolved.notNull,
    defaultValue: fromDefault.kind === 'constant' && generated === undefined ? fromDefault.value : undefined,
    generated,
    comment,
    concurrencyToken,
  };
}

/**
 * How a create inserts into the relation (SqlInsertMode), decided from the catalog, or why none
 * can: ON CONFLICT needs a table without rules and a unique index of its own on exactly the key
 * (not one only its partitions have); INSERT rules need the row read back by its key, which a
 * DO INSTEAD rule that returns nothing leaves only the client to give.
 */
function insertModeOf(catalog: Catalog, relation: CatalogRelation, key: readonly ColumnDraft[]): SqlInsertMode | { reason: string } {
  if (relation.insertRules === 'silent') {
    const made = key.find((column) => column.generated !== undefined);
    if (made === undefined) return 'readBack';
    return {
      reason: `an INSERT rule of it returns no row, and its key column ${made.column.name} is made by the database, so a new row could not be read back`,
    };
  }
  if (relation.insertRules !== 'none') return 'readBack';
  if (!TABLE_KINDS.has(relation.kind) || relation.updateRules) return 'checked';
  const positions = new Set(key.map((column) => column.column.position));
  const matches = catalog.constraints.some(
    (constraint) =>
      constraint.schema === relation.schema &&
      constraint.table === relation.name &&
      constraint.kind !== 'f' &&
      constraint.inherited !== true &&
      constraint.columns.length === positions.size &&
      constraint.columns.every((position) => positions.has(position)),
  );
  return matches ? 'onConflict' : 'checked';
}

/** The draft of a relation, or undefined (with a warning) when it cannot be an entity set. */
export function draftEntity(catalog: Catalog, relation: CatalogRelation, options: DraftOptions, warnings: IntrospectionWarning[]): EntityDraft | undefined {
  const qualified = `${relation.schema}.${relation.name}`;
  const isView = VIEW_KINDS.has(relation.kind);
  const what = isView ? 'view' : 'table';
  if (!relation.canSelect) {
    warnings.push({ code: 'TABLE_NOT_READABLE', target: qualified, message: `The ${what} ${qualified} is left out: the user has no SELECT privilege on it.` });
    return undefined;
  }
  const catalogColumns = catalog.columns.filter((column) => column.schema === relation.schema && column.table === relation.name);
  const columns: ColumnDraft[] = [];
  let requiredLeftOut = false;
  for (const column of catalogColumns) {
    const draft = draftColumn(catalog, relation, column, options, warnings);
    if (draft !== undefined) columns.push(draft);
    else if (column.notNull && column.defaultExpression === null && column.identity === '' && column.generated === '') requiredLeftOut = true;
  }
  const byName = new Map(columns.map((column) => [column.column.name, column]));
  const configured = configuredKey(options, relation);
  const primaryKey = catalog.constraints.find(
    (constraint) => constraint.schema === relation.schema && constraint.table === relation.name && constraint.kind === 'p',
  );
  const keyNames = configured ?? primaryKey?.columns.map((position) => catalogColumns.find((column) => column.position === position)?.name ?? '');
  const unique = uniqueKeys(catalog, relation);
  if (keyNames === undefined || keyNames.length === 0) {
    warnings.push(missingKeyWarning(relation, keyOptionName(relation, options.firstSchema), proposedKey(unique, columns, isView)));
    return undefined;
  }
  const key: ColumnDraft[] = [];
  for (const name of keyNames) {
    const column = byName.get(name);
    if (column === undefined || !column.mapped.keyable) {
      const reason =
        column !== undefined
          ? `its type ${column.column.declaredType} cannot be compared with key values as it is`
          : catalogColumns.some((candidate) => candidate.name === name)
            ? 'it is left out (see above)'
            : `the ${what} has no such column`;
      warnings.push({
        code: 'KEY_NOT_SUPPORTED',
        target: qualified,
        message: `The ${what} ${qualified} is left out: its key column ${name} cannot be an OData key (${reason}).`,
      });
      return undefined;
    }
    // A key the database makes on insert (gen_random_uuid(), now()...) is an identity: a client
    // must send some key value, which the database's replaces.
    key.push(column.generated === 'default' ? { ...column, generated: 'identity' } : column);
  }
  // A configured key no unique key lies within, or a partitions' primary key without the partition key, is checked at start.
  const keyBacked =
    configured === undefined
      ? primaryKey?.partitionsOnly !== true
      : isBacked(
          unique,
          key.map((column) => column.column.position),
        );
  const keyed = new Map(key.map((column) => [column.column.position, column]));
  const keyedColumns = columns.map((column) => keyed.get(column.column.position) ?? column);
  const canWrite = (viewAllows: boolean, privilege: boolean): boolean => (relation.kind === 'm' ? false : (!isView || viewAllows) && privilege);
  const insert = insertModeOf(catalog, relation, key);
  let creatable = canWrite(relation.viewInsertable, relation.canInsert) && !requiredLeftOut;
  if (creatable && typeof insert !== 'string') {
    creatable = false;
    warnings.push({
      code: 'TABLE_NOT_CREATABLE',
      target: qualified,
      message: `The ${what} ${qualified} is served with sap:creatable="false": ${insert.reason}.`,
    });
  }
  const tokened = columns.some((column) => column.concurrencyToken);
  const rowVersion = options.etag === 'xmin' && !tokened && TABLE_KINDS.has(relation.kind);
  if (options.etag === 'xmin' && !tokened && !rowVersion) {
    warnings.push({
      code: 'NO_ETAG',
      target: qualified,
      message: `The ${what} ${qualified} has no ETag: only a table has a row version (xmin). A version column (a comment with @version, or --version-column) gives it one.`,
    });
  }
  return {
    relation,
    qualified,
    columns: keyedColumns,
    byPosition: new Map(keyedColumns.map((column) => [column.column.position, column])),
    key,
    keyBacked,
    comment: readComment(relation.comment, relation.name),
    creatable,
    updatable: canWrite(relation.viewUpdatable, relation.canUpdate),
    deletable: canWrite(relation.viewDeletable, relation.canDelete),
    insert: typeof insert === 'string' ? insert : 'onConflict',
    etag: rowVersion ? 'xmin' : undefined,
  };
}

/** The keys options that name no relation read, as warnings. */
export function unusedKeyOptions(relations: readonly CatalogRelation[], options: DraftOptions): IntrospectionWarning[] {
  const names = new Set(relations.flatMap((relation) => [relation.name, `${relation.schema}.${relation.name}`]));
  return Object.keys(options.keys)
    .filter((name) => !names.has(name))
    .map((name) => ({
      code: 'KEY_OPTION_UNUSED' as const,
      target: `keys.${name}`,
      message: `The keys option names '${name}', which is no table or view read (check the schemas, include and exclude options).`,
    }));
}
