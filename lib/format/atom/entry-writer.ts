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
import type { MediaInfo, WriterContext } from '../context';
import { type EntryPlan, isDynamicKey, type NavigationPlan, WriterCache } from '../entry-plan';
import { ATOM_ENTRY_TYPE, ATOM_FEED_TYPE, ATOM_NS, DATA_NS, METADATA_NS, RELATED_REL, SCHEME_NS } from '../names';
import { encodePathSegment, entryPathOf, isWritableName } from '../values';
import { isEntity } from '../value-guards';
import { chargeExpanded, type ChunkOut, isAsyncIterable, SYNC_EXPANDED } from '../stream';
import { expandedCount } from '../expanded-count';
import type { EntryCount } from '../expanded-count';
import { escapeXmlAttribute, escapeXmlText } from '../xml/escape';
import { compileXmlElement, writeDynamicXmlElement, type XmlValueWriter } from '../xml/value-writer';
import { compileFeedCustomization } from './feed-customization';

/**
 * What every entry of one response shares, computed once per response rather than once per entry:
 * the escaped service root and the `updated` timestamp (the clock is read here, so only Atom
 * responses read it).
 */
interface AtomScope {
  readonly context: WriterContext;
  /** The service root, escaped for text and attributes. */
  readonly root: string;
  /** `context.now()` as an Atom date, escaped. */
  readonly updated: string;
}

/** The scope of one response. */
export function atomScope(context: WriterContext): AtomScope {
  return { context, root: escapeXmlAttribute(context.serviceRoot), updated: escapeXmlText(isoSeconds(context.now())) };
}

/** `2026-11-22T14:30:05Z`: Atom `updated` values without milliseconds, as the original servers wrote them. */
function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * The compiled writer of one entry shape (`rootAttributes` carries `xml:base` and namespaces for a
 * top-level entry, else ''): `write` gives the whole `<entry>` at once (expanded values must be
 * arrays); with expansions, `count` tells whether an entity can be written so (its expanded
 * entries, or -1 for a streamed or large expansion) and `stream` writes it piece by piece.
 */
interface AtomEntryWriter {
  readonly write: (entity: Entity, scope: AtomScope, rootAttributes: string) => string;
  readonly count: EntryCount | undefined;
  readonly stream: (entity: Entity, scope: AtomScope, rootAttributes: string, out: ChunkOut) => AsyncGenerator<string, void, undefined>;
}

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
interface LinkWriter {
  readonly write: (entity: Entity, href: string, scope: AtomScope) => string;
  /** Expanded links only: see AtomEntryWriter.count. */
  readonly count?: EntryCount;
  /** Expanded links only: write the link into `out`, streaming an expanded feed. */
  readonly stream?: (entity: Entity, href: string, scope: AtomScope, out: ChunkOut) => AsyncGenerator<string, void, undefined>;
}

/** What writers say about a media resource its provider does not describe. */
const UNKNOWN_MEDIA: MediaInfo = Object.freeze({ contentType: 'application/octet-stream' });

function compileAtomEntry(plan: EntryPlan): AtomEntryWriter {
  const type = plan.entityType;
  const pathOf = entryPathOf(plan.entitySet);
  const customization = compileFeedCustomization(plan);
  const editLink = `<link rel="edit" title="${escapeXmlAttribute(type.name)}" href="`;
  const category = `<category term="${escapeXmlAttribute(type.qualifiedName)}" scheme="${SCHEME_NS}"/>`;
  const properties: PropertyWriter[] = plan.properties.map((property) => ({ property, write: compileXmlElement(`d:${property.name}`, property.type) }));
  const links: LinkWriter[] = plan.navigation.map(compileLink);
  const expanded = links.filter((link) => link.count !== undefined);
  const dynamic = plan.allDynamic || plan.selectedDynamic.size > 0;
  const mediaTitle = escapeXmlAttribute(type.name);

  /** The media resource of a media link entry (undefined for other types). */
  const mediaOf = (entity: Entity, context: WriterContext): MediaInfo | undefined =>
    type.hasStream ? (context.mediaOf?.(entity, type) ?? UNKNOWN_MEDIA) : undefined;

  /** The start of the entry up to its links. */
  const head = (entity: Entity, href: string, scope: AtomScope, rootAttributes: string, media: MediaInfo | undefined): string => {
    const etag = scope.context.etagOf(entity, type);
    let out = '<entry' + rootAttributes + (etag === undefined ? '' : ` m:etag="${escapeXmlAttribute(etag)}"`) + '>';
    out += '<id>' + scope.root + href + '</id>';
    out += customization.syndication(entity, scope.updated);
    out += editLink + href + '"/>';
    if (media !== undefined) {
      const mediaETag = media.etag === undefined ? '' : ` m:etag="${escapeXmlAttribute(media.etag)}"`;
      out += `<link rel="edit-media" title="${mediaTitle}" href="${href}/$value"${mediaETag}/>`;
    }
    return out;
  };

  /** The rest after the links: category, content and properties, the custom feed mappings. */
  const tail = (entity: Entity, href: string, media: MediaInfo | undefined): string => {
    let out = category;
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
    if (media === undefined) {
      out += content === '' ? '<content type="application/xml"/>' : `<content type="application/xml"><m:properties>${content}</m:properties></content>`;
    } else {
      // A media link entry's properties are a sibling of its (out-of-line) content (MS-ODATA §2.2.6.2.2.2).
      out += `<content type="${escapeXmlAttribute(media.contentType)}" src="${href}/$value"/>`;
      if (content !== '') out += `<m:properties>${content}</m:properties>`;
    }
    return out + customization.custom(entity) + '</entry>';
  };

  return {
    write: (entity, scope, rootAttributes) => {
      // Attribute escaping covers text escaping, so the escaped path serves id and hrefs alike.
      const href = escapeXmlAttribute(pathOf(entity));
      const media = mediaOf(entity, scope.context);
      let out = head(entity, href, scope, rootAttributes, media);
      for (let i = 0; i < links.length; i++) out += links[i].write(entity, href, scope);
      return out + tail(entity, href, media);
    },
    count: expanded.length === 0 ? undefined : (entity, cap) => countLinks(expanded, entity, cap),
    stream: async function* (entity, scope, rootAttributes, out) {
      const href = escapeXmlAttribute(pathOf(entity));
      const media = mediaOf(entity, scope.context);
      out.text += head(entity, href, scope, rootAttributes, media);
      for (const link of links) {
        if (link.stream === undefined) out.text += link.write(entity, href, scope);
        else yield* link.stream(entity, href, scope, out);
      }
      out.text += tail(entity, href, media);
    },
  };
}

