/**
 * Builds the type half of the model graph from a validated definition: entity and complex types,
 * their (inherited) properties and keys, associations and navigation properties with targets and
 * partners. Assumes `collectModelErrors` found nothing; it does not re-check.
 * @internal
 */
import type { Annotated, AssociationDefinition, FacetsDefinition, PropertyDefinition, SchemaDefinition } from './definition';
import type { DefinitionIndex } from './definition-index';
import { FrozenMap } from './frozen';
import type {
  EdmAnnotations,
  EdmAssociation,
  EdmAssociationEnd,
  EdmComplexType,
  EdmEntityType,
  EdmFacets,
  EdmNavigationProperty,
  EdmProperty,
  EdmPropertyTypeRef,
} from './model';
import { isPrimitiveTypeName } from './primitives';

/** The writable twin of a model interface, used only while the graph is being wired. */
type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** The annotation fields every model object carries. */
export function annotationsOf(definition: Annotated): EdmAnnotations {
  return {
    annotationAttributes: definition.annotationAttributes ?? [],
    annotationElements: definition.annotationElements ?? [],
    ...(definition.documentation !== undefined ? { documentation: definition.documentation } : {}),
  };
}

/** Facets with their defaults (Nullable true, ConcurrencyMode None); unset optional facets stay absent. */
export function facetsOf(definition: FacetsDefinition, nullableDefault = true): EdmFacets {
  const facets: Mutable<EdmFacets> = {
    nullable: definition.nullable ?? nullableDefault,
    concurrencyMode: definition.concurrencyMode ?? 'None',
    extraAttributes: definition.extraAttributes ?? [],
  };
  if (definition.maxLength !== undefined) facets.maxLength = definition.maxLength;
  if (definition.fixedLength !== undefined) facets.fixedLength = definition.fixedLength;
  if (definition.precision !== undefined) facets.precision = definition.precision;
  if (definition.scale !== undefined) facets.scale = definition.scale;
  if (definition.unicode !== undefined) facets.unicode = definition.unicode;
  if (definition.collation !== undefined) facets.collation = definition.collation;
  if (definition.defaultValue !== undefined) facets.defaultValue = definition.defaultValue;
  return facets;
}

/** The resolved types of all schemas, by qualified name and in schema order. */
export interface TypeGraph {
  readonly entityTypes: Map<string, EdmEntityType>;
  readonly complexTypes: Map<string, EdmComplexType>;
  readonly associations: Map<string, EdmAssociation>;
  readonly bySchema: Map<SchemaDefinition, { entityTypes: EdmEntityType[]; complexTypes: EdmComplexType[]; associations: EdmAssociation[] }>;
}

