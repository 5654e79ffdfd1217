/**
 * The values a store keeps for an entity, from values given in any JS form (a data file's rows, a
 * write): declared properties converted and checked, dynamic properties of open types, defaults
 * for what a new entity leaves out; for a replace (PUT) or merge (MERGE/PATCH), on top of the
 * stored entity. Throws 4xx ODataErrors; never touches a store. MemoryProvider's writes and the
 * data loader (`loadEntityData`, which `seed` uses too) build values here.
 */
import { declaredDefaultOf } from '../edm/facets';
import type { EdmEntityType, EdmProperty } from '../edm/model';
import type { PropertyValue } from '../edm/primitives';
import { ODataError } from '../errors';
import { didYouMean } from '../util';
import { samePropertyValue } from './keys';
import { isManagedToken } from './tokens';
import { coerceDynamic, coerceProperty } from './values';

/** Property name to value in model form: what the store keeps per entity. */
export type StoredValues = Readonly<Record<string, PropertyValue>>;

/**
 * `insert`: a new entity; `replace` (PUT): the given properties and dynamic properties, the
 * declared ones not given keep their values (the service gives every one a replace resets, see
 * `replacedValues`); `merge`: only the given ones.
 */
export type WriteMode = 'insert' | 'replace' | 'merge';

function typeName(property: EdmProperty): string {
  return property.type.kind === 'Primitive' ? property.type.name : property.type.type.qualifiedName;
}

function convert(property: EdmProperty, raw: unknown): PropertyValue {
  const value = coerceProperty(property, raw);
  if (!value.ok) throw ODataError.fromCode('VALUE_INVALID', { property: property.name, type: typeName(property), detail: value.detail });
  return value.value;
}

/**
 * The value of a property's `DefaultValue` facet (CSDL text form) in model form; undefined when it
 * has none or it cannot be read (the property then starts as null).
 */
function absent(type: EdmEntityType, property: EdmProperty): PropertyValue {
  const fallback = declaredDefaultOf(property);
  if (fallback !== undefined) return fallback;
  // Managed tokens are filled by the store right after; everything else must be nullable.
  if (property.nullable || isManagedToken(property)) return null;
  throw ODataError.fromCode('VALUE_INVALID', {
    property: property.name,
    type: typeName(property),
    detail: `a value is required (Nullable="false" on ${type.qualifiedName})`,
  });
}

/**
 * The values to store for a write. `base` is the current entity for replace and merge; a key
 * property given there must equal the current key (MS-ODATA §2.2.7.3: the URI names the entity).
 */
export function buildValues(
  type: EdmEntityType,
  given: Readonly<Record<string, unknown>>,
  mode: WriteMode,
  base: StoredValues | undefined,
): Record<string, PropertyValue> {
  const out: Record<string, PropertyValue> = mode === 'merge' && base !== undefined ? { ...base } : {};
  for (const name of Object.keys(given)) {
    if (type.propertiesByName.has(name)) continue;
    if (type.openType && !type.navigationPropertiesByName.has(name)) {
      const value = coerceDynamic(given[name]);
      if (!value.ok) throw ODataError.fromCode('VALUE_INVALID', { property: name, type: 'dynamic', detail: value.detail });
      out[name] = value.value;
      continue;
    }
    const what = type.navigationPropertiesByName.has(name) ? 'a navigation property (use a link)' : 'not a property';
    const suggestion = didYouMean(name, type.propertiesByName.keys());
    throw ODataError.fromCode('BODY_INVALID', { detail: `'${name}' is ${what} of ${type.qualifiedName}.${suggestion}` });
  }
  for (const property of type.properties) {
    const name = property.name;
    const has = Object.prototype.hasOwnProperty.call(given, name) && given[name] !== undefined;
    if (base !== undefined && property.isKey) {
      if (has && !samePropertyValue(property, convert(property, given[name]), base[name] ?? null)) throw ODataError.fromCode('KEY_MISMATCH');
      out[name] = base[name] ?? null;
    } else if (has) {
      out[name] = convert(property, given[name]);
    } else if (mode === 'insert') {
      out[name] = absent(type, property);
    } else if (mode === 'replace') {
      out[name] = base?.[name] ?? null;
    }
  }
  return out;
}
