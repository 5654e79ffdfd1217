/**
 * `Array.isArray` for readonly arrays. The built-in guard narrows `readonly T[]` to `any[]`, which
 * turns every later use of the value untyped; this one keeps the element type.
 */
export const isReadonlyArray: (value: unknown) => value is readonly unknown[] = Array.isArray;
