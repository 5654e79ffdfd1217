/**
 * The outer Content-Type of `$batch` and of a changeset part: `multipart/mixed; boundary=...`, read
 * with the protocol layer's media-type grammar.
 */
import { type ErrorCode, ODataError } from '../errors';
import { isValidBoundary, parseMediaType } from '../protocol/media-type';

/**
 * The boundary of a `multipart/mixed` Content-Type (MS-ODATA §2.2.7.6: a batch MUST be sent as
 * multipart/mixed with a boundary). Anything else throws `code` (BATCH_CONTENT_TYPE for the outer
 * request, BATCH_SYNTAX for a changeset part).
 */
export function parseMultipartBoundary(contentType: string | undefined, code: ErrorCode): string {
  if (contentType === undefined || contentType.trim() === '') {
    throw ODataError.fromCode(code, { detail: 'the Content-Type header is missing' }, { target: 'Content-Type' });
  }
  const mediaType = parseMediaType(contentType, code);
  if (mediaType.essence !== 'multipart/mixed') {
    throw ODataError.fromCode(code, { detail: `got '${mediaType.essence}', expected 'multipart/mixed'` }, { target: 'Content-Type' });
  }
  const boundary = mediaType.parameters.get('boundary');
  if (boundary === undefined) {
    throw ODataError.fromCode(code, { detail: `the boundary parameter is missing in '${contentType}'` }, { target: 'Content-Type' });
  }
  if (!isValidBoundary(boundary)) {
    throw ODataError.fromCode(
      code,
      { detail: `the boundary '${boundary}' is not valid (RFC 2046 §5.1.1: 1 to 70 letters, digits or '()+_,-./:=? characters, no trailing space)` },
      { target: 'Content-Type' },
    );
  }
  return boundary;
}
