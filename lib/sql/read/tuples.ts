/**
 * Key tuples (a row's key, or the values of a link's columns) as values and as one string each,
 * for matching rows of one statement to rows of another (expanded entities to their parents).
 */
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../edm/primitives';
import type { Entity } from '../../provider/types';
import type { SqlValueCodec } from '../engine';

/** One string per tuple: equal tuples (in the library's JS forms) give equal strings. */
export function tupleKey(values: readonly (PrimitiveValue | null)[]): string {
  return JSON.stringify(
    values.map((value) => (value instanceof Date ? value.toISOString() : value instanceof Uint8Array ? Buffer.from(value).toString('base64') : value)),
  );
}

/** The values of `names` in an entity (its key properties). */
export function entityTuple(entity: Entity, names: readonly string[]): (PrimitiveValue | null)[] {
  return names.map((name) => {
    const value = entity[name];
    return value === undefined || value === null || (typeof value === 'object' && !(value instanceof Date) && !(value instanceof Uint8Array)) ? null : value;
  });
}

/** Raw result values of link columns in the library's JS forms. */
export function rawTuple(raw: readonly unknown[], types: readonly EdmPrimitiveTypeName[], values: SqlValueCodec): (PrimitiveValue | null)[] {
  return raw.map((value, i) => values.fromValue(types[i], value));
}

/** True when no part of the tuple is null (a link that points somewhere). */
export function isComplete(values: readonly (PrimitiveValue | null)[]): values is PrimitiveValue[] {
  return values.every((value) => value !== null);
}
