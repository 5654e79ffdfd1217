/**
 * Immutability helpers for the built model: a Map that refuses writes once built, and a deep
 * `Object.freeze` that walks cycles (the model graph is full of them).
 * @internal
 */

const sealed = new WeakSet<object>();

/** A Map that throws on `set`, `delete` and `clear` once constructed (`Object.freeze` does not stop Map writes). */
export class FrozenMap<K, V> extends Map<K, V> {
  constructor(entries?: Iterable<readonly [K, V]>) {
    super(entries);
    sealed.add(this);
    Object.freeze(this);
  }

  override set(key: K, value: V): this {
    if (sealed.has(this)) throw new TypeError('The model is immutable.');
    return super.set(key, value);
  }

  override delete(): boolean {
    throw new TypeError('The model is immutable.');
  }

  override clear(): void {
    throw new TypeError('The model is immutable.');
  }
}

/** Freeze `value` and everything reachable from it (objects, arrays, Map keys and values). */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  const seen = new Set<object>();
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    if (current instanceof Map) {
      for (const [key, item] of current) stack.push(key, item);
    }
    Object.freeze(current);
    for (const key of Object.keys(current)) stack.push((current as Record<string, unknown>)[key]);
  }
  return value;
}
