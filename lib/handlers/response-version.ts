/**
 * The DataServiceVersion a response needs: the lowest version whose features it uses (MS-ODATA
 * §2.2.5.3 "DataServiceVersion"). 2.0 features: `$inlinecount` counts, next links, `$select`
 * projections, `$count` responses, and Atom feed customization that moves a property out of the
 * content (`FC_KeepInContent="false"`), which 1.0 clients would not find.
 */
import type { EdmEntityType } from '../edm/model';
import { compareVersions, parseVersionHeader, usesSelect } from '../protocol';
import type { ResponseFormat } from '../protocol';
import type { Result } from '../result';
import type { SelectExpand } from '../uri/types';

export type ResponseVersion = '1.0' | '2.0';

const MOVES_OUT_OF_CONTENT = new WeakMap<EdmEntityType, boolean>();

function movesPropertiesOutOfContent(type: EdmEntityType): boolean {
  let known = MOVES_OUT_OF_CONTENT.get(type);
  if (known === undefined) {
    known = type.properties.some((p) => p.feedCustomization !== undefined && p.feedCustomization.keepInContent === false);
    MOVES_OUT_OF_CONTENT.set(type, known);
  }
  return known;
}

function expandedTypesMoveContent(type: EdmEntityType, selectExpand: SelectExpand): boolean {
  return movesPropertiesOutOfContent(type) || selectExpand.expand.some((item) => expandedTypesMoveContent(item.entitySet.entityType, item));
}

/** The version a result needs in the given format. */
export function responseVersion(result: Result, format: ResponseFormat): ResponseVersion {
  switch (result.kind) {
    case 'Feed':
      // Every page of a server-paged feed is 2.0, the last included (WCF Data Services raised the
      // version of any `$skiptoken` request), so a client reads all pages in one shape.
      if (result.count !== undefined || result.nextLink !== undefined || result.continuation === true || usesSelect(result.selectExpand)) return '2.0';
      return format === 'atom' && expandedTypesMoveContent(result.entityType, result.selectExpand) ? '2.0' : '1.0';
    case 'Entry':
      if (usesSelect(result.selectExpand)) return '2.0';
      return format === 'atom' && expandedTypesMoveContent(result.entityType, result.selectExpand) ? '2.0' : '1.0';
    case 'Links':
      return result.count !== undefined || result.nextLink !== undefined ? '2.0' : '1.0';
    case 'Count':
      return '2.0';
    case 'Metadata':
      return result.version;
    case 'ServiceDocument':
    case 'Batch':
    case 'Property':
    case 'Collection':
    case 'RawValue':
    case 'Link':
    case 'NoContent':
      return '1.0';
  }
}

/** Results whose verbose JSON differs between 1.0 (bare arrays) and 2.0 (`{"results":[...]}`). */
function hasJsonCollection(result: Result): boolean {
  return (
    result.kind === 'Feed' || result.kind === 'Links' || result.kind === 'Collection' || (result.kind === 'Entry' && result.selectExpand.expand.length > 0)
  );
}

/**
 * The version to write: what the result needs, raised to 2.0 for verbose JSON collections when the
 * client accepts 2.0 (no MaxDataServiceVersion, or one of 2.0 or more; MS-ODATA §1.7): SAP Cloud
 * SDK and SAP Gateway clients read collections only from `d.results`.
 */
export function chooseResponseVersion(result: Result, format: ResponseFormat, maxHeader: string | undefined): ResponseVersion {
  const needed = responseVersion(result, format);
  if (needed === '2.0' || format !== 'json' || !hasJsonCollection(result)) return needed;
  const max = maxHeader === undefined || maxHeader.trim() === '' ? undefined : parseVersionHeader(maxHeader);
  return max === undefined || compareVersions(max, { major: 2, minor: 0 }) >= 0 ? '2.0' : needed;
}
