/**
 * An If-Match precondition as a condition of the write statement itself (`UPDATE ... WHERE key AND
 * "Version" = $n`), so the check and the write are one atomic step: the entity tags the client
 * sent are decoded into the values of the `ConcurrencyMode="Fixed"` properties they were computed
 * from (MS-ODATA §2.2.5.4: the URI literals of those values, in declaration order, joined by
 * commas). A tag that does not decode to exactly itself matches no row.
 */
import { sql } from 'kysely';
import { convertLiteral, parseLiteral, scanLiteral } from '../../edm/literals';
import type { EdmEntityType } from '../../edm/model';
import type { PrimitiveValue } from '../../edm/primitives';
import { computeETag } from '../../protocol/etag';
import type { Precondition } from '../../provider/types';
import type { Sql, SqlDialect } from '../dialect';
import type { SetPlan } from '../mapping/compiled';
import { DEFAULT_TIMESTAMP_PRECISION } from '../read/joins';

/** The opaque text of a tag (`W/"3"` -> `3`), percent-escapes undone. */
function opaqueText(tag: string): string | undefined {
  const quoted = tag.startsWith('W/') ? tag.slice(2) : tag;
  if (quoted.length < 2 || !quoted.startsWith('"') || !quoted.endsWith('"')) return undefined;
  try {
    return decodeURIComponent(quoted.slice(1, -1));
  } catch {
    return undefined;
  }
}

/**
 * The concurrency-property values an entity tag was computed from, or undefined when `tag` is no
 * tag this library computes for `entityType` (it then matches nothing). Checked by recomputing the
 * tag from the values: only a tag that decodes to exactly itself is accepted.
 */
export function decodeConcurrencyValues(tag: string, entityType: EdmEntityType): Readonly<Record<string, PrimitiveValue | null>> | undefined {
  const text = opaqueText(tag);
  const properties = entityType.concurrencyProperties;
  if (text === undefined || properties.length === 0) return undefined;
  const values: Record<string, PrimitiveValue | null> = {};
  let at = 0;
  for (let i = 0; i < properties.length; i++) {
    const property = properties[i];
    if (property.type.kind !== 'Primitive') return undefined;
    const end = scanLiteral(text, at);
    if (end <= at || (i < properties.length - 1 ? text.charCodeAt(end) !== 44 /* , */ : end !== text.length)) return undefined;
    try {
      const value = convertLiteral(parseLiteral(text.slice(at, end)), property.type.name);
      if (value === undefined) return undefined;
      values[property.name] = value;
    } catch {
      return undefined;
    }
    at = end + 1;
  }
  const recomputed = computeETag(values, entityType);
  return recomputed !== undefined && opaqueText(recomputed) === text ? values : undefined;
}

/**
 * The WHERE condition of an If-Match precondition over the row at `alias`: true for `*` or no
 * precondition; else one of the tags' values must equal the row's tokens (a timestamp stored with
 * microseconds compared at milliseconds, as its tag was printed); false when no tag decodes.
 */
export function preconditionCondition(precondition: Precondition | undefined, plan: SetPlan, alias: string, entityType: EdmEntityType, dialect: SqlDialect): Sql | undefined {
  if (precondition === undefined || precondition.any) return undefined;
  const alternatives: Sql[] = [];
  for (const tag of precondition.etags) {
    const values = decodeConcurrencyValues(tag, entityType);
    if (values === undefined) continue;
    const parts = entityType.concurrencyProperties.map((property) => {
      const column = plan.byPath.get(property.name);
      const value = values[property.name];
      if (column?.type === undefined) return sql`false`;
      const ref = sql.id(alias, column.column);
      if (value === null) return sql`${ref} is null`;
      const instant = column.type === 'Edm.DateTime' || column.type === 'Edm.DateTimeOffset' || column.type === 'Edm.Time';
      const stored = instant && (property.precision ?? DEFAULT_TIMESTAMP_PRECISION) > 3 ? dialect.truncateToMilliseconds(ref) : ref;
      return sql`${stored} = ${dialect.parameter(column.type, value)}`;
    });
    alternatives.push(sql`(${sql.join(parts, sql` and `)})`);
  }
  return alternatives.length === 0 ? sql`false` : sql`(${sql.join(alternatives, sql` or `)})`;
}
