/**
 * Raw `$value` bodies (MS-ODATA §2.2.6.4.2, §2.2.7.3.4): `PUT Products(1)/Name/$value` with the value
 * in its raw form (text for most types, the bytes for Edm.Binary), typed by the property.
 */
import { parseRawValue } from '../edm/payload-values';
import { ODataError } from '../errors';
import { charsetOf } from './body-text';
import type { PropertyBody, PropertyTarget, ReadContext } from './entry-body';
import { assertFacets } from './entry-checks';

/** Read a raw value body for a primitive property (a dynamic one is read as Edm.String); 400 VALUE_INVALID, 415 for a non-UTF-8 text charset. */
export function readRawValue(body: Buffer | string, target: PropertyTarget, context: Pick<ReadContext, 'contentType'>): PropertyBody {
  const property = target.kind === 'Property' ? target.property : undefined;
  const name = property === undefined ? target.kind === 'Dynamic' ? target.name : '' : property.name;
  if (property !== undefined && property.type.kind === 'Complex') {
    throw ODataError.fromCode('BODY_INVALID', { detail: `the complex property '${name}' has no raw value.` });
  }
  const type = property !== undefined && property.type.kind === 'Primitive' ? property.type.name : 'Edm.String';
  if (type !== 'Edm.Binary' && context.contentType !== undefined) {
    const charset = charsetOf(context.contentType);
    if (charset !== undefined && charset !== 'utf-8') {
      throw ODataError.fromCode('UNSUPPORTED_MEDIA_TYPE', {
        contentType: context.contentType,
        detail: `the charset '${charset}' is not supported; send the value as UTF-8.`,
      });
    }
  }
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const value = parseRawValue(type, bytes, property ?? name);
  if (property !== undefined) assertFacets(property, value);
  return property === undefined ? { value, type: { kind: 'Primitive', name: type } } : { value };
}
