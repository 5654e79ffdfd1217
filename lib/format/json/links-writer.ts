/**
 * Verbose JSON `$links` documents (MS-ODATA §2.2.6.3.10-11): `{"uri":"..."}` per related entry;
 * OData 1.0 `{"d":[...]}`, 2.0 `{"d":{"__count":"3","results":[...],"__next":"..."}}` (the count
 * MUST come before the links); a single link is `{"d":{"uri":"..."}}`.
 */
import type { LinkResult, LinksResult } from '../../result';
import type { WriterContext } from '../context';

/** The links of a many-valued navigation property. */
export function writeJsonLinks(result: LinksResult, context: WriterContext): string {
  let items = '';
  for (let i = 0; i < result.uris.length; i++) items += (i === 0 ? '{"uri":' : ',{"uri":') + JSON.stringify(result.uris[i]) + '}';
  if (context.version === '1.0') return `{"d":[${items}]}`;
  const count = result.count === undefined ? '' : `"__count":"${result.count}",`;
  const next = result.nextLink === undefined ? '' : `,"__next":${JSON.stringify(result.nextLink)}`;
  return `{"d":{${count}"results":[${items}]${next}}}`;
}

/** A single link (`$links/Category`): `{"d":{"uri":...}}`. */
export function writeJsonLink(result: LinkResult): string {
  return `{"d":{"uri":${JSON.stringify(result.uri)}}}`;
}
