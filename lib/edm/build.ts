/**
 * `buildModel`: validate a `ModelDefinition`, resolve every name into the object graph of model.ts,
 * index it, and freeze it. This is the only place an `EdmModel` is made; after it nothing changes.
 */
import type { FunctionImportDefinition, ModelDefinition, SchemaDefinition } from './definition';
import { DefinitionIndex, parseTypeReference } from './definition-index';
import { deepFreeze, FrozenMap } from './frozen';
import type {
  EdmAssociationSet,
  EdmEntityContainer,
  EdmEntitySet,
  EdmEntityType,
  EdmFunctionImport,
  EdmFunctionImportParameter,
  EdmModel,
  EdmNavigationProperty,
  EdmReturnType,
  EdmSchema,
} from './model';
import { modelDataServiceVersion } from './model-version';
import { isPrimitiveTypeName } from './primitives';
import { annotationsOf, buildTypes, facetsOf, type TypeGraph } from './build-types';
import { validateModel } from './validate';

/** Validate and resolve a definition into an immutable model; throws `MODEL_INVALID` listing every problem. */
export function buildModel(definition: ModelDefinition): EdmModel {
  validateModel(definition);
  // A private frozen copy: later changes to the caller's objects cannot reach the model.
  const own = deepFreeze(structuredClone(definition));
  const index = new DefinitionIndex(own);
  const graph = buildTypes(index);
  const defaultName = index.defaultContainer()?.definition;
  const schemas: EdmSchema[] = [];
  const containers: EdmEntityContainer[] = [];
  for (const schema of own.schemas) {
    const types = graph.bySchema.get(schema);
    const schemaContainers = (schema.entityContainers ?? []).map((c) => buildContainer(schema, c, c === defaultName, index, graph));
    containers.push(...schemaContainers);
    schemas.push({
      namespace: schema.namespace,
      alias: schema.alias,
      entityTypes: types?.entityTypes ?? [],
      complexTypes: types?.complexTypes ?? [],
      associations: types?.associations ?? [],
      entityContainers: schemaContainers,
      vocabularyAnnotations: schema.vocabularyAnnotations ?? [],
      ...annotationsOf(schema),
    });
  }
  const defaultContainer = containers.find((c) => c.isDefault);
  if (defaultContainer === undefined) throw new Error('no default container'); // unreachable after validation

  const navigationTargets = navigationTargetTable(containers);
  const setsOf = entitySetsByType(graph, defaultContainer);
  const model: EdmModel = {
    schemas,
    defaultContainer,
    dataServiceVersion: modelDataServiceVersion(own),
    definition: own,
    entityTypes: withAliases(own.schemas, graph.entityTypes),
    complexTypes: withAliases(own.schemas, graph.complexTypes),
    associations: withAliases(own.schemas, graph.associations),
    entitySets: new FrozenMap(defaultContainer.entitySets.map((s) => [s.name, s])),
    functionImports: new FrozenMap(defaultContainer.functionImports.map((f) => [f.name, f])),
    navigationTarget: (source, navigation) => navigationTargets.get(source)?.get(navigation),
    entitySetsOf: (type) => setsOf.get(type) ?? [],
  };
  return deepFreeze(model);
}

/** Lookups by `Namespace.Name` and by `Alias.Name`. */
function withAliases<T>(schemas: readonly SchemaDefinition[], byQualifiedName: ReadonlyMap<string, T>): ReadonlyMap<string, T> {
  const entries: [string, T][] = [...byQualifiedName];
  for (const schema of schemas) {
    if (schema.alias === undefined) continue;
    const prefix = `${schema.namespace}.`;
    for (const [name, value] of byQualifiedName) {
      if (name.startsWith(prefix) && !name.slice(prefix.length).includes('.')) entries.push([`${schema.alias}.${name.slice(prefix.length)}`, value]);
    }
  }
  return new FrozenMap(entries);
}

