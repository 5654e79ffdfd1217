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
import { EntryPlan, isDynamicKey, NavigationPlan, WriterCache } from '../entry-plan';
import { encodePathSegment, entryPathOf, isWritableName } from '../values';
import { isEntity } from '../value-guards';
import { compileJsonValue, JsonValueWriter, writeDynamicJsonValue } from './value-writer';

/** Writes one entry object. */
export type JsonEntryWriter = (entity: Entity, context: WriterContext) => string;

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
type LinkWriter = (entity: Entity, uriText: string, context: WriterContext) => string;

// What JSON.stringify would escape (plus lone-surrogate candidates): absent in nearly every URI.
const JSON_SPECIAL = /["\\\u0000-\u001f\uD800-\uDFFF]/;

/** The escaped content of a JSON string (without the quotes); the fast path returns the text itself. */
function jsonStringBody(text: string): string {
  return JSON_SPECIAL.test(text) ? JSON.stringify(text).slice(1, -1) : text;
}

// The last service root seen and its escaped text: one service has one or a few roots (hosts).
let lastRoot = '';
let lastRootText = '';

/** `context.serviceRoot` escaped for a JSON string; recomputed only when the root differs from the last one. */
function escapedRoot(context: WriterContext): string {
  const root = context.serviceRoot;
  if (root !== lastRoot) {
    lastRootText = jsonStringBody(root);
    lastRoot = root;
  }
  return lastRootText;
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
  const dynamic = plan.allDynamic || plan.selectedDynamic.size > 0;

  return (entity, context) => {
    // The escaped URI text is shared by __metadata and every deferred link of the entry; the
    // service root is escaped once per response, the path per entry (escaping works per character).
    const uriText = escapedRoot(context) + jsonStringBody(pathOf(entity));
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
    for (let i = 0; i < links.length; i++) out += links[i](entity, uriText, context);
    return out + '}';
  };
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
  if (expand === undefined) return (_entity, uriText) => deferred(uriText);
  const child = cache.get(expand.entitySet, property.target, expand);
  if (property.isCollection) {
    return (entity, uriText, context) => {
      const value = entity[name];
      if (!Array.isArray(value)) return deferred(uriText);
      const related: readonly unknown[] = value;
      let items = '';
      for (let i = 0; i < related.length; i++) {
        const item = related[i];
        if (!isEntity(item)) throw new TypeError(`Expanded navigation property '${name}' holds an item that is not an entity.`);
        items += (i === 0 ? '' : ',') + child(item, context);
      }
      return context.version === '1.0' ? `${key}[${items}]` : `${key}{"results":[${items}]}`;
    };
  }
  return (entity, uriText, context) => {
    const value = entity[name];
    if (value === undefined) return deferred(uriText);
    if (value === null) return `${key}null`;
    if (!isEntity(value)) throw new TypeError(`Expanded navigation property '${name}' holds a value that is not an entity.`);
    return key + child(value, context);
  };
}
