/**
 * The Atom entry reader (MS-ODATA §2.2.6.2.2, §2.2.7.1.1, §2.2.7.3.1): an `application/atom+xml`
 * request body to an EntryBody. Reads `m:properties` (inside `atom:content`, or beside it for media
 * link entries), the category term, customizable-feed values, and related links as bindings
 * (`href`) or deep inserts (`m:inline`). XML safety (no DOCTYPE, bounded depth) is safe-sax's job.
 */
import { xmlLimitsOf } from '../structure-limits';
import type { EdmEntitySet, EdmEntityType, EdmNavigationProperty } from '../../edm/model';
import { ODataError } from '../../errors';
import { didYouMean } from '../../util';
import { decodeBodyText } from '../body-text';
import type { EntryBody, EntryTarget, ReadContext } from '../entry-body';
import { EntryBuilder, inlineTargetSet, resolveEntryType, unknownPropertyError } from '../entry-checks';
import { bindingTarget } from '../link-uri';
import { ATOM_NS, DATA_NS, METADATA_NS, RELATED_REL, SCHEME_NS } from '../names';
import { readXmlPropertyElement } from '../xml/property-reader';
import { XML_NAMESPACE, attributeOf, childElements, deepTextOf, parseXml } from '../xml/safe-sax';
import type { XmlElement } from '../xml/safe-sax';
import { readFeedCustomizedProperties } from './feed-customization-reader';

function invalid(detail: string): ODataError {
  return ODataError.fromCode('BODY_INVALID', { detail });
}

function isAtom(element: XmlElement, local: string): boolean {
  return element.uri === ATOM_NS && element.local === local;
}

/** The `xml:base` in scope for `element` (RFC 4287 §2, XML Base), as an absolute URI string. */
function xmlBaseOf(element: XmlElement, inherited: string | undefined, context: ReadContext): string | undefined {
  const base = attributeOf(element, XML_NAMESPACE, 'base');
  if (base === undefined) return inherited;
  try {
    return new URL(base.trim(), inherited ?? context.serviceRoot).href;
  } catch (cause) {
    throw ODataError.fromCode('BODY_INVALID', { detail: `the xml:base '${base}' is not a valid URI.` }, { cause });
  }
}

/** The parts of an `atom:entry` that the reader uses, gathered in one pass over its children. */
interface EntryParts {
  typeName: string | undefined;
  id: string | undefined;
  content: XmlElement | undefined;
  readonly propertyBlocks: XmlElement[];
  readonly links: XmlElement[];
  mediaLinkEntry: boolean;
}

function gatherParts(entry: XmlElement): EntryParts {
  const parts: EntryParts = { typeName: undefined, id: undefined, content: undefined, propertyBlocks: [], links: [], mediaLinkEntry: false };
  for (const child of childElements(entry)) {
    if (child.uri === METADATA_NS && child.local === 'properties') {
      // MS-ODATA §2.2.6.2.2: a media link entry carries m:properties as a sibling of atom:content.
      parts.propertyBlocks.push(child);
      parts.mediaLinkEntry = true;
    } else if (child.uri !== ATOM_NS) {
      continue;
    } else if (child.local === 'category') {
      if (attributeOf(child, '', 'scheme') !== SCHEME_NS) continue;
      if (parts.typeName !== undefined) throw invalid('the entry has more than one category naming its type.');
      const term = attributeOf(child, '', 'term');
      if (term === undefined || term.trim() === '') throw invalid('the category of the entry has no term naming its type.');
      parts.typeName = term;
    } else if (child.local === 'id') {
      const id = deepTextOf(child).trim();
      if (id !== '') parts.id = id;
    } else if (child.local === 'content') {
      if (parts.content !== undefined) throw invalid('the entry has more than one atom:content element.');
      parts.content = child;
    } else if (child.local === 'link') {
      parts.links.push(child);
    }
  }
  const content = parts.content;
  if (content !== undefined) {
    if (attributeOf(content, '', 'src') !== undefined) parts.mediaLinkEntry = true;
    for (const child of childElements(content)) {
      if (child.uri === METADATA_NS && child.local === 'properties') parts.propertyBlocks.push(child);
      else throw invalid(`unexpected element '${child.local}' in atom:content; expected m:properties.`);
    }
  }
  return parts;
}

/** Each child of `m:properties` is a `d:` property element (MS-ODATA §2.2.6.2.2). */
function readProperties(block: XmlElement, type: EdmEntityType, builder: EntryBuilder, context: ReadContext): void {
  for (const child of block.children) {
    if (typeof child === 'string') {
      if (child.trim() !== '') throw invalid('m:properties contains text outside property elements.');
      continue;
    }
    const name = child.local;
    if (child.uri !== DATA_NS) {
      throw invalid(`the property element '${name}' is not in the data namespace ${DATA_NS}.`);
    }
    const property = type.propertiesByName.get(name);
    if (property === undefined && type.navigationPropertiesByName.has(name)) {
      throw invalid(`'${name}' is a navigation property; send it as an atom:link, not in m:properties.`);
    }
    if (property === undefined && !type.openType) throw unknownPropertyError(name, type);
    const { value, type: valueType } = readXmlPropertyElement(child, property, name, context);
    builder.setProperty(name, value, property === undefined ? valueType : undefined);
  }
}

