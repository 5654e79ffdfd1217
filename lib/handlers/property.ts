/**
 * Reads of single properties: `Products(1)/Name`, `Suppliers(0)/Address/City` (application/xml or
 * JSON) and their raw `$value` (text/plain or application/octet-stream).
 */
import { ODataError } from '../errors';
import type { EdmPropertyTypeRef } from '../edm/model';
import { isPrimitiveValue } from '../edm/primitives';
import type { PropertyValue } from '../edm/primitives';
import { formatRawValue, inferPrimitiveType } from '../edm';
import type { Entity } from '../provider/types';
import type { PropertyPath, PropertyStep } from '../uri/types';
import type { Handler, HandlerContext } from './context';
import { etagHeaders, readCondition } from './preconditions';
import { loadEntity } from './query-request';

/** Walk from an entity down the property steps; `undefined` type for dynamic properties. */
export function propertyValueOf(entity: Entity, steps: readonly PropertyStep[]): { name: string; type: EdmPropertyTypeRef | undefined; value: PropertyValue } {
  let current: unknown = entity;
  let type: EdmPropertyTypeRef | undefined;
  let name = '';
  for (const step of steps) {
    name = step.kind === 'Property' ? step.property.name : step.name;
    type = step.kind === 'Property' ? step.property.type : undefined;
    current = current !== null && typeof current === 'object' ? (current as Record<string, unknown>)[name] : null;
    if (current === undefined) current = null;
  }
  return { name, type, value: current as PropertyValue };
}

/**
 * The entity a property read addresses, its ETag header, and whether the read's preconditions
 * (If-Match 412, If-None-Match 304; RFC 7232) let it answer.
 */
async function conditionalEntity(context: HandlerContext<PropertyPath>): Promise<{ entity: Entity; headers: Record<string, string>; notModified: boolean }> {
  const target = context.path;
  const entity = await loadEntity(context, target);
  const headers = etagHeaders(context, target.entityType, entity);
  return { entity, headers, notModified: readCondition(context, target.entityType, headers.etag) === 'not-modified' };
}

/** GET on a primitive or complex property. */
export const readProperty: Handler<PropertyPath<'ComplexProperty' | 'PrimitiveProperty'>> = async (context) => {
  const { entity, headers, notModified } = await conditionalEntity(context);
  if (notModified) return { result: { kind: 'NoContent' }, status: 304, headers };
  const { properties } = context.path;
  const { name, type, value } = propertyValueOf(entity, properties);
  return { result: { kind: 'Property', name, type, value }, headers };
};

/** GET on `.../$value` of a primitive property: the raw value; a null value has no raw form (404). */
export const readPropertyValue: Handler<PropertyPath<'PropertyValue'>> = async (context) => {
  const { entity, headers, notModified } = await conditionalEntity(context);
  if (notModified) return { result: { kind: 'NoContent' }, status: 304, headers };
  const { properties } = context.path;
  const { name, type, value } = propertyValueOf(entity, properties);
  if (value === null) throw ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: `${name}/$value` });
  if (!isPrimitiveValue(value)) {
    throw ODataError.fromCode('URI_INVALID_SEGMENT', { segment: '$value', detail: 'a complex value has no raw form' });
  }
  const primitiveName = type?.kind === 'Primitive' ? type.name : inferPrimitiveType(value);
  const last = properties[properties.length - 1];
  const declaredMime = last?.kind === 'Property' ? last.property.mimeType : undefined;
  const contentType = declaredMime ?? (primitiveName === 'Edm.Binary' ? 'application/octet-stream' : 'text/plain;charset=utf-8');
  const raw = formatRawValue(primitiveName, value);
  return { result: { kind: 'RawValue', contentType, body: typeof raw === 'string' ? raw : Buffer.from(raw) }, headers };
};
