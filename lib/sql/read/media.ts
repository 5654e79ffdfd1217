/**
 * A media link entry's media resource from its side table (MS-ODATA §2.2.7.2.4 `$value` of a media
 * link entry): 404 naming the entry when it does not exist, 404 on `$value` when it has no media
 * resource, as MemoryProvider answers.
 */
import { sql } from 'kysely';
import { entityNotFound, mediaResourceNotFound } from '../../provider/not-found';
import type { EntityReference, MediaContent } from '../../provider/types';
import type { SetPlan } from '../mapping/compiled';
import { keyConditions } from './path';
import type { ReadSettings } from './query';

/** Read the media resource of `reference` in one statement. */
export async function readMedia(settings: ReadSettings, reference: EntityReference): Promise<MediaContent> {
  const plan = settings.compiled.sets.get(reference.entitySet) as SetPlan;
  const media = plan.media;
  if (media === undefined) throw mediaResourceNotFound();
  const match = sql.join(
    plan.key.map((column) => sql`${sql.id('m', column.column)} = ${sql.id('t', column.column)}`),
    sql` and `,
  );
  const where = sql.join(keyConditions(plan, 't', reference.key, settings.db.sqlEngine), sql` and `);
  const result = await sql<{
    contentType: unknown;
    body: unknown;
  }>`select ${sql.id('m', media.contentType)} as "contentType", ${sql.id('m', media.body)} as "body"
    from ${plan.table} as t left join ${media.table} as m on ${match} where ${where}`.execute(settings.transaction ?? settings.db.kysely);
  const row = result.rows[0];
  if (row === undefined) throw entityNotFound(plan.entitySet, reference.key);
  if (typeof row.contentType !== 'string' || !(row.body instanceof Uint8Array)) throw mediaResourceNotFound();
  return { contentType: row.contentType, body: Buffer.from(row.body.buffer, row.body.byteOffset, row.body.byteLength) };
}
