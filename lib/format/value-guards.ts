/**
 * Narrowing of the loosely typed values providers hand back (`Entity` members are
 * `PropertyValue | Entity | Entity[] | undefined`) to what a writer of a given EDM type accepts.
 * A value of the wrong shape is a provider bug: it becomes a plain Error, which the service masks
 * as 500 and logs, never a malformed payload.
 */
import { isPlainObject, isPrimitiveValue } from '../edm/primitives';
import type { ComplexValue, PrimitiveValue } from '../edm/primitives';
import type { Entity } from '../provider/types';

export { isPrimitiveValue };

/** A plain object holding a complex value (not a Date, binary or array); its members are the writer's to check. */
export function isComplexValue(value: unknown): value is ComplexValue {
  return isPlainObject(value);
}

/**
 * An entity object (the inline content of an expanded navigation property). A provider that puts
 * a stream where one entity belongs fails later, at its missing key, as the provider bug it is.
 */
export function isEntity(value: unknown): value is Entity {
  return isComplexValue(value);
}

/** Narrow to a primitive or fail with a message naming the property and its type. */
export function expectPrimitive(value: unknown, property: string, type: string): PrimitiveValue {
  if (isPrimitiveValue(value)) return value;
  throw new TypeError(`Property '${property}' of type ${type} holds a value that is not a primitive (${describe(value)}).`);
}

/** Narrow to a complex value or fail with a message naming the property and its type. */
export function expectComplex(value: unknown, property: string, type: string): ComplexValue {
  if (isComplexValue(value)) return value;
  throw new TypeError(`Property '${property}' of type ${type} holds a value that is not an object (${describe(value)}).`);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Date) return 'a Date';
  return typeof value;
}
