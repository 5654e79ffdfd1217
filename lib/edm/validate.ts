/**
 * The model validator: collects every problem of a `ModelDefinition` before anything is built, each
 * line naming its element path (`EntityType 'ODataDemo.Product' / Key: property 'ID' not found`),
 * as graphql-js `validateSchema` does. Containers are checked in validate-containers.ts.
 */
import { ODataError } from '../errors';
import { isReadonlyArray } from '../util';
import type {
  AssociationDefinition,
  AssociationEndDefinition,
  ComplexTypeDefinition,
  EntityTypeDefinition,
  ModelDefinition,
  NavigationPropertyDefinition,
  PropertyDefinition,
  SchemaDefinition,
} from './definition';
import { DefinitionIndex, isNamespaceName, isSimpleIdentifier, parseTypeReference, suggestion, type Indexed } from './definition-index';
import { isPrimitiveTypeName, PRIMITIVE_TYPES } from './primitives';
import { containerProblems } from './validate-containers';
import { commonFacetProblems, feedCustomizationProblems, primitiveFacetProblems } from './validate-facets';
import { vocabularyProblems } from './validate-vocabulary';

const MULTIPLICITIES: ReadonlySet<string> = new Set(['0..1', '1', '*']);

/** Every problem of a definition, one line each, in document order; empty when the model is valid. */
export function collectModelErrors(definition: ModelDefinition): string[] {
  const problems: string[] = [];
  if (!isReadonlyArray(definition.schemas) || definition.schemas.length === 0) return ['Model: at least one Schema is required'];
  const index = new DefinitionIndex(definition);
  checkSchemaNames(definition.schemas, problems);
  for (const schema of definition.schemas) {
    checkTypeNames(schema, problems);
    for (const type of schema.entityTypes ?? []) checkEntityType(index, schema, type, problems);
    for (const type of schema.complexTypes ?? []) checkComplexType(index, schema, type, problems);
    for (const association of schema.associations ?? []) checkAssociation(index, schema, association, problems);
  }
  problems.push(...containerProblems(index));
  problems.push(...vocabularyProblems(index));
  return problems;
}

/** Throw `MODEL_INVALID` listing every problem, or return when the definition is valid. */
export function validateModel(definition: ModelDefinition): void {
  const problems = collectModelErrors(definition);
  if (problems.length > 0) throw ODataError.fromCode('MODEL_INVALID', { errors: problems.join('\n') });
}

function checkSchemaNames(schemas: readonly SchemaDefinition[], problems: string[]): void {
  const prefixes = new Map<string, string>();
  for (const schema of schemas) {
    const path = `Schema '${schema.namespace}'`;
    if (typeof schema.namespace !== 'string' || !isNamespaceName(schema.namespace)) problems.push(`${path}: invalid namespace`);
    else if (prefixes.has(schema.namespace)) problems.push(`${path}: the namespace is already used by ${prefixes.get(schema.namespace)}`);
    else prefixes.set(schema.namespace, 'another Schema');
    if (schema.alias === undefined) continue;
    if (!isSimpleIdentifier(schema.alias)) problems.push(`${path} / Alias '${schema.alias}': invalid alias`);
    else if (prefixes.has(schema.alias)) problems.push(`${path} / Alias '${schema.alias}': already used as a namespace or alias`);
    else prefixes.set(schema.alias, `the alias of Schema '${schema.namespace}'`);
  }
}

/** Entity types, complex types and associations share one name scope per schema (CSDL §2.1). */
function checkTypeNames(schema: SchemaDefinition, problems: string[]): void {
  const seen = new Map<string, string>();
  const visit = (kind: string, items: readonly { readonly name: string }[] | undefined): void => {
    for (const item of items ?? []) {
      const path = `${kind} '${schema.namespace}.${item.name}'`;
      if (!isSimpleIdentifier(item.name)) problems.push(`${path}: invalid name`);
      const previous = seen.get(item.name);
      if (previous !== undefined) problems.push(`${path}: duplicate name, already used by ${previous}`);
      else seen.set(item.name, `${kind} '${schema.namespace}.${item.name}'`);
    }
  };
  visit('EntityType', schema.entityTypes);
  visit('ComplexType', schema.complexTypes);
  visit('Association', schema.associations);
}

