/**
 * Shared by the SQL specs: the ExprTest model (spec/fixtures/expr-test.xml: a property per EDM
 * type, complex values, a derived type, a to-one navigation) mapped to two tables, a resolver over
 * them, and a Kysely instance that only compiles (for expected SQL text and parameters).
 */
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler, sql, type RawBuilder } from 'kysely';
import type { EdmEntityType } from '../../lib/edm/model';
import { compileFilterSql, compileOrderBySql } from '../../lib/sql/compile/compile';
import { createPostgresEngine } from '../../lib/sql/postgres/engine';
import type { SqlCompileContext, SqlMemberPath, SqlPathResolver } from '../../lib/sql/compile/context';
import type { SqlSchema } from '../../lib/sql/database';
import type { SqlExpressions } from '../../lib/sql/dialect';
import { checkExpression, checkFilter, parseExpression, parseOrderBy } from '../../lib/uri/expr';
import type { ExprNode } from '../../lib/uri/expr/ast';
import type { OrderByItem } from '../../lib/uri/types';
import { Item, testModel } from '../uri/expr/support';

export { Item, SpecialItem, testModel } from '../uri/expr/support';

/** Compiles without a database. */
const compileOnly = new Kysely<SqlSchema>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

/** SQL text and parameters of a fragment. */
export function compiled(fragment: RawBuilder<unknown>): { sql: string; parameters: readonly unknown[] } {
  const { sql: text, parameters } = fragment.compile(compileOnly);
  return { sql: text, parameters };
}

/** The Items table (`t`), with the owner joined as `o` (People), in the column naming of the fixture. */
export const ITEMS_FROM = sql`items as t left join people as o on o."ID" = t."Owner_ID"`;

/** The discriminator value of each entity type in the Items table. */
const TYPE_TAGS: Readonly<Record<string, string>> = { 'ExprTest.Item': 'Item', 'ExprTest.SpecialItem': 'SpecialItem' };

/** Column of a structural path: names joined with `_` (`Address_Geo_Lat`). */
function columnName(path: SqlMemberPath): string {
  return path.properties.map((property) => property.name).join('_');
}

/** What the Items resolver says about its columns. */
interface ItemsOptions {
  /** Fractional-second digits the temporal columns keep (the resolver's `precision`). */
  readonly precision?: number;
  /**
   * Timestamp columns as the evaluator holds them, cut to milliseconds: SQL then orders them as
   * the evaluator does (by millisecond, then key) where it otherwise orders by the stored value.
   */
  readonly milliseconds?: boolean;
  /** The engine's expression dialect (PostgreSQL's by default). */
  readonly dialect?: SqlExpressions;
}

/** A resolver over ITEMS_FROM that records the navigation paths it was asked for. */
export function itemsResolver(options: ItemsOptions = {}): SqlPathResolver & { readonly joins: Set<string> } {
  const joins = new Set<string>();
  const alias = (path: SqlMemberPath): string | undefined => {
    if (path.navigation.length === 0) return 't';
    if (path.navigation.length === 1 && path.navigation[0].name === 'Owner') {
      joins.add('Owner');
      return 'o';
    }
    return undefined;
  };
  return {
    joins,
    column(path) {
      const table = alias(path);
      if (table === undefined) return undefined;
      const last = path.properties[path.properties.length - 1];
      const column = sql.ref(`${table}.${columnName(path)}`);
      const instant = last.type.kind === 'Primitive' && (last.type.name === 'Edm.DateTime' || last.type.name === 'Edm.DateTimeOffset');
      return {
        sql: options.milliseconds === true && instant ? (options.dialect ?? createPostgresEngine().expressions).truncateToMilliseconds(column) : column,
        nullable: !last.isKey,
        precision: options.precision,
      };
    },
    presence(path) {
      const table = alias(path);
      if (table === undefined) return undefined;
      // Address and Address/Geo are Nullable="false": present whenever their entity is.
      return sql.ref(`${table}.ID`);
    },
    isInstance(path, type: EdmEntityType) {
      const table = alias(path);
      if (table === undefined) return undefined;
      if (table === 'o') return sql`(o."ID" is not null)`;
      const tags = Object.entries(TYPE_TAGS)
        .filter(([name]) => {
          const candidate = testModel.entityTypes.get(name);
          for (let current = candidate; current !== undefined; current = current.baseType) if (current === type) return true;
          return false;
        })
        .map(([, tag]) => tag);
      return sql`(t."$type" in (${sql.join(tags.map((tag) => sql.lit(tag)))}))`;
    },
  };
}

/** A compile context over the Items tables. */
export function itemsContext(options: ItemsOptions = {}): SqlCompileContext & { resolver: ReturnType<typeof itemsResolver> } {
  return { dialect: options.dialect ?? createPostgresEngine().expressions, resolver: itemsResolver(options) };
}

/** A type-checked `$filter` over Items. */
export function itemFilter(text: string, type: EdmEntityType = Item): ExprNode {
  return checkFilter(parseExpression(text), type, testModel);
}

/** A type-checked `$orderby` over Items. */
export function itemOrderBy(text: string): OrderByItem[] {
  return parseOrderBy(text).map((item) => ({ expression: checkExpression(item.expression, Item, testModel), direction: item.direction }));
}

/** `[sql, parameters]` of a `$filter` over Items, with the SQL's whitespace runs folded to one space. */
export function filterSql(text: string, options: { precision?: number; dialect?: SqlExpressions; approximateCase?: boolean } = {}): [string, unknown[]] {
  const context = { ...itemsContext(options), ...(options.approximateCase === undefined ? {} : { approximateCase: options.approximateCase }) };
  const { sql: query, parameters } = compiled(compileFilterSql(itemFilter(text), context));
  return [query.replace(/\s+/g, ' '), [...parameters]];
}

/** The ORDER BY terms of a `$orderby` over Items, joined with `, `. */
export function orderBySql(text: string, options: { precision?: number } = {}): [string, unknown[]] {
  const terms = compileOrderBySql(itemOrderBy(text), itemsContext(options));
  const { sql: query, parameters } = compiled(sql`${sql.join(terms)}`);
  return [query.replace(/\s+/g, ' '), [...parameters]];
}