/** The navigation property named by a related link's rel, or undefined for other rels (edit, self, ...). */
function navigationOf(link: XmlElement, type: EdmEntityType): EdmNavigationProperty | undefined {
  const rel = attributeOf(link, '', 'rel');
  if (rel === undefined || !rel.startsWith(RELATED_REL)) return undefined;
  const name = rel.slice(RELATED_REL.length);
  const property = type.navigationPropertiesByName.get(name);
  if (property === undefined) {
    throw invalid(`the type '${type.qualifiedName}' has no navigation property '${name}'.${didYouMean(name, type.navigationPropertiesByName.keys())}`);
  }
  return property;
}

/** `m:inline` (MS-ODATA §2.2.6.2.6.1): empty = explicit null, a feed for many-valued, an entry for single-valued. */
function readInline(
  inline: XmlElement,
  property: EdmNavigationProperty,
  source: EdmEntitySet,
  builder: EntryBuilder,
  context: ReadContext,
  depth: number,
  base: string | undefined,
): void {
  const entitySet = inlineTargetSet(source, property, context, depth);
  const inner = childElements(inline);
  if (inner.length > 1) throw invalid(`m:inline of '${property.name}' holds more than one element.`);
  const [content] = inner;
  if (content === undefined) return builder.addInline(property, entitySet, []);
  const contentBase = xmlBaseOf(content, base, context);
  let entries: XmlElement[];
  if (isAtom(content, 'feed')) {
    if (!property.isCollection) throw invalid(`'${property.name}' is single-valued: m:inline must hold an entry, not a feed.`);
    entries = childElements(content).filter((child) => isAtom(child, 'entry'));
  } else if (isAtom(content, 'entry')) {
    if (property.isCollection) throw invalid(`'${property.name}' is many-valued: m:inline must hold a feed, not an entry.`);
    entries = [content];
  } else {
    throw invalid(`m:inline of '${property.name}' must hold an atom:feed or an atom:entry, not '${content.local}'.`);
  }
  builder.addInline(
    property,
    entitySet,
    entries.map((entry) => readEntry(entry, entitySet, property.target, undefined, context, depth + 1, xmlBaseOf(entry, contentBase, context))),
  );
}

/** A related link: a binding to an existing entry (`href`), or a deep insert (`m:inline`). */
function readLink(
  link: XmlElement,
  source: EdmEntitySet,
  type: EdmEntityType,
  builder: EntryBuilder,
  context: ReadContext,
  depth: number,
  inherited: string | undefined,
): void {
  const property = navigationOf(link, type);
  if (property === undefined) return;
  const base = xmlBaseOf(link, inherited, context);
  const inlines = childElements(link).filter((child) => child.uri === METADATA_NS && child.local === 'inline');
  if (inlines.length > 1) throw invalid(`the link '${property.name}' has more than one m:inline element.`);
  // With m:inline the href is the navigation URI of the parent: the inline content is what counts.
  if (inlines.length === 1) return readInline(inlines[0], property, source, builder, context, depth, base);
  const href = attributeOf(link, '', 'href');
  if (href === undefined || href.trim() === '') throw invalid(`the link '${property.name}' has neither an href nor m:inline content.`);
  const target = bindingTarget(href, source, property, context, invalid, base);
  if (target !== undefined) builder.addBinding(property, target);
}

function readEntry(
  element: XmlElement,
  entitySet: EdmEntitySet,
  declared: EdmEntityType,
  target: EntryTarget | undefined,
  context: ReadContext,
  depth: number,
  base: string | undefined,
): EntryBody {
  const parts = gatherParts(element);
  const type = resolveEntryType(parts.typeName, declared, context);
  const builder = new EntryBuilder(type);
  for (const block of parts.propertyBlocks) readProperties(block, type, builder, context);
  readFeedCustomizedProperties(element, type, builder);
  for (const link of parts.links) readLink(link, entitySet, type, builder, context, depth, base);
  return builder.build(target, parts.mediaLinkEntry, parts.id);
}

/**
 * Read an Atom entry request body (POST to a set or navigation, PUT/MERGE of an entry).
 * 400 BODY_SYNTAX / BODY_DOCTYPE / BODY_INVALID / VALUE_INVALID / KEY_MISMATCH, 415 for a non-UTF-8 charset.
 */
export function readAtomEntry(body: Buffer | string, target: EntryTarget, context: ReadContext): EntryBody {
  const text = decodeBodyText(body, context.contentType);
  if (text.trim() === '') throw ODataError.fromCode('BODY_MISSING');
  const root = parseXml(text, xmlLimitsOf(context));
  if (!isAtom(root, 'entry')) {
    throw invalid(`expected an atom:entry element (namespace ${ATOM_NS}), found '${root.local}'${root.uri === '' ? '' : ` in ${root.uri}`}.`);
  }
  return readEntry(root, target.entitySet, target.entityType, target, context, 0, xmlBaseOf(root, undefined, context));
}
