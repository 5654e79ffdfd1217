/**
 * Verbose JSON feeds and entries (MS-ODATA §2.2.6.3.2-3). OData 1.0: `{"d":[...]}`; OData 2.0:
 * `{"d":{"__count":"9","results":[...],"__next":"..."}}` (§2.2.6.3.2.1: the count, a string, comes
 * before the results, as in the spec's examples and Olingo; the next link after them).
 */
import type { Entity } from '../../provider/types';
import type { EntryResult, FeedResult } from '../../result';
import type { WriterContext } from '../context';
import { writeItem, writeSequence } from '../stream';
import type { ItemWriter } from '../stream';
import { jsonEntryWriter, jsonScope } from './entry-writer';

/** A JSON feed: one string for an array of entities with few expanded entries, chunks otherwise. */
export function writeJsonFeed(result: FeedResult, context: WriterContext): string | AsyncIterable<string> {
  const entry = jsonEntryWriter(result.entitySet, result.entityType, result.selectExpand);
  const scope = jsonScope(context);
  const writer: ItemWriter<Entity> = {
    write: (entity, index) => (index === 0 ? '' : ',') + entry.write(entity, scope),
    count: entry.count,
    stream: async function* (entity, index, out) {
      if (index > 0) out.text += ',';
      yield* entry.stream(entity, scope, out);
    },
    expands: result.selectExpand.expand.length > 0,
  };
  const budget = context.expansionBudget;
  if (context.version === '1.0') return writeSequence('{"d":[', result.entities, writer, () => ']}', budget);
  const head = '{"d":{' + (result.count === undefined ? '' : `"__count":"${result.count}",`) + '"results":[';
  const nextLink = result.nextLink;
  return writeSequence(head, result.entities, writer, () => ']' + (nextLink === undefined ? '' : `,"__next":${JSON.stringify(nextLink)}`) + '}}', budget);
}

/** A JSON entry: `{"d":{"__metadata":{...},...}}`; streamed when its expansions are large or streams. */
export function writeJsonEntry(result: EntryResult, context: WriterContext): string | AsyncIterable<string> {
  const entry = jsonEntryWriter(result.entitySet, result.entityType, result.selectExpand);
  const scope = jsonScope(context);
  return writeItem(
    result.entity,
    { write: (entity) => entry.write(entity, scope), count: entry.count, stream: (entity, _index, out) => entry.stream(entity, scope, out) },
    ENTRY_WRAP,
    context.expansionBudget,
  );
}

const ENTRY_WRAP = { head: '{"d":', tail: '}' } as const;
