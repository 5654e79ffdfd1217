/**
 * Request-body bytes to text. OData bodies (Atom, XML, verbose JSON) are read as UTF-8 only: a
 * `charset` parameter other than UTF-8 is refused with 415, bytes that are not UTF-8 with 400.
 */
import { ODataError } from '../errors';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The `charset` parameter of a Content-Type value, lower-cased, or undefined.
 * RFC 9110 §8.3.1: `media-type = type "/" subtype parameters`,
 * `parameters = *( OWS ";" OWS [ parameter ] )`, `parameter = name "=" ( token / quoted-string )`;
 * parameter names are case-insensitive.
 */
export function charsetOf(contentType: string): string | undefined {
  let index = contentType.indexOf(';');
  while (index !== -1) {
    const next = nextSeparator(contentType, index + 1);
    const parameter = contentType.slice(index + 1, next === -1 ? undefined : next).trim();
    const equals = parameter.indexOf('=');
    if (equals > 0 && parameter.slice(0, equals).trim().toLowerCase() === 'charset') {
      let value = parameter.slice(equals + 1).trim();
      if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/\\(.)/g, '$1');
      return value.toLowerCase();
    }
    index = next;
  }
  return undefined;
}

/**
 * The media type of a Content-Type value (`type/subtype`), lower-case, without parameters; '' for
 * none. The part before the first `;` cannot hold a quoted string (RFC 9110 §8.3.1), so no quote
 * handling is needed for it.
 */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}

/** The next `;` that is not inside a quoted-string, or -1. */
function nextSeparator(text: string, from: number): number {
  let quoted = false;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '\\') i++;
      else if (c === '"') quoted = false;
    } else if (c === '"') quoted = true;
    else if (c === ';') return i;
  }
  return -1;
}

/**
 * Decode a request body as UTF-8 text (a leading BOM is dropped). A string body (the host app ran
 * a text body parser) is taken as already decoded. Charset UTF-8 or none is accepted; any other
 * charset gives 415 UNSUPPORTED_MEDIA_TYPE, invalid UTF-8 bytes give 400 BODY_SYNTAX.
 */
export function decodeBodyText(body: Buffer | string, contentType: string | undefined): string {
  if (contentType !== undefined) {
    const charset = charsetOf(contentType);
    if (charset !== undefined && charset !== 'utf-8') {
      throw ODataError.fromCode('UNSUPPORTED_MEDIA_TYPE', {
        contentType,
        detail: `the charset '${charset}' is not supported; send the body as UTF-8.`,
      });
    }
  }
  if (typeof body === 'string') return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  try {
    return UTF8.decode(body);
  } catch (error) {
    throw ODataError.fromCode('BODY_SYNTAX', { format: 'UTF-8 text', detail: 'the bytes are not valid UTF-8.' }, { cause: error });
  }
}
