/**
 * Raw `$value` bodies (MS-ODATA §2.2.6.4.2, §2.2.7.3.4): `PUT Products(1)/Name/$value` with the value
 * in its raw form (text for most types, the bytes for Edm.Binary), typed by the property.
 */
import { parseRawValue } from '../edm/payload-values';
import { ODataError } from '../errors';
import type { EdmPrimitiveTypeName } from '../edm/primitives';
import { readContentType } from '../protocol/media-type';
import type { PropertyBody, PropertyTarget, ReadContext } from './entry-body';
import { assertFacets } from './entry-checks';

/**
 * The media types a raw value of `type` may be sent as (MS-ODATA §2.2.6.4.2: the raw form is
 * `text/plain`, or the property's `m:MimeType`; bytes of an Edm.Binary are
 * `application/octet-stream`, what GET `$value` answers without a MIME type).
 */
function acceptedMediaTypes(type: EdmPrimitiveTypeName, declared: string | undefined): string[] {
  const accepted = type === 'Edm.Binary' ? ['application/octet-stream'] : ['text/plain'];
  const declaredType = readContentType(declared)?.essence;
  if (declaredType !== undefined) accepted.unshift(declaredType);
  return accepted;
}

/**
 * Read a raw value body for a primitive property (a dynamic one is read as Edm.String): 415 when
 * the Content-Type is missing or another media type than `text/plain` / the declared MIME type
 * (a JSON body would otherwise be stored with its quotes), or a text charset other than UTF-8;
 * 400 VALUE_INVALID for a value that does not parse or violates a facet.
 */
export function readRawValue(body: Buffer | string, target: PropertyTarget, context: Pick<ReadContext, 'contentType'>): PropertyBody {
  const property = target.kind === 'Property' ? target.property : undefined;
  const name = property === undefined ? (target.kind === 'Dynamic' ? target.name : '') : property.name;
  if (property !== undefined && property.type.kind === 'Complex') {
    throw ODataError.fromCode('BODY_INVALID', { detail: `the complex property '${name}' has no raw value.` });
  }
  const type = property !== undefined && property.type.kind === 'Primitive' ? property.type.name : 'Edm.String';
  const accepted = acceptedMediaTypes(type, property?.mimeType);
  const contentType = readContentType(context.contentType);
  if (contentType === undefined || !accepted.includes(contentType.essence)) {
    throw ODataError.fromCode('UNSUPPORTED_MEDIA_TYPE', {
      contentType: context.contentType ?? '(none)',
      detail: `the raw value of '${name}' (${type}) is sent as ${accepted.join(' or ')}.`,
    });
  }
  if (type !== 'Edm.Binary') {
    const charset = contentType.parameters.get('charset')?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8') {
      throw ODataError.fromCode('UNSUPPORTED_MEDIA_TYPE', {
        contentType: context.contentType ?? '',
        detail: `the charset '${charset}' is not supported; send the value as UTF-8.`,
      });
    }
  }
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const value = parseRawValue(type, bytes, property ?? name);
  if (property !== undefined) assertFacets(property, value);
  return property === undefined ? { value, type: { kind: 'Primitive', name: type } } : { value };
}
