/**
 * Request-body bytes to text. OData bodies (Atom, XML, verbose JSON) are read as UTF-8 only: a
 * `charset` parameter other than UTF-8 is refused with 415, bytes that are not UTF-8 with 400.
 */
import { ODataError } from '../errors';
import { charsetOf } from '../protocol/media-type';

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decode a request body as UTF-8 text (a leading BOM is dropped). A string body (the host app ran
 * a text body parser) is taken as already decoded. Charset UTF-8 or none is accepted; any other
 * charset gives 415 UNSUPPORTED_MEDIA_TYPE, invalid UTF-8 bytes give 400 BODY_SYNTAX.
 */
export function decodeBodyText(body: Buffer | string, contentType: string | undefined): string {
  const charset = charsetOf(contentType);
  if (charset !== undefined && charset !== 'utf-8') {
    throw ODataError.fromCode('UNSUPPORTED_MEDIA_TYPE', {
      contentType: contentType ?? '',
      detail: `the charset '${charset}' is not supported; send the body as UTF-8.`,
    });
  }
  if (typeof body === 'string') return body.charCodeAt(0) === 0xfeff ? body.slice(1) : body;
  try {
    return UTF8.decode(body);
  } catch (error) {
    throw ODataError.fromCode('BODY_SYNTAX', { format: 'UTF-8 text', detail: 'the bytes are not valid UTF-8.' }, { cause: error });
  }
}
