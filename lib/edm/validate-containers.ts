/**
 * Validation of entity containers: the default container, entity sets, association sets and
 * function imports (CSDL §2.1 EntityContainer; MS-ODATA §2.2.3.7.2 for m:IsDefaultEntityContainer
 * and m:HttpMethod). Part of the model validator.
 * @internal
 */
import type { EntityContainerDefinition, EntitySetDefinition, FunctionImportDefinition } from './definition';
import { isSimpleIdentifier, parseTypeReference, suggestion, type DefinitionIndex, type Indexed } from './definition-index';
import { isPrimitiveTypeName } from './primitives';
import { commonFacetProblems, primitiveFacetProblems } from './validate-facets';

const HTTP_METHODS: ReadonlySet<string> = new Set(['GET', 'POST', 'PUT', 'MERGE', 'DELETE']);
const PARAMETER_MODES: ReadonlySet<string> = new Set(['In', 'Out', 'InOut']);

/** Problems of every container, and of the choice of the default one. */
export function containerProblems(index: DefinitionIndex): string[] {
  const problems: string[] = [];
  const containers = index.containers;
  if (containers.length === 0) return ['Model: at least one EntityContainer is required'];
  const names = new Set<string>();
  for (const container of containers) {
    const path = `EntityContainer '${container.definition.name}'`;
    if (!isSimpleIdentifier(container.definition.name)) problems.push(`${path}: invalid name`);
    if (names.has(container.definition.name)) problems.push(`${path}: duplicate name`);
    names.add(container.definition.name);
    checkContainer(index, path, container, problems);
  }
  const marked = containers.filter((c) => c.definition.isDefaultEntityContainer === true);
  if (marked.length > 1) {
    problems.push(`Model: only one EntityContainer may be marked m:IsDefaultEntityContainer, found ${marked.map((c) => `'${c.definition.name}'`).join(', ')}`);
  } else if (marked.length === 0 && containers.length > 1) {
    problems.push('Model: several EntityContainers and none is marked m:IsDefaultEntityContainer="true"');
  }
  return problems;
}

function checkContainer(index: DefinitionIndex, path: string, indexed: Indexed<EntityContainerDefinition>, problems: string[]): void {
  const container = indexed.definition;
  // Entity sets, association sets and function imports share the container's name scope.
  const names = new Set<string>();
  const claim = (kind: string, name: string): void => {
    if (!isSimpleIdentifier(name)) problems.push(`${path} / ${kind} '${name}': invalid name`);
    if (names.has(name)) problems.push(`${path} / ${kind} '${name}': duplicate name in the container`);
    names.add(name);
  };
  const sets = new Map<string, EntitySetDefinition>();
  for (const set of container.entitySets ?? []) {
    claim('EntitySet', set.name);
    if (!sets.has(set.name)) sets.set(set.name, set);
    if (index.entityType(set.entityType) === undefined) {
      problems.push(`${path} / EntitySet '${set.name}': entity type '${set.entityType}' not found${suggestion(set.entityType, index.entityTypes.keys())}`);
    }
  }
  for (const associationSet of container.associationSets ?? []) {
    claim('AssociationSet', associationSet.name);
    const setPath = `${path} / AssociationSet '${associationSet.name}'`;
    const association = index.association(associationSet.association);
    if (association === undefined) {
      problems.push(`${setPath}: association '${associationSet.association}' not found${suggestion(associationSet.association, index.associations.keys())}`);
      continue;
    }
    const ends = associationSet.ends ?? [];
    const roles = association.definition.ends.map((end) => end.role);
    if (ends.length !== 2 || ends[0].role === ends[1].role || !ends.every((end) => roles.includes(end.role))) {
      problems.push(
        `${setPath}: the ends (${ends.map((e) => `'${e.role}'`).join(', ')}) must name the two roles of '${association.qualifiedName}' (${roles.map((r) => `'${r}'`).join(', ')})`,
      );
    }
    for (const end of ends) {
      const set = sets.get(end.entitySet);
      if (set === undefined) {
        problems.push(`${setPath} / End '${end.role}': entity set '${end.entitySet}' not found${suggestion(end.entitySet, sets.keys())}`);
        continue;
      }
      const associationEnd = association.definition.ends.find((e) => e.role === end.role);
      const endType = associationEnd === undefined ? undefined : index.entityType(associationEnd.type);
      const setType = index.entityType(set.entityType);
      if (endType === undefined || setType === undefined) continue;
      const setTypes = [setType, ...index.baseTypes(setType.definition)].map((t) => t.qualifiedName);
      if (!setTypes.includes(endType.qualifiedName)) {
        problems.push(`${setPath} / End '${end.role}': entity set '${set.name}' holds '${setType.qualifiedName}', not '${endType.qualifiedName}'`);
      }
    }
  }
  for (const functionImport of container.functionImports ?? []) {
    claim('FunctionImport', functionImport.name);
    checkFunctionImport(index, `${path} / FunctionImport '${functionImport.name}'`, functionImport, sets, problems);
  }
}

