/**
 * `$links` writes (MS-ODATA §2.2.7.1.2 InsertLink, §2.2.7.3.5 UpdateLink, §2.2.7.4.2 DeleteLink):
 * add (a single-valued end replaces its link), replace (single-valued only), remove. The source
 * must exist (404), a target that does not exist is 404, one in the wrong set 400; removing the
 * link of a required end fails with the schema's NOT NULL (400), or in a join table with the count
 * before COMMIT (409, required-links.ts).
 */
import { sql } from 'kysely';
import { entityNotFound } from '../../provider/not-found';
import type { LinkRequest } from '../../provider/types';
import { columnsMatch, keyTypes, keyValues, planAddLink, planRemoveLink } from './links';
import { fixedKey, type PlanBuilder, type WritePlan } from './plan';
import { missingOrRefused } from './returning';

/** The plan of a LinkRequest: the source locked (404 unless it exists), then the link added or removed. */
export function planLinkRequest(b: PlanBuilder, request: LinkRequest): WritePlan<void> {
  const { source, property, target, mode } = request;
  const link = b.compiled.link(source.entitySet, property);
  const plan = link.source;
  const match = columnsMatch(
    plan.key.map((column) => column.column),
    keyTypes(plan),
    keyValues(plan, source.key),
    b.engine,
  );
  // The source must exist, and is kept from being deleted until the transaction ends.
  b.add({
    action: 'lock',
    target: source.entitySet.name,
    takes: [],
    writes: false,
    needsTransaction: true,
    statement: () => sql`select 1 from ${plan.table} where ${match} ${b.engine.writes.keyShareLock}`,
    finish: async ({ rows }, { scope }) => {
      // A lock also needs the row-level security policies for UPDATE: a row visible without them is refused (403).
      if (rows.length === 0) throw await missingOrRefused(scope, plan, source.key, 'change');
    },
  });
  if (mode === 'remove') {
    planRemoveLink(b, link, source.key, target?.key, (removed) => {
      if (removed === 0 && target !== undefined) {
        throw entityNotFound(target.entitySet, target.key, { source, navigationProperty: property });
      }
    });
  } else if (target !== undefined) {
    planAddLink(b, link, fixedKey(source.key), fixedKey(target.key), async (outcome, { scope }) => {
      if (outcome === 'source-missing') throw await missingOrRefused(scope, plan, source.key, 'change');
      if (outcome === 'target-missing')
        throw link.holder === 'target' ? await missingOrRefused(scope, link.target, target.key, 'change') : entityNotFound(target.entitySet, target.key);
    });
  }
  return b.plan(() => undefined);
}
