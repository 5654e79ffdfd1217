/**
 * The XML link body of `$links` requests (MS-ODATA §2.2.6.5.8, §2.2.7.1.2, §2.2.7.3.5):
 * `<uri xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">http://host/odata/Categories(1)</uri>`,
 * resolved to the entry it addresses and checked against the navigation property's target set.
 */
import { xmlLimitsOf } from '../structure-limits';
import { ODataError } from '../../errors';
import { decodeBodyText } from '../body-text';
import type { LinkBody, LinkTarget, ReadContext } from '../entry-body';
import { resolveEntryLink } from '../link-uri';
import { DATA_NS, METADATA_NS } from '../names';
import { hasChildElements, parseXml, type XmlElement } from './safe-sax';

/**
 * The namespaces a link element may be in. MS-ODATA writes `uri` and `links` in the data
 * namespace; the .NET clients (DataServiceContext.AddLink / SetLink, 4.0 and 5.x) send
 * `<uri xmlns="…/dataservices/metadata">`, and WCF Data Services read both, as this reader does.
 */
const LINK_NAMESPACES: ReadonlySet<string> = new Set([DATA_NS, METADATA_NS]);

function isLinkElement(element: XmlElement, local: 'uri' | 'links'): boolean {
  return element.local === local && LINK_NAMESPACES.has(element.uri);
}

function describe(element: XmlElement): string {
  return `'${element.local}'${element.uri === '' ? '' : ` in ${element.uri}`}`;
}

/**
 * The one `uri` element of a body: the root, or the single `uri` child of a `links` root (the shape
 * of a `$links` response, as a client that echoes one sends it back).
 */
function uriElement(root: XmlElement): XmlElement {
  if (isLinkElement(root, 'uri')) return root;
  if (!isLinkElement(root, 'links')) {
    throw ODataError.fromCode('BODY_INVALID', {
      detail: `expected a 'uri' element in the namespace ${DATA_NS} (or ${METADATA_NS}), found ${describe(root)}.`,
    });
  }
  const children = root.children.filter((child): child is XmlElement => typeof child !== 'string');
  if (root.children.some((child) => typeof child === 'string' && child.trim() !== '')) {
    throw ODataError.fromCode('BODY_INVALID', { detail: "the links element must hold only 'uri' elements." });
  }
  const [only] = children;
  if (children.length !== 1 || !isLinkElement(only, 'uri')) {
    throw ODataError.fromCode('BODY_INVALID', {
      detail: `a links element in a request body must hold exactly one 'uri' element (one link per request), found ${children.length === 0 ? 'none' : children.map(describe).join(', ')}.`,
    });
  }
  return only;
}

/** Read an `application/xml` link body; 400 BODY_SYNTAX / BODY_INVALID, 415 for a non-UTF-8 charset. */
export function readXmlLink(body: Buffer | string, target: LinkTarget, context: ReadContext): LinkBody {
  const text = decodeBodyText(body, context.contentType);
  if (text.trim() === '') throw ODataError.fromCode('BODY_MISSING');
  const element = uriElement(parseXml(text, xmlLimitsOf(context)));
  if (hasChildElements(element)) throw ODataError.fromCode('BODY_INVALID', { detail: 'the uri element must hold only the URI text.' });
  let uri = '';
  for (const child of element.children) if (typeof child === 'string') uri += child;
  return resolveEntryLink(uri, target.entitySet, target.navigationProperty, context);
}