function checkFunctionImport(
  index: DefinitionIndex,
  path: string,
  functionImport: FunctionImportDefinition,
  sets: ReadonlyMap<string, EntitySetDefinition>,
  problems: string[],
): void {
  if (functionImport.httpMethod !== undefined && !HTTP_METHODS.has(functionImport.httpMethod)) {
    problems.push(`${path}: m:HttpMethod must be GET, POST, PUT, MERGE or DELETE, got '${String(functionImport.httpMethod)}'`);
  }
  const set = functionImport.entitySet === undefined ? undefined : sets.get(functionImport.entitySet);
  if (functionImport.entitySet !== undefined && set === undefined) {
    problems.push(`${path}: entity set '${functionImport.entitySet}' not found${suggestion(functionImport.entitySet, sets.keys())}`);
  }
  if (functionImport.returnType !== undefined) {
    const { name } = parseTypeReference(functionImport.returnType);
    const entityType = index.entityType(name);
    if (entityType !== undefined) {
      if (functionImport.entitySet === undefined) problems.push(`${path}: returns entities of '${entityType.qualifiedName}' but names no EntitySet`);
      const setType = set === undefined ? undefined : index.entityType(set.entityType);
      if (set !== undefined && setType !== undefined) {
        const setTypes = [setType, ...index.baseTypes(setType.definition)].map((t) => t.qualifiedName);
        if (!setTypes.includes(entityType.qualifiedName)) {
          problems.push(`${path}: entity set '${set.name}' holds '${setType.qualifiedName}', not '${entityType.qualifiedName}'`);
        }
      }
    } else if (!isPrimitiveTypeName(name) && index.complexType(name) === undefined) {
      problems.push(
        `${path}: unknown return type '${functionImport.returnType}'${suggestion(name, [...index.entityTypes.keys(), ...index.complexTypes.keys()])}`,
      );
    } else if (functionImport.entitySet !== undefined) {
      problems.push(`${path}: EntitySet applies only to entity results, not to '${functionImport.returnType}'`);
    }
  } else if (functionImport.entitySet !== undefined) {
    problems.push(`${path}: EntitySet given but no ReturnType`);
  }
  const names = new Set<string>();
  for (const parameter of functionImport.parameters ?? []) {
    const parameterPath = `${path} / Parameter '${parameter.name}'`;
    if (!isSimpleIdentifier(parameter.name)) problems.push(`${parameterPath}: invalid name`);
    if (names.has(parameter.name)) problems.push(`${parameterPath}: duplicate name`);
    names.add(parameter.name);
    if (parameter.mode !== undefined && !PARAMETER_MODES.has(parameter.mode)) {
      problems.push(`${parameterPath}: Mode must be In, Out or InOut, got '${String(parameter.mode)}'`);
    }
    for (const detail of commonFacetProblems(parameter)) problems.push(`${parameterPath}: ${detail}`);
    if (!isPrimitiveTypeName(parameter.type)) {
      problems.push(`${parameterPath}: type '${parameter.type}' is not primitive; OData 2.0 service operations take primitive parameters`);
      continue;
    }
    for (const detail of primitiveFacetProblems(parameter.type, parameter)) problems.push(`${parameterPath}: ${detail}`);
  }
}
