/**
 * Keys introspection can trust: the unique keys of a relation (its primary key, unique
 * constraints and unique indexes; a simple view's are those of its table that it shows, column
 * for column), which key to propose for a relation without a primary key, whether a configured key
 * is backed by one of them (else the start-time check of check-keys.ts runs), and the warning
 * that proposes a key: with a command that works, or, when nothing is known to be unique, the
 * syntax without a guess.
 */
import type { Catalog, CatalogConstraint, CatalogRelation } from './catalog';
import type { ColumnDraft } from './tables';
import type { IntrospectionWarning } from './types';

/** A unique key of a relation: its column positions, and what makes it unique (for messages). */
interface UniqueKey {
  readonly positions: readonly number[];
  /** `the primary key of its table public.products`, for a view's. */
  readonly origin?: string;
}

const VIEW_KINDS = new Set(['v', 'm']);
const UNIQUE_KINDS = new Set(['p', 'u', 'i']);

/** The table constraints that make columns unique in the whole table (primary key first, in catalog order). */
function uniqueConstraints(constraints: readonly CatalogConstraint[], relation: { schema: string; name: string }): CatalogConstraint[] {
  const own = constraints.filter(
    (constraint) =>
      constraint.schema === relation.schema && constraint.table === relation.name && UNIQUE_KINDS.has(constraint.kind) && !constraint.partitionsOnly,
  );
  return [...own.filter((constraint) => constraint.kind === 'p'), ...own.filter((constraint) => constraint.kind !== 'p')];
}

/** Follow a simple view's column to the table column it shows (through simple views over simple views). */
function tableColumn(catalog: Catalog, view: CatalogRelation, position: number): { relation: CatalogRelation; position: number } | undefined {
  let current = view;
  let column = position;
  for (let depth = 0; depth < 16; depth++) {
    if (current.kind !== 'v') return { relation: current, position: column };
    const source = catalog.sources.viewColumns.get(`${current.schema}.${current.name}`)?.find((candidate) => candidate.position === column);
    const next = source === undefined ? undefined : catalog.relations.find((relation) => relation.oid === source.relation);
    if (source === undefined || next === undefined) return undefined;
    current = next;
    column = source.column;
  }
  return undefined;
}

/** The unique keys of a relation; a view's through the table it shows (see the module comment). */
export function uniqueKeys(catalog: Catalog, relation: CatalogRelation): UniqueKey[] {
  // A materialized view has indexes of its own, as a table does.
  if (relation.kind !== 'v') return uniqueConstraints(catalog.constraints, relation).map((constraint) => ({ positions: constraint.columns }));
  const shown = catalog.columns
    .filter((column) => column.schema === relation.schema && column.table === relation.name)
    .flatMap((column) => {
      const source = tableColumn(catalog, relation, column.position);
      return source === undefined ? [] : [{ view: column.position, table: source.relation, column: source.position }];
    });
  const table = shown[0]?.table;
  if (table === undefined || shown.some((column) => column.table !== table)) return [];
  const notNull = (position: number): boolean =>
    catalog.columns.some((column) => column.schema === table.schema && column.table === table.name && column.position === position && column.notNull);
  return uniqueConstraints(catalog.constraints, table).flatMap((constraint) => {
    const positions = constraint.columns.map((position) => shown.find((column) => column.column === position)?.view);
    if (positions.some((position) => position === undefined) || !constraint.columns.every(notNull)) return [];
    const what = constraint.kind === 'p' ? 'the primary key' : 'a unique key';
    return [{ positions: positions as number[], origin: `${what} of its table ${table.schema}.${table.name}` }];
  });
}

/** The first unique key whose columns can all be key properties (mapped, comparable, never null), by column name. */
export function proposedKey(keys: readonly UniqueKey[], columns: readonly ColumnDraft[], isView: boolean): { names: string[]; origin?: string } | undefined {
  const byPosition = new Map(columns.map((column) => [column.column.position, column]));
  for (const key of keys) {
    const keyColumns = key.positions.map((position) => byPosition.get(position));
    // A view's columns are never NOT NULL in the catalog: its table's are (uniqueKeys checked them).
    if (keyColumns.every((column) => column !== undefined && column.mapped.keyable && (isView || column.notNull)))
      return { names: keyColumns.map((column) => column?.column.name ?? ''), ...(key.origin === undefined ? {} : { origin: key.origin }) };
  }
  return undefined;
}

/** True when one of the unique keys lies within `positions`: no two rows share a value of those columns. */
export function isBacked(keys: readonly UniqueKey[], positions: readonly number[]): boolean {
  return keys.some((key) => key.positions.every((position) => positions.includes(position)));
}

/** `word` as one shell word: quoted when it holds anything but letters, digits and `_.,=-`. */
function shellWord(word: string): string {
  return /^[\w.,=-]+$/u.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The warning for a relation left out for want of a key. `optionName` is how the keys option and
 * --key name it; `proposal` a key known to be unique, which the warning gives as a command.
 */
export function missingKeyWarning(
  relation: CatalogRelation,
  optionName: string,
  proposal: { names: string[]; origin?: string } | undefined,
): IntrospectionWarning {
  const qualified = `${relation.schema}.${relation.name}`;
  const isView = VIEW_KINDS.has(relation.kind);
  const what = isView ? 'view' : 'table';
  const reason = isView ? 'a view has no primary key' : 'it has no primary key';
  if (proposal === undefined) {
    const none = isView ? ', and none of its columns shows a unique key of its table' : ', and no unique key on columns that are never null';
    return {
      code: 'TABLE_WITHOUT_KEY',
      target: qualified,
      message: `The ${what} ${qualified} is left out: ${reason}${none}. To include it, name the columns that identify its rows in the keys option or with --key ${shellWord(`${optionName}=`)}<columns> on the command line (which checks that no two rows share them).`,
    };
  }
  const origin = proposal.origin === undefined ? '' : ` (${proposal.origin})`;
  return {
    code: 'TABLE_WITHOUT_KEY',
    target: qualified,
    message: `The ${what} ${qualified} is left out: ${reason}. Give its key columns to include it: keys: { '${optionName}': [${proposal.names.map((column) => `'${column}'`).join(', ')}] }, or --key ${shellWord(`${optionName}=${proposal.names.join(',')}`)} on the command line${origin}.`,
  };
}
