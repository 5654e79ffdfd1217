/**
 * Canonical key strings (the store's Map keys) and key predicates for messages. One canonical string
 * per entity, whatever spelling the key arrived in (`2.50M` and `2.5M`, upper- and lower-case GUIDs).
 */
import type { EdmEntityType, EdmProperty } from '../../edm/model';
import { PRIMITIVE_TYPES, isPrimitiveValue } from '../../edm/primitives';
import type { PrimitiveValue, PropertyValue } from '../../edm/primitives';
import { ODataError } from '../../errors';
import { entityKeyOf } from '../../uri/key-predicate';
import type { EntityKey } from '../../uri/types';
import { coerceProperty, describe } from './values';

/** The canonical text of one key value already in model form. */
function canonicalKeyText(value: PrimitiveValue): string {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64');
  return String(value);
}

/** The key of a stored record, as requests carry it (stored records always hold their key values). */
export function storedKeyOf(type: EdmEntityType, values: Readonly<Record<string, PropertyValue>>): EntityKey {
  const key = entityKeyOf(type, values);
  if (key === undefined) throw new TypeError(`A stored ${type.qualifiedName} lacks a key value.`);
  return key;
}

/** The canonical key string of a stored entity's values (model form). */
export function keyOfValues(type: EdmEntityType, values: Readonly<Record<string, PropertyValue>>): string {
  const key = type.key;
  if (key.length === 1) return canonicalKeyText(asKeyValue(values[key[0].name]));
  // A JSON array cannot be confused with another composite key: each part is quoted and escaped.
  return JSON.stringify(key.map((property) => canonicalKeyText(asKeyValue(values[property.name]))));
}

function asKeyValue(value: PropertyValue | undefined): PrimitiveValue {
  // '' is unreachable for validated records: key properties are non-nullable primitives.
  return isPrimitiveValue(value) ? value : '';
}

/**
 * Normalise a key given by a caller (a request's EntityKey, or a link target in a data file) to
 * model form; returns the problem as text when it does not fit the type's key.
 */
export function normalizeKey(
  type: EdmEntityType,
  given: Readonly<Record<string, unknown>>,
): { readonly ok: true; readonly values: Record<string, PrimitiveValue> } | { readonly ok: false; readonly detail: string } {
  const values: Record<string, PrimitiveValue> = {};
  for (const property of type.key) {
    const coerced = coerceProperty(property, given[property.name]);
    if (!coerced.ok) return { ok: false, detail: `key property '${property.name}': ${coerced.detail}` };
    values[property.name] = asKeyValue(coerced.value);
  }
  for (const name of Object.keys(given)) {
    if (!type.key.some((property) => property.name === name)) {
      return { ok: false, detail: `'${name}' is not a key property of ${type.qualifiedName}` };
    }
  }
  return { ok: true, values };
}

/** The canonical key string of a caller's key; a key that does not fit the type is a 400. */
export function keyString(type: EdmEntityType, given: Readonly<Record<string, unknown>>): string {
  const normalized = normalizeKey(type, given);
  if (!normalized.ok) {
    throw ODataError.fromCode('URI_KEY_SYNTAX', { key: describeKeyValues(type, given), type: type.qualifiedName, detail: normalized.detail });
  }
  return keyOfValues(type, normalized.values);
}

/** A key value as an OData URI literal (MS-ODATA §2.2.2, the `keyPredicate` forms), for messages. */
function literal(property: EdmProperty | undefined, value: unknown): string {
  if (typeof value === 'string') {
    const name = property?.type.kind === 'Primitive' ? property.type.name : 'Edm.String';
    const quoted = `'${value.replace(/'/g, "''")}'`;
    switch (PRIMITIVE_TYPES.get(name)?.category) {
      case 'int64':
        return `${value}L`;
      case 'decimal':
        return `${value}M`;
      case 'guid':
        return `guid${quoted}`;
      case 'time':
        return `time${quoted}`;
      default:
        return quoted;
    }
  }
  if (value instanceof Date) {
    const iso = Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString().replace(/\.000Z$|Z$/, '');
    return property?.type.kind === 'Primitive' && property.type.name === 'Edm.DateTimeOffset' ? `datetimeoffset'${iso}Z'` : `datetime'${iso}'`;
  }
  if (value instanceof Uint8Array) return `binary'${Buffer.from(value).toString('hex')}'`;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return describe(value);
}

/** `(1)` or `(OrderID=1,ProductID=2)`: a key as it appears in a URI, for messages. */
export function describeKeyValues(type: EdmEntityType, values: Readonly<Record<string, unknown>>): string {
  if (type.key.length === 1) return `(${literal(type.key[0], values[type.key[0].name])})`;
  return `(${type.key.map((property) => `${property.name}=${literal(property, values[property.name])}`).join(',')})`;
}
