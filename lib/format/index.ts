/**
 * The response writers: one per payload and format (MS-ODATA §2.2.6), from the typed handler
 * results to text. `writeResult` picks the writer; Atom and XML share writers where the payload
 * is the same (a feed is Atom whether negotiated as `atom` or `xml`; a property is always XML).
 * Counts are text; `$metadata` (edm/writeEdmx), raw values and `$batch` (lib/batch) arrive written.
 */
import type { ResponseFormat } from '../protocol/negotiate';
import type { Result } from '../result';
import { assertNever } from '../util';
import { writeAtomEntry, writeAtomFeed, writeAtomServiceDocument } from './atom';
import type { WriterContext } from './context';
import { writeJsonCollection, writeJsonEntry, writeJsonFeed, writeJsonLink, writeJsonLinks, writeJsonProperty, writeJsonServiceDocument } from './json';
import { writeXmlCollection, writeXmlLink, writeXmlLinks, writeXmlProperty } from './xml';

export type { WriterContext } from './context';
export { errorContentType, writeError } from './error-body';
export { responseHeaders } from './response-headers';
export * from './names';
export { CHUNK_SIZE } from './stream';
export * from './atom';
export * from './json';
export * from './xml';
export * from './readers';

/**
 * Write a handler result: verbose JSON when `format` is `json`, else its Atom or XML form (the
 * result kind decides which). Feeds from an async iterable come back as an async iterable of chunks;
 * everything else as one string. Count and NoContent are written here too (text, empty), so any
 * result the service holds can be passed; Metadata, RawValue and Batch cannot.
 */
export function writeResult(result: Result, format: ResponseFormat, context: WriterContext): string | AsyncIterable<string> {
  const json = format === 'json';
  switch (result.kind) {
    case 'ServiceDocument':
      return json ? writeJsonServiceDocument(context.model) : writeAtomServiceDocument(context);
    case 'Feed':
      return json ? writeJsonFeed(result, context) : writeAtomFeed(result, context);
    case 'Entry':
      return json ? writeJsonEntry(result, context) : writeAtomEntry(result, context);
    case 'Property':
      return json ? writeJsonProperty(result) : writeXmlProperty(result);
    case 'Collection':
      return json ? writeJsonCollection(result, context) : writeXmlCollection(result);
    case 'Links':
      return json ? writeJsonLinks(result, context) : writeXmlLinks(result);
    case 'Link':
      return json ? writeJsonLink(result) : writeXmlLink(result);
    case 'Count':
      return String(result.count);
    case 'NoContent':
      return '';
    case 'Metadata':
    case 'RawValue':
    case 'Batch':
      throw new TypeError(`A ${result.kind} result arrives written (edm/writeEdmx, the provider, lib/batch); the service sends its bytes.`);
    default:
      return assertNever(result, 'result kind');
  }
}
