/**
 * The XML link body of `$links` requests (MS-ODATA §2.2.6.5.8, §2.2.7.1.2, §2.2.7.3.5):
 * `<uri xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">http://host/odata/Categories(1)</uri>`,
 * resolved to the entry it addresses and checked against the navigation property's target set.
 */
import { ODataError } from '../../errors';
import { decodeBodyText } from '../body-text';
import type { LinkBody, LinkTarget, ReadContext } from '../entry-body';
import { resolveEntryLink } from '../link-uri';
import { DATA_NS } from '../names';
import { hasChildElements, parseXml } from './safe-sax';

/** Read an `application/xml` link body; 400 BODY_SYNTAX / BODY_INVALID, 415 for a non-UTF-8 charset. */
export function readXmlLink(body: Buffer | string, target: LinkTarget, context: ReadContext): LinkBody {
  const text = decodeBodyText(body, context.contentType);
  if (text.trim() === '') throw ODataError.fromCode('BODY_MISSING');
  const root = parseXml(text, { maxDepth: context.limits?.maxNesting });
  if (root.uri !== DATA_NS || root.local !== 'uri') {
    throw ODataError.fromCode('BODY_INVALID', {
      detail: `expected a 'uri' element in the namespace ${DATA_NS}, found '${root.local}'${root.uri === '' ? '' : ` in ${root.uri}`}.`,
    });
  }
  if (hasChildElements(root)) throw ODataError.fromCode('BODY_INVALID', { detail: 'the uri element must hold only the URI text.' });
  let uri = '';
  for (const child of root.children) if (typeof child === 'string') uri += child;
  return resolveEntryLink(uri, target.entitySet, target.navigationProperty, context);
}
