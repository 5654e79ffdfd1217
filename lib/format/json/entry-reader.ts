/**
 * The verbose JSON entry reader (MS-ODATA §2.2.6.3.3, §2.2.7.1.1, §2.2.7.3.1): an `application/json`
 * request body to an EntryBody. Reads `__metadata`, property values, and navigation properties as
 * bindings (`{"__metadata":{"uri":..}}`, `{"__deferred":{"uri":..}}`) or deep inserts (objects
 * without a uri, arrays or `{"results":[...]}` of them); `null` on a single-valued one unlinks.
 */
import type { EdmEntitySet, EdmEntityType, EdmNavigationProperty } from '../../edm/model';
import type { EntryBody, EntryTarget, ReadContext } from '../entry-body';
import { EntryBuilder, inlineTargetSet, resolveEntryType, unknownPropertyError } from '../entry-checks';
import { bindingTarget } from '../link-uri';
import { isJsonObject, jsonShapeError, parseJsonBody, unwrapData } from './json-body';
import type { JsonObject } from './json-body';
import { readJsonPropertyValue } from './property-reader';

/** Media-resource members of `__metadata` (MS-ODATA §2.2.6.3.3): their presence marks a media link entry. */
const MEDIA_METADATA: readonly string[] = ['media_src', 'content_type', 'edit_media', 'media_etag'];

/** The `uri` of `{"__metadata":{"uri":..}}` or `{"__deferred":{"uri":..}}`, or undefined for an entry to insert. */
function referenceUri(value: JsonObject, name: string): string | undefined {
  const holder = value.__deferred !== undefined ? value.__deferred : value.__metadata;
  if (holder === undefined) return undefined;
  if (!isJsonObject(holder)) throw jsonShapeError(`__metadata / __deferred in '${name}' must be an object.`);
  const uri = holder.uri;
  if (uri === undefined) {
    if (value.__deferred !== undefined) throw jsonShapeError(`__deferred in '${name}' has no uri.`);
    return undefined;
  }
  if (typeof uri !== 'string') throw jsonShapeError(`the uri in '${name}' must be a string.`);
  return uri;
}

/** One member of a navigation property's value: a reference to an existing entry, or a new entry. */
function readNavigationItem(
  item: unknown,
  property: EdmNavigationProperty,
  source: EdmEntitySet,
  builder: EntryBuilder,
  context: ReadContext,
  depth: number,
): void {
  if (!isJsonObject(item)) throw jsonShapeError(`the navigation property '${property.name}' must hold entry objects.`);
  const uri = referenceUri(item, property.name);
  if (uri === undefined) {
    const entitySet = inlineTargetSet(source, property, context, depth);
    builder.addInline(property, entitySet, [readEntryObject(item, entitySet, property.target, undefined, context, depth + 1)]);
    return;
  }
  // An object with a uri names an existing entry; members beside __metadata are what a client
  // echoes from an expanded read and do not make it a new entry.
  const target = bindingTarget(uri, source, property, context, jsonShapeError);
  if (target !== undefined) builder.addBinding(property, target);
}

/** A navigation property's value, by shape and by the property's multiplicity. */
function readNavigation(
  value: unknown,
  property: EdmNavigationProperty,
  source: EdmEntitySet,
  builder: EntryBuilder,
  context: ReadContext,
  depth: number,
): void {
  if (value === null) {
    if (property.isCollection) throw jsonShapeError(`the many-valued navigation property '${property.name}' cannot be null; send [] or omit it.`);
    builder.addInline(property, inlineTargetSet(source, property, context, depth), []);
    return;
  }
  let items: readonly unknown[] | undefined;
  if (Array.isArray(value)) items = value;
  else if (property.isCollection && isJsonObject(value) && value.__deferred === undefined) {
    if (!Array.isArray(value.results)) {
      throw jsonShapeError(`the many-valued navigation property '${property.name}' must hold an array or {"results":[...]}.`);
    }
    items = value.results;
  }
  if (items === undefined) return readNavigationItem(value, property, source, builder, context, depth);
  if (!property.isCollection) throw jsonShapeError(`the single-valued navigation property '${property.name}' cannot hold an array.`);
  if (items.length === 0) builder.addInline(property, inlineTargetSet(source, property, context, depth), []);
  for (const item of items) readNavigationItem(item, property, source, builder, context, depth);
}

/** The entry-level `__metadata` (type, uri, media members). */
function readEntryMetadata(metadata: unknown): { typeName: string | undefined; id: string | undefined; media: boolean } {
  if (metadata === undefined) return { typeName: undefined, id: undefined, media: false };
  if (!isJsonObject(metadata)) throw jsonShapeError('__metadata must be an object.');
  const { type, uri } = metadata;
  if (type !== undefined && typeof type !== 'string') throw jsonShapeError('__metadata.type must be a string.');
  return {
    typeName: type,
    id: typeof uri === 'string' && uri.trim() !== '' ? uri : undefined,
    media: MEDIA_METADATA.some((name) => metadata[name] !== undefined),
  };
}

function readEntryObject(
  json: JsonObject,
  entitySet: EdmEntitySet,
  declared: EdmEntityType,
  target: EntryTarget | undefined,
  context: ReadContext,
  depth: number,
): EntryBody {
  const metadata = readEntryMetadata(json.__metadata);
  const type = resolveEntryType(metadata.typeName, declared, context);
  const builder = new EntryBuilder(type);
  for (const [name, value] of Object.entries(json)) {
    if (name === '__metadata') continue;
    const property = type.propertiesByName.get(name);
    if (property !== undefined) {
      builder.setProperty(name, readJsonPropertyValue(value, property, name, context).value);
      continue;
    }
    const navigation = type.navigationPropertiesByName.get(name);
    if (navigation !== undefined) {
      readNavigation(value, navigation, entitySet, builder, context, depth);
    } else if (type.openType && !name.startsWith('__')) {
      const typed = readJsonPropertyValue(value, undefined, name, context);
      builder.setProperty(name, typed.value, typed.type);
    } else {
      throw unknownPropertyError(name, type, type.navigationPropertiesByName);
    }
  }
  return builder.build(target, metadata.media, metadata.id);
}

/**
 * Read a verbose JSON entry request body (POST to a set or navigation, PUT/MERGE of an entry), with
 * or without the `{"d": ...}` wrapper. 400 BODY_SYNTAX / BODY_INVALID / VALUE_INVALID / KEY_MISMATCH.
 */
export function readJsonEntry(body: Buffer | string, target: EntryTarget, context: ReadContext): EntryBody {
  const json = unwrapData(
    parseJsonBody(body, context),
    (name) => target.entityType.propertiesByName.has(name) || target.entityType.navigationPropertiesByName.has(name),
  );
  if (!isJsonObject(json)) throw jsonShapeError('an entry must be a JSON object.');
  return readEntryObject(json, target.entitySet, target.entityType, target, context, 0);
}