/** Build every type, property, association and navigation property of a validated definition. */
export function buildTypes(index: DefinitionIndex): TypeGraph {
  const graph: TypeGraph = { entityTypes: new Map(), complexTypes: new Map(), associations: new Map(), bySchema: new Map() };
  const entityShells = new Map<string, Mutable<EdmEntityType>>();
  const complexShells = new Map<string, Mutable<EdmComplexType>>();

  for (const schema of index.definition.schemas) {
    const entry = { entityTypes: [] as EdmEntityType[], complexTypes: [] as EdmComplexType[], associations: [] as EdmAssociation[] };
    graph.bySchema.set(schema, entry);
    for (const type of schema.complexTypes ?? []) {
      const shell: Mutable<EdmComplexType> = {
        kind: 'ComplexType',
        name: type.name,
        namespace: schema.namespace,
        qualifiedName: `${schema.namespace}.${type.name}`,
        properties: [],
        propertiesByName: new Map(),
        ...annotationsOf(type),
      };
      complexShells.set(shell.qualifiedName, shell);
      graph.complexTypes.set(shell.qualifiedName, shell);
      entry.complexTypes.push(shell);
    }
    for (const type of schema.entityTypes ?? []) {
      const shell: Mutable<EdmEntityType> = {
        kind: 'EntityType',
        name: type.name,
        namespace: schema.namespace,
        qualifiedName: `${schema.namespace}.${type.name}`,
        baseType: undefined,
        abstract: type.abstract ?? false,
        openType: type.openType ?? false,
        hasStream: type.hasStream ?? false,
        key: [],
        declaredProperties: [],
        properties: [],
        propertiesByName: new Map(),
        declaredNavigationProperties: [],
        navigationProperties: [],
        navigationPropertiesByName: new Map(),
        concurrencyProperties: [],
        derivedTypes: [],
        ...annotationsOf(type),
      };
      entityShells.set(shell.qualifiedName, shell);
      graph.entityTypes.set(shell.qualifiedName, shell);
      entry.entityTypes.push(shell);
    }
  }

  const typeRef = (name: string): EdmPropertyTypeRef => {
    if (isPrimitiveTypeName(name)) return { kind: 'Primitive', name };
    const qualified = index.qualify(name);
    const complex = qualified === undefined ? undefined : complexShells.get(qualified);
    if (complex === undefined) throw new Error(`unresolved type ${name}`); // unreachable after validation
    return { kind: 'Complex', type: complex };
  };
  const makeProperty = (definition: PropertyDefinition, declaringType: EdmEntityType | EdmComplexType, isKey: boolean): EdmProperty => ({
    kind: 'Property',
    name: definition.name,
    type: typeRef(definition.type),
    declaringType,
    ...facetsOf(definition, !isKey),
    ...(definition.feedCustomization !== undefined ? { feedCustomization: definition.feedCustomization } : {}),
    ...(definition.mimeType !== undefined ? { mimeType: definition.mimeType } : {}),
    isKey,
    ...annotationsOf(definition),
  });

  for (const [name, shell] of complexShells) {
    const definition = index.complexTypes.get(name)?.definition;
    shell.properties = (definition?.properties ?? []).map((p) => makeProperty(p, shell, false));
    shell.propertiesByName = new FrozenMap(shell.properties.map((p) => [p.name, p]));
  }
  for (const [name, shell] of entityShells) {
    const definition = index.entityTypes.get(name)?.definition;
    if (definition === undefined) continue;
    const keyNames = new Set(definition.key ?? []);
    shell.declaredProperties = (definition.properties ?? []).map((p) => makeProperty(p, shell, keyNames.has(p.name)));
    if (definition.baseType !== undefined) shell.baseType = entityShells.get(index.qualify(definition.baseType) ?? '');
  }
  // Inherited members: walk each type's chain from the root, so a base is complete before its derived types.
  const ordered = orderByDepth([...entityShells.values()]);
  for (const shell of ordered) {
    const base = shell.baseType;
    shell.properties = base === undefined ? shell.declaredProperties : [...base.properties, ...shell.declaredProperties];
    const definition = index.entityTypes.get(shell.qualifiedName)?.definition;
    shell.key = base === undefined ? (definition?.key ?? []).map((k) => shell.declaredProperties.find((p) => p.name === k)).filter(isDefined) : base.key;
    shell.propertiesByName = new FrozenMap(shell.properties.map((p) => [p.name, p]));
    shell.concurrencyProperties = shell.properties.filter((p) => p.concurrencyMode === 'Fixed');
    for (let ancestor = base; ancestor !== undefined; ancestor = ancestor.baseType) {
      (ancestor.derivedTypes as EdmEntityType[]).push(shell);
    }
  }

  for (const schema of index.definition.schemas) {
    for (const definition of schema.associations ?? []) {
      const association = buildAssociation(schema, definition, index, entityShells);
      graph.associations.set(association.qualifiedName, association);
      graph.bySchema.get(schema)?.associations.push(association);
    }
  }
  wireNavigation(index, graph, entityShells, ordered);
  return graph;
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

/** Entity types ordered so that every base type comes before the types derived from it. */
function orderByDepth(types: Mutable<EdmEntityType>[]): Mutable<EdmEntityType>[] {
  const depth = (type: EdmEntityType): number => {
    let n = 0;
    for (let t = type.baseType; t !== undefined; t = t.baseType) n++;
    return n;
  };
  return types
    .map((type) => ({ type, depth: depth(type) }))
    .sort((a, b) => a.depth - b.depth)
    .map((entry) => entry.type);
}

function buildAssociation(
  schema: SchemaDefinition,
  definition: AssociationDefinition,
  index: DefinitionIndex,
  entityShells: ReadonlyMap<string, EdmEntityType>,
): EdmAssociation {
  const typeOf = (name: string): EdmEntityType => {
    const type = entityShells.get(index.qualify(name) ?? '');
    if (type === undefined) throw new Error(`unresolved entity type ${name}`); // unreachable after validation
    return type;
  };
  const makeEnd = (end: AssociationDefinition['ends'][number]): EdmAssociationEnd => ({
    role: end.role,
    type: typeOf(end.type),
    multiplicity: end.multiplicity,
    onDelete: end.onDelete ?? 'None',
    ...annotationsOf(end),
  });
  const ends: [EdmAssociationEnd, EdmAssociationEnd] = [makeEnd(definition.ends[0]), makeEnd(definition.ends[1])];
  const constraint = definition.referentialConstraint;
  const side = (part: { readonly role: string; readonly propertyRefs: readonly string[] }): { role: string; properties: EdmProperty[] } => {
    const end = ends.find((e) => e.role === part.role);
    return { role: part.role, properties: part.propertyRefs.map((name) => end?.type.propertiesByName.get(name)).filter(isDefined) };
  };
  return {
    kind: 'Association',
    name: definition.name,
    namespace: schema.namespace,
    qualifiedName: `${schema.namespace}.${definition.name}`,
    ends,
    referentialConstraint:
      constraint === undefined ? undefined : { principal: side(constraint.principal), dependent: side(constraint.dependent), ...annotationsOf(constraint) },
    ...annotationsOf(definition),
  };
}

function wireNavigation(
  index: DefinitionIndex,
  graph: TypeGraph,
  entityShells: ReadonlyMap<string, Mutable<EdmEntityType>>,
  ordered: readonly Mutable<EdmEntityType>[],
): void {
  const all: Mutable<EdmNavigationProperty>[] = [];
  for (const [name, shell] of entityShells) {
    const definition = index.entityTypes.get(name)?.definition;
    shell.declaredNavigationProperties = (definition?.navigationProperties ?? []).map((nav) => {
      const association = graph.associations.get(index.qualify(nav.relationship) ?? '');
      const fromEnd = association?.ends.find((end) => end.role === nav.fromRole);
      const toEnd = association?.ends.find((end) => end.role === nav.toRole);
      if (association === undefined || fromEnd === undefined || toEnd === undefined) throw new Error(`unresolved navigation ${nav.name}`);
      const navigation: Mutable<EdmNavigationProperty> = {
        kind: 'NavigationProperty',
        name: nav.name,
        declaringType: shell,
        relationship: association,
        fromEnd,
        toEnd,
        target: toEnd.type,
        isCollection: toEnd.multiplicity === '*',
        partner: undefined,
        ...annotationsOf(nav),
      };
      all.push(navigation);
      return navigation;
    });
  }
  for (const shell of ordered) {
    const base = shell.baseType;
    shell.navigationProperties =
      base === undefined ? shell.declaredNavigationProperties : [...base.navigationProperties, ...shell.declaredNavigationProperties];
    shell.navigationPropertiesByName = new FrozenMap(shell.navigationProperties.map((n) => [n.name, n]));
  }
  // The partner walks the same association back: its roles are ours, swapped.
  for (const navigation of all) {
    navigation.partner = navigation.target.navigationProperties.find(
      (other) =>
        other !== navigation &&
        other.relationship === navigation.relationship &&
        other.fromEnd.role === navigation.toEnd.role &&
        other.toEnd.role === navigation.fromEnd.role,
    );
  }
}
