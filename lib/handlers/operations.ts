/**
 * Service operations (FunctionImport, MS-ODATA §2.2.3.4 "Service Operations"): invoked by the
 * method `m:HttpMethod` declares, parameters parsed from the query string as EDM literals of their
 * declared types, and results of every kind. Entity collections compose with the query options.
 */
import { ODataError } from '../errors';
import { convertLiteral, formatRawValue, parseLiteral } from '../edm';
import type { EdmEntitySet, EdmEntityType, EdmFunctionImport } from '../edm/model';
import type { PropertyValue } from '../edm/primitives';
import { expectComplex, expectPrimitive, isComplexValue, isEntity, isPrimitiveValue } from '../format/value-guards';
import { applyQuery, type NavigationAccess } from '../evaluate/evaluate';
import type { Entity, OperationResult } from '../provider/types';
import type { HandlerOutcome } from '../result';
import { shapedResultOf, withKeyTieBreaker } from '../uri';
import type { ServiceOperationShape, ShapeReturnType } from '../uri';
import type { ServiceOperationPath } from '../uri/types';
import type { Handler, HandlerContext } from './context';
import { readByKeys } from './batched-read';
import { navigationExpansion } from './paging';

/** Parameters as typed EDM values: 400 for a missing or malformed one. */
function operationParameters(functionImport: EdmFunctionImport, custom: Readonly<Record<string, string>>): Record<string, PropertyValue> {
  const parameters: Record<string, PropertyValue> = {};
  for (const parameter of functionImport.parameters) {
    const raw = custom[parameter.name];
    if (raw === undefined) {
      throw ODataError.fromCode('QUERY_INVALID_VALUE', {
        option: parameter.name,
        value: '',
        detail: `the parameter '${parameter.name}' of ${functionImport.name} is required`,
      });
    }
    let converted: PropertyValue | undefined;
    try {
      converted = convertLiteral(parseLiteral(raw), parameter.type.name);
    } catch {
      converted = undefined;
    }
    if (converted === undefined || (converted === null && !parameter.nullable)) {
      throw ODataError.fromCode('QUERY_INVALID_VALUE', { option: parameter.name, value: raw, detail: `expected a literal of type ${parameter.type.name}` });
    }
    parameters[parameter.name] = converted;
  }
  return parameters;
}

function isEntityList(value: OperationResult): value is readonly Entity[] {
  return Array.isArray(value);
}

function isList(value: OperationResult): value is readonly Entity[] | readonly PropertyValue[] {
  return Array.isArray(value);
}

/** One invocation's answer as its writers see it. */
interface Invocation {
  readonly context: HandlerContext<ServiceOperationPath>;
  readonly functionImport: EdmFunctionImport;
  /** What the provider's operation returned. */
  readonly value: OperationResult;
}

/**
 * Operation results with `$expand` applied: the entities read again by key with the expand tree,
 * batched (a provider query per `KEYS_PER_READ` keys, never one per entity); an entity the
 * provider does not find is written as the operation returned it.
 */
async function withExpansions(context: HandlerContext<ServiceOperationPath>, entities: readonly Entity[]): Promise<readonly Entity[]> {
  const entitySet = context.path.functionImport.entitySet;
  if (entitySet === undefined || context.query.selectExpand.expand.length === 0 || entities.length === 0) return entities;
  const expanded = await readByKeys(context, entitySet, entities, context.query.selectExpand);
  return entities.map((entity, index) => expanded[index] ?? entity);
}

/**
 * How `$filter` and `$orderby` reach the navigation they read (`Category/Name`) from an operation's
 * entities, which hold none: the related entities read for all of them with the batched reads
 * above; undefined when neither option navigates. An entity the provider does not find keeps
 * what it holds itself.
 */
async function navigationOf(
  context: HandlerContext<ServiceOperationPath>,
  entitySet: EdmEntitySet,
  entities: readonly Entity[],
): Promise<NavigationAccess | undefined> {
  const { filter, orderBy } = context.query;
  const expansion = navigationExpansion([filter, ...orderBy.map(({ expression }) => expression)], entitySet, context.config.options.model);
  if (expansion === undefined || entities.length === 0) return undefined;
  const loaded = await readByKeys(context, entitySet, entities, expansion);
  const loadedOf = new Map<Entity, Entity>();
  entities.forEach((entity, index) => {
    const read = loaded[index];
    if (read !== undefined) loadedOf.set(entity, read);
  });
  return (holder, property) => {
    const related = (loadedOf.get(holder) ?? holder)[property.name];
    return isEntity(related) ? related : null;
  };
}

/** The entity set of an operation returning entities (the model validator requires one). */
function entitySetOf(functionImport: EdmFunctionImport): EdmEntitySet {
  const { entitySet } = functionImport;
  if (entitySet === undefined) throw ODataError.fromCode('INTERNAL');
  return entitySet;
}

