/**
 * Assertions for the type tests. `expectType<T>()(value)` compiles only when the value's type is
 * exactly `T` (not merely assignable); what must not compile is marked `// @ts-expect-error`, which
 * tsc rejects when the line below it compiles after all.
 */
type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

export function expectType<Expected>(): <Actual>(value: Actual & (Equals<Actual, Expected> extends true ? unknown : never)) => void {
  return () => undefined;
}
