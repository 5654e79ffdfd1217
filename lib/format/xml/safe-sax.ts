/**
 * A safe XML front end over saxes: it refuses DOCTYPE (and with it every entity declaration, so no
 * entity expansion and no external resources), bounds the element depth, the attributes per
 * element and (where the caller says) the child elements per element, and builds a small
 * namespace-resolved element tree that the body readers walk. No OData knowledge lives here.
 */
import { SaxesParser } from 'saxes';
import { ODataError } from '../../errors';

/** The XML namespace (`xml:base`, `xml:lang`). */
export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** An element with resolved namespaces; attribute keys are `local` (no namespace) or `{uri}local`. */
export interface XmlElement {
  readonly uri: string;
  readonly local: string;
  readonly attributes: ReadonlyMap<string, string>;
  /** Child elements and text (character data and CDATA), in document order. */
  readonly children: readonly (XmlElement | string)[];
  /** Offset of the start tag in the decoded text, for messages. */
  readonly position: number;
}

/** Limits for `parseXml`; every one has a safe default. */
export interface XmlLimits {
  /** Deepest element nesting accepted (default 100). */
  readonly maxDepth?: number;
  /** Most attributes of one element, namespace declarations included (default 64). */
  readonly maxAttributes?: number;
  /**
   * The most child elements an element (given by namespace and local name) may have, or
   * undefined for no bound. Checked as each child starts, so a huge element is refused early.
   */
  readonly maxChildren?: (uri: string, local: string) => number | undefined;
}

/** Default nesting limit: far above any real entry (an inline entry costs ~5 levels). */
const DEFAULT_XML_MAX_DEPTH = 100;

/** Default attribute limit: OData elements carry a handful, plus namespace declarations. */
const DEFAULT_XML_MAX_ATTRIBUTES = 64;

/** The key under which `XmlElement.attributes` holds a namespaced attribute. */
function attributeKey(uri: string, local: string): string {
  return uri === '' ? local : `{${uri}}${local}`;
}

/** An attribute value, or undefined. */
export function attributeOf(element: XmlElement, uri: string, local: string): string | undefined {
  return element.attributes.get(attributeKey(uri, local));
}

/** The child elements only. */
export function childElements(element: XmlElement): XmlElement[] {
  const result: XmlElement[] = [];
  for (const child of element.children) if (typeof child !== 'string') result.push(child);
  return result;
}

/** True when the element has child elements (text does not count). */
export function hasChildElements(element: XmlElement): boolean {
  for (const child of element.children) if (typeof child !== 'string') return true;
  return false;
}

/** All text of an element and its descendants, in document order. */
export function deepTextOf(element: XmlElement): string {
  let text = '';
  for (const child of element.children) text += typeof child === 'string' ? child : deepTextOf(child);
  return text;
}

interface OpenElement {
  readonly uri: string;
  readonly local: string;
  readonly attributes: Map<string, string>;
  readonly children: (XmlElement | string)[];
  readonly position: number;
  /** Child elements so far, and how many the limits allow. */
  childElements: number;
  readonly maxChildren: number;
}

/**
 * Incremental form of `parseXml`: feed decoded text in chunks, then `close()` for the root.
 * Chunk boundaries may fall anywhere; the result is the same as for the whole text.
 */
export class SafeXmlReader {
  private readonly parser = new SaxesParser({ xmlns: true, position: true });
  private readonly stack: OpenElement[] = [];
  private readonly maxDepth: number;
  private root: XmlElement | undefined;
  private offset = 0;
  private attributes = 0;

