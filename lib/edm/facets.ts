/**
 * Property facets applied to values (CSDL §2.2 "Facets"): whether a value fits Nullable,
 * MaxLength, FixedLength, Precision and Scale and its type's range, and the value a property
 * starts with (DefaultValue, else null, else the type's zero value).
 */
import { canonicalDecimal, canonicalInteger, decimalShape, isInt64 } from './decimal-text';
import type { EdmComplexType, EdmFacets, EdmProperty } from './model';
import { isPlainObject, laneOf, numberRange } from './primitives';
import type { ComplexValue, EdmPrimitiveTypeName, PrimitiveValue, PropertyValue } from './primitives';
import { SINGLE_MAX, canonicalGuid, parsePrimitiveText } from './primitive-text';
import { isWritableTime, timeToMilliseconds } from './temporal-text';

/** Length of a string in characters (code points), counting only when the cheap UTF-16 length is not enough. */
function characterCount(text: string, limit: number): number {
  if (text.length <= limit) return text.length;
  let count = 0;
  for (const _ of text) count++;
  return count;
}

function checkLength(unit: string, length: number, facets: EdmFacets): string | undefined {
  const { maxLength } = facets;
  if (typeof maxLength !== 'number') return undefined;
  if (facets.fixedLength === true && length !== maxLength) {
    return `the length is ${length} ${unit}, but the property has a fixed length of ${maxLength}.`;
  }
  return length > maxLength ? `the length is ${length} ${unit}, more than the MaxLength of ${maxLength}.` : undefined;
}

/** Which JS representation a type needs (primitives.ts), as a message when the value lacks it. */
function representationProblem(type: EdmPrimitiveTypeName, value: PrimitiveValue): string | undefined {
  switch (laneOf(type)) {
    case 'string':
      return typeof value === 'string' ? undefined : 'expected a string.';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'expected true or false.';
    case 'integer': {
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'expected an integer.';
      const { min, max } = numberRange(type);
      return value < min || value > max ? `${value} is outside the range ${min} to ${max}.` : undefined;
    }
    case 'int64': {
      const text = typeof value === 'number' && Number.isInteger(value) ? String(value) : value;
      if (typeof text !== 'string' || canonicalInteger(text) !== text) return 'expected an integer string.';
      return isInt64(text) ? undefined : `${text} is outside the range of Edm.Int64.`;
    }
    case 'decimal':
      return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && canonicalDecimal(value) !== undefined)
        ? undefined
        : 'expected a decimal string.';
    case 'float':
      if (typeof value !== 'number') return 'expected a number.';
      return type === 'Edm.Single' && Number.isFinite(value) && Math.abs(value) > SINGLE_MAX ? `${value} is outside the range of Edm.Single.` : undefined;
    case 'instant':
      if (!(value instanceof Date) || Number.isNaN(value.getTime())) return 'expected a valid date.';
      return isWritableTime(value.getTime()) ? undefined : 'the date is outside the years 0001 to 9999 (UTC).';
    case 'time':
      return typeof value === 'string' && timeToMilliseconds(value) !== undefined
        ? undefined
        : 'expected an xs:duration of at most 10675199 days such as PT13H20M.';
    case 'guid':
      return typeof value === 'string' && canonicalGuid(value) !== undefined ? undefined : 'expected a GUID string.';
    case 'binary':
      return value instanceof Uint8Array ? undefined : 'expected binary data.';
    default:
      return `unknown type ${type}.`;
  }
}

/**
 * Precision is the total number of significant digits, Scale the digits after the point. A
 * Precision without Scale is checked as the total only: CSDL's default Scale of 0 would refuse
 * `2.5` on every `Precision="10"` property real models declare, which servers never did.
 */
function checkDecimal(value: PrimitiveValue, facets: EdmFacets): string | undefined {
  const text = canonicalDecimal(String(value));
  if (text === undefined) return 'expected a decimal string.';
  const { precision, scale } = decimalShape(text);
  if (facets.scale !== undefined && scale > facets.scale) {
    return `${text} has ${scale} digits after the point, more than the Scale of ${facets.scale}.`;
  }
  if (facets.precision !== undefined) {
    const integerDigits = precision - scale;
    const allowed = facets.scale !== undefined ? facets.precision - facets.scale : facets.precision;
    if (facets.scale !== undefined ? integerDigits > allowed : precision > facets.precision) {
      return facets.scale !== undefined
        ? `${text} has ${integerDigits} digits before the point, more than Precision ${facets.precision} with Scale ${facets.scale} allow.`
        : `${text} has ${precision} digits, more than the Precision of ${facets.precision}.`;
    }
  }
  return undefined;
}

