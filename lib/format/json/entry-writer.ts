/**
 * The verbose JSON entry writer (MS-ODATA §2.2.6.3.3), compiled once per entity set and
 * $select/$expand shape: `__metadata` (uri, type, etag, and edit_media / media_src / content_type
 * / media_etag for media link entries), the selected properties, dynamic properties of open
 * types, then navigation properties as `__deferred` links or inline content (§2.2.6.3.6): a
 * related feed is an array in OData 1.0 and `{"results":[...]}` in 2.0.
 */
import type { EdmEntitySet, EdmEntityType } from '../../edm/model';
import type { Entity } from '../../provider/types';
import type { SelectExpand } from '../../uri/types';
import type { WriterContext } from '../context';
import { type EntryPlan, isDynamicKey, type NavigationPlan, WriterCache } from '../entry-plan';
import { encodePathSegment, entryPathOf, isWritableName } from '../values';
import { isEntity } from '../value-guards';
import { chargeExpanded, type ChunkOut, isAsyncIterable, SYNC_EXPANDED } from '../stream';
import { expandedCount } from '../expanded-count';
import { compileJsonValue, type JsonValueWriter, writeDynamicJsonValue } from './value-writer';

/**
 * The compiled writer of one entry shape: `write` gives the whole entry object at once (expanded
 * values must be arrays); with expansions, `count` tells whether an entity can be written so
 * (its expanded entries, or -1 for a streamed or large expansion) and `stream` writes it piece by
 * piece, awaiting expanded feeds that are async iterables.
 */
interface JsonEntryWriter {
  readonly write: (entity: Entity, scope: JsonScope) => string;
  readonly count: ((entity: Entity, cap: number) => number) | undefined;
  readonly stream: (entity: Entity, scope: JsonScope, out: ChunkOut) => AsyncGenerator<string, void, undefined>;
}

/**
 * What every entry of one response shares, computed once per response rather than once per entry
 * (as Atom's AtomScope): the service root escaped for a JSON string.
 */
interface JsonScope {
  readonly context: WriterContext;
  /** `context.serviceRoot` escaped for a JSON string (without the quotes). */
  readonly root: string;
}

/** The scope of one response. */
export function jsonScope(context: WriterContext): JsonScope {
  return { context, root: jsonStringBody(context.serviceRoot) };
}

const cache = new WriterCache<JsonEntryWriter>(compileJsonEntry);

/** The compiled JSON entry writer for entries of a set, shaped by $select/$expand. */
export function jsonEntryWriter(entitySet: EdmEntitySet, entityType: EdmEntityType, selectExpand: SelectExpand): JsonEntryWriter {
  return cache.get(entitySet, entityType, selectExpand);
}

interface PropertyWriter {
  readonly name: string;
  /** `,"Name":` */
  readonly key: string;
  readonly write: JsonValueWriter;
}

/** Writes one navigation property; `uriText` is the entry's URI, already escaped for a JSON string. */
interface LinkWriter {
  readonly write: (entity: Entity, uriText: string, scope: JsonScope) => string;
  /** Expanded links only: see JsonEntryWriter.count. */
  readonly count?: (entity: Entity, cap: number) => number;
  /** Expanded links only: write the link into `out`, streaming an expanded feed. */
  readonly stream?: (entity: Entity, uriText: string, scope: JsonScope, out: ChunkOut) => AsyncGenerator<string, void, undefined>;
}

