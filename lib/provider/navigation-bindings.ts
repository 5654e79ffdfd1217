/**
 * Which association set holds a navigation property's links, and from which end: the one reading
 * of the model that the data loader and MemoryProvider's link tables both need.
 */
import type { EdmAssociationSet, EdmEntitySet, EdmModel, EdmNavigationProperty } from '../edm/model';

/** An end of an association set: 0 or 1, as in `EdmAssociationSet.ends`. */
export type EndIndex = 0 | 1;

/** The index of the association set's other end. */
export function otherEnd(end: EndIndex): EndIndex {
  return end === 0 ? 1 : 0;
}

/** Where a navigation property of `source` keeps its links: its association set, and the end it leaves from. */
export interface NavigationBinding {
  readonly property: EdmNavigationProperty;
  readonly associationSet: EdmAssociationSet;
  readonly from: EndIndex;
  readonly source: EdmEntitySet;
  readonly target: EdmEntitySet;
}

/** Per entity set of the default container: its navigation properties that an association set binds, by name. */
export function navigationBindings(model: EdmModel): Map<EdmEntitySet, Map<string, NavigationBinding>> {
  const bindings = new Map<EdmEntitySet, Map<string, NavigationBinding>>();
  const { entitySets, associationSets } = model.defaultContainer;
  for (const source of entitySets) {
    const byName = new Map<string, NavigationBinding>();
    for (const property of source.entityType.navigationProperties) {
      for (const associationSet of associationSets) {
        if (associationSet.association !== property.relationship) continue;
        // Roles, not sets, pick the end: a self-association (Employee/Manager) has the set on both ends.
        const from = ([0, 1] as const).find((end) => associationSet.ends[end].role === property.fromEnd.role && associationSet.ends[end].entitySet === source);
        if (from === undefined) continue;
        byName.set(property.name, { property, associationSet, from, source, target: associationSet.ends[otherEnd(from)].entitySet });
        break;
      }
    }
    bindings.set(source, byName);
  }
  return bindings;
}