function buildContainer(
  schema: SchemaDefinition,
  definition: NonNullable<SchemaDefinition['entityContainers']>[number],
  isDefault: boolean,
  index: DefinitionIndex,
  graph: TypeGraph,
): EdmEntityContainer {
  const entitySets: EdmEntitySet[] = [];
  const associationSets: EdmAssociationSet[] = [];
  const functionImports: EdmFunctionImport[] = [];
  const container: EdmEntityContainer = {
    kind: 'EntityContainer',
    name: definition.name,
    namespace: schema.namespace,
    isDefault,
    entitySets,
    associationSets,
    functionImports,
    ...annotationsOf(definition),
  };
  const entityType = (name: string): EdmEntityType => {
    const type = graph.entityTypes.get(index.qualify(name) ?? '');
    if (type === undefined) throw new Error(`unresolved entity type ${name}`); // unreachable after validation
    return type;
  };
  for (const set of definition.entitySets ?? []) {
    entitySets.push({ kind: 'EntitySet', name: set.name, entityType: entityType(set.entityType), container, ...annotationsOf(set) });
  }
  const setByName = new Map(entitySets.map((s) => [s.name, s]));
  for (const set of definition.associationSets ?? []) {
    const association = graph.associations.get(index.qualify(set.association) ?? '');
    if (association === undefined) throw new Error(`unresolved association ${set.association}`); // unreachable after validation
    const end = (i: 0 | 1): EdmAssociationSet['ends'][number] => {
      const associationEnd = association.ends.find((e) => e.role === set.ends[i].role);
      const entitySet = setByName.get(set.ends[i].entitySet);
      if (associationEnd === undefined || entitySet === undefined) throw new Error(`unresolved association set end ${set.name}`);
      return { role: set.ends[i].role, end: associationEnd, entitySet };
    };
    associationSets.push({ kind: 'AssociationSet', name: set.name, association, ends: [end(0), end(1)], ...annotationsOf(set) });
  }
  for (const functionImport of definition.functionImports ?? []) {
    functionImports.push(buildFunctionImport(functionImport, container, setByName, index, graph));
  }
  return container;
}

function buildFunctionImport(
  definition: FunctionImportDefinition,
  container: EdmEntityContainer,
  sets: ReadonlyMap<string, EdmEntitySet>,
  index: DefinitionIndex,
  graph: TypeGraph,
): EdmFunctionImport {
  let returnType: EdmReturnType | undefined;
  if (definition.returnType !== undefined) {
    const { collection, name } = parseTypeReference(definition.returnType);
    const qualified = index.qualify(name) ?? '';
    const entity = graph.entityTypes.get(qualified);
    const complex = graph.complexTypes.get(qualified);
    if (isPrimitiveTypeName(name)) returnType = { kind: 'Primitive', name, collection };
    else if (entity !== undefined) returnType = { kind: 'Entity', type: entity, collection };
    else if (complex !== undefined) returnType = { kind: 'Complex', type: complex, collection };
  }
  const parameters: EdmFunctionImportParameter[] = (definition.parameters ?? []).map((parameter) => {
    if (!isPrimitiveTypeName(parameter.type)) throw new Error(`unresolved parameter type ${parameter.type}`); // unreachable after validation
    return {
      name: parameter.name,
      type: { kind: 'Primitive', name: parameter.type },
      mode: parameter.mode,
      ...facetsOf(parameter),
      ...annotationsOf(parameter),
    };
  });
  return {
    kind: 'FunctionImport',
    name: definition.name,
    container,
    returnType,
    entitySet: definition.entitySet === undefined ? undefined : sets.get(definition.entitySet),
    httpMethod: definition.httpMethod,
    parameters,
    parametersByName: new FrozenMap(parameters.map((p) => [p.name, p])),
    ...annotationsOf(definition),
  };
}

/** For each entity set, navigation property to the entity set it reaches, from the association sets. */
function navigationTargetTable(containers: readonly EdmEntityContainer[]): Map<EdmEntitySet, Map<EdmNavigationProperty, EdmEntitySet>> {
  const table = new Map<EdmEntitySet, Map<EdmNavigationProperty, EdmEntitySet>>();
  for (const container of containers) {
    for (const associationSet of container.associationSets) {
      for (const [from, to] of [
        [0, 1],
        [1, 0],
      ] as const) {
        const source = associationSet.ends[from].entitySet;
        const target = associationSet.ends[to].entitySet;
        // Entries of a set may be of the set's type or of any type derived from it.
        for (const type of [source.entityType, ...source.entityType.derivedTypes]) {
          for (const navigation of type.navigationProperties) {
            if (navigation.relationship !== associationSet.association || navigation.fromEnd.role !== associationSet.ends[from].role) continue;
            let row = table.get(source);
            if (row === undefined) table.set(source, (row = new Map<EdmNavigationProperty, EdmEntitySet>()));
            row.set(navigation, target);
          }
        }
      }
    }
  }
  return table;
}

/** For each entity type, the default container's sets that can hold it (its own type or a base type). */
function entitySetsByType(graph: TypeGraph, container: EdmEntityContainer): Map<EdmEntityType, readonly EdmEntitySet[]> {
  const table = new Map<EdmEntityType, readonly EdmEntitySet[]>();
  for (const type of graph.entityTypes.values()) {
    const lineage = new Set<EdmEntityType>();
    for (let t: EdmEntityType | undefined = type; t !== undefined; t = t.baseType) lineage.add(t);
    table.set(
      type,
      container.entitySets.filter((set) => lineage.has(set.entityType)),
    );
  }
  return table;
}
