/**
 * Reading one CSDL element of the tree: its CSDL attributes (typed, with EDMX_UNSUPPORTED for bad
 * values), the `m:` attributes it may carry, and everything foreign, kept as annotations. The EDMX
 * reader claims what it understands; whatever is left over is returned as annotations.
 * @internal
 */
import { ODataError } from '../errors';
import type { AnnotationAttribute, AnnotationElement, DocumentationDefinition } from './definition';
import { METADATA_NAMESPACE } from './namespaces';
import type { XmlAttribute, XmlElement } from './xml-tree';

/** Throw EDMX_UNSUPPORTED naming the element and its position. */
export function unsupported(element: XmlElement, detail: string): never {
  throw ODataError.fromCode('EDMX_UNSUPPORTED', { detail: `<${element.local}> at line ${element.line}, column ${element.column}: ${detail}` });
}

/** An element in a foreign namespace, kept as a tree (whitespace-only text dropped, mixed-content text trimmed). */
export function toAnnotationElement(element: XmlElement): AnnotationElement {
  const attributes = element.attributes.map(toAnnotationAttribute);
  const children: (AnnotationElement | string)[] = [];
  // Text beside child elements is trimmed: the writer indents mixed content, so its edges are layout.
  const mixed = element.children.some((child) => typeof child !== 'string');
  for (const child of element.children) {
    if (typeof child !== 'string') children.push(toAnnotationElement(child));
    else if (child.trim() !== '') children.push(mixed ? child.trim() : child);
  }
  return {
    namespace: element.uri,
    ...(element.prefix !== '' ? { prefix: element.prefix } : {}),
    name: element.local,
    ...(attributes.length > 0 ? { attributes } : {}),
    ...(children.length > 0 ? { children } : {}),
  };
}

function toAnnotationAttribute(attribute: XmlAttribute): AnnotationAttribute {
  return {
    namespace: attribute.uri,
    ...(attribute.prefix !== '' ? { prefix: attribute.prefix } : {}),
    name: attribute.local,
    value: attribute.value,
  };
}

const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, false: false, 1: true, 0: false };

/** A CSDL element being read: attributes are claimed by name, the rest become annotations. */
export class CsdlElement {
  private readonly claimed = new Set<XmlAttribute>();
  private readonly claimedChildren = new Set<XmlElement>();

  constructor(
    readonly element: XmlElement,
    /** The schema's CSDL namespace: children in it are CSDL, anything else is an annotation. */
    readonly csdlNamespace: string,
  ) {}

  /** An unqualified attribute's value. */
  optional(name: string): string | undefined {
    return this.take('', name);
  }

  /** An `m:` attribute's value. */
  meta(name: string): string | undefined {
    return this.take(METADATA_NAMESPACE, name);
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) unsupported(this.element, `the attribute ${name} is required`);
    return value;
  }

  /** xs:boolean: `true`, `false`, `1`, `0`. */
  boolean(value: string | undefined, name: string): boolean | undefined {
    if (value === undefined) return undefined;
    const parsed = BOOLEANS[value.trim()];
    if (parsed === undefined) unsupported(this.element, `${name}="${value}" is not a boolean`);
    return parsed;
  }

  /** A non-negative integer facet. */
  integer(value: string | undefined, name: string): number | undefined {
    if (value === undefined) return undefined;
    if (!/^\s*\d{1,9}\s*$/.test(value)) unsupported(this.element, `${name}="${value}" is not a non-negative integer`);
    return Number(value);
  }

  /** One of a fixed set of values. */
  oneOf<T extends string>(value: string | undefined, name: string, allowed: readonly T[]): T | undefined {
    if (value === undefined) return undefined;
    const match = allowed.find((candidate) => candidate === value);
    if (match === undefined) unsupported(this.element, `${name}="${value}" is not one of ${allowed.join(', ')}`);
    return match;
  }

  /** Unclaimed unqualified attributes (facets this library does not interpret, such as SRID). */
  unclaimedPlain(): { name: string; value: string }[] {
    return this.element.attributes.filter((a) => a.uri === '' && !this.claimed.has(a)).map((a) => ({ name: a.local, value: a.value }));
  }

  /** Every attribute not claimed so far, as annotations (call last). */
  annotationAttributes(includePlain: boolean): AnnotationAttribute[] {
    return this.element.attributes.filter((a) => !this.claimed.has(a) && (includePlain || a.uri !== '')).map(toAnnotationAttribute);
  }

  /** CSDL child elements, by local name. */
  children(): XmlElement[] {
    return this.element.children.filter((c): c is XmlElement => typeof c !== 'string' && c.uri === this.csdlNamespace);
  }

  /** Child elements in other namespaces that `claim` took (read into typed definitions, not kept as annotations). */
  claim(local: string, uri: string): XmlElement[] {
    const taken = this.element.children.filter((c): c is XmlElement => typeof c !== 'string' && c.uri === uri && c.local === local);
    for (const child of taken) this.claimedChildren.add(child);
    return taken;
  }

  /** Child elements in other namespaces, kept as annotations. */
  annotationElements(): AnnotationElement[] {
    return this.element.children
      .filter((c): c is XmlElement => typeof c !== 'string' && c.uri !== this.csdlNamespace && !this.claimedChildren.has(c))
      .map(toAnnotationElement);
  }

  /** The `<Documentation>` child, if any. */
  documentation(): DocumentationDefinition | undefined {
    const documentation = this.children().find((c) => c.local === 'Documentation');
    if (documentation === undefined) return undefined;
    const text = (local: string): string | undefined => {
      const part = documentation.children.find((c): c is XmlElement => typeof c !== 'string' && c.local === local && c.uri === this.csdlNamespace);
      return part === undefined ? undefined : part.children.filter((c): c is string => typeof c === 'string').join('');
    };
    const summary = text('Summary');
    const longDescription = text('LongDescription');
    return { ...(summary !== undefined ? { summary } : {}), ...(longDescription !== undefined ? { longDescription } : {}) };
  }

  /** Annotations and documentation in the shape of `Annotated`, with empty parts left out. */
  annotated(includePlain = true): {
    annotationAttributes?: AnnotationAttribute[];
    annotationElements?: AnnotationElement[];
    documentation?: DocumentationDefinition;
  } {
    const attributes = this.annotationAttributes(includePlain);
    const elements = this.annotationElements();
    const documentation = this.documentation();
    return {
      ...(attributes.length > 0 ? { annotationAttributes: attributes } : {}),
      ...(elements.length > 0 ? { annotationElements: elements } : {}),
      ...(documentation !== undefined ? { documentation } : {}),
    };
  }

  /** Refuse CSDL children this element cannot have (V3 constructs, typos). */
  expectChildren(allowed: readonly string[]): void {
    for (const child of this.children()) {
      if (child.local !== 'Documentation' && !allowed.includes(child.local))
        unsupported(child, `a <${child.local}> element is not supported inside <${this.element.local}>`);
    }
  }

  private take(uri: string, name: string): string | undefined {
    const attribute = this.element.attributes.find((a) => a.uri === uri && a.local === name);
    if (attribute === undefined) return undefined;
    this.claimed.add(attribute);
    return attribute.value;
  }
}
