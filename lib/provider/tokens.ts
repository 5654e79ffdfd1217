/**
 * Concurrency tokens a store maintains itself: the properties with `ConcurrencyMode="Fixed"` (the
 * ETag's ingredients, MS-ODATA §2.2.5.4) whose type has a rule here, the same on every provider. An
 * integer token is a version: `start` on insert, one more on every write, back to `start` past
 * the type's maximum (never a value the type cannot hold). A DateTime or DateTimeOffset token takes
 * the write's clock at milliseconds, strictly after the previous token, so two writes within one
 * millisecond still give different ETags. Any other type is left to the client's values. A store
 * that computes tokens in JavaScript calls `nextToken`; a database writes the same rule in SQL.
 */
import type { EdmProperty } from '../edm/model';
import { integerRange, laneOf, type EdmPrimitiveTypeName, type PropertyValue } from '../edm/primitives';
import type { Clock } from '../util';

/** How a store keeps a token of one type: a wrapping version counter, or the write's instant. */
export type TokenRule =
  | {
      /** A version counter. */
      readonly kind: 'version';
      /** The value on insert, and after the maximum. */
      readonly start: 0;
      /** The type's largest value: the next one is `start` again. */
      readonly max: bigint;
    }
  | {
      /** The write's clock at milliseconds, strictly after the previous token. */
      readonly kind: 'instant';
    };

/** The rule for a token of `type`; undefined for a type the store leaves alone (a string, a binary...). */
export function tokenRule(type: EdmPrimitiveTypeName): TokenRule | undefined {
  const lane = laneOf(type);
  if (lane === 'instant') return { kind: 'instant' };
  const range = lane === 'integer' || lane === 'int64' ? integerRange(type) : undefined;
  return range === undefined ? undefined : { kind: 'version', start: 0, max: range.max };
}

/** The rule for a property when it is a concurrency token the store maintains; else undefined. */
export function managedTokenRule(property: EdmProperty): TokenRule | undefined {
  if (property.concurrencyMode !== 'Fixed' || property.type.kind !== 'Primitive') return undefined;
  return tokenRule(property.type.name);
}

/** True when the store maintains this token (so a new entry need not give it). */
export function isManagedToken(property: EdmProperty): boolean {
  return managedTokenRule(property) !== undefined;
}

/**
 * The value a token of `type` takes on a write (`tokenRule` says how): `previous` is the stored
 * value (undefined on insert, or when the entity had none), `now` the write's clock (read only
 * for an instant). An Int64
 * version is a string, a smaller integer a number, an instant a Date. Undefined for a type
 * without a rule.
 */
export function nextToken(type: EdmPrimitiveTypeName, previous: PropertyValue | undefined, now: Clock): PropertyValue | undefined {
  const rule = tokenRule(type);
  if (rule === undefined) return undefined;
  if (rule.kind === 'instant') {
    const at = now();
    if (previous instanceof Date && at.getTime() <= previous.getTime()) return new Date(previous.getTime() + 1);
    return new Date(at.getTime());
  }
  const int64 = laneOf(type) === 'int64';
  // Anything but a stored version of the type's own JS form (a string for Int64) starts again.
  const before =
    int64 && typeof previous === 'string' && /^-?\d+$/.test(previous)
      ? BigInt(previous)
      : !int64 && typeof previous === 'number' && Number.isInteger(previous)
        ? BigInt(previous)
        : undefined;
  const next = before === undefined || before >= rule.max ? BigInt(rule.start) : before + 1n;
  return int64 ? next.toString() : Number(next);
}
