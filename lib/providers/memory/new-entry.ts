/**
 * Generated keys of a new entry before the store checks it (the kit's `generatedKeys` says which):
 * max + 1 for a single integer key, a random UUID for a Guid key.
 */
import type { EdmEntitySet, EdmProperty } from '../../edm/model';
import { integerRange, laneOf, numberRange, type EdmPrimitiveTypeName } from '../../edm/primitives';
import type { PropertyValue } from '../../edm/primitives';
import { ODataError } from '../../errors';
import { generatedKeys, withUuidKeys } from '../../provider/new-keys';
import type { Store } from './store';

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
 * `values` with every absent (undefined or null) key property generated as the kit's rule says
 * (`generatedKeys`): a random UUID for a Guid key, the largest key in the set plus one for a
 * single integer key; any other absent key property is a 400 naming it.
 */
export function withGeneratedKey(
  store: Store,
  entitySet: EdmEntitySet,
  values: Readonly<Record<string, unknown>>,
  hint = '',
): Readonly<Record<string, unknown>> {
  const generated = generatedKeys(entitySet.entityType, values, hint);
  if (generated.length === 0) return values;
  const out: Record<string, unknown> = { ...withUuidKeys(values, generated) };
  for (const { property, generation } of generated) {
    if (generation === 'next' && property.type.kind === 'Primitive') out[property.name] = nextGeneratedKey(store, entitySet, property, property.type.name);
  }
  return out;
}
