/**
 * The exact fallback for what the SQL translator refuses (a dynamic property, `mod` of doubles...):
 * the database still applies every translated `$filter` conjunct, and the shared evaluator applies
 * the rest, the order, the `$skiptoken` position, `$skip`, `$top` and the count over the rows it
 * returns, with the to-one entities those expressions navigate to read in one statement per
 * navigation property. Never a wrong answer; the price is reading every row the translated part keeps.
 */
import type { EdmEntityType } from '../../edm/model';
import { applyQuery, type NavigationAccess } from '../../evaluate/evaluate';
import { navigationExpansion } from '../../provider/pushdown';
import type { Entity, QueryRequest } from '../../provider/types';
import { expandRows, type ExpandContext } from './expand';
import type { DecodedRow } from './projection';
import type { ReadStatement } from './statement';

/**
 * Answer a read the database could not do alone: every row the translated conditions keep (read
 * with every column), then the evaluator. Returns the page's rows and the count when asked.
 */
export async function evaluateRead(
  statement: ReadStatement,
  request: Pick<QueryRequest, 'orderBy' | 'skip' | 'top' | 'skipToken' | 'count'>,
  context: ExpandContext,
  typeOf: (entity: Entity) => EdmEntityType | undefined,
): Promise<{ rows: DecodedRow[]; count: number | undefined }> {
  const { rows } = await statement.read(context.executor, {});
  rows.forEach(context.seen);
  const related = new WeakMap<Entity, Map<string, Entity | readonly Entity[] | null>>();
  const expressions = [...(statement.residual === undefined ? [] : [statement.residual]), ...request.orderBy.map((item) => item.expression)];
  const tree = navigationExpansion(expressions, statement.plan.entitySet, statement.compiled.model);
  await expandRows(context, statement.plan, rows, tree, (parent, property, value) => {
    const map = related.get(parent) ?? new Map<string, Entity | readonly Entity[] | null>();
    map.set(property.name, value);
    related.set(parent, map);
  });
  // Deeper levels attach to the related entities themselves; the first level is kept aside, so
  // navigation read for evaluation never shows up as an expansion in the response.
  const navigate: NavigationAccess = (entity, property) => {
    const value = related.get(entity)?.get(property.name) ?? entity[property.name];
    return value === undefined || Array.isArray(value) ? null : (value as Entity | null);
  };
  const byEntity = new Map(rows.map((row) => [row.entity, row]));
  const result = applyQuery(
    rows.map((row) => row.entity),
    { filter: statement.residual, orderBy: request.orderBy, skip: request.skip, top: request.top, skipToken: request.skipToken, count: request.count },
    { navigate, typeOf },
  );
  return { rows: result.entities.map((entity) => byEntity.get(entity) as DecodedRow), count: result.count };
}
