/**
 * Keys from the parent: a new entry linked to another over an association whose
 * ReferentialConstraint makes the new entry the dependent has its dependent properties fixed by
 * that link (an order line's `OrderID` by its order), key properties included. The service fills
 * them for a POST through navigation and for bindings in the body; a provider fills them for the
 * entries of a deep insert once their parent is stored (its key may be the store's to make).
 */
import type { EdmNavigationProperty } from '../edm/model';
import type { PropertyValue } from '../edm/primitives';
import { ODataError } from '../errors';
import { samePropertyValue } from './keys';
import type { CreateRequest } from './types';

/**
 * `request` (a new entry) with the properties its link over `navigation` fixes taken from
 * `other`, the entry at the link's other end (its stored values, or at least its key): for
 * each pair of the association's ReferentialConstraint whose dependent end is the new entry's,
 * the new entry's dependent property gets the other entry's principal property, and counts as
 * sent. `navigation` is walked from the other entry to the new one (a POST's or an inline
 * entry's parent: `Orders.Lines`), or from the new one to the other (a binding: `Lines.Order`),
 * as `from` says. A body value that differs is 400 BODY_INVALID naming it (`label` names the
 * other entry: `Orders(10248)`). Unchanged when the association has no constraint for it.
 */
export function withLinkedValues(
  request: CreateRequest,
  navigation: EdmNavigationProperty,
  from: 'other' | 'entry',
  other: Readonly<Record<string, unknown>>,
  label: string,
): CreateRequest {
  const constraint = navigation.relationship.referentialConstraint;
  const entryRole = from === 'other' ? navigation.toEnd.role : navigation.fromEnd.role;
  if (constraint === undefined || constraint.dependent.role !== entryRole) return request;
  const values: Record<string, PropertyValue> = { ...request.values };
  constraint.dependent.properties.forEach((dependent, i) => {
    const fixed = other[constraint.principal.properties[i].name];
    // A principal value the other entry lacks (a store that did not return it) fixes nothing.
    if (fixed === undefined || fixed === null) return;
    if (Object.prototype.hasOwnProperty.call(request.values, dependent.name) && !samePropertyValue(dependent, request.values[dependent.name], fixed)) {
      throw ODataError.fromCode(
        'BODY_INVALID',
        {
          detail: `'${dependent.name}' of the new ${request.entityType.qualifiedName} is fixed by its link to ${label} (the ReferentialConstraint of '${navigation.relationship.name}'): leave it out, or send the value ${label} has.`,
        },
        { target: dependent.name },
      );
    }
    values[dependent.name] = fixed as PropertyValue;
  });
  return { ...request, values };
}
