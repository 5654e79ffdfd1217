/**
 * Atom feeds and top-level entries (MS-ODATA §2.2.6.2.1, RFC 4287 §4.1.1): `xml:base` is the
 * service root, the self link is relative, `m:count` follows the self link ($inlinecount, OData
 * 2.0, §2.2.6.2.1.1) and `link rel="next"` closes a partial feed (§2.2.6.2.1.2).
 */
import type { EntryResult, FeedResult } from '../../result';
import type { Entity } from '../../provider/types';
import type { WriterContext } from '../context';
import { XML_DECLARATION } from '../names';
import { writeItem, writeSequence } from '../stream';
import type { ItemWriter } from '../stream';
import { escapeXmlAttribute, escapeXmlText } from '../xml/escape';
import { atomEntryWriter, atomRootAttributes, atomScope, EMPTY_FEED_AUTHOR } from './entry-writer';

/** An Atom feed document: one string for an array of entities with few expanded entries, chunks otherwise. */
export function writeAtomFeed(result: FeedResult, context: WriterContext): string | AsyncIterable<string> {
  const entry = atomEntryWriter(result.entitySet, result.entityType, result.selectExpand);
  const scope = atomScope(context);
  const title = escapeXmlText(result.title);
  let start = XML_DECLARATION + '<feed' + atomRootAttributes(scope) + '>';
  start += `<title type="text">${title}</title>`;
  start += '<id>' + scope.root + escapeXmlText(result.selfPath) + '</id>';
  start += '<updated>' + scope.updated + '</updated>';
  let rest = `<link rel="self" title="${escapeXmlAttribute(result.title)}" href="${escapeXmlAttribute(result.selfPath)}"/>`;
  if (result.count !== undefined) rest += `<m:count>${result.count}</m:count>`;
  const nextLink = result.nextLink;
  const writer: ItemWriter<Entity> = {
    write: (entity) => entry.write(entity, scope, ''),
    count: entry.count,
    stream: (entity, _index, out) => entry.stream(entity, scope, '', out),
    expands: result.selectExpand.expand.length > 0,
  };
  return writeSequence(
    start + rest,
    result.entities,
    writer,
    () => (nextLink === undefined ? '' : `<link rel="next" href="${escapeXmlAttribute(nextLink)}"/>`) + '</feed>',
    context.expansionBudget,
    // Without entries the feed needs an author of its own (RFC 4287 §4.1.1), as WCF wrote it.
    start + EMPTY_FEED_AUTHOR + rest,
  );
}

/** An Atom entry document; streamed when its expansions are large or streams. */
export function writeAtomEntry(result: EntryResult, context: WriterContext): string | AsyncIterable<string> {
  const entry = atomEntryWriter(result.entitySet, result.entityType, result.selectExpand);
  const scope = atomScope(context);
  const root = atomRootAttributes(scope);
  const writer: ItemWriter<Entity> = {
    write: (entity) => entry.write(entity, scope, root),
    count: entry.count,
    stream: (entity, _index, out) => entry.stream(entity, scope, root, out),
  };
  return writeItem(result.entity, writer, ENTRY_WRAP, context.expansionBudget);
}

const ENTRY_WRAP = { head: XML_DECLARATION, tail: '' } as const;