/** The entities of a collection result, `$filter`, `$orderby`, paging and the count applied here (MS-ODATA §2.2.3.5). */
async function queriedEntities(
  { context, functionImport, value }: Invocation,
  entityType: EdmEntityType,
  wantsCount: boolean,
): Promise<{ entities: readonly Entity[]; count: number | undefined }> {
  const { query } = context;
  const entities = isEntityList(value) ? value : [];
  const navigate = await navigationOf(context, entitySetOf(functionImport), entities);
  return applyQuery(
    entities,
    {
      filter: query.filter,
      orderBy: withKeyTieBreaker(query.orderBy, entityType),
      skip: query.skip,
      top: query.top,
      skipToken: query.skipToken,
      count: wantsCount,
    },
    navigate,
  );
}

/** The items of a collection result, each a primitive, complex value or null (a provider's mistake is a logged 500). */
function collectionItems({ functionImport, value }: Invocation): PropertyValue[] {
  const items: PropertyValue[] = [];
  if (!isList(value)) return items;
  for (const item of value) {
    if (item !== null && !isPrimitiveValue(item) && !isComplexValue(item)) {
      throw new TypeError(`The service operation ${functionImport.name} returned a collection item that is not a value.`);
    }
    items.push(item);
  }
  return items;
}

type ResultWriters = {
  readonly [S in ServiceOperationShape]: (invocation: Invocation, returnType: ShapeReturnType<S>) => Promise<HandlerOutcome>;
};

/** How each result shape (Olingo URI10..URI14, URI1 for entity feeds) becomes a response. */
const RESULT_WRITERS: ResultWriters = {
  Void: async () => ({ result: { kind: 'NoContent' }, status: 204 }),

  Entity: async (invocation, returnType) => {
    const { context, functionImport, value } = invocation;
    const entitySet = entitySetOf(functionImport);
    if (value === null || value === undefined || isEntityList(value)) throw ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: functionImport.name });
    if (!isEntity(value)) throw new TypeError(`The service operation ${functionImport.name} returned a value that is not an entity.`);
    const [entity] = await withExpansions(context, [value]);
    return { result: { kind: 'Entry', entitySet, entityType: returnType.type, entity, selectExpand: context.query.selectExpand } };
  },

  EntityCollection: async (invocation, returnType) => {
    const { context, functionImport } = invocation;
    const entitySet = entitySetOf(functionImport);
    const { query } = context;
    const page = await queriedEntities(invocation, returnType.type, query.inlineCount === 'allpages');
    return {
      result: {
        kind: 'Feed',
        entitySet,
        entityType: returnType.type,
        selfPath: functionImport.name,
        title: functionImport.name,
        entities: await withExpansions(context, page.entities),
        count: query.inlineCount === 'allpages' ? page.count : undefined,
        nextLink: undefined,
        selectExpand: query.selectExpand,
      },
    };
  },

  Count: async (invocation, returnType) => {
    const page = await queriedEntities(invocation, returnType.type, true);
    return { result: { kind: 'Count', count: page.count ?? page.entities.length } };
  },

  // `Operation/$value` of a single primitive result: its raw form, as for a property's $value.
  Value: async ({ functionImport, value }, returnType) => {
    if (value === null || value === undefined) throw ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: `${functionImport.name}/$value` });
    const raw = formatRawValue(returnType.name, expectPrimitive(value, functionImport.name, returnType.name));
    const contentType = returnType.name === 'Edm.Binary' ? 'application/octet-stream' : 'text/plain;charset=utf-8';
    return { result: { kind: 'RawValue', contentType, body: typeof raw === 'string' ? raw : Buffer.from(raw) } };
  },

  PrimitiveCollection: async (invocation, returnType) => ({
    result: { kind: 'Collection', name: invocation.functionImport.name, itemType: returnType, values: collectionItems(invocation) },
  }),

  ComplexCollection: async (invocation, returnType) => ({
    result: { kind: 'Collection', name: invocation.functionImport.name, itemType: returnType, values: collectionItems(invocation) },
  }),

  Primitive: async ({ functionImport, value }, returnType) => ({
    result: {
      kind: 'Property',
      name: functionImport.name,
      type: { kind: 'Primitive', name: returnType.name },
      value: value === null || value === undefined ? null : expectPrimitive(value, functionImport.name, returnType.name),
    },
  }),

  Complex: async ({ functionImport, value }, returnType) => ({
    result: {
      kind: 'Property',
      name: functionImport.name,
      type: { kind: 'Complex', type: returnType.type },
      value: value === null || value === undefined ? null : expectComplex(value, functionImport.name, returnType.type.qualifiedName),
    },
  }),
};

function writeShaped<S extends ServiceOperationShape>(invocation: Invocation, shape: S, returnType: ShapeReturnType<S>): Promise<HandlerOutcome> {
  return RESULT_WRITERS[shape](invocation, returnType);
}

/** Invoke a service operation by the method it declares (the dispatch table refuses the others with 405). */
export const invokeOperation: Handler<ServiceOperationPath> = async (context) => {
  const { functionImport, suffix } = context.path;
  const implementation = context.config.options.provider.operations?.[functionImport.name];
  if (implementation === undefined) throw ODataError.fromCode('NOT_IMPLEMENTED', { feature: `The service operation ${functionImport.name}` });
  const parameters = operationParameters(functionImport, context.query.custom);
  const value = await implementation({ functionImport, parameters }, context.request.context);
  const shaped = shapedResultOf(functionImport, suffix);
  return writeShaped({ context, functionImport, value }, shaped.shape, shaped.returnType);
};
