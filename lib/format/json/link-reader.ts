/**
 * The verbose JSON link body of `$links` requests (MS-ODATA §2.2.6.3.11): `{"uri": "..."}`, with or
 * without the `{"d": ...}` wrapper, resolved and checked against the navigation property's target set.
 */
import type { LinkBody, LinkTarget, ReadContext } from '../entry-body';
import { resolveEntryLink } from '../link-uri';
import { isJsonObject, jsonShapeError, parseJsonBody, unwrapData } from './json-body';

/** Read an `application/json` link body; 400 BODY_SYNTAX / BODY_INVALID, 415 for a non-UTF-8 charset. */
export function readJsonLink(body: Buffer | string, target: LinkTarget, context: ReadContext): LinkBody {
  const json = unwrapData(parseJsonBody(body, context), (name) => name === 'uri');
  if (!isJsonObject(json) || typeof json.uri !== 'string') throw jsonShapeError('expected a JSON object {"uri": "<entry URI>"}.');
  const extra = Object.keys(json).filter((name) => name !== 'uri' && name !== '__metadata');
  if (extra.length > 0) throw jsonShapeError(`unexpected member '${extra[0]}' in the link body; expected only "uri".`);
  return resolveEntryLink(json.uri, target.entitySet, target.navigationProperty, context);
}
