/**
 * Required links (an association end of multiplicity `1` on the far side: every entity must be
 * linked to exactly one there), told the same way by every store that checks them: MemoryProvider
 * at commit, SqlProvider before COMMIT for a join table, the data loader after loading.
 */
import type { EdmAssociationSet, EdmEntitySet } from '../edm/model';
import { describeKey } from './keys';

/** How a message names the link of end `end` of `associationSet`: that end's navigation property, else the association set. */
export function requiredLinkLabel(associationSet: EdmAssociationSet, end: 0 | 1): string {
  const { entitySet, role } = associationSet.ends[end];
  const navigation = entitySet.entityType.navigationProperties.find(
    (property) => property.relationship === associationSet.association && property.fromEnd.role === role,
  );
  return navigation === undefined ? `association set '${associationSet.name}'` : `'${navigation.name}'`;
}

/** The problem of an entity of `entitySet` (its key in `key`) linked to `count` entities of `far` over `label`, where it must be linked to exactly one. */
export function requiredLinkProblem(entitySet: EdmEntitySet, key: Readonly<Record<string, unknown>>, far: EdmEntitySet, label: string, count: number): string {
  return `${entitySet.name}${describeKey(entitySet.entityType, key)} must be linked to exactly one entity of '${far.name}' over ${label} (multiplicity 1), but has ${count}.`;
}