function checkPrimitive(type: EdmPrimitiveTypeName, facets: EdmFacets, value: PrimitiveValue): string | undefined {
  const problem = representationProblem(type, value);
  if (problem !== undefined) return problem;
  if (type === 'Edm.String') return checkLength('characters', characterCount(value as string, Number(facets.maxLength) || 0), facets);
  if (type === 'Edm.Binary') return checkLength('bytes', (value as Uint8Array).byteLength, facets);
  if (type === 'Edm.Decimal' && (facets.precision !== undefined || facets.scale !== undefined)) return checkDecimal(value, facets);
  return undefined;
}

function isComplexValue(value: PropertyValue): value is ComplexValue {
  return isPlainObject(value);
}

function checkComplex(type: EdmComplexType, value: PropertyValue): string | undefined {
  if (!isComplexValue(value)) return `expected a value of the complex type ${type.qualifiedName}.`;
  for (const member of type.properties) {
    const memberValue = value[member.name];
    if (memberValue === undefined) continue;
    const problem = checkFacets(member, memberValue);
    if (problem !== undefined) return `${member.name}: ${problem}`;
  }
  return undefined;
}

/**
 * Why a value does not fit a property, or undefined when it does: Nullable, the JS representation
 * and range of the type, MaxLength (characters for strings, bytes for binary), FixedLength (the
 * length must equal MaxLength), Precision and Scale of decimals; members of complex values are
 * checked recursively. The message completes "Invalid value for property 'X' of type T: ...".
 */
export function checkFacets(property: EdmProperty, value: PropertyValue): string | undefined {
  if (value === null) return property.nullable ? undefined : 'the property is not nullable.';
  if (property.type.kind === 'Complex') return checkComplex(property.type.type, value);
  if (isComplexValue(value)) return `expected a primitive ${property.type.name} value, not an object.`;
  return checkPrimitive(property.type.name, property, value);
}

/**
 * The zero value of each type, for a non-nullable property without DefaultValue: '' / false / 0 /
 * "0" / the Unix epoch (1970-01-01T00:00:00Z; the JS epoch rather than .NET's 0001-01-01, so that
 * every client's date type can hold it) / PT0S / the empty GUID / no bytes.
 */
const ZERO_VALUES: Readonly<Record<EdmPrimitiveTypeName, () => PrimitiveValue>> = {
  'Edm.Binary': () => new Uint8Array(0),
  'Edm.Boolean': () => false,
  'Edm.Byte': () => 0,
  'Edm.SByte': () => 0,
  'Edm.Int16': () => 0,
  'Edm.Int32': () => 0,
  'Edm.Int64': () => '0',
  'Edm.Decimal': () => '0',
  'Edm.Single': () => 0,
  'Edm.Double': () => 0,
  'Edm.DateTime': () => new Date(0),
  'Edm.DateTimeOffset': () => new Date(0),
  'Edm.Time': () => 'PT0S',
  'Edm.Guid': () => '00000000-0000-0000-0000-000000000000',
  'Edm.String': () => '',
};

/** The value of a primitive property's declared `DefaultValue`, or undefined when it declares none (or is complex). */
export function declaredDefaultOf(property: EdmProperty): PropertyValue | undefined {
  if (property.defaultValue === undefined || property.type.kind !== 'Primitive') return undefined;
  return parsePrimitiveText(property.type.name, property.defaultValue);
}

/**
 * The value a property takes when a create omits it: its DefaultValue (CSDL text form, read like
 * XML text; unreadable text counts as absent), else null when nullable, else the type's zero
 * value; a non-nullable complex property gets an object of its members' defaults. Fresh objects
 * per call (Date and Uint8Array are mutable).
 */
export function defaultValueOf(property: EdmProperty): PropertyValue {
  if (property.type.kind === 'Complex') {
    if (property.nullable && property.defaultValue === undefined) return null;
    const members: Record<string, PropertyValue> = {};
    for (const member of property.type.type.properties) members[member.name] = defaultValueOf(member);
    return members;
  }
  const declared = declaredDefaultOf(property);
  if (declared !== undefined) return declared;
  return property.nullable ? null : ZERO_VALUES[property.type.name]();
}
