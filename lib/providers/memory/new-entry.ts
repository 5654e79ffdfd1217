/**
 * The values of a new entry before the store checks them: generated keys (max + 1 for a single
 * integer key, a random UUID for a Guid key) and, for a media link entry created from its media
 * resource, defaults for every property with the `Slug` header as the key or title.
 */
import { randomUUID } from 'crypto';
import { defaultValueOf } from '../../edm/facets';
import type { EdmEntitySet, EdmEntityType, EdmProperty } from '../../edm/model';
import { PRIMITIVE_TYPES } from '../../edm/primitives';
import type { PropertyValue } from '../../edm/primitives';
import { ODataError } from '../../errors';
import type { Store } from './store';

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

function categoryOf(property: EdmProperty): string | undefined {
  return property.type.kind === 'Primitive' ? PRIMITIVE_TYPES.get(property.type.name)?.category : undefined;
}

/** The largest key so far plus one (1 in an empty set); a number for Int32 and smaller, a string for Int64. */
function nextGeneratedKey(store: Store, entitySet: EdmEntitySet, property: EdmProperty): PropertyValue {
  const name = property.name;
  if (categoryOf(property) === 'int64') {
    let max = 0n;
    for (const values of store.all(entitySet)) {
      const value = values[name];
      if (typeof value === 'string' && BigInt(value) > max) max = BigInt(value);
    }
    const next = max + 1n;
    if (next > 2n ** 63n - 1n) throw exhausted(entitySet, property);
    return next.toString();
  }
  let max = 0;
  for (const values of store.all(entitySet)) {
    const value = values[name];
    if (typeof value === 'number' && value > max) max = value;
  }
  const info = property.type.kind === 'Primitive' ? PRIMITIVE_TYPES.get(property.type.name) : undefined;
  if (info?.max !== undefined && max + 1 > info.max) throw exhausted(entitySet, property);
  return max + 1;
}

function exhausted(entitySet: EdmEntitySet, property: EdmProperty): ODataError {
  const type = property.type.kind === 'Primitive' ? property.type.name : 'its type';
  return ODataError.fromCode('CONSTRAINT_VIOLATION', {
    detail: `No key is left in '${entitySet.name}': '${property.name}' would exceed the range of ${type}.`,
  });
}

/**
 * `values` with every absent (undefined or null) key property generated: a single integer key
 * (Byte, SByte, Int16, Int32, Int64) gets the largest key in the set plus one, a Guid key a random
 * UUID. Any other absent key property is a 400 naming it: the client has to give it.
 */
export function withGeneratedKey(
  store: Store,
  entitySet: EdmEntitySet,
  values: Readonly<Record<string, unknown>>,
  hint = '',
): Readonly<Record<string, unknown>> {
  const type = entitySet.entityType;
  if (!type.key.some((property) => isAbsent(values[property.name]))) return values;
  const out: Record<string, unknown> = { ...values };
  for (const property of type.key) {
    if (!isAbsent(values[property.name])) continue;
    const category = categoryOf(property);
    if (category === 'guid') {
      out[property.name] = randomUUID();
    } else if (type.key.length === 1 && (category === 'integer' || category === 'int64')) {
      out[property.name] = nextGeneratedKey(store, entitySet, property);
    } else {
      throw ODataError.fromCode('BODY_INVALID', {
        detail: `the key property '${property.name}' of ${type.qualifiedName} is missing; only a single integer key or a Guid key is generated${hint}.`,
      });
    }
  }
  return out;
}

/** RFC 5023 §9.7: the Slug header is percent-encoded UTF-8; text that does not decode is taken as it is. */
function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

function isString(property: EdmProperty | undefined): property is EdmProperty {
  return property?.type.kind === 'Primitive' && property.type.name === 'Edm.String';
}

/** The property a Slug names when the key is not a string: the one mapped to the Atom title, else `Title` or `Name`. */
function titleProperty(type: EdmEntityType): EdmProperty | undefined {
  const mapped = type.properties.find((property) => property.feedCustomization?.targetPath === 'SyndicationTitle' && isString(property));
  if (mapped !== undefined) return mapped;
  for (const name of ['Title', 'Name']) {
    const property = type.propertiesByName.get(name);
    if (isString(property) && !property.isKey) return property;
  }
  return undefined;
}

/**
 * The values of a media link entry created by POSTing its media resource (MS-ODATA §2.2.7.1.3):
 * every non-key property gets its default; the Slug becomes the key when the type has a single
 * string key, else the value of its title property (see `titleProperty`); values the request
 * carries win over both.
 */
export function mediaEntryValues(type: EdmEntityType, given: Readonly<Record<string, unknown>>, slug: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const property of type.properties) if (!property.isKey) out[property.name] = defaultValueOf(property);
  if (slug !== undefined && slug !== '') {
    const text = decodeSlug(slug);
    const key = type.key.length === 1 ? type.key[0] : undefined;
    const target = isString(key) ? key : titleProperty(type);
    if (target !== undefined) out[target.name] = text;
  }
  for (const name of Object.keys(given)) if (given[name] !== undefined) out[name] = given[name];
  return out;
}
