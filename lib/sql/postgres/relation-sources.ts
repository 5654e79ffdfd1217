/**
 * Where the rows of partitioned tables and simple views come from, as introspection reads it from
 * the catalog: the partitions of each partitioned table with its partition key columns, and for
 * each view PostgreSQL can update by itself (one table or view in FROM, no joins, grouping,
 * DISTINCT or set operations) the table column behind each of its columns, read from the view's
 * stored query (`pg_rewrite.ev_action`, the parse tree PostgreSQL prints as text). Keys of
 * partitions and of a view's table are what partitioned tables and views lack.
 */
import { sql } from 'kysely';
import type { SqlKysely } from '../database';
import type { RelationSources, ViewColumnSource } from '../introspect/catalog';

type Row = Record<string, unknown>;
const text = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** A token of a printed parse tree and the depth of `{...}` nodes it is in. */
interface Token {
  readonly text: string;
  readonly depth: number;
}

/** The tokens of a parse tree's text: braces and parentheses alone, words split at spaces; `\x` escapes and `"..."` strings are parts of words. */
function tokens(tree: string): Token[] {
  const found: Token[] = [];
  let depth = 0;
  let word = '';
  const flush = (): void => {
    if (word !== '') found.push({ text: word, depth });
    word = '';
  };
  for (let i = 0; i < tree.length; i++) {
    const char = tree[i];
    if (char === '\\') {
      word += tree.slice(i, i + 2);
      i++;
    } else if (char === '"') {
      const end = tree.indexOf('"', i + 1);
      word += tree.slice(i, end < 0 ? tree.length : end + 1);
      i = end < 0 ? tree.length : end;
    } else if (char === '{' || char === '}' || char === '(' || char === ')') {
      flush();
      if (char === '}') depth--;
      found.push({ text: char, depth });
      if (char === '{') depth++;
    } else if (char === ' ' || char === '\n' || char === '\t') {
      flush();
    } else {
      word += char;
    }
  }
  flush();
  return found;
}

/**
 * The column sources of a view's stored query (`({QUERY ... :targetList ({TARGETENTRY ... :resno 1
 * ... :resorigtbl 16410 :resorigcol 1 ...} ...) ...})`): the top-level query's target entries
 * only (subqueries in WHERE print their own before it), those that are a table column as it is.
 */
export function viewColumnSources(tree: string): ViewColumnSource[] {
  const all = tokens(tree);
  const start = all.findIndex((token) => token.text === ':targetList' && token.depth === 1);
  if (start < 0) return [];
  const sources: ViewColumnSource[] = [];
  let entry: Map<string, string> | undefined;
  for (let i = start + 1; i < all.length; i++) {
    const token = all[i];
    if (token.depth === 1 && token.text === ')') break;
    if (token.text === '{' && token.depth === 1 && all[i + 1]?.text === 'TARGETENTRY') entry = new Map();
    else if (token.text === '}' && token.depth === 1 && entry !== undefined) {
      const [position, relation, column, junk] = [':resno', ':resorigtbl', ':resorigcol', ':resjunk'].map((field) => entry?.get(field));
      // A column that is an expression has resorigtbl 0; a junk entry is no column of the view.
      if (relation !== undefined && relation !== '0' && junk !== 'true' && /^\d+$/.test(`${position}${column}`))
        sources.push({ position: Number(position), relation, column: Number(column) });
      entry = undefined;
    } else if (entry !== undefined && token.depth === 2 && token.text.startsWith(':')) {
      const value = all[i + 1];
      if (value !== undefined && value.depth === 2 && !value.text.startsWith(':')) entry.set(token.text, value.text);
    }
  }
  return sources;
}

/** Read the partitions, partition keys and simple views' column sources of `schemas`. */
export async function readRelationSources(executor: SqlKysely, schemas: readonly string[]): Promise<RelationSources> {
  const partitions = await sql<Row>`
    select pn.nspname as parent_schema, p.relname as parent, n.nspname as schema, c.relname as name
    from pg_catalog.pg_inherits i
    join pg_catalog.pg_class c on c.oid = i.inhrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join pg_catalog.pg_class p on p.oid = i.inhparent
    join pg_catalog.pg_namespace pn on pn.oid = p.relnamespace
    where c.relispartition and pn.nspname = any(${schemas}::text[])
    order by pn.nspname, p.relname, n.nspname, c.relname`.execute(executor);
  const keys = await sql<Row>`
    select n.nspname as schema, c.relname as name, cast(pt.partattrs as text) as columns
    from pg_catalog.pg_partitioned_table pt
    join pg_catalog.pg_class c on c.oid = pt.partrelid
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname = any(${schemas}::text[])`.execute(executor);
  // is_updatable without triggers: PostgreSQL updates the view's one table itself.
  const views = await sql<Row>`
    select n.nspname as schema, c.relname as name, cast(r.ev_action as text) as tree
    from pg_catalog.pg_rewrite r
    join pg_catalog.pg_class c on c.oid = r.ev_class
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    join information_schema.views v on v.table_schema = n.nspname and v.table_name = c.relname
    where c.relkind = 'v' and r.rulename = '_RETURN' and v.is_updatable = 'YES' and n.nspname = any(${schemas}::text[])`.execute(executor);
  return {
    partitions: partitions.rows.map((row) => ({
      parentSchema: text(row.parent_schema),
      parent: text(row.parent),
      schema: text(row.schema),
      name: text(row.name),
    })),
    partitionKeys: new Map(
      keys.rows.map((row) => [
        `${text(row.schema)}.${text(row.name)}`,
        text(row.columns)
          .split(/\s+/)
          .filter((part) => part !== '')
          .map(Number),
      ]),
    ),
    viewColumns: new Map(views.rows.map((row) => [`${text(row.schema)}.${text(row.name)}`, viewColumnSources(text(row.tree))])),
  };
}
