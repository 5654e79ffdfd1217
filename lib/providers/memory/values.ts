/**
 * What the memory store does with values already in model form: copy them (readers never share
 * the stored objects), compare them, and read a property's declared default. Conversion into
 * model form is the provider kit's (`provider/values`).
 */
import type { EdmProperty } from '../../edm/model';
import { parsePrimitiveText } from '../../edm/primitive-text';
import type { PropertyValue } from '../../edm/primitives';

/** A deep copy of a stored value: Dates, byte arrays and complex values are new objects. */
export function cloneValue(value: PropertyValue): PropertyValue {
  if (value === null || typeof value !== 'object') return value;
  if (value instanceof Date) return new Date(value.getTime());
  // Same class as the original (a Buffer stays a Buffer), so copies compare equal to what was stored.
  if (value instanceof Uint8Array) return Buffer.isBuffer(value) ? Buffer.from(value) : new Uint8Array(value);
  const out: Record<string, PropertyValue> = {};
  for (const name of Object.keys(value)) out[name] = cloneValue(value[name]);
  return out;
}

/** Equality of two model values of one primitive type (keys and If-Match use it). */
export function sameValue(a: PropertyValue, b: PropertyValue): boolean {
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof Uint8Array && b instanceof Uint8Array) return Buffer.compare(a, b) === 0;
  return a === b || (Number.isNaN(a) && Number.isNaN(b));
}

/**
 * The value of a property's `DefaultValue` facet (CSDL text form) in model form; undefined when it
 * has none or it cannot be read (the property then starts as null).
 */
export function declaredDefaultOf(property: EdmProperty): PropertyValue | undefined {
  if (property.defaultValue === undefined || property.type.kind !== 'Primitive') return undefined;
  return parsePrimitiveText(property.type.name, property.defaultValue);
}