function checkEntityType(index: DefinitionIndex, schema: SchemaDefinition, type: EntityTypeDefinition, problems: string[]): void {
  const path = `EntityType '${schema.namespace}.${type.name}'`;
  const bases = checkBaseType(index, path, `${schema.namespace}.${type.name}`, type, problems);
  const ownNames = checkProperties(index, path, type.properties, problems);
  checkKey(path, type, problems);
  for (const nav of type.navigationProperties ?? []) {
    const navPath = `${path} / NavigationProperty '${nav.name}'`;
    if (!isSimpleIdentifier(nav.name)) problems.push(`${navPath}: invalid name`);
    if (ownNames.has(nav.name)) problems.push(`${navPath}: duplicate name`);
    ownNames.add(nav.name);
    checkNavigation(index, navPath, `${schema.namespace}.${type.name}`, bases, nav, problems);
  }
  // A derived type must not redeclare a member of its base types.
  const navigationNames = new Set((type.navigationProperties ?? []).map((nav) => nav.name));
  for (const base of bases) {
    const inherited = new Set([...(base.definition.properties ?? []), ...(base.definition.navigationProperties ?? [])].map((m) => m.name));
    for (const name of ownNames) {
      const kind = navigationNames.has(name) ? 'NavigationProperty' : 'Property';
      if (inherited.has(name)) problems.push(`${path} / ${kind} '${name}': clashes with the member inherited from '${base.qualifiedName}'`);
    }
  }
}

/** Resolve the base-type chain, reporting unknown names and cycles; returns the chain, nearest first. */
function checkBaseType(
  index: DefinitionIndex,
  path: string,
  qualifiedName: string,
  type: EntityTypeDefinition,
  problems: string[],
): Indexed<EntityTypeDefinition>[] {
  if (type.baseType === undefined) return [];
  if (index.entityType(type.baseType) === undefined) {
    problems.push(`${path} / BaseType: entity type '${type.baseType}' not found${suggestion(type.baseType, index.entityTypes.keys())}`);
    return [];
  }
  const chain = index.baseTypes(type);
  const last = chain[chain.length - 1];
  if (last.definition.baseType === undefined) return chain;
  const next = index.entityType(last.definition.baseType);
  // Unknown further up: reported on the type that names it. A cycle is reported once, on its smallest name.
  if (next === undefined || next.definition !== type) return [];
  const cycle = [qualifiedName, ...chain.map((c) => c.qualifiedName)];
  if (cycle.every((name) => qualifiedName <= name)) {
    problems.push(`${path} / BaseType: inheritance cycle ${[...cycle, qualifiedName].join(' -> ')}`);
  }
  return [];
}

function checkKey(path: string, type: EntityTypeDefinition, problems: string[]): void {
  const key = type.key ?? [];
  if (type.baseType !== undefined) {
    if (key.length > 0) problems.push(`${path} / Key: a derived entity type inherits its key and must not declare one`);
    return;
  }
  if (key.length === 0) {
    problems.push(`${path} / Key: a root entity type must declare a key`);
    return;
  }
  const seen = new Set<string>();
  for (const name of key) {
    if (seen.has(name)) problems.push(`${path} / Key: property '${name}' is listed twice`);
    seen.add(name);
    const property = (type.properties ?? []).find((p) => p.name === name);
    if (property === undefined) {
      problems.push(
        `${path} / Key: property '${name}' not found${suggestion(
          name,
          (type.properties ?? []).map((p) => p.name),
        )}`,
      );
    } else if (!isPrimitiveTypeName(property.type)) {
      problems.push(`${path} / Key: property '${name}' is of type '${property.type}'; key properties must be primitive`);
    } else if (property.nullable === true) {
      problems.push(`${path} / Key: property '${name}' must not be nullable`);
    }
  }
}

