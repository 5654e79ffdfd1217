/** `defineModel`: the TypeScript way to describe a model, as a whole definition or as one schema. */
import { buildModel } from './build';
import type { ModelDefinition, SchemaDefinition } from './definition';
import type { EdmModel } from './model';

/** One schema written inline, with the model-level options beside its fields. */
export interface SingleSchemaDefinition extends SchemaDefinition {
  /** Extra XML namespace prefixes for annotations (as `ModelDefinition.namespaces`). */
  readonly namespaces?: ModelDefinition['namespaces'];
  /** Force `m:DataServiceVersion` (as `ModelDefinition.dataServiceVersion`). */
  readonly dataServiceVersion?: ModelDefinition['dataServiceVersion'];
}

/** The single-schema shorthand as a full definition (model-level options lifted out of the schema). */
export function toModelDefinition(definition: ModelDefinition | SingleSchemaDefinition): ModelDefinition {
  if ('schemas' in definition) return definition;
  const { namespaces, dataServiceVersion, ...schema } = definition;
  return {
    schemas: [schema],
    ...(namespaces !== undefined ? { namespaces } : {}),
    ...(dataServiceVersion !== undefined ? { dataServiceVersion } : {}),
  };
}

/** Validate and build a model from TypeScript; throws `MODEL_INVALID` listing every problem. */
export function defineModel(definition: ModelDefinition | SingleSchemaDefinition): EdmModel {
  return buildModel(toModelDefinition(definition));
}