  constructor(limits: XmlLimits = {}) {
    this.maxDepth = limits.maxDepth ?? DEFAULT_XML_MAX_DEPTH;
    const maxAttributes = limits.maxAttributes ?? DEFAULT_XML_MAX_ATTRIBUTES;
    const maxChildren = limits.maxChildren;
    const parser = this.parser;
    parser.on('error', (error) => {
      throw syntaxError(error.message, parser.line, parser.column, parser.position);
    });
    // Refusing the whole DOCTYPE is the simplest sound rule: no internal subset means no entity
    // declarations, so neither "billion laughs" expansion nor external entities can happen.
    parser.on('doctype', () => {
      throw ODataError.fromCode('BODY_DOCTYPE', {}, { position: this.offset });
    });
    parser.on('xmldecl', (declaration) => {
      const encoding = declaration.encoding;
      if (encoding !== undefined && encoding.toLowerCase() !== 'utf-8') {
        throw ODataError.fromCode('UNSUPPORTED_MEDIA_TYPE', {
          contentType: `encoding="${encoding}"`,
          detail: 'XML bodies must be encoded in UTF-8.',
        });
      }
    });
    // Counted as saxes reads them, before it builds the element: 400 000 attributes are refused at the 65th.
    parser.on('opentagstart', () => {
      this.attributes = 0;
    });
    parser.on('attribute', () => {
      if (++this.attributes > maxAttributes) {
        throw ODataError.fromCode(
          'BODY_INVALID',
          { detail: `an XML element has more than ${maxAttributes} attributes (line ${parser.line}).` },
          { position: parser.position },
        );
      }
    });
    parser.on('opentag', (tag) => {
      const parent = this.stack[this.stack.length - 1];
      if (parent !== undefined && ++parent.childElements > parent.maxChildren) {
        throw ODataError.fromCode(
          'BODY_INVALID',
          {
            detail: `the element '${parent.local}' has more than ${parent.maxChildren} child elements (line ${parser.line}), more than any type of the model holds.`,
          },
          { position: parser.position },
        );
      }
      if (this.stack.length >= this.maxDepth) {
        throw ODataError.fromCode(
          'BODY_INVALID',
          { detail: `the XML elements are nested deeper than ${this.maxDepth} levels (line ${parser.line}).` },
          { position: parser.position },
        );
      }
      const attributes = new Map<string, string>();
      for (const attribute of Object.values(tag.attributes)) {
        // Namespace declarations are consumed by the parser; they are not data.
        if (attribute.prefix === 'xmlns' || (attribute.prefix === '' && attribute.local === 'xmlns')) continue;
        attributes.set(attributeKey(attribute.uri, attribute.local), attribute.value);
      }
      const limit = maxChildren?.(tag.uri, tag.local);
      this.stack.push({
        uri: tag.uri,
        local: tag.local,
        attributes,
        children: [],
        position: parser.position,
        childElements: 0,
        maxChildren: limit ?? Infinity,
      });
    });
    parser.on('closetag', () => {
      const open = this.stack.pop();
      if (open === undefined) return;
      const element: XmlElement = open;
      const parent = this.stack[this.stack.length - 1];
      if (parent === undefined) this.root = element;
      else parent.children.push(element);
    });
    const onText = (text: string): void => {
      const parent = this.stack[this.stack.length - 1];
      if (parent === undefined) return; // whitespace around the root element
      const last = parent.children[parent.children.length - 1];
      // Merge adjacent runs (text split by a chunk boundary, CDATA next to text).
      if (typeof last === 'string') parent.children[parent.children.length - 1] = last + text;
      else parent.children.push(text);
    };
    parser.on('text', onText);
    parser.on('cdata', onText);
  }

  /** Feed the next piece of decoded text. */
  write(chunk: string): this {
    this.parser.write(chunk);
    this.offset += chunk.length;
    return this;
  }

  /** End the document and return its root element. */
  close(): XmlElement {
    this.parser.close();
    if (this.root === undefined) throw syntaxError('the document has no root element.', this.parser.line, this.parser.column, this.offset);
    return this.root;
  }
}

/** Parse a whole decoded XML document into an element tree (400 BODY_SYNTAX / BODY_DOCTYPE on bad input). */
export function parseXml(text: string, limits: XmlLimits = {}): XmlElement {
  return new SafeXmlReader(limits).write(text).close();
}

/**
 * A client-safe syntax error: saxes prefixes its messages with `file:line:column:`; we drop that
 * prefix and state the position ourselves, so nothing but the reason reaches the client.
 */
function syntaxError(message: string, line: number, column: number, position: number): ODataError {
  const reason = message.replace(/^(?:[^:]*:)?\d+:\d+: /, '');
  return ODataError.fromCode('BODY_SYNTAX', { format: 'XML', detail: `${reason.replace(/\.$/, '')} at line ${line}, column ${column + 1}.` }, { position });
}
