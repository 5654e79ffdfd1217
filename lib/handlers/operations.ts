/**
 * Service operations (FunctionImport, MS-ODATA §2.2.3.4 "Service Operations"): invoked by the
 * method `m:HttpMethod` declares, parameters parsed from the query string as EDM literals of their
 * declared types, and results of every kind. Entity collections compose with the query options.
 */
import { ODataError } from '../errors';
import { convertLiteral, formatRawValue, parseLiteral } from '../edm';
import type { EdmFunctionImport } from '../edm/model';
import type { PrimitiveValue, PropertyValue } from '../edm/primitives';
import { applyQuery } from '../provider/evaluate';
import type { Entity, OperationResult } from '../provider/types';
import { withKeyTieBreaker } from '../uri';
import type { ServiceOperationPath } from '../uri/types';
import type { Handler, HandlerContext } from './context';
import { collect, entityQuery, keyOfEntity } from './query-request';


/** Parameters as typed EDM values: 400 for a missing or malformed one. */
export function operationParameters(functionImport: EdmFunctionImport, custom: Readonly<Record<string, string>>): Record<string, PropertyValue> {
  const parameters: Record<string, PropertyValue> = {};
  for (const parameter of functionImport.parameters) {
    const raw = custom[parameter.name];
    if (raw === undefined) {
      throw ODataError.fromCode('QUERY_INVALID_VALUE', { option: parameter.name, value: '', detail: `the parameter '${parameter.name}' of ${functionImport.name} is required` });
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

/** Expanded navigation for operation results: re-read each entity by key with the expand tree. */
async function withExpansions(context: HandlerContext, path: ServiceOperationPath, entities: readonly Entity[]): Promise<readonly Entity[]> {
  const entitySet = path.functionImport.entitySet;
  if (entitySet === undefined || context.query.selectExpand.expand.length === 0) return entities;
  const type = entitySet.entityType;
  return Promise.all(
    entities.map(async (entity) => {
      const target = { path: { root: { entitySet, key: keyOfEntity(type, entity) }, navigation: [] }, entitySet, entityType: type };
      const result = await context.config.options.provider.query(entityQuery(target, { ...context.query, filter: undefined }), context.request.context);
      const [expanded] = await collect(result.entities);
      return expanded ?? entity;
    }),
  );
}

/** Invoke a service operation by the method it declares (the dispatch table refuses the others with 405). */
export const invokeOperation: Handler<ServiceOperationPath> = async (context) => {
  const { path } = context;
  const { functionImport } = path;
  const implementation = context.config.options.provider.operations?.[functionImport.name];
  if (implementation === undefined) throw ODataError.fromCode('NOT_IMPLEMENTED', { feature: `The service operation ${functionImport.name}` });
  const parameters = operationParameters(functionImport, context.query.custom);
  const value = await implementation({ functionImport, parameters }, context.request.context);
  const returnType = functionImport.returnType;
  if (returnType === undefined) return { result: { kind: 'NoContent' }, status: 204 };

  if (returnType.kind === 'Entity') {
    const entitySet = functionImport.entitySet;
    if (entitySet === undefined) throw ODataError.fromCode('INTERNAL');
    if (!returnType.collection) {
      if (value === null || value === undefined || isEntityList(value)) throw ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: functionImport.name });
      const [entity] = await withExpansions(context, path, [value as Entity]);
      return { result: { kind: 'Entry', entitySet, entityType: returnType.type, entity, selectExpand: context.query.selectExpand } };
    }
    const list = isEntityList(value) ? value : [];
    const { query } = context;
    const wantsCount = query.inlineCount === 'allpages' || path.suffix === 'count';
    const page = applyQuery(list, {
      filter: query.filter,
      orderBy: withKeyTieBreaker(query.orderBy, returnType.type),
      skip: query.skip,
      top: query.top,
      skipToken: query.skipToken,
      count: wantsCount,
    });
    if (path.suffix === 'count') return { result: { kind: 'Count', count: page.count ?? page.entities.length } };
    return {
      result: {
        kind: 'Feed',
        entitySet,
        entityType: returnType.type,
        selfPath: functionImport.name,
        title: functionImport.name,
        entities: await withExpansions(context, path, page.entities),
        count: query.inlineCount === 'allpages' ? page.count : undefined,
        nextLink: undefined,
        selectExpand: query.selectExpand,
      },
    };
  }

  if (path.suffix === 'value') {
    // `Operation/$value` of a single primitive result: its raw form, as for a property's $value.
    if (returnType.kind !== 'Primitive' || returnType.collection) {
      throw ODataError.fromCode('URI_INVALID_SEGMENT', { segment: '$value', detail: 'only a single primitive result has a raw value' });
    }
    if (value === null || value === undefined) throw ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: `${functionImport.name}/$value` });
    const raw = formatRawValue(returnType.name, value as PrimitiveValue);
    const contentType = returnType.name === 'Edm.Binary' ? 'application/octet-stream' : 'text/plain;charset=utf-8';
    return { result: { kind: 'RawValue', contentType, body: typeof raw === 'string' ? raw : Buffer.from(raw) } };
  }
  if (returnType.collection) {
    const values = Array.isArray(value) ? (value as readonly PropertyValue[]) : [];
    return { result: { kind: 'Collection', name: functionImport.name, itemType: returnType, values } };
  }
  const single = (value ?? null) as PropertyValue;
  const type = returnType.kind === 'Primitive' ? { kind: 'Primitive' as const, name: returnType.name } : { kind: 'Complex' as const, type: returnType.type };
  return { result: { kind: 'Property', name: functionImport.name, type, value: single } };
};
