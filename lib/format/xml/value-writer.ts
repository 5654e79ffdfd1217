/**
 * Compiled writers of property elements in the data namespace (`<d:Price m:type="Edm.Decimal">2.5</d:Price>`),
 * shared by Atom `m:properties`, the XML property document and service-operation collections
 * (MS-ODATA §2.2.6.2.2 and §2.2.6.5.1-3). The `d` and `m` prefixes must be bound by the caller.
 */
import type { EdmComplexType, EdmPropertyTypeRef } from '../../edm/model';
import { numberRange } from '../../edm/primitives';
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import { formatAtomValue, inferPrimitiveType } from '../../edm/payload-values';
import { fastAtomDate } from '../fast-values';
import { expectComplex, expectPrimitive, isPrimitiveValue } from '../value-guards';
import { escapeXmlText } from './escape';

/** Writes one property element for a value (null and undefined give `m:null="true"`). */
export type XmlValueWriter = (value: unknown) => string;

/** `m:type` is left out for Edm.String, the default (MS-ODATA §2.2.6.2.2). */
function typeAttribute(name: string): string {
  return name === 'Edm.String' ? '' : ` m:type="${name}"`;
}

/**
 * Compile the writer of element `qname` (`d:Name`, `d:element`) for a property type; `attributes`
 * (with a leading space) go first on the start tag, e.g. namespace declarations of a root element.
 */
export function compileXmlElement(qname: string, type: EdmPropertyTypeRef, attributes = ''): XmlValueWriter {
  if (type.kind === 'Primitive') return compilePrimitiveElement(qname, type.name, attributes);
  const complexType = type.type;
  const start = `<${qname}${attributes}${typeAttribute(complexType.qualifiedName)}`;
  const nil = `${start} m:null="true"/>`;
  const open = `${start}>`;
  const close = `</${qname}>`;
  return (value) => {
    if (value === null || value === undefined) return nil;
    return open + complexContent(complexType)(expectComplex(value, qname, complexType.qualifiedName)) + close;
  };
}

function compilePrimitiveElement(qname: string, typeName: EdmPrimitiveTypeName, attributes: string): XmlValueWriter {
  const start = `<${qname}${attributes}${typeAttribute(typeName)}`;
  const nil = `${start} m:null="true"/>`;
  const open = `${start}>`;
  const close = `</${qname}>`;
  const slow = (value: unknown): string => escapeXmlText(formatAtomValue(typeName, expectPrimitive(value, qname, typeName)));
  switch (typeName) {
    case 'Edm.String':
      return (value) => (value === null || value === undefined ? nil : open + (typeof value === 'string' ? escapeXmlText(value) : slow(value)) + close);
    case 'Edm.Byte':
    case 'Edm.SByte':
    case 'Edm.Int16':
    case 'Edm.Int32': {
      // An integer in range is its own text; NaN, fractions and the rest go to the general path, which refuses them.
      // `(value | 0) === value` alone is the Int32 range.
      if (typeName === 'Edm.Int32')
        return (value) =>
          value === null || value === undefined ? nil : open + (typeof value === 'number' && (value | 0) === value ? '' + value : slow(value)) + close;
      const { min, max } = numberRange(typeName);
      return (value) =>
        value === null || value === undefined
          ? nil
          : open + (typeof value === 'number' && (value | 0) === value && value >= min && value <= max ? '' + value : slow(value)) + close;
    }
    case 'Edm.Boolean':
      return (value) =>
        value === null || value === undefined
          ? nil
          : value === true
            ? open + 'true' + close
            : value === false
              ? open + 'false' + close
              : open + slow(value) + close;
    case 'Edm.DateTime':
    case 'Edm.DateTimeOffset': {
      const suffix = typeName === 'Edm.DateTime' ? '' : 'Z';
      return (value) => {
        if (value === null || value === undefined) return nil;
        const text = value instanceof Date ? fastAtomDate(value, suffix) : undefined;
        return open + (text ?? slow(value)) + close;
      };
    }
  }
  return (value) => {
    if (value === null || value === undefined) return nil;
    return open + escapeXmlText(formatAtomValue(typeName, expectPrimitive(value, qname, typeName))) + close;
  };
}

const complexContents = new WeakMap<EdmComplexType, (value: Readonly<Record<string, unknown>>) => string>();

/** The child elements of a complex value, in declaration order (compiled once per complex type). */
function complexContent(type: EdmComplexType): (value: Readonly<Record<string, unknown>>) => string {
  let compiled = complexContents.get(type);
  if (compiled === undefined) {
    const names = type.properties.map((p) => p.name);
    // Filled lazily: a complex type may (indirectly) contain itself only through nullable members.
    let writers: XmlValueWriter[] | undefined;
    compiled = (value) => {
      writers ??= type.properties.map((p) => compileXmlElement(`d:${p.name}`, p.type));
      let out = '';
      for (let i = 0; i < writers.length; i++) out += writers[i](value[names[i]]);
      return out;
    };
    complexContents.set(type, compiled);
  }
  return compiled;
}

/**
 * Write a dynamic property of an open type with its inferred type (MS-ODATA §2.2.6.2.2: dynamic
 * properties are written like declared ones). Values that are not primitives or null are skipped.
 */
export function writeDynamicXmlElement(qname: string, value: unknown, attributes = ''): string {
  if (value === null) return `<${qname}${attributes} m:null="true"/>`;
  if (!isPrimitiveValue(value)) return '';
  const typeName = inferPrimitiveType(value);
  return `<${qname}${attributes}${typeAttribute(typeName)}>${escapeXmlText(formatAtomValue(typeName, value))}</${qname}>`;
}
