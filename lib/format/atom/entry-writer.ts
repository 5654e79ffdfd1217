/**
 * The Atom entry writer (MS-ODATA §2.2.6.2.2, RFC 4287 §4.1.2), compiled once per entity set and
 * $select/$expand shape: id, the syndication elements (with feed customization), the edit link,
 * edit-media link and content src of media link entries (§2.2.6.2.2.2), one link per navigation
 * property with `m:inline` content when expanded, the category, and `m:properties`. Output is
 * compact (no indentation), element and attribute order as WCF Data Services wrote them.
 */
import type { EdmEntitySet, EdmEntityType } from '../../edm/model';
import type { Entity } from '../../provider/types';
import type { SelectExpand } from '../../uri/types';
import type { WriterContext } from '../context';
import { EntryPlan, isDynamicKey, NavigationPlan, WriterCache } from '../entry-plan';
import { ATOM_ENTRY_TYPE, ATOM_FEED_TYPE, ATOM_NS, DATA_NS, METADATA_NS, RELATED_REL, SCHEME_NS } from '../names';
import { encodePathSegment, entryPathOf, isWritableName } from '../values';
import { isEntity } from '../value-guards';
import { escapeXmlAttribute, escapeXmlText } from '../xml/escape';
import { compileXmlElement, writeDynamicXmlElement, XmlValueWriter } from '../xml/value-writer';
import { compileFeedCustomization } from './feed-customization';

/**
 * What every entry of one response shares, escaped once per response rather than once per entry:
 * the service root and the `updated` timestamp.
 */
export interface AtomScope {
  readonly context: WriterContext;
  /** The service root, escaped for text and attributes. */
  readonly root: string;
  /** `context.updated`, escaped. */
  readonly updated: string;
}

/** The scope of one response. */
export function atomScope(context: WriterContext): AtomScope {
  return { context, root: escapeXmlAttribute(context.serviceRoot), updated: escapeXmlText(context.updated) };
}

/** Writes one `<entry>`; `rootAttributes` carries `xml:base` and namespaces for a top-level entry, else ''. */
export type AtomEntryWriter = (entity: Entity, scope: AtomScope, rootAttributes: string) => string;

/** `xml:base` and namespace declarations of a top-level `feed` or `entry` (as in the ODataDemo captures). */
export function atomRootAttributes(scope: AtomScope): string {
  return ` xml:base="${scope.root}" xmlns:d="${DATA_NS}" xmlns:m="${METADATA_NS}" xmlns="${ATOM_NS}"`;
}

const cache = new WriterCache<AtomEntryWriter>(compileAtomEntry);

/** The compiled Atom entry writer for entries of a set, shaped by $select/$expand. */
export function atomEntryWriter(entitySet: EdmEntitySet, entityType: EdmEntityType, selectExpand: SelectExpand): AtomEntryWriter {
  return cache.get(entitySet, entityType, selectExpand);
}

interface PropertyWriter {
  readonly property: EntryPlan['properties'][number];
  readonly write: XmlValueWriter;
}

/** Writes one navigation link; `href` is the entry's path, already escaped for an attribute. */
type LinkWriter = (entity: Entity, href: string, scope: AtomScope) => string;

