/**
 * `$links` writes (MS-ODATA §2.2.7.1.2 InsertLink, §2.2.7.3.5 UpdateLink, §2.2.7.4.2 DeleteLink):
 * add (a single-valued end replaces its link), replace (single-valued only), remove. The source
 * must exist (404), a target that does not exist is 404, one in the wrong set 400; removing the
 * link of a required end fails with the schema's NOT NULL (400), or in a join table with the count
 * before COMMIT (409, required-links.ts).
 */
import { sql } from 'kysely';
import { describeKey } from '../../provider/keys';
import { ODataError } from '../../errors';
import type { LinkRequest } from '../../provider/types';
import type { SetPlan } from '../mapping/compiled';
import { addLink, columnsMatch, keyTypes, keyValues, removeLink, type WriteScope } from './links';
import { entityNotFound, missingOrRefused } from './returning';

/** Run a LinkRequest. */
export async function writeLinkRequest(scope: WriteScope, request: LinkRequest): Promise<void> {
  const { source, property, target, mode } = request;
  const link = scope.compiled.link(source.entitySet, property);
  const plan = link.source;
  await requireEntity(scope, plan, source.key);
  if (mode === 'remove') {
    const removed = await removeLink(scope, link, source.key, target?.key);
    if (removed === 0 && target !== undefined) {
      throw ODataError.fromCode('ENTITY_NOT_FOUND', {
        key: describeKey(target.entitySet.entityType, target.key),
        entitySet: `${source.entitySet.name}${describeKey(source.entitySet.entityType, source.key)}/${property.name}`,
      });
    }
    return;
  }
  if (target === undefined) return;
  const outcome = await addLink(scope, link, source.key, target.key);
  if (outcome === 'source-missing') throw await missingOrRefused(scope, plan, source.key, 'change');
  if (outcome === 'target-missing')
    throw link.holder === 'target' ? await missingOrRefused(scope, link.target, target.key, 'change') : entityNotFound(target.entitySet, target.key);
}

/** 404 unless the entity exists (and keep it from being deleted until the transaction ends). */
async function requireEntity(scope: WriteScope, plan: SetPlan, key: LinkRequest['source']['key']): Promise<void> {
  const match = columnsMatch(
    plan.key.map((column) => column.column),
    keyTypes(plan),
    keyValues(plan, key),
    scope.dialect,
  );
  const result = await sql`select 1 from ${plan.table} where ${match} ${scope.dialect.writes.keyShareLock}`.execute(scope.executor);
  // A lock also needs the row-level security policies for UPDATE: a row visible without them is refused (403).
  if (result.rows.length === 0) throw await missingOrRefused(scope, plan, key, 'change');
}
