/**
 * The query string as name/value pairs, decoded once (MS-ODATA §2.2.3.1 queryOptions; the
 * `application/x-www-form-urlencoded` conventions of the HTML spec for `+`).
 */
import { ODataError } from '../errors';
import { textProblem } from '../util';

const PLUS = /\+/g;

function decodeComponent(text: string, part: string): string {
  const spaced = text.indexOf('+') === -1 ? text : text.replace(PLUS, ' ');
  if (spaced.indexOf('%') === -1) return spaced;
  let decoded: string;
  try {
    decoded = decodeURIComponent(spaced);
  } catch (cause) {
    throw ODataError.fromCode('URI_PERCENT_ENCODING', { text: part }, { target: part, cause });
  }
  // `%00` and the like decode to characters no format can carry back (util/unicode).
  if (textProblem(decoded) !== undefined) throw ODataError.fromCode('URI_PERCENT_ENCODING', { text: part }, { target: part });
  return decoded;
}

function decodeOrUndefined(text: string): string | undefined {
  try {
    return decodeComponent(text, text);
  } catch {
    return undefined;
  }
}

/**
 * Split a raw query string (with or without its leading `?`) into decoded pairs, in order.
 *
 *   queryOptions = queryOption *( "&" queryOption )
 *   queryOption  = name [ "=" value ]                ; the first "=" separates
 *
 * `+` is a space and `%XX` escapes are UTF-8 octets (bad escapes, and escapes of characters XML 1.0
 * excludes such as `%00`: 400 URI_PERCENT_ENCODING). A part
 * without `=` has the value `''`. Empty parts (`a=1&&b=2`) and parts with an empty name are
 * skipped. Names stay case-sensitive: `$Filter` is not `$filter`.
 */
export function parseQueryString(raw: string): [string, string][] {
  const text = raw.charCodeAt(0) === 0x3f /* ? */ ? raw.slice(1) : raw;
  const pairs: [string, string][] = [];
  if (text.length === 0) return pairs;
  for (const part of text.split('&')) {
    if (part.length === 0) continue;
    const equals = part.indexOf('=');
    const name = decodeComponent(equals === -1 ? part : part.slice(0, equals), part);
    if (name.length === 0) continue;
    const value = equals === -1 ? '' : decodeComponent(part.slice(equals + 1), part);
    pairs.push([name, value]);
  }
  return pairs;
}

/**
 * The decoded value of the first query option called `name` (`''` without `=`), read without
 * failing: undefined when it is absent or its own escapes are bad. For answers to requests whose
 * query string may be what failed (an error body follows `$format` when it can).
 */
export function findQueryOption(raw: string, name: string): string | undefined {
  const text = raw.charCodeAt(0) === 0x3f /* ? */ ? raw.slice(1) : raw;
  for (const part of text.split('&')) {
    const equals = part.indexOf('=');
    if (decodeOrUndefined(equals === -1 ? part : part.slice(0, equals)) === name) {
      return equals === -1 ? '' : decodeOrUndefined(part.slice(equals + 1));
    }
  }
  return undefined;
}
