/**
 * Header values from a provider (an `etag()` override, a media type, an ODataError's headers) are
 * checked before a response is built from them: a line break would make Node refuse the header
 * after a write was already made, or, written anyway, split the response (RFC 9110 §5.5).
 */

// RFC 9110 §5.5: field-value = *( field-vchar / SP / HTAB ), field-vchar = VCHAR / obs-text.
const NOT_FIELD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

// RFC 7232 §2.3: etagc = %x21 / %x23-7E / obs-text (no quote, no space, no control).
const NOT_ETAGC = /[^\x21\x23-\x7e\x80-\xff]/;

/** A TypeError (a provider bug: logged, answered 500) for a header value that HTTP cannot carry. */
export function assertHeaderValue(name: string, value: string): void {
  if (typeof value !== 'string' || NOT_FIELD_VALUE.test(value)) {
    throw new TypeError(`The response header '${name}' would carry ${describe(value)}, which is not a valid HTTP field value.`);
  }
}

/** Check every value of a header map (see `assertHeaderValue`). */
export function assertHeaderValues(headers: Readonly<Record<string, string>>): void {
  for (const name in headers) assertHeaderValue(name, headers[name]);
}

/** A TypeError for an entity tag value (the part between the quotes) with characters RFC 7232 excludes. */
export function assertETagValue(value: string): void {
  if (typeof value !== 'string' || NOT_ETAGC.test(value)) {
    throw new TypeError(`The provider's etag() returned ${describe(value)}, which is not a valid entity tag value (RFC 7232 etagc).`);
  }
}

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value.length > 60 ? value.slice(0, 60) + '...' : value) : String(value);
}
