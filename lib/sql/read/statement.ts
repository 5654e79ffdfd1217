/**
 * The SELECT of a read, compiled once per request: the path's FROM clause, `$filter` and SAP's
 * `search` pushed down (conjunct by conjunct: what the translator refuses is kept as a residual for the evaluator),
 * `$orderby` with the key tie-breaker, and per chunk the keyset condition of the `$skiptoken` (or
 * of the previous chunk's last row), LIMIT and OFFSET; beside each row what its position needs
 * that its entity does not hold exactly (`o0`...). Also the COUNT(*) of the same path and filter.
 */
import { sql } from 'kysely';
import type { EdmEntityType } from '../../edm/model';
import type { PrimitiveValue } from '../../edm/primitives';
import { conjunction, conjuncts, navigationExpansion, translateFilter } from '../../provider/pushdown';
import { searchFilter } from '../../provider/search';
import { seekCondition } from '../../provider/seek';
import { walkExpression } from '../../uri/expr';
import type { ExprNode } from '../../uri/expr/ast';
import type { EntityPath, ExpandItem, OrderByItem, PositionValue, SelectExpand, SkipTokenPosition } from '../../uri/types';
import { isInstanceOf } from '../../util';
import { compileExpressionSql, compileFilterSql, compileOrderBySql } from '../compile/compile';
import type { SqlCompileContext } from '../compile/context';
import type { SqlKysely } from '../database';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import { UntranslatableExpressionError } from '../errors';
import type { CompiledMapping, SetPlan } from '../mapping/compiled';
import { linkColumnsFor } from './expand';
import { JoinedExpansions } from './joined';
import { Aliases, JoinResolver } from './joins';
import { pathSource, whereClause, type PathSource } from './path';
import { Projection, type DecodedRow } from './projection';

/** The parts of a request that decide which rows a read or count keeps. */
export interface RowCondition {
  readonly path: EntityPath;
  readonly filter: ExprNode | undefined;
  /** SAP's `search` terms (the kit's searchFilter), translated with the database's case mapping if need be. */
  readonly search?: readonly string[] | undefined;
}

/** The parts of a request a read statement needs. */
export interface ReadRequest extends RowCondition {
  readonly orderBy: readonly OrderByItem[];
  readonly selectExpand: SelectExpand;
}

/**
 * The request's `$filter` and its `search`, each with the context it is translated in: a search
 * may lower case with the database's own mapping where the engine has no exact one
 * (`approximateCase`), so it stays in SQL on every server, ICU or not.
 */
function conditionSources(request: RowCondition, entityType: EdmEntityType, context: SqlCompileContext): [ExprNode, SqlCompileContext][] {
  const sources: [ExprNode, SqlCompileContext][] = request.filter === undefined ? [] : [[request.filter, context]];
  const search = request.search === undefined ? undefined : searchFilter(entityType, request.search);
  if (search !== undefined) sources.push([search, { ...context, approximateCase: true }]);
  return sources;
}

/** Try to translate; undefined when the translator leaves it to the evaluator. */
function translated<T>(compile: () => T): T | undefined {
  try {
    return compile();
  } catch (error) {
    if (isInstanceOf(error, UntranslatableExpressionError)) return undefined;
    throw error;
  }
}

/**
 * Where a row's position takes an order item's value from: the row's entity, which holds a
 * top-level property as it is stored (`property`), or an expression read beside the row (`sql`,
 * as column `o<i>`): a timestamp (the entity's Date keeps milliseconds, a position the full
 * value), a path through complex or navigation properties, an expression.
 */
type PositionSource = { readonly property: string } | { readonly sql: Sql };

function positionSource(item: OrderByItem, context: SqlCompileContext): PositionSource {
  const { expression } = item;
  const step = expression.kind === 'Member' && expression.base === undefined && expression.steps?.length === 1 ? expression.steps[0] : undefined;
  if (step?.kind === 'Property' && step.property.type.kind === 'Primitive') {
    const type = step.property.type.name;
    if (type !== 'Edm.DateTime' && type !== 'Edm.DateTimeOffset') return { property: step.name };
  }
  return { sql: compileExpressionSql(expression, context) };
}

/** Top-level properties the order reads from the entity itself (the next link's `$skiptoken` needs them). */
function orderedProperties(orderBy: readonly OrderByItem[]): Set<string> {
  const names = new Set<string>();
  const visit = (node: ExprNode): void => {
    if (node.kind === 'Member' && node.base === undefined && node.steps?.[0]?.kind === 'Property') names.add(node.path[0]);
    if (node.kind === 'Binary') [node.left, node.right].forEach(visit);
    if (node.kind === 'Unary') visit(node.operand);
    if (node.kind === 'Call') node.args.forEach(visit);
  };
  orderBy.forEach((item) => visit(item.expression));
  return names;
}