/** Check structural properties; returns their names. */
function checkProperties(index: DefinitionIndex, path: string, properties: readonly PropertyDefinition[] | undefined, problems: string[]): Set<string> {
  const names = new Set<string>();
  for (const property of properties ?? []) {
    const propertyPath = `${path} / Property '${property.name}'`;
    if (!isSimpleIdentifier(property.name)) problems.push(`${propertyPath}: invalid name`);
    if (names.has(property.name)) problems.push(`${propertyPath}: duplicate name`);
    names.add(property.name);
    for (const detail of commonFacetProblems(property)) problems.push(`${propertyPath}: ${detail}`);
    if (property.feedCustomization !== undefined) {
      for (const detail of feedCustomizationProblems(property.feedCustomization)) problems.push(`${propertyPath}: ${detail}`);
    }
    if (isPrimitiveTypeName(property.type)) {
      for (const detail of primitiveFacetProblems(property.type, property)) problems.push(`${propertyPath}: ${detail}`);
      continue;
    }
    problems.push(...complexTypeProblems(index, propertyPath, property));
  }
  return names;
}

function complexTypeProblems(index: DefinitionIndex, propertyPath: string, property: PropertyDefinition): string[] {
  if (typeof property.type !== 'string' || parseTypeReference(property.type).collection) {
    return [`${propertyPath}: collection properties are not part of OData 2.0`];
  }
  if (index.complexType(property.type) === undefined) {
    if (index.entityType(property.type) !== undefined) return [`${propertyPath}: '${property.type}' is an entity type; use a NavigationProperty`];
    const candidates = [...PRIMITIVE_TYPES.keys(), ...index.complexTypes.keys()];
    return [`${propertyPath}: unknown type '${property.type}'${suggestion(property.type, candidates)}`];
  }
  const problems: string[] = [];
  const misplaced = (['maxLength', 'fixedLength', 'unicode', 'collation', 'precision', 'scale', 'defaultValue', 'mimeType'] as const).filter(
    (facet) => property[facet] !== undefined,
  );
  if (misplaced.length > 0) problems.push(`${propertyPath}: facets ${misplaced.join(', ')} do not apply to a complex type`);
  if (property.concurrencyMode === 'Fixed') problems.push(`${propertyPath}: ConcurrencyMode Fixed applies to primitive properties only`);
  return problems;
}

function checkComplexType(index: DefinitionIndex, schema: SchemaDefinition, type: ComplexTypeDefinition, problems: string[]): void {
  const path = `ComplexType '${schema.namespace}.${type.name}'`;
  checkProperties(index, path, type.properties, problems);
  // A complex type that contains itself has no finite instance.
  const self = `${schema.namespace}.${type.name}`;
  const seen = new Set<string>();
  const stack = (type.properties ?? []).map((p) => ({ property: p.name, type: p.type }));
  while (stack.length > 0) {
    const next = stack.pop();
    if (next === undefined) break;
    const target = index.complexType(next.type);
    if (target === undefined || seen.has(target.qualifiedName)) continue;
    if (target.qualifiedName === self) {
      problems.push(`${path} / Property '${next.property}': the complex type contains itself`);
      break;
    }
    seen.add(target.qualifiedName);
    for (const p of target.definition.properties ?? []) stack.push({ property: next.property, type: p.type });
  }
}

function checkNavigation(
  index: DefinitionIndex,
  path: string,
  typeName: string,
  bases: readonly Indexed<EntityTypeDefinition>[],
  nav: NavigationPropertyDefinition,
  problems: string[],
): void {
  const association = index.association(nav.relationship);
  if (association === undefined) {
    problems.push(`${path}: association '${nav.relationship}' not found${suggestion(nav.relationship, index.associations.keys())}`);
    return;
  }
  const roles = (association.definition.ends ?? []).map((end) => end.role);
  for (const [attribute, role] of [
    ['FromRole', nav.fromRole],
    ['ToRole', nav.toRole],
  ] as const) {
    if (!roles.includes(role))
      problems.push(`${path}: ${attribute} '${role}' is not a role of association '${association.qualifiedName}'${suggestion(role, roles)}`);
  }
  if (nav.fromRole === nav.toRole) problems.push(`${path}: FromRole and ToRole must be different roles`);
  const fromEnd = association.definition.ends?.find((end) => end.role === nav.fromRole);
  const fromType = fromEnd === undefined ? undefined : index.entityType(fromEnd.type);
  if (fromType === undefined) return;
  const own = [typeName, ...bases.map((b) => b.qualifiedName)];
  if (!own.includes(fromType.qualifiedName)) {
    problems.push(`${path}: FromRole '${nav.fromRole}' is played by '${fromType.qualifiedName}', not by '${typeName}' or one of its base types`);
  }
}

