/**
 * What the memory store does with values already in model form: copy them (readers never share
 * the stored objects). Conversion into model form is the provider kit's (`provider/values`,
 * `provider/entry-values`).
 */
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
