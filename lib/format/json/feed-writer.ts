/**
 * Verbose JSON feeds and entries (MS-ODATA §2.2.6.3.2-3). OData 1.0: `{"d":[...]}`; OData 2.0:
 * `{"d":{"__count":"9","results":[...],"__next":"..."}}` (§2.2.6.3.2.1: the count, a string, comes
 * before the results, as in the spec's examples and Olingo; the next link after them).
 */
import type { Entity } from '../../provider/types';
import type { EntryResult, FeedResult } from '../../result';
import type { WriterContext } from '../context';
import { writeSequence } from '../stream';
import { jsonEntryWriter } from './entry-writer';

/** A JSON feed: one string for an array of entities, chunks for an async iterable. */
export function writeJsonFeed(result: FeedResult, context: WriterContext): string | AsyncIterable<string> {
  const entry = jsonEntryWriter(result.entitySet, result.entityType, result.selectExpand);
  const write = (entity: Entity, index: number): string => (index === 0 ? '' : ',') + entry(entity, context);
  if (context.version === '1.0') return writeSequence('{"d":[', result.entities, write, () => ']}');
  const head = '{"d":{' + (result.count === undefined ? '' : `"__count":"${result.count}",`) + '"results":[';
  const nextLink = result.nextLink;
  return writeSequence(head, result.entities, write, () => ']' + (nextLink === undefined ? '' : `,"__next":${JSON.stringify(nextLink)}`) + '}}');
}

/** A JSON entry: `{"d":{"__metadata":{...},...}}`. */
export function writeJsonEntry(result: EntryResult, context: WriterContext): string {
  return '{"d":' + jsonEntryWriter(result.entitySet, result.entityType, result.selectExpand)(result.entity, context) + '}';
}
