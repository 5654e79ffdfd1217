/**
 * `$links` documents (MS-ODATA §2.2.6.5.5-6): `<links>` with one `<uri>` per related entry, all in
 * the data namespace; `m:count` is its first child with $inlinecount (§2.2.6.5.5.1), and a partial
 * list ends with `<next>`. A single link is one `<uri>` element.
 */
import type { LinkResult, LinksResult } from '../../result';
import { DATA_NS, METADATA_NS, XML_DECLARATION } from '../names';
import { escapeXmlText } from './escape';

/** The links of a many-valued navigation property. */
export function writeXmlLinks(result: LinksResult): string {
  let out = XML_DECLARATION + `<links xmlns="${DATA_NS}"`;
  out += result.count === undefined ? '>' : ` xmlns:m="${METADATA_NS}"><m:count>${result.count}</m:count>`;
  for (const uri of result.uris) out += '<uri>' + escapeXmlText(uri) + '</uri>';
  if (result.nextLink !== undefined) out += '<next>' + escapeXmlText(result.nextLink) + '</next>';
  return out + '</links>';
}

/** The link of a single-valued navigation property (or one member of a many-valued one). */
export function writeXmlLink(result: LinkResult): string {
  return XML_DECLARATION + `<uri xmlns="${DATA_NS}">` + escapeXmlText(result.uri) + '</uri>';
}
