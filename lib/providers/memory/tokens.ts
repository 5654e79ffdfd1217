/**
 * Concurrency tokens: the properties with `ConcurrencyMode="Fixed"` (the ETag's ingredients,
 * MS-ODATA §2.2.5.4) that the store maintains itself. An integer token is a version column (0 on
 * insert, +1 on every write); a DateTime token takes the write time, kept strictly increasing so
 * two writes within one millisecond still give different ETags. Other types are left to the caller.
 */
import type { EdmEntityType, EdmProperty } from '../../edm/model';
import { integerRange, laneOf, numberRange } from '../../edm/primitives';
import type { EdmPrimitiveTypeName, PropertyValue } from '../../edm/primitives';
import type { Clock } from '../../util';

/** How a token is maintained; undefined for tokens the store leaves alone (strings, binaries...). */
function tokenKind(property: EdmProperty): 'integer' | 'int64' | 'instant' | undefined {
  if (property.type.kind !== 'Primitive') return undefined;
  const lane = laneOf(property.type.name);
  return lane === 'integer' || lane === 'int64' || lane === 'instant' ? lane : undefined;
}

// Both wrap to 0 at the type's maximum instead of writing a value the type cannot hold.
function nextIntegerToken(type: EdmPrimitiveTypeName, previous: PropertyValue | undefined): number {
  if (typeof previous !== 'number') return 0;
  return previous >= numberRange(type).max ? 0 : previous + 1;
}

function nextInt64Token(type: EdmPrimitiveTypeName, previous: PropertyValue | undefined): string {
  if (typeof previous !== 'string') return '0';
  const next = BigInt(previous) + 1n;
  return next > (integerRange(type)?.max ?? 0n) ? '0' : next.toString();
}

function nextTimeToken(previous: PropertyValue | undefined, now: Date): Date {
  if (previous instanceof Date && now.getTime() <= previous.getTime()) return new Date(previous.getTime() + 1);
  return new Date(now.getTime());
}

/**
 * Set the tokens of `values` for a write: `previous` is the stored entity (undefined for an
 * insert). With `keepGiven` (loading data), a token that has a value keeps it.
 */
export function stampTokens(
  type: EdmEntityType,
  values: Record<string, PropertyValue>,
  previous: Readonly<Record<string, PropertyValue>> | undefined,
  now: Clock,
  keepGiven = false,
): void {
  for (const property of type.concurrencyProperties) {
    const kind = tokenKind(property);
    if (kind === undefined || property.type.kind !== 'Primitive') continue;
    if (keepGiven && values[property.name] !== null && values[property.name] !== undefined) continue;
    const before = previous?.[property.name];
    if (kind === 'integer') values[property.name] = nextIntegerToken(property.type.name, before);
    else if (kind === 'int64') values[property.name] = nextInt64Token(property.type.name, before);
    else values[property.name] = nextTimeToken(before, now());
  }
}

/** True when the store maintains this token (so a missing value is not an error). */
export function isManagedToken(property: EdmProperty): boolean {
  return property.concurrencyMode === 'Fixed' && tokenKind(property) !== undefined;
}