// What JSON.stringify would escape (plus lone-surrogate candidates): absent in nearly every URI.
const JSON_SPECIAL = /["\\\u0000-\u001f\uD800-\uDFFF]/;

/** The escaped content of a JSON string (without the quotes); the fast path returns the text itself. */
function jsonStringBody(text: string): string {
  return JSON_SPECIAL.test(text) ? JSON.stringify(text).slice(1, -1) : text;
}

function compileJsonEntry(plan: EntryPlan): JsonEntryWriter {
  const type = plan.entityType;
  const pathOf = entryPathOf(plan.entitySet);
  const typePart = `,"type":${JSON.stringify(type.qualifiedName)}`;
  const properties: PropertyWriter[] = plan.properties.map((property) => ({
    name: property.name,
    key: `,${JSON.stringify(property.name)}:`,
    write: compileJsonValue(property.type, `${type.qualifiedName}/${property.name}`),
  }));
  const links: LinkWriter[] = plan.navigation.map(compileLink);
  const expanded = links.filter((link) => link.count !== undefined);
  const dynamic = plan.allDynamic || plan.selectedDynamic.size > 0;

  /** Everything before the navigation properties: `{"__metadata":{...},"Prop":...`. */
  const head = (entity: Entity, uriText: string, context: WriterContext): string => {
    let out = '{"__metadata":{"uri":"' + uriText + '"' + typePart;
    const etag = context.etagOf(entity, type);
    if (etag !== undefined) out += ',"etag":' + JSON.stringify(etag);
    if (type.hasStream) {
      const media = context.mediaOf?.(entity, type);
      const source = '"' + uriText + '/$value"';
      out += ',"edit_media":' + source + ',"media_src":' + source + ',"content_type":' + JSON.stringify(media?.contentType ?? 'application/octet-stream');
      if (media?.etag !== undefined) out += ',"media_etag":' + JSON.stringify(media.etag);
    }
    out += '}';
    for (let i = 0; i < properties.length; i++) {
      const property = properties[i];
      out += property.key + property.write(entity[property.name]);
    }
    if (dynamic) {
      for (const key in entity) {
        if (!isDynamicKey(plan, key) || !isWritableName(key)) continue;
        const text = writeDynamicJsonValue(entity[key]);
        if (text !== undefined) out += `,${JSON.stringify(key)}:${text}`;
      }
    }
    return out;
  };
  // The escaped URI text is shared by __metadata and every deferred link of the entry; the
  // service root is escaped once per response (the scope), the path per entry (escaping works per character).
  const uriTextOf = (entity: Entity, scope: JsonScope): string => scope.root + jsonStringBody(pathOf(entity));

  return {
    write: (entity, scope) => {
      const uriText = uriTextOf(entity, scope);
      let out = head(entity, uriText, scope.context);
      for (let i = 0; i < links.length; i++) out += links[i].write(entity, uriText, scope);
      return out + '}';
    },
    count: expanded.length === 0 ? undefined : (entity, cap) => countLinks(expanded, entity, cap),
    stream: async function* (entity, scope, out) {
      const uriText = uriTextOf(entity, scope);
      out.text += head(entity, uriText, scope.context);
      for (const link of links) {
        if (link.stream === undefined) out.text += link.write(entity, uriText, scope);
        else yield* link.stream(entity, uriText, scope, out);
      }
      out.text += '}';
    },
  };
}

/** Expanded entries under the links of one entity, or -1 (see JsonEntryWriter.count). */
function countLinks(links: readonly LinkWriter[], entity: Entity, cap: number): number {
  let total = 0;
  for (const link of links) {
    const found = link.count === undefined ? 0 : link.count(entity, cap - total);
    if (found < 0) return -1;
    total += found;
  }
  return total;
}

function compileLink(navigation: NavigationPlan): LinkWriter {
  const property = navigation.property;
  const name = property.name;
  const key = `,${JSON.stringify(name)}:`;
  const suffix = `/${encodePathSegment(name)}`;
  const deferredStart = `${key}{"__deferred":{"uri":"`;
  const deferredEnd = `${suffix}"}}`;
  const deferred = (uriText: string): string => deferredStart + uriText + deferredEnd;
  const expand = navigation.expand;
  if (expand === undefined) return { write: (_entity, uriText) => deferred(uriText) };
  const child = cache.get(expand.entitySet, property.target, expand);
  const count = (entity: Entity, cap: number): number => expandedCount(entity[name], property.isCollection, child.count, cap);
  if (property.isCollection) {
    return {
      write: (entity, uriText, scope) => {
        const value = entity[name];
        if (!Array.isArray(value)) return deferred(uriText);
        const related: readonly unknown[] = value;
        let items = '';
        for (let i = 0; i < related.length; i++) {
          items += (i === 0 ? '' : ',') + child.write(expectEntity(related[i], name), scope);
        }
        return scope.context.version === '1.0' ? `${key}[${items}]` : `${key}{"results":[${items}]}`;
      },
      count,
      stream: async function* (entity, uriText, scope, out) {
        const value = entity[name];
        if (!Array.isArray(value) && !isAsyncIterable(value)) {
          out.text += deferred(uriText);
          return;
        }
        const items: Iterable<unknown> | AsyncIterable<unknown> = value;
        out.text += scope.context.version === '1.0' ? `${key}[` : `${key}{"results":[`;
        let index = 0;
        for await (const item of items) {
          if (index++ > 0) out.text += ',';
          yield* writeChild(child, expectEntity(item, name), scope, out);
          if (out.full) yield* out.release();
        }
        out.text += scope.context.version === '1.0' ? ']' : ']}';
      },
    };
  }
  if (child.count === undefined) {
    // One entry with no expanded feed below: counted as it is written, no walk ahead, no streaming.
    return {
      write: (entity, uriText, scope) => {
        const value = entity[name];
        if (value === undefined) return deferred(uriText);
        if (value === null) return `${key}null`;
        chargeExpanded(scope.context.expansionBudget, 1);
        return key + child.write(expectEntity(value, name), scope);
      },
    };
  }
  return {
    write: (entity, uriText, scope) => {
      const value = entity[name];
      if (value === undefined) return deferred(uriText);
      if (value === null) return `${key}null`;
      return key + child.write(expectEntity(value, name), scope);
    },
    count,
    stream: async function* (entity, uriText, scope, out) {
      const value = entity[name];
      if (value === undefined || value === null) {
        out.text += value === undefined ? deferred(uriText) : `${key}null`;
        return;
      }
      out.text += key;
      yield* writeChild(child, expectEntity(value, name), scope, out);
    },
  };
}

/** An expanded entry inside a streamed one: counted, then written at once when small, else streamed. */
async function* writeChild(child: JsonEntryWriter, entity: Entity, scope: JsonScope, out: ChunkOut): AsyncGenerator<string, void, undefined> {
  const budget = scope.context.expansionBudget;
  chargeExpanded(budget, 1);
  const found = child.count === undefined ? 0 : child.count(entity, SYNC_EXPANDED);
  if (found >= 0) {
    chargeExpanded(budget, found);
    out.text += child.write(entity, scope);
  } else {
    yield* child.stream(entity, scope, out);
  }
}

/** Narrow an expanded value's member to an entity, or fail with a provider-bug TypeError naming the property. */
function expectEntity(value: unknown, name: string): Entity {
  if (!isEntity(value)) throw new TypeError(`Expanded navigation property '${name}' holds a value that is not an entity.`);
  return value;
}
