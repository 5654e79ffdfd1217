/**
 * Tables and keyed views as entity drafts: which relations become entity sets (readable, with a
 * usable key), and each mapped column's EDM type, facets, default, store generation, label and
 * write permissions. Columns without an EDM form and tables without a key are left out with a
 * warning that says how to include them. Names and associations come later (introspect.ts).
 */
import type { SqlStoreGenerated } from '../mapping/types';
import type { Catalog, CatalogColumn, CatalogConstraint, CatalogRelation } from './catalog';
import { columnTypeOf, resolveType, type MappedType } from './column-types';
import { readComment, type CommentParts } from './comments';
import { columnDefault } from './defaults';
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
  readonly comment: CommentParts;
  /** What the user may do with the set's rows (privileges, view updatability, required columns left out). */
  readonly creatable: boolean;
  readonly updatable: boolean;
  readonly deletable: boolean;
}

/** What drafting needs from the options. */
export interface DraftOptions {
  readonly keys: Readonly<Record<string, readonly string[]>>;
  readonly versionColumns: ReadonlySet<string>;
  readonly quote: (name: string) => string;
}

const VIEW_KINDS = new Set(['v', 'm']);

/** Key columns the options give a relation (by `schema.name` or by name). */
function configuredKey(options: DraftOptions, relation: CatalogRelation): readonly string[] | undefined {
  return options.keys[`${relation.schema}.${relation.name}`] ?? options.keys[relation.name];
}

/** How to name a relation in a `keys` option: by name when that is enough. */
function keyOptionName(relation: CatalogRelation): string {
  return relation.schema === 'public' ? relation.name : `${relation.schema}.${relation.name}`;
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

/** The constraint or unique index a `keys` suggestion can name: unique, on NOT NULL columns. */
function keyCandidate(constraints: readonly CatalogConstraint[], columns: readonly ColumnDraft[]): string | undefined {
  const byPosition = new Map(columns.map((column) => [column.column.position, column]));
  for (const constraint of constraints) {
    if (constraint.kind !== 'u' && constraint.kind !== 'i') continue;
    const keyColumns = constraint.columns.map((position) => byPosition.get(position));
    if (keyColumns.every((column) => column !== undefined && column.notNull && column.mapped.keyable))
      return keyColumns.map((column) => column?.column.name).join(',');
  }
  return undefined;
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
  const constraints = catalog.constraints.filter((constraint) => constraint.schema === relation.schema && constraint.table === relation.name);
  const configured = configuredKey(options, relation);
  const primaryKey = constraints.find((constraint) => constraint.kind === 'p');
  const keyNames = configured ?? primaryKey?.columns.map((position) => catalogColumns.find((column) => column.position === position)?.name ?? '');
  if (keyNames === undefined || keyNames.length === 0) {
    const candidate = keyCandidate(constraints, columns) ?? (isView ? columns.find((column) => column.mapped.keyable)?.column.name : undefined);
    const name = keyOptionName(relation);
    const example = (candidate ?? 'column').split(',');
    const reason = isView ? 'a view has no primary key' : 'it has no primary key';
    warnings.push({
      code: 'TABLE_WITHOUT_KEY',
      target: qualified,
      message: `The ${what} ${qualified} is left out: ${reason}. Give its key columns to include it: keys: { '${name}': [${example.map((column) => `'${column}'`).join(', ')}] }, or --key ${name}=${example.join(',')} on the command line.`,
    });
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
  const keyed = new Map(key.map((column) => [column.column.position, column]));
  const keyedColumns = columns.map((column) => keyed.get(column.column.position) ?? column);
  const canWrite = (viewAllows: boolean, privilege: boolean): boolean => (relation.kind === 'm' ? false : (!isView || viewAllows) && privilege);
  return {
    relation,
    qualified,
    columns: keyedColumns,
    byPosition: new Map(keyedColumns.map((column) => [column.column.position, column])),
    key,
    comment: readComment(relation.comment, relation.name),
    creatable: canWrite(relation.viewInsertable, relation.canInsert) && !requiredLeftOut,
    updatable: canWrite(relation.viewUpdatable, relation.canUpdate),
    deletable: canWrite(relation.viewDeletable, relation.canDelete),
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
