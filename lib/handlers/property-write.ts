/**
 * Writes of single properties (MS-ODATA §2.2.7.3.2 "UpdatePrimitiveProperty", §2.2.7.3.3
 * "UpdateComplexProperty", §2.2.7.3.4 "UpdateValue"): PUT, MERGE or PATCH with an XML/JSON property
 * body (MERGE and PATCH of a complex value change only the members the body lists, §3.2.5.5), PUT
 * of a raw `$value`, and DELETE on `$value` to set a nullable property to null.
 */
import { ODataError } from '../errors';
import { isComplexValue } from '../format/value-guards';
import type { ComplexValue, PropertyValue } from '../edm/primitives';
import type { EntityKey, PropertyPath, PropertyStep } from '../uri/types';
import type { HandlerOutcome } from '../result';
import type { HandlerContext, ProviderWith } from './context';
import { readPropertyBody, readRawValueBody } from './body';
import { etagHeaders, preconditionOf } from './preconditions';
import { propertyValueOf } from './property';
import { loadEntity } from './query-request';
import { entityKey } from '../provider/keys';
import { keyOf } from './update';

/** Rebuild the top-level property value with the member at the end of `steps` replaced. */
function withMember(current: PropertyValue, steps: readonly PropertyStep[], value: PropertyValue): PropertyValue {
  if (steps.length === 0) return value;
  const [step, ...rest] = steps;
  const name = step.kind === 'Property' ? step.property.name : step.name;
  const base: ComplexValue = isComplexValue(current) ? current : {};
  return { ...base, [name]: withMember(base[name] ?? null, rest, value) };
}

/** MERGE of a complex value: the listed members replace the current ones, nested complex members merge too. */
function mergeComplex(current: PropertyValue, listed: PropertyValue): PropertyValue {
  if (!isComplexValue(current) || !isComplexValue(listed)) return listed;
  const merged: Record<string, PropertyValue> = { ...current };
  for (const name of Object.keys(listed)) merged[name] = mergeComplex(current[name] ?? null, listed[name]);
  return merged;
}

/** Write `value` at the property path; with `merge`, a complex value merges into the current one. */
async function writeProperty(
  context: HandlerContext<PropertyPath>,
  provider: ProviderWith<'update'>,
  value: PropertyValue,
  merge = false,
): Promise<Record<string, string>> {
  const target = context.path;
  const { properties } = target;
  const [first, ...rest] = properties;
  const precondition = preconditionOf(context, target.entityType);
  const name = first.kind === 'Property' ? first.property.name : first.name;
  let key: EntityKey;
  let topValue = value;
  if (rest.length > 0 || (merge && isComplexValue(value))) {
    // A member of a complex property, or a complex value to merge: the provider stores whole
    // top-level values, so read the current one (that read also gives the key).
    const entity = await loadEntity(context, target);
    key = entityKey(target.entityType, entity);
    const written = merge ? mergeComplex(propertyValueOf(entity, properties).value, value) : value;
    topValue = withMember((entity[name] as PropertyValue | undefined) ?? null, rest, written);
  } else {
    key = await keyOf(context, target);
  }
  const updated = await provider.update(
    {
      entitySet: target.entitySet,
      entityType: target.entityType,
      key,
      mode: 'merge',
      values: { [name]: topValue },
      sent: new Set([name]),
      bindings: [],
      precondition,
    },
    context.request.context,
  );
  return etagHeaders(context, target.entityType, updated);
}

function assertWritable(steps: readonly PropertyStep[]): void {
  const last = steps[steps.length - 1];
  if (last?.kind === 'Property' && last.property.isKey) {
    throw ODataError.fromCode('BAD_REQUEST', { detail: `The key property '${last.property.name}' cannot be changed.` });
  }
}

/** PUT, MERGE or PATCH on a property with an XML or JSON property body. */
export async function updateProperty(
  context: HandlerContext<PropertyPath<'ComplexProperty' | 'PrimitiveProperty'>>,
  provider: ProviderWith<'update'>,
): Promise<HandlerOutcome> {
  const { properties } = context.path;
  assertWritable(properties);
  const body = readPropertyBody(context, properties[properties.length - 1]);
  const merge = context.request.method !== 'PUT';
  return { result: { kind: 'NoContent' }, status: 204, headers: await writeProperty(context, provider, body.value, merge) };
}

/** PUT on `$value`: the raw value in its text (or binary) form, with a matching Content-Type. */
export async function updatePropertyValue(context: HandlerContext<PropertyPath<'PropertyValue'>>, provider: ProviderWith<'update'>): Promise<HandlerOutcome> {
  const { properties } = context.path;
  assertWritable(properties);
  const body = readRawValueBody(context, properties[properties.length - 1]);
  return { result: { kind: 'NoContent' }, status: 204, headers: await writeProperty(context, provider, body.value) };
}

/** DELETE on `$value`: null for a nullable property; 400 for a key or non-nullable one. */
export async function deletePropertyValue(context: HandlerContext<PropertyPath<'PropertyValue'>>, provider: ProviderWith<'update'>): Promise<HandlerOutcome> {
  const { properties } = context.path;
  const last = properties[properties.length - 1];
  if (last.kind === 'Property' && (last.property.isKey || !last.property.nullable)) {
    throw ODataError.fromCode('BAD_REQUEST', {
      detail: `The property '${last.property.name}' is ${last.property.isKey ? 'a key' : 'not nullable'}; its value cannot be deleted.`,
    });
  }
  return { result: { kind: 'NoContent' }, status: 204, headers: await writeProperty(context, provider, null) };
}