/** A read compiled to SQL: what the database does, and what is left to the evaluator. */
export class ReadStatement {
  readonly aliases = new Aliases();
  readonly source: PathSource;
  readonly resolver: JoinResolver;
  readonly projection: Projection;
  /** The path's key conditions and the translated part of `$filter` and `search`. */
  readonly where: readonly Sql[];
  /** The part of `$filter` and `search` the translator refused (the evaluator applies it), if any. */
  readonly residual: ExprNode | undefined;
  /** ORDER BY terms; undefined when the translator refused an order item. */
  readonly order: readonly Sql[] | undefined;
  /** The navigation the residual and the order read, when the evaluator finishes the read (see `fallback.ts`). */
  readonly evaluatedNavigation: readonly ExpandItem[];
  /** Per order item, where a position reads it; undefined when rows have no positions (not asked for, or the order is not translated). */
  private readonly positionSources: readonly PositionSource[] | undefined;
  /** To-one expansions read by this statement's LEFT JOINs (with `joinToOne`). */
  private readonly joined: JoinedExpansions;

  constructor(
    readonly compiled: CompiledMapping,
    readonly engine: SqlEngine,
    readonly request: ReadRequest,
    options: { readonly allColumns: boolean; readonly positioned: boolean; readonly joinToOne?: boolean },
  ) {
    this.source = pathSource(compiled, request.path, engine, this.aliases);
    this.resolver = new JoinResolver(compiled, this.source.plan, this.source.alias, this.aliases, engine);
    const context = { dialect: engine.expressions, resolver: this.resolver };
    const where: Sql[] = [...this.source.conditions];
    const residual: ExprNode[] = [];
    for (const [condition, conditionContext] of conditionSources(request, this.source.plan.entitySet.entityType, context)) {
      const split = translateFilter(condition, (part) => translated(() => compileFilterSql(part, conditionContext)));
      where.push(...split.pushed);
      if (split.residual !== undefined) residual.push(split.residual);
    }
    this.where = where;
    this.residual = conjunction(residual);
    this.order = translated(() => compileOrderBySql(request.orderBy, context));
    // What the evaluator reads through navigation (the residual, the order it sorts by) is read
    // as expansions are: the rows must hold the foreign keys those navigation properties follow.
    this.evaluatedNavigation =
      this.residual === undefined && this.order !== undefined
        ? []
        : navigationExpansion([...residual, ...request.orderBy.map((item) => item.expression)], this.source.plan.entitySet, compiled.model);
    const positioned = options.positioned && this.order !== undefined && request.orderBy.length > 0;
    this.positionSources = positioned ? translated(() => request.orderBy.map((item) => positionSource(item, context))) : undefined;
    const { select, expand } = request.selectExpand;
    this.projection = Projection.of(
      this.source.plan,
      this.source.alias,
      {
        select: options.allColumns ? undefined : select,
        properties: orderedProperties(request.orderBy),
        linkColumns: linkColumnsFor(compiled, this.source.plan, [...expand, ...this.evaluatedNavigation]),
      },
      this.aliases,
      'c',
      engine,
    );
    this.joined = new JoinedExpansions(compiled, this.source.plan, this.source.alias, expand, options.joinToOne === true, this.aliases, engine);
  }

  /** The expansions left for statements of their own (expand.ts): all but the to-one ones read by joins. */
  get expandLater(): readonly ExpandItem[] {
    return this.joined.rest;
  }

  /** The set read. */
  get plan(): SetPlan {
    return this.source.plan;
  }

  /** True when the database does the whole read (filter and order). */
  get pushedDown(): boolean {
    return this.residual === undefined && this.order !== undefined;
  }

  /** True when rows have positions: a chunk's last row can start the next chunk, and a page's its next link. */
  get continuable(): boolean {
    return this.positionSources !== undefined;
  }

  /** The keyset condition after a position in the request's order. */
  seek(position: SkipTokenPosition): Sql {
    return compileFilterSql(seekCondition(this.request.orderBy, position, this.source.plan.entitySet.entityType), {
      dialect: this.engine.expressions,
      resolver: this.resolver,
    });
  }

