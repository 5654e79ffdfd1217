/**
 * Concurrency tokens in the memory store: the kit's rule (`provider/tokens`: a wrapping version
 * counter, or the write's instant strictly after the previous token) applied to an entity's values.
 */
import type { EdmEntityType } from '../../edm/model';
import type { PropertyValue } from '../../edm/primitives';
import { managedTokenRule, nextToken } from '../../provider/tokens';
import type { Clock } from '../../util';

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
    if (managedTokenRule(property) === undefined || property.type.kind !== 'Primitive') continue;
    if (keepGiven && values[property.name] !== null && values[property.name] !== undefined) continue;
    const next = nextToken(property.type.name, previous?.[property.name], now);
    if (next !== undefined) values[property.name] = next;
  }
}
