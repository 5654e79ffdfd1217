/**
 * Verbose JSON property values (MS-ODATA §2.2.6.3.1, §2.2.6.3.7, §2.2.6.3.8): members of an entry
 * object, and the body of `PUT Products(1)/Name` (`{"d":{"Name":"x"}}` or `{"Name":"x"}`).
 * Primitive forms go through `fromJsonValue`; complex values recurse over their members.
 */
import type { EdmComplexType, EdmProperty, EdmPropertyTypeRef } from '../../edm/model';
import type { ComplexValue, EdmPrimitiveTypeName, PropertyValue } from '../../edm/primitives';
import { fromJsonValue, inferPrimitiveType } from '../../edm/payload-values';
import { ODataError } from '../../errors';
import type { PropertyBody, PropertyTarget, ReadContext } from '../entry-body';
import { DEFAULT_MAX_NESTING } from '../entry-body';
import { assertFacets, unknownPropertyError } from '../entry-checks';
import { isJsonObject, jsonShapeError, parseJsonBody, unwrapData } from './json-body';
import type { JsonObject } from './json-body';

/** A property value with the type it was read as (declared, or inferred for a dynamic property). */
interface TypedJsonValue {
  readonly value: PropertyValue;
  readonly type: EdmPropertyTypeRef;
}

/** `"\/Date(<ms>)\/"` and `"\/Date(<ms>+0060)\/"` after JSON unescaping (MS-ODATA §2.2.6.3.1). */
const JSON_DATE = /^\/Date\(-?\d+([+-]\d+)?\)\/$/;

function primitive(name: EdmPrimitiveTypeName): EdmPropertyTypeRef {
  return { kind: 'Primitive', name };
}

/** `__metadata.type` of a complex value, when given. */
function metadataType(value: JsonObject, name: string): string | undefined {
  const metadata = value.__metadata;
  if (metadata === undefined) return undefined;
  if (!isJsonObject(metadata)) throw jsonShapeError(`__metadata of '${name}' must be an object.`);
  const type = metadata.type;
  if (type === undefined) return undefined;
  if (typeof type !== 'string') throw jsonShapeError(`__metadata.type of '${name}' must be a string.`);
  return type;
}

/**
 * The type of a dynamic property's JSON value. Verbose JSON carries no type for primitives, so it is
 * inferred the way WCF Data Services did: boolean, Int32 for integers in range, else Double, the
 * `\/Date(...)\/` string form as DateTime(Offset), other strings as String; objects need `__metadata.type`.
 */
function inferType(json: unknown, name: string, context: ReadContext): EdmPropertyTypeRef {
  if (json === null || typeof json === 'string') {
    if (typeof json === 'string') {
      const date = JSON_DATE.exec(json);
      if (date !== null) return primitive(date[1] === undefined ? 'Edm.DateTime' : 'Edm.DateTimeOffset');
    }
    return primitive('Edm.String');
  }
  if (typeof json === 'boolean') return primitive('Edm.Boolean');
  if (typeof json === 'number') {
    return primitive(inferPrimitiveType(json));
  }
  if (isJsonObject(json)) {
    const typeName = metadataType(json, name);
    const complex = typeName === undefined ? undefined : context.model.complexTypes.get(typeName);
    if (complex !== undefined) return { kind: 'Complex', type: complex };
    throw jsonShapeError(
      typeName === undefined
        ? `the dynamic property '${name}' holds an object without __metadata.type naming its complex type.`
        : `the type '${typeName}' of the dynamic property '${name}' is not a complex type of the model.`,
    );
  }
  throw jsonShapeError(`the dynamic property '${name}' holds a JSON array; OData 2.0 has no collection properties.`);
}

function readComplex(json: JsonObject, type: EdmComplexType, name: string, context: ReadContext, depth: number): ComplexValue {
  const typeName = metadataType(json, name);
  if (typeName !== undefined && context.model.complexTypes.get(typeName) !== type) {
    throw ODataError.fromCode(
      'VALUE_INVALID',
      { property: name, type: type.qualifiedName, detail: `__metadata.type '${typeName}' does not match the declared type.` },
      { target: name },
    );
  }
  const value: Record<string, PropertyValue> = {};
  for (const [memberName, memberJson] of Object.entries(json)) {
    if (memberName === '__metadata') continue;
    const member = type.propertiesByName.get(memberName);
    if (member === undefined) throw unknownPropertyError(memberName, type);
    value[memberName] = readJsonPropertyValue(memberJson, member, memberName, context, depth + 1).value;
  }
  return value;
}

/**
 * The value of one property from its JSON form. `property` is the declared property, or undefined
 * for a dynamic property of an open type (its type is then inferred). Facets are checked.
 */
export function readJsonPropertyValue(json: unknown, property: EdmProperty | undefined, name: string, context: ReadContext, depth = 0): TypedJsonValue {
  const limit = context.limits?.maxNesting ?? DEFAULT_MAX_NESTING;
  if (depth > limit) throw jsonShapeError(`complex values are nested deeper than ${limit} levels (at '${name}').`);
  const type = property === undefined ? inferType(json, name, context) : property.type;
  let value: PropertyValue;
  if (json === null) {
    value = null;
  } else if (type.kind === 'Complex') {
    if (!isJsonObject(json)) {
      throw ODataError.fromCode(
        'VALUE_INVALID',
        { property: name, type: type.type.qualifiedName, detail: 'a complex value must be a JSON object.' },
        { target: name },
      );
    }
    value = readComplex(json, type.type, name, context, depth);
  } else {
    value = fromJsonValue(type.name, json, property ?? name);
  }
  if (property !== undefined) assertFacets(property, value);
  return { value, type };
}

/** Read a JSON property body: `{"d":{"Name":"x"}}` or `{"Name":"x"}` (MS-ODATA §2.2.6.3.8). */
export function readJsonProperty(body: Buffer | string, target: PropertyTarget, context: ReadContext): PropertyBody {
  const name = target.kind === 'Property' ? target.property.name : target.name;
  const json = parseJsonBody(body, context);
  // `{"d":{"d":..}}` for a property named d; otherwise a lone `d` is the wrapper.
  const data = unwrapData(
    json,
    (member) => member === name && !(isJsonObject(json) && isJsonObject(json.d) && Object.keys(json.d).length === 1 && 'd' in json.d),
  );
  if (!isJsonObject(data)) throw jsonShapeError(`expected a JSON object with the member '${name}'.`);
  const keys = Object.keys(data);
  if (keys.length !== 1 || keys[0] !== name) {
    throw jsonShapeError(
      `expected a JSON object with exactly the member '${name}', found ${keys.length === 0 ? 'none' : keys.map((k) => `'${k}'`).join(', ')}.`,
    );
  }
  const { value, type } = readJsonPropertyValue(data[name], target.kind === 'Property' ? target.property : undefined, name, context);
  return target.kind === 'Property' ? { value } : { value, type };
}
