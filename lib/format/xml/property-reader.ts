/**
 * XML property elements (MS-ODATA §2.2.6.5.1–§2.2.6.5.3): the `d:Name` children of `m:properties`
 * in an Atom entry, and the `application/xml` body of `PUT Products(1)/Name`. Primitive text goes
 * through `parseAtomValue`; complex values recurse over their members.
 */
import { xmlLimitsOf } from '../structure-limits';
import type { EdmComplexType, EdmProperty, EdmPropertyTypeRef } from '../../edm/model';
import { isPrimitiveTypeName } from '../../edm/primitives';
import type { ComplexValue, PropertyValue } from '../../edm/primitives';
import { parseAtomValue } from '../../edm/payload-values';
import { ODataError } from '../../errors';
import { decodeBodyText } from '../body-text';
import type { PropertyBody, PropertyTarget, ReadContext } from '../entry-body';
import { DEFAULT_MAX_NESTING } from '../entry-body';
import { assertFacets, unknownPropertyError } from '../entry-checks';
import { DATA_NS, METADATA_NS } from '../names';
import { attributeOf, hasChildElements, parseXml } from './safe-sax';
import type { XmlElement } from './safe-sax';

function invalid(detail: string): ODataError {
  return ODataError.fromCode('BODY_INVALID', { detail });
}

/** `m:null`: MS-ODATA §2.2.6.1 allows "true" and "false" only. */
function isNull(element: XmlElement, name: string): boolean {
  const value = attributeOf(element, METADATA_NS, 'null');
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  throw invalid(`the m:null attribute of '${name}' must be "true" or "false", not "${value}".`);
}

/** The text of a primitive property element; child elements are refused. */
function primitiveText(element: XmlElement, name: string): string {
  if (hasChildElements(element)) throw invalid(`the primitive property '${name}' contains XML elements.`);
  let text = '';
  for (const child of element.children) if (typeof child === 'string') text += child;
  return text;
}

/** The type of a value as `m:type` states it, resolved against the model. */
function namedType(typeName: string, name: string, context: ReadContext): EdmPropertyTypeRef {
  if (isPrimitiveTypeName(typeName)) return { kind: 'Primitive', name: typeName };
  const complex = context.model.complexTypes.get(typeName);
  if (complex !== undefined) return { kind: 'Complex', type: complex };
  throw invalid(`the m:type '${typeName}' of '${name}' is not an EDM primitive type or a complex type of the model.`);
}

function typeText(type: EdmPropertyTypeRef): string {
  return type.kind === 'Primitive' ? type.name : type.type.qualifiedName;
}

/**
 * The type of a declared property's value; an `m:type` must name exactly the declared type
 * (MS-ODATA §2.2.6.2.2: "the type attribute ... MUST be the type of the property").
 */
function declaredType(element: XmlElement, property: EdmProperty, context: ReadContext): EdmPropertyTypeRef {
  const typeName = attributeOf(element, METADATA_NS, 'type');
  if (typeName === undefined) return property.type;
  const named = namedType(typeName.trim(), property.name, context);
  const same =
    named.kind === 'Primitive'
      ? property.type.kind === 'Primitive' && property.type.name === named.name
      : property.type.kind === 'Complex' && property.type.type === named.type;
  if (!same) {
    throw ODataError.fromCode(
      'VALUE_INVALID',
      { property: property.name, type: typeText(property.type), detail: `the m:type '${typeName}' does not match the declared type.` },
      { target: property.name },
    );
  }
  return property.type;
}

/** The type of a dynamic (open type) property: `m:type`, else Edm.String (MS-ODATA §2.2.6.2.2). */
function dynamicType(element: XmlElement, name: string, context: ReadContext): EdmPropertyTypeRef {
  const typeName = attributeOf(element, METADATA_NS, 'type');
  if (typeName !== undefined) return namedType(typeName.trim(), name, context);
  if (hasChildElements(element)) throw invalid(`the dynamic property '${name}' has members but no m:type naming its complex type.`);
  return { kind: 'Primitive', name: 'Edm.String' };
}

/** Members of a complex value: each a `d:` element naming a declared member. */
function readComplex(element: XmlElement, type: EdmComplexType, context: ReadContext, depth: number): ComplexValue {
  const value: Record<string, PropertyValue> = {};
  for (const child of element.children) {
    if (typeof child === 'string') {
      if (child.trim() !== '') throw invalid(`the complex value of type '${type.qualifiedName}' contains text.`);
      continue;
    }
    if (child.uri !== DATA_NS)
      throw invalid(`unexpected element '${child.local}' in the complex value of type '${type.qualifiedName}'; members must be in the namespace ${DATA_NS}.`);
    const member = type.propertiesByName.get(child.local);
    if (member === undefined) throw unknownPropertyError(child.local, type);
    if (Object.prototype.hasOwnProperty.call(value, child.local))
      throw invalid(`the member '${child.local}' of '${type.qualifiedName}' is given more than once.`);
    value[child.local] = readXmlPropertyElement(child, member, child.local, context, depth + 1).value;
  }
  return value;
}

/** A property value with the type it was read as (the declared type, or a dynamic one's `m:type`). */
interface TypedValue {
  readonly value: PropertyValue;
  readonly type: EdmPropertyTypeRef;
}

/**
 * The value of one property element (`<d:Name m:type=".." m:null="..">text</d:Name>`). `property` is
 * the declared property, or undefined for a dynamic property of an open type. Facets are checked.
 */
export function readXmlPropertyElement(element: XmlElement, property: EdmProperty | undefined, name: string, context: ReadContext, depth = 0): TypedValue {
  const limit = context.limits?.maxNesting ?? DEFAULT_MAX_NESTING;
  if (depth > limit) throw invalid(`complex values are nested deeper than ${limit} levels (at '${name}').`);
  const type = property === undefined ? dynamicType(element, name, context) : declaredType(element, property, context);
  let value: PropertyValue;
  if (isNull(element, name)) value = null;
  else if (type.kind === 'Complex') value = readComplex(element, type.type, context, depth);
  else value = parseAtomValue(type.name, primitiveText(element, name), property ?? name);
  if (property !== undefined) assertFacets(property, value);
  return { value, type };
}

/**
 * Read an `application/xml` property body (MS-ODATA §2.2.6.5.1):
 * `<d:Name xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" m:type="..">value</d:Name>`.
 */
export function readXmlProperty(body: Buffer | string, target: PropertyTarget, context: ReadContext): PropertyBody {
  const text = decodeBodyText(body, context.contentType);
  if (text.trim() === '') throw ODataError.fromCode('BODY_MISSING');
  const root = parseXml(text, xmlLimitsOf(context));
  const name = target.kind === 'Property' ? target.property.name : target.name;
  if (root.uri !== DATA_NS || root.local !== name) {
    throw invalid(`expected the element '${name}' in the namespace ${DATA_NS}, found '${root.local}'${root.uri === '' ? '' : ` in ${root.uri}`}.`);
  }
  const { value, type } = readXmlPropertyElement(root, target.kind === 'Property' ? target.property : undefined, name, context);
  return target.kind === 'Property' ? { value } : { value, type };
}