function checkAssociation(index: DefinitionIndex, schema: SchemaDefinition, association: AssociationDefinition, problems: string[]): void {
  const path = `Association '${schema.namespace}.${association.name}'`;
  // Typed as an array, not the definition's pair: JavaScript callers may pass any number of ends.
  const ends: readonly AssociationEndDefinition[] = association.ends ?? [];
  if (ends.length !== 2) {
    problems.push(`${path}: an association has exactly two ends, found ${ends.length}`);
    return;
  }
  if (ends[0].role === ends[1].role) problems.push(`${path}: both ends have the role '${ends[0].role}'`);
  for (const end of ends) {
    const endPath = `${path} / End '${end.role}'`;
    if (!isSimpleIdentifier(end.role)) problems.push(`${endPath}: invalid role name`);
    if (index.entityType(end.type) === undefined)
      problems.push(`${endPath}: entity type '${end.type}' not found${suggestion(end.type, index.entityTypes.keys())}`);
    if (!MULTIPLICITIES.has(end.multiplicity)) problems.push(`${endPath}: invalid multiplicity '${String(end.multiplicity)}' (use 0..1, 1 or *)`);
    if (end.onDelete !== undefined && end.onDelete !== 'Cascade' && end.onDelete !== 'None') {
      problems.push(`${endPath}: OnDelete Action must be Cascade or None, got '${String(end.onDelete)}'`);
    }
    // CSDL §2.1.x OnDelete: a cascade is declared on the end whose deletion propagates, never on a many end.
    if (end.onDelete === 'Cascade' && end.multiplicity === '*') problems.push(`${endPath}: OnDelete Cascade is not allowed on an end with multiplicity *`);
  }
  const constraint = association.referentialConstraint;
  if (constraint === undefined) return;
  const constraintPath = `${path} / ReferentialConstraint`;
  const principal = ends.find((end) => end.role === constraint.principal.role);
  const dependent = ends.find((end) => end.role === constraint.dependent.role);
  if (principal === undefined) problems.push(`${constraintPath}: Principal role '${constraint.principal.role}' is not a role of the association`);
  if (dependent === undefined) problems.push(`${constraintPath}: Dependent role '${constraint.dependent.role}' is not a role of the association`);
  if (principal === undefined || dependent === undefined) return;
  if (principal === dependent) problems.push(`${constraintPath}: Principal and Dependent must be different roles`);
  if (principal.multiplicity === '*') problems.push(`${constraintPath}: the Principal end must have multiplicity 1 or 0..1`);
  if (constraint.principal.propertyRefs.length !== constraint.dependent.propertyRefs.length) {
    problems.push(`${constraintPath}: Principal and Dependent list different numbers of properties`);
  }
  const principalType = index.entityType(principal.type);
  if (principalType !== undefined) {
    const root = [principalType, ...index.baseTypes(principalType.definition)].pop();
    const key = root?.definition.key ?? [];
    const refs = constraint.principal.propertyRefs;
    if (refs.length !== key.length || !refs.every((name) => key.includes(name))) {
      problems.push(`${constraintPath}: the Principal properties (${refs.join(', ')}) must be the key of '${principalType.qualifiedName}' (${key.join(', ')})`);
    }
  }
  const dependentType = index.entityType(dependent.type);
  if (dependentType !== undefined) {
    const all = [dependentType, ...index.baseTypes(dependentType.definition)].flatMap((t) => (t.definition.properties ?? []).map((p) => p.name));
    for (const name of constraint.dependent.propertyRefs) {
      if (!all.includes(name))
        problems.push(`${constraintPath}: Dependent property '${name}' not found on '${dependentType.qualifiedName}'${suggestion(name, all)}`);
    }
  }
}
