/**
 * Dynamic properties of open types in one JSON column, each value keeping its EDM type: strings,
 * booleans and Int32 numbers as plain JSON (what a hand-written query expects to find), every
 * other type as `{"$type": "Edm.Decimal", "value": "1.50"}` with the type's exact text form, so
 * Decimal, Int64, Double, DateTime, Guid, Binary... come back as the values that went in.
 */
import type { EdmEntityType } from '../edm/model';
import { inferPrimitiveType } from '../edm/payload-values';
import { formatPrimitiveText, parsePrimitiveText } from '../edm/primitive-text';
import { PRIMITIVE_TYPES, type EdmPrimitiveTypeName, type PrimitiveValue } from '../edm/primitives';

/** A value as stored: plain JSON, or typed text. */
type StoredDynamic = string | boolean | number | null | { readonly $type: string; readonly value: string };

/** One value in its stored JSON form, with the EDM type it has (inferred from the JS value when not given). */
export function encodeDynamicValue(
  value: PrimitiveValue | null,
  type: EdmPrimitiveTypeName = value === null ? 'Edm.String' : inferPrimitiveType(value),
): StoredDynamic {
  if (value === null) return null;
  if (type === 'Edm.String' && typeof value === 'string') return value;
  if (type === 'Edm.Boolean' && typeof value === 'boolean') return value;
  if (type === 'Edm.Int32' && typeof value === 'number') return value;
  return { $type: type, value: formatPrimitiveText(type, value) };
}

/** One stored value back in its JS form; TypeError for a document this module did not write. */
function decodeDynamicValue(stored: unknown, name: string): PrimitiveValue | null {
  if (stored === null || typeof stored === 'string' || typeof stored === 'boolean') return stored;
  if (typeof stored === 'number') return stored;
  if (typeof stored === 'object' && !Array.isArray(stored)) {
    const { $type: type, value } = stored as { $type?: unknown; value?: unknown };
    const known = typeof type === 'string' ? PRIMITIVE_TYPES.get(type as EdmPrimitiveTypeName) : undefined;
    const parsed = known !== undefined && typeof value === 'string' ? parsePrimitiveText(known.name, value) : undefined;
    if (parsed !== undefined) return parsed;
  }
  throw new TypeError(`The dynamic property '${name}' holds ${JSON.stringify(stored).slice(0, 60)}, which is no stored EDM value.`);
}

/** The dynamic properties of an entity (own keys its type does not declare) as the column's JSON text; null when there are none. */
export function encodeDynamicProperties(entity: Readonly<Record<string, unknown>>, type: EdmEntityType): string | null {
  const stored: Record<string, StoredDynamic> = {};
  let any = false;
  for (const name of Object.keys(entity)) {
    if (type.propertiesByName.has(name) || type.navigationPropertiesByName.has(name)) continue;
    const value = entity[name];
    if (value === undefined) continue;
    if (
      value !== null &&
      typeof value !== 'string' &&
      typeof value !== 'number' &&
      typeof value !== 'boolean' &&
      !(value instanceof Date) &&
      !(value instanceof Uint8Array)
    ) {
      throw new TypeError(`The dynamic property '${name}' must hold a primitive value.`);
    }
    stored[name] = encodeDynamicValue(value);
    any = true;
  }
  return any ? JSON.stringify(stored) : null;
}

/** The dynamic properties of a column value (the driver's text of the JSON document, or a parsed object). */
export function decodeDynamicProperties(raw: unknown): Record<string, PrimitiveValue | null> {
  if (raw === null || raw === undefined) return {};
  const document: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    throw new TypeError('The dynamic properties column must hold a JSON object.');
  const out: Record<string, PrimitiveValue | null> = {};
  for (const [name, stored] of Object.entries(document)) out[name] = decodeDynamicValue(stored, name);
  return out;
}