function compileAtomEntry(plan: EntryPlan): AtomEntryWriter {
  const type = plan.entityType;
  const pathOf = entryPathOf(plan.entitySet);
  const customization = compileFeedCustomization(plan);
  const editLink = `<link rel="edit" title="${escapeXmlAttribute(type.name)}" href="`;
  const category = `<category term="${escapeXmlAttribute(type.qualifiedName)}" scheme="${SCHEME_NS}"/>`;
  const properties: PropertyWriter[] = plan.properties.map((property) => ({ property, write: compileXmlElement(`d:${property.name}`, property.type) }));
  const links: LinkWriter[] = plan.navigation.map(compileLink);
  const dynamic = plan.allDynamic || plan.selectedDynamic.size > 0;
  const mediaTitle = escapeXmlAttribute(type.name);

  return (entity, scope, rootAttributes) => {
    const context = scope.context;
    // Attribute escaping covers text escaping, so the escaped path serves id and hrefs alike.
    const href = escapeXmlAttribute(pathOf(entity));
    const etag = context.etagOf(entity, type);
    let out = '<entry' + rootAttributes + (etag === undefined ? '' : ` m:etag="${escapeXmlAttribute(etag)}"`) + '>';
    out += '<id>' + scope.root + href + '</id>';
    out += customization.syndication(entity, scope.updated);
    out += editLink + href + '"/>';
    let contentType: string | undefined;
    if (type.hasStream) {
      const media = context.mediaOf?.(entity, type);
      contentType = media?.contentType ?? 'application/octet-stream';
      const mediaETag = media?.etag === undefined ? '' : ` m:etag="${escapeXmlAttribute(media.etag)}"`;
      out += `<link rel="edit-media" title="${mediaTitle}" href="${href}/$value"${mediaETag}/>`;
    }
    for (let i = 0; i < links.length; i++) out += links[i](entity, href, scope);
    out += category;

    let content = '';
    for (let i = 0; i < properties.length; i++) {
      const { property, write } = properties[i];
      const value = entity[property.name];
      if (!customization.isHidden(property, value)) content += write(value);
    }
    if (dynamic) {
      for (const key in entity) {
        const value = entity[key];
        if (value !== undefined && isDynamicKey(plan, key) && isWritableName(key)) content += writeDynamicXmlElement(`d:${key}`, value);
      }
    }
    if (contentType === undefined) {
      out += content === '' ? '<content type="application/xml"/>' : `<content type="application/xml"><m:properties>${content}</m:properties></content>`;
    } else {
      // A media link entry's properties are a sibling of its (out-of-line) content (MS-ODATA §2.2.6.2.2.2).
      out += `<content type="${escapeXmlAttribute(contentType)}" src="${href}/$value"/>`;
      if (content !== '') out += `<m:properties>${content}</m:properties>`;
    }
    return out + customization.custom(entity) + '</entry>';
  };
}

/**
 * The `atom:author` of a feed without entries. RFC 4287 §4.1.1: a feed "MUST contain one or more
 * atom:author elements, unless all of the atom:feed element's child atom:entry elements contain at
 * least one" (every entry written here has one); the name is required and may be empty.
 */
export const EMPTY_FEED_AUTHOR = '<author><name/></author>';

/** A navigation link (MS-ODATA §2.2.6.2.4): deferred, or with `m:inline` holding a feed, an entry or nothing. */
function compileLink(navigation: NavigationPlan): LinkWriter {
  const property = navigation.property;
  const name = property.name;
  const title = escapeXmlAttribute(name);
  const start = `<link rel="${RELATED_REL}${title}" type="${property.isCollection ? ATOM_FEED_TYPE : ATOM_ENTRY_TYPE}" title="${title}" href="`;
  const suffix = `/${encodePathSegment(name)}`;
  const deferredEnd = `${suffix}"/>`;
  const expand = navigation.expand;
  if (expand === undefined) return (_entity, href) => start + href + deferredEnd;
  const child = cache.get(expand.entitySet, property.target, expand);
  if (property.isCollection) {
    return (entity, entryHref, scope) => {
      const href = entryHref + suffix;
      const value = entity[name];
      if (!Array.isArray(value)) return start + href + '"/>';
      const related: readonly unknown[] = value;
      let out = start + href + '"><m:inline><feed><title type="text">' + title + '</title>';
      out += '<id>' + scope.root + href + '</id><updated>' + scope.updated + '</updated>';
      if (related.length === 0) out += EMPTY_FEED_AUTHOR;
      out += `<link rel="self" title="${title}" href="${href}"/>`;
      for (const item of related) {
        if (!isEntity(item)) throw new TypeError(`Expanded navigation property '${name}' holds an item that is not an entity.`);
        out += child(item, scope, '');
      }
      return out + '</feed></m:inline></link>';
    };
  }
  return (entity, entryHref, scope) => {
    const href = entryHref + suffix;
    const value = entity[name];
    if (value === undefined) return start + href + '"/>';
    if (value === null) return start + href + '"><m:inline/></link>';
    if (!isEntity(value)) throw new TypeError(`Expanded navigation property '${name}' holds a value that is not an entity.`);
    return start + href + '"><m:inline>' + child(value, scope, '') + '</m:inline></link>';
  };
}
