/**
 * XML documents of single values (MS-ODATA §2.2.6.5.1-2, `application/xml`): a property is one
 * element in the data namespace named after it, with `m:type` / `m:null`, complex values with
 * their members as child elements.
 */
import type { CollectionResult, PropertyResult } from '../../result';
import { DATA_NS, METADATA_NS, XML_DECLARATION } from '../names';
import { isWritableName } from '../values';
import { compileXmlElement, writeDynamicXmlElement } from './value-writer';

/** Namespace declarations of a root element in the data namespace. */
const ROOT_NAMESPACES = ` xmlns:d="${DATA_NS}" xmlns:m="${METADATA_NS}"`;

/** `<d:Name xmlns:d=".." xmlns:m="..">Bread</d:Name>`, or a complex / null / dynamic property. */
export function writeXmlProperty(result: PropertyResult): string {
  if (!isWritableName(result.name)) throw new TypeError(`'${result.name}' cannot be written as an XML element name.`);
  const qname = `d:${result.name}`;
  if (result.type === undefined) {
    const element = writeDynamicXmlElement(qname, result.value, ROOT_NAMESPACES);
    if (element === '') throw new TypeError(`The dynamic property '${result.name}' holds a value whose type cannot be inferred.`);
    return XML_DECLARATION + element;
  }
  return XML_DECLARATION + compileXmlElement(qname, result.type, ROOT_NAMESPACES)(result.value);
}

/**
 * A service operation's collection of primitive or complex values (MS-ODATA §2.2.6.5.3-4): a root
 * element named after the operation holding one `d:element` per value.
 */
export function writeXmlCollection(result: CollectionResult): string {
  if (!isWritableName(result.name)) throw new TypeError(`'${result.name}' cannot be written as an XML element name.`);
  const itemType = result.itemType;
  const element = compileXmlElement(
    'd:element',
    itemType.kind === 'Primitive' ? { kind: 'Primitive', name: itemType.name } : { kind: 'Complex', type: itemType.type },
  );
  let out = `${XML_DECLARATION}<d:${result.name}${ROOT_NAMESPACES}>`;
  for (const value of result.values) out += element(value);
  return `${out}</d:${result.name}>`;
}
