/**
 * Writes of single properties (MS-ODATA §2.2.7.3.2 "UpdatePrimitiveProperty", §2.2.7.3.3
 * "UpdateComplexProperty", §2.2.7.3.4 "UpdateValue"): PUT with an XML/JSON property body or a raw
 * `$value`, and DELETE on `$value` to set a nullable property to null. MERGE on a property is 405
 * (the dispatch table has no row for it).
 */
import { ODataError } from '../errors';
import { parseRawValue, checkFacets } from '../edm';
import type { PropertyValue } from '../edm/primitives';
import type { EntityKey, PropertyStep } from '../uri/types';
import type { Handler, HandlerContext } from './context';
import { readPropertyBody, requireBody } from './body';
import { preconditionOf } from './preconditions';
import { keyOfEntity, loadEntity } from './query-request';
import { targetOf } from './read';
import { etagHeaders, keyOf } from './update';

type PropertyPath = { readonly properties: readonly PropertyStep[] };

/** Rebuild the top-level property value with the member at the end of `steps` replaced. */
function withMember(current: PropertyValue, steps: readonly PropertyStep[], value: PropertyValue): PropertyValue {
  if (steps.length === 0) return value;
  const [step, ...rest] = steps;
  const name = step.kind === 'Property' ? step.property.name : step.name;
  const base = current !== null && typeof current === 'object' && !(current instanceof Date) && !(current instanceof Uint8Array) ? current : {};
  return { ...base, [name]: withMember((base as Record<string, PropertyValue>)[name] ?? null, rest, value) };
}

async function writeProperty(context: HandlerContext, value: PropertyValue): Promise<Record<string, string>> {
  const target = targetOf(context.path);
  const provider = context.config.options.provider;
  if (provider.update === undefined) throw ODataError.fromCode('METHOD_NOT_ALLOWED', { method: context.request.method, resource: target.entitySet.name });
  const { properties } = context.path as unknown as PropertyPath;
  const [first, ...rest] = properties;
  const precondition = preconditionOf(context, target.entityType);
  const name = first.kind === 'Property' ? first.property.name : first.name;
  let key: EntityKey;
  let topValue = value;
  if (rest.length > 0) {
    // A member of a complex property: the provider stores whole top-level values, so read the
    // current one (that read also gives the key).
    const entity = await loadEntity(context, target);
    key = keyOfEntity(target.entityType, entity);
    topValue = withMember((entity[name] as PropertyValue | undefined) ?? null, rest, value);
  } else {
    key = await keyOf(context, target);
  }
  const updated = await provider.update(
    { entitySet: target.entitySet, entityType: target.entityType, key, mode: 'merge', values: { [name]: topValue }, bindings: [], precondition },
    context.request.context,
  );
  return etagHeaders(context, target, updated);
}

function assertWritable(steps: readonly PropertyStep[]): void {
  const last = steps[steps.length - 1];
  if (last?.kind === 'Property' && last.property.isKey) {
    throw ODataError.fromCode('BAD_REQUEST', { detail: `The key property '${last.property.name}' cannot be changed.` });
  }
}

/** PUT on a property with an XML or JSON property body. */
export const updateProperty: Handler = async (context) => {
  const { properties } = context.path as unknown as PropertyPath;
  assertWritable(properties);
  const body = readPropertyBody(context, properties[properties.length - 1]);
  return { result: { kind: 'NoContent' }, status: 204, headers: await writeProperty(context, body.value) };
};

/** PUT on `$value`: the raw value in its text (or binary) form. */
export const updatePropertyValue: Handler = async (context) => {
  const { properties } = context.path as unknown as PropertyPath;
  assertWritable(properties);
  const last = properties[properties.length - 1];
  const bytes = requireBody(context);
  let value: PropertyValue;
  if (last.kind === 'Property' && last.property.type.kind === 'Primitive') {
    value = parseRawValue(last.property.type.name, bytes, last.property.name);
    const violation = checkFacets(last.property, value);
    if (violation !== undefined) throw ODataError.fromCode('VALUE_INVALID', { property: last.property.name, type: last.property.type.name, detail: violation });
  } else {
    value = bytes.toString('utf8');
  }
  return { result: { kind: 'NoContent' }, status: 204, headers: await writeProperty(context, value) };
};

/** DELETE on `$value`: null for a nullable property; 400 for a key or non-nullable one. */
export const deletePropertyValue: Handler = async (context) => {
  const { properties } = context.path as unknown as PropertyPath;
  const last = properties[properties.length - 1];
  if (last.kind === 'Property' && (last.property.isKey || !last.property.nullable)) {
    throw ODataError.fromCode('BAD_REQUEST', { detail: `The property '${last.property.name}' is ${last.property.isKey ? 'a key' : 'not nullable'}; its value cannot be deleted.` });
  }
  return { result: { kind: 'NoContent' }, status: 204, headers: await writeProperty(context, null) };
};
