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
import { planMissingOrRefused } from './returning';

/**
 * The plan of a LinkRequest: the source locked (404 unless it exists), then the link added or
 * removed. A lock that found no row, or a link that changed no row of the source (or of a target
 * that holds the foreign key), is followed by the read that tells 404 from 403 (a step that
 * reads only then, and only under row-level security).
 */
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
  const locked = b.add({
    action: 'lock',
    target: source.entitySet.name,
    takes: [],
    writes: false,
    needsTransaction: true,
    statement: () => sql`select 1 from ${plan.table} where ${match} ${b.engine.writes.keyShareLock}`,
    finish: ({ rows }) => rows.length > 0,
  });
  // A lock also needs the row-level security policies for UPDATE: a row visible without them is refused (403).
  planMissingOrRefused(b, plan, source.key, locked, (found) => !found, 'the lock found no row');
  if (mode === 'remove') {
    planRemoveLink(b, link, source.key, target?.key, (removed) => {
      if (removed === 0 && target !== undefined) {
        throw entityNotFound(target.entitySet, target.key, { source, navigationProperty: property });
      }
    });
  } else if (target !== undefined) {
    const linked = planAddLink(b, link, fixedKey(source.key), fixedKey(target.key), (outcome) => {
      // A foreign key that names no row (the source's, or a join row's): the target is missing.
      if (outcome === 'target-missing' && link.holder !== 'target') throw entityNotFound(target.entitySet, target.key);
    });
    if (link.holder === 'source')
      planMissingOrRefused(b, plan, source.key, linked, (outcome) => outcome === 'source-missing', 'the link changed no row of the source');
    else if (link.holder === 'target')
      planMissingOrRefused(b, link.target, target.key, linked, (outcome) => outcome === 'target-missing', 'the link changed no row of the target');
  }
  return b.plan(() => undefined);
}