  /**
   * Read rows: those meeting `condition` too (a keyset position's, or a set of keys), `offset` skipped, at most `limit`; ordered
   * when the order is translated. Returns the position the rows end at (when continuable), and
   * with `probe` (one row more is read, not returned) whether more rows follow: a feed that ends
   * exactly at a chunk's end then needs no second statement to find out.
   */
  async read(
    executor: SqlKysely,
    options: { readonly condition?: Sql; readonly limit?: number; readonly offset?: number; readonly probe?: boolean; readonly count?: Sql },
  ): Promise<{
    rows: DecodedRow[];
    /** The driver's rows the `rows` were decoded from (their positions: `positionOf`). */
    raws: Readonly<Record<string, unknown>>[];
    related: DecodedRow[];
    last: SkipTokenPosition | undefined;
    more: boolean | undefined;
    count: number | undefined;
  }> {
    const conditions = options.condition === undefined ? this.where : [...this.where, options.condition];
    const values: Sql[] = [];
    this.positionSources?.forEach((source, i) => {
      if ('sql' in source) values.push(sql`${source.sql} as ${sql.id(`o${i}`)}`);
    });
    // The count as an uncorrelated scalar subquery: computed once, in the page's own snapshot.
    if (options.count !== undefined) values.push(sql`(${options.count}) as n`);
    const order = this.order === undefined || this.order.length === 0 ? sql`` : sql`order by ${sql.join(this.order)}`;
    const probe = options.probe === true && options.limit !== undefined;
    const offset = options.offset === undefined || options.offset === 0 ? sql`` : sql`offset ${sql.val(options.offset)}`;
    // An engine that takes no OFFSET without a LIMIT (SQLite) says what stands for none.
    const unbounded = options.offset === undefined || options.offset === 0 ? undefined : this.engine.reads.unboundedLimit;
    const limit = options.limit === undefined ? (unbounded ?? sql``) : sql`limit ${sql.val(probe ? options.limit + 1 : options.limit)}`;
    const joins = sql.join([...this.resolver.joins, ...this.projection.joins, ...this.joined.joins], sql` `);
    const result = await sql<
      Record<string, unknown>
    >`select ${sql.join([...this.projection.columns, ...this.joined.columns, ...values])} from ${this.source.from} ${joins} ${whereClause(conditions)} ${order} ${limit} ${offset}`.execute(
      executor,
    );
    const more = probe ? result.rows.length > (options.limit ?? 0) : undefined;
    const raw = more === true ? result.rows.slice(0, -1) : result.rows;
    const related: DecodedRow[] = [];
    const rows = raw.map((row) => {
      const decoded = this.projection.decode(row);
      this.joined.attach(row, decoded, related);
      return decoded;
    });
    const count = options.count === undefined || result.rows.length === 0 ? undefined : Number(result.rows[0].n);
    const last = raw.length === 0 ? undefined : this.positionOf(raw[raw.length - 1], rows[rows.length - 1]);
    return { rows, raws: raw, related, last, more, count };
  }

  /**
   * Where a row stands in the request's order, at the store's precision: its value for every
   * order item (a timestamp as a PreciseInstant) and its key. Undefined when rows have no positions.
   */
  positionOf(row: Readonly<Record<string, unknown>>, decoded: DecodedRow): SkipTokenPosition | undefined {
    const sources = this.positionSources;
    if (sources === undefined) return undefined;
    const orderByValues = this.request.orderBy.map((item, i): PositionValue | null => {
      const type = item.expression.type;
      const source = sources[i];
      if ('property' in source) return (decoded.entity[source.property] as PrimitiveValue | undefined) ?? null;
      return type?.kind === 'Primitive' ? this.engine.values.fromPosition(type.name, row[`o${i}`]) : null;
    });
    const key: Record<string, PrimitiveValue> = {};
    for (const column of this.source.plan.key) key[column.property.name] = decoded.entity[column.property.name] as PrimitiveValue;
    return { orderByValues, key };
  }
}

/**
 * True when evaluating the filter can fail for some row (a division or modulo by zero, a double
 * that overflows): PostgreSQL evaluates WHERE lazily, so such a failure may surface only in a
 * later chunk of a streamed feed, after the response began.
 */
export function filterMayFail(filter: ExprNode | undefined): boolean {
  let risky = false;
  if (filter !== undefined) {
    walkExpression(filter, {
      Binary(node) {
        const floating = [node.left, node.right].some(
          (side) => side.type?.kind === 'Primitive' && (side.type.name === 'Edm.Double' || side.type.name === 'Edm.Single'),
        );
        if (node.operator === 'div' || node.operator === 'mod' || (floating && (node.operator === 'add' || node.operator === 'sub' || node.operator === 'mul')))
          risky = true;
      },
    });
  }
  return risky;
}

/** `select count(*) ...` of the entities a path, filter and search address (translated whole: callers count in memory otherwise). */
export function countStatement(compiled: CompiledMapping, engine: SqlEngine, request: RowCondition): Sql {
  const aliases = new Aliases();
  const source = pathSource(compiled, request.path, engine, aliases);
  const resolver = new JoinResolver(compiled, source.plan, source.alias, aliases, engine);
  const conditions = [...source.conditions];
  for (const [condition, context] of conditionSources(request, source.plan.entitySet.entityType, { dialect: engine.expressions, resolver }))
    for (const part of conjuncts(condition)) conditions.push(compileFilterSql(part, context));
  return sql`select count(*) as n from ${source.from} ${sql.join(resolver.joins, sql` `)} ${whereClause(conditions)}`;
}

/** The number of entities a path, filter and search address, as a statement of its own. */
export async function countRows(executor: SqlKysely, compiled: CompiledMapping, engine: SqlEngine, request: RowCondition): Promise<number> {
  const result = await countStatement(compiled, engine, request).execute(executor);
  const row = result.rows[0] as { readonly n?: unknown } | undefined;
  return Number(row?.n ?? 0);
}
