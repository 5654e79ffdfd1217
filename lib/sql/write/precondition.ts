/**
 * An If-Match precondition as a condition of the write statement itself (`UPDATE ... WHERE key AND
 * "Version" = $n`), so the check and the write are one atomic step: the service has decoded the
 * entity tags the client sent into the values of the `ConcurrencyMode="Fixed"` properties
 * (`Precondition.concurrencyValues`, see the kit's `decodeETag`); a tag that decodes to nothing
 * matches no row. A set whose ETag is the row version (`etag: 'xmin'`) compares the tags with it.
 */
import { sql } from 'kysely';
import type { EdmEntityType } from '../../edm/model';
import type { Precondition } from '../../provider/types';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import type { SetPlan } from '../mapping/compiled';

/**
 * The WHERE condition of an If-Match precondition over the row at `alias`: true for `*` or no
 * precondition; else one of the tags' values must equal the row's tokens (a timestamp stored with
 * microseconds compared at milliseconds, as its tag was printed); false when no tag decodes.
 */
export function preconditionCondition(
  precondition: Precondition | undefined,
  plan: SetPlan,
  alias: string,
  entityType: EdmEntityType,
  engine: SqlEngine,
): Sql | undefined {
  if (precondition === undefined || precondition.any) return undefined;
  if (plan.etag === 'xmin') {
    // The tags are the row versions the service wrote (W/"<xmin>"); one of another shape matches nothing.
    const versions = precondition.etags.flatMap((tag) => /^(?:W\/)?"(\d{1,10})"$/.exec(tag)?.[1] ?? []);
    if (versions.length === 0) return sql`false`;
    return sql`${engine.tokens.rowVersion(alias)} in (${sql.join(versions.map((version) => sql.val(version)))})`;
  }
  const alternatives: Sql[] = [];
  for (const values of precondition.concurrencyValues) {
    const parts = entityType.concurrencyProperties.map((property) => {
      const column = plan.byPath.get(property.name);
      const value = values[property.name];
      if (column?.type === undefined) return sql`false`;
      const ref = sql.id(alias, column.column);
      if (value === null) return sql`${ref} is null`;
      const instant = column.type === 'Edm.DateTime' || column.type === 'Edm.DateTimeOffset' || column.type === 'Edm.Time';
      const stored = instant && column.digits > 3 ? engine.expressions.truncateToMilliseconds(ref) : ref;
      return sql`${stored} = ${engine.values.parameter(column.type, value)}`;
    });
    alternatives.push(sql`(${sql.join(parts, sql` and `)})`);
  }
  return alternatives.length === 0 ? sql`false` : sql`(${sql.join(alternatives, sql` or `)})`;
}
