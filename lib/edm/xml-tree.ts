/**
 * A small namespace-aware element tree parsed with saxes, for the EDMX reader. It refuses a DOCTYPE
 * (so no entity declarations, no entity expansion, no external resources) and bounds the nesting
 * depth, because loadEdmx may be fed documents that users supply.
 * @internal
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { isODataError, ODataError } from '../errors';
import { describeCaught } from '../util';
import { XMLNS_NAMESPACE } from './namespaces';

/** An attribute with its resolved namespace (`''` for an unprefixed one). */
export interface XmlAttribute {
  readonly uri: string;
  readonly prefix: string;
  readonly local: string;
  readonly value: string;
}

/** An element: name, attributes, the namespace declarations it makes, and its children in order. */
export interface XmlElement {
  readonly uri: string;
  readonly prefix: string;
  readonly local: string;
  readonly attributes: readonly XmlAttribute[];
  /** `xmlns:p="..."` (prefix `p`) and `xmlns="..."` (prefix `''`) made on this element. */
  readonly declarations: readonly (readonly [string, string])[];
  readonly children: readonly (XmlElement | string)[];
  /** 1-based position of the start tag's end, for messages. */
  readonly line: number;
  readonly column: number;
}

/** Deeper nesting than this is refused; real EDMX documents stay far below it. */
const MAX_XML_DEPTH = 100;

interface OpenElement {
  readonly uri: string;
  readonly prefix: string;
  readonly local: string;
  readonly attributes: XmlAttribute[];
  readonly declarations: [string, string][];
  readonly children: (XmlElement | string)[];
  readonly line: number;
  readonly column: number;
}

/** Parse a whole XML document into its root element; EDMX_SYNTAX for malformed XML, EDMX_UNSUPPORTED for a DOCTYPE. */
export function parseXmlTree(xml: string): XmlElement {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: OpenElement[] = [];
  let root: XmlElement | undefined;
  const where = (): string => `line ${parser.line}, column ${parser.column}`;

  parser.on('doctype', () => {
    throw ODataError.fromCode('EDMX_UNSUPPORTED', { detail: `a DOCTYPE (and so any entity declaration) is refused, at ${where()}` });
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (stack.length >= MAX_XML_DEPTH) {
      throw ODataError.fromCode('EDMX_UNSUPPORTED', { detail: `elements nest deeper than ${MAX_XML_DEPTH} levels, at ${where()}` });
    }
    const attributes: XmlAttribute[] = [];
    const declarations: [string, string][] = [];
    for (const attribute of Object.values(tag.attributes)) {
      if (attribute.uri === XMLNS_NAMESPACE) declarations.push([attribute.prefix === 'xmlns' ? attribute.local : '', attribute.value]);
      else attributes.push({ uri: attribute.uri, prefix: attribute.prefix, local: attribute.local, value: attribute.value });
    }
    stack.push({ uri: tag.uri, prefix: tag.prefix, local: tag.local, attributes, declarations, children: [], line: parser.line, column: parser.column });
  });
  parser.on('closetag', () => {
    const element = stack.pop();
    if (element === undefined) return;
    const parent = stack[stack.length - 1];
    if (parent === undefined) root = element;
    else parent.children.push(element);
  });
  const onText = (text: string): void => {
    const parent = stack[stack.length - 1];
    if (parent === undefined) return; // whitespace around the root element
    const last = parent.children[parent.children.length - 1];
    if (typeof last === 'string') parent.children[parent.children.length - 1] = last + text;
    else parent.children.push(text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  try {
    // A leading byte-order mark is not part of the document.
    parser.write(xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml).close();
  } catch (error) {
    if (isODataError(error)) throw error;
    const described = describeCaught(error);
    const detail = described.message ?? described.summary;
    throw ODataError.fromCode('EDMX_SYNTAX', { detail }, { cause: error });
  }
  if (root === undefined) throw ODataError.fromCode('EDMX_SYNTAX', { detail: 'the document has no root element' });
  return root;
}
