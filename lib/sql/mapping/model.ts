/**
 * What the mapping reads from the model: the structural paths of an entity set's hierarchy (one
 * column each), the entity types a set's table holds, and where an association set conventionally
 * keeps its links.
 */
import type { EdmAssociationSet, EdmAssociationSetEnd, EdmEntitySet, EdmEntityType, EdmProperty } from '../../edm/model';

/** One column's worth of an entity type: a primitive property's value, or a nullable complex property's presence. */
export interface StructuralPath {
  /** The path as the mapping names it: `Name`, `Address/City`. */
  readonly path: string;
  /** The properties walked: a top-level property, then complex members. */
  readonly properties: readonly EdmProperty[];
  /** True for the presence column of a nullable complex property (the path ends at it). */
  readonly presence: boolean;
  /** The set's type for its own (and inherited) properties; the derived type that declares the others. */
  readonly declaringType: EdmEntityType;
}

/** The entity types whose entities a set's table holds: the set's type, then every type derived from it. */
export function hierarchyOf(entitySet: EdmEntitySet): readonly EdmEntityType[] {
  return [entitySet.entityType, ...entitySet.entityType.derivedTypes];
}

function pathsOf(prefix: readonly EdmProperty[], property: EdmProperty, declaringType: EdmEntityType, out: StructuralPath[]): void {
  const properties = [...prefix, property];
  const path = properties.map((step) => step.name).join('/');
  if (property.type.kind === 'Primitive') {
    out.push({ path, properties, presence: false, declaringType });
    return;
  }
  // A null complex value and one whose members are all null are different values: a flag tells them apart.
  if (property.nullable) out.push({ path, properties, presence: true, declaringType });
  for (const member of property.type.type.properties) pathsOf(properties, member, declaringType, out);
}

/** Every column path of a set's table: the set type's properties, then those each derived type declares. */
export function structuralPaths(entitySet: EdmEntitySet): readonly StructuralPath[] {
  const out: StructuralPath[] = [];
  const [root, ...derived] = hierarchyOf(entitySet);
  for (const property of root.properties) pathsOf([], property, root, out);
  for (const type of derived) for (const property of type.declaredProperties) pathsOf([], property, type, out);
  return out;
}

/** True when some entity type of the set's hierarchy is open. */
export function holdsOpenType(entitySet: EdmEntitySet): boolean {
  return hierarchyOf(entitySet).some((type) => type.openType);
}

/** True when some entity type of the set's hierarchy is a media link entry type. */
export function holdsMedia(entitySet: EdmEntitySet): boolean {
  return hierarchyOf(entitySet).some((type) => type.hasStream);
}

/**
 * Where an association set keeps its links by convention: many-to-many in a join table; otherwise
 * a foreign key on the dependent end: the ReferentialConstraint's, else the `*` end, else the
 * `0..1` end of a `1`-`0..1` pair, else (both ends alike) the second end.
 */
export function conventionalStorage(
  associationSet: EdmAssociationSet,
): { readonly kind: 'joinTable' } | { readonly kind: 'foreignKey'; readonly dependent: EdmAssociationSetEnd } {
  const [first, second] = associationSet.ends;
  const constraint = associationSet.association.referentialConstraint;
  if (constraint !== undefined) return { kind: 'foreignKey', dependent: constraint.dependent.role === first.role ? first : second };
  const many = (end: EdmAssociationSetEnd): boolean => end.end.multiplicity === '*';
  if (many(first) && many(second)) return { kind: 'joinTable' };
  if (many(first)) return { kind: 'foreignKey', dependent: first };
  if (many(second)) return { kind: 'foreignKey', dependent: second };
  if (first.end.multiplicity === '0..1' && second.end.multiplicity === '1') return { kind: 'foreignKey', dependent: first };
  return { kind: 'foreignKey', dependent: second };
}

/** The other end of an association set. */
export function otherEndOf(associationSet: EdmAssociationSet, end: EdmAssociationSetEnd): EdmAssociationSetEnd {
  return associationSet.ends[0] === end ? associationSet.ends[1] : associationSet.ends[0];
}
