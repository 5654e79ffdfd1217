/**
 * Generated keys of a new entry before the store checks it: max + 1 for a single integer key, a
 * random UUID for a Guid key.
 */
import { randomUUID } from 'crypto';
import type { EdmEntitySet, EdmProperty } from '../../edm/model';
import { integerRange, laneOf, numberRange, type EdmPrimitiveTypeName } from '../../edm/primitives';
import type { PropertyValue } from '../../edm/primitives';
import { ODataError } from '../../errors';
import type { Store } from './store';

function isAbsent(value: unknown): boolean {
  return value === undefined || value === null;
}

/** The largest key so far plus one (1 in an empty set); a number for Int32 and smaller, a string for Int64. */
function nextGeneratedKey(store: Store, entitySet: EdmEntitySet, property: EdmProperty, type: EdmPrimitiveTypeName): PropertyValue {
  const name = property.name;
  if (laneOf(type) === 'int64') {
    let max = 0n;
    for (const values of store.all(entitySet)) {
      const value = values[name];
      if (typeof value === 'string' && BigInt(value) > max) max = BigInt(value);
    }
    const next = max + 1n;
    if (next > (integerRange(type)?.max ?? 0n)) throw exhausted(entitySet, property);
    return next.toString();
  }
  let max = 0;
  for (const values of store.all(entitySet)) {
    const value = values[name];
    if (typeof value === 'number' && value > max) max = value;
  }
  if (max + 1 > numberRange(type).max) throw exhausted(entitySet, property);
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
    const keyType = property.type.kind === 'Primitive' ? property.type.name : undefined;
    const lane = keyType === undefined ? undefined : laneOf(keyType);
    if (lane === 'guid') {
      out[property.name] = randomUUID();
    } else if (keyType !== undefined && type.key.length === 1 && (lane === 'integer' || lane === 'int64')) {
      out[property.name] = nextGeneratedKey(store, entitySet, property, keyType);
    } else {
      throw ODataError.fromCode('BODY_INVALID', {
        detail: `the key property '${property.name}' of ${type.qualifiedName} is missing; only a single integer key or a Guid key is generated${hint}.`,
      });
    }
  }
  return out;
}