/** Expanded entries under the links of one entity, or -1 (see AtomEntryWriter.count). */
function countLinks(links: readonly LinkWriter[], entity: Entity, cap: number): number {
  let total = 0;
  for (const link of links) {
    const found = link.count === undefined ? 0 : link.count(entity, cap - total);
    if (found < 0) return -1;
    total += found;
  }
  return total;
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
  if (expand === undefined) return { write: (_entity, href) => start + href + deferredEnd };
  const child = cache.get(expand.entitySet, property.target, expand);
  const count: EntryCount = (entity, cap) => expandedCount(entity[name], property.isCollection, child.count, cap);
  if (property.isCollection) {
    /** The inline feed up to its `updated`; an empty one then needs EMPTY_FEED_AUTHOR, before the self link. */
    const feedStart = (href: string, scope: AtomScope): string =>
      start +
      href +
      '"><m:inline><feed><title type="text">' +
      title +
      '</title>' +
      '<id>' +
      scope.root +
      href +
      '</id><updated>' +
      scope.updated +
      '</updated>';
    const selfLink = (href: string): string => `<link rel="self" title="${title}" href="${href}"/>`;
    const feedEnd = '</feed></m:inline></link>';
    return {
      write: (entity, entryHref, scope) => {
        const value = entity[name];
        if (!Array.isArray(value)) return start + entryHref + suffix + '"/>';
        const related: readonly unknown[] = value;
        const href = entryHref + suffix;
        let out = feedStart(href, scope) + (related.length === 0 ? EMPTY_FEED_AUTHOR : '') + selfLink(href);
        for (const item of related) out += child.write(expectEntity(item, name), scope, '');
        return out + feedEnd;
      },
      count,
      stream: async function* (entity, entryHref, scope, out) {
        const value = entity[name];
        if (!Array.isArray(value) && !isAsyncIterable(value)) {
          out.text += start + entryHref + suffix + '"/>';
          return;
        }
        const items: Iterable<unknown> | AsyncIterable<unknown> = value;
        const href = entryHref + suffix;
        out.text += feedStart(href, scope);
        // Whether the feed is empty is known at its first entry, or at its end.
        let empty = true;
        for await (const item of items) {
          if (empty) out.text += selfLink(href);
          empty = false;
          yield* writeChild(child, expectEntity(item, name), scope, out);
          if (out.full) yield* out.release();
        }
        if (empty) out.text += EMPTY_FEED_AUTHOR + selfLink(href);
        out.text += feedEnd;
      },
    };
  }
  const writeSingle = (entity: Entity, entryHref: string, scope: AtomScope, charge: boolean): string => {
    const href = entryHref + suffix;
    const value = entity[name];
    if (value === undefined) return start + href + '"/>';
    if (value === null) return start + href + '"><m:inline/></link>';
    if (charge) chargeExpanded(scope.context.expansionBudget, 1);
    return start + href + '"><m:inline>' + child.write(expectEntity(value, name), scope, '') + '</m:inline></link>';
  };
  // One entry with no expanded feed below: counted as it is written, no walk ahead, no streaming.
  if (child.count === undefined) return { write: (entity, entryHref, scope) => writeSingle(entity, entryHref, scope, true) };
  return {
    write: (entity, entryHref, scope) => writeSingle(entity, entryHref, scope, false),
    count,
    stream: async function* (entity, entryHref, scope, out) {
      const href = entryHref + suffix;
      const value = entity[name];
      if (value === undefined || value === null) {
        out.text += start + href + (value === undefined ? '"/>' : '"><m:inline/></link>');
        return;
      }
      out.text += start + href + '"><m:inline>';
      yield* writeChild(child, expectEntity(value, name), scope, out);
      out.text += '</m:inline></link>';
    },
  };
}

/** An expanded entry inside a streamed one: counted, then written at once when small, else streamed. */
async function* writeChild(child: AtomEntryWriter, entity: Entity, scope: AtomScope, out: ChunkOut): AsyncGenerator<string, void, undefined> {
  const budget = scope.context.expansionBudget;
  chargeExpanded(budget, 1);
  const found = child.count === undefined ? 0 : child.count(entity, SYNC_EXPANDED);
  if (found >= 0) {
    chargeExpanded(budget, found);
    out.text += child.write(entity, scope, '');
  } else {
    yield* child.stream(entity, scope, '', out);
  }
}

/** Narrow an expanded value's member to an entity, or fail with a provider-bug TypeError naming the property. */
function expectEntity(value: unknown, name: string): Entity {
  if (!isEntity(value)) throw new TypeError(`Expanded navigation property '${name}' holds a value that is not an entity.`);
  return value;
}
