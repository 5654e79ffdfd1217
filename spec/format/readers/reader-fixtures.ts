/** Shared fixtures of the body-reader specs: models, contexts, targets, an error catcher and an EntryBody summary. */
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx } from '../../../lib/edm';
import type { EdmEntitySet, EdmModel, EdmNavigationProperty, EdmProperty } from '../../../lib/edm/model';
import type { PropertyValue } from '../../../lib/edm/primitives';
export { catchODataError } from './catch-odata-error';
import type { EntryBody, EntryTarget, LinkTarget, ReadContext } from '../../../lib/format/readers';
import type { EntityKey } from '../../../lib/uri/types';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');

/** The ODataDemo model (Products, Categories, Suppliers). */
export const demoModel: EdmModel = loadEdmx(readFileSync(join(FIXTURES, 'odata-demo', 'metadata.xml'), 'utf8'));

/** The write-test model: every primitive type, nested complex types, open, media, composite keys, 1 / 0..1 / * ends. */
export const writeModel: EdmModel = loadEdmx(readFileSync(join(FIXTURES, 'write-test.xml'), 'utf8'));

export const SERVICE_ROOT = 'http://localhost:4004/odata/';

/** A read context over the write-test model (or another), with optional extras. */
export function contextFor(model: EdmModel = writeModel, extra: Partial<ReadContext> = {}): ReadContext {
  return { model, serviceRoot: SERVICE_ROOT, ...extra };
}

/** An entity set by name; throws when the fixture lacks it. */
function setOf(model: EdmModel, name: string): EdmEntitySet {
  const set = model.entitySets.get(name);
  if (set === undefined) throw new Error(`fixture has no entity set ${name}`);
  return set;
}

/** The target of a POST to a set (or PUT/MERGE with a URL key). */
export function targetOf(model: EdmModel, setName: string, expectedKey?: EntityKey): EntryTarget {
  const entitySet = setOf(model, setName);
  return expectedKey === undefined ? { entitySet, entityType: entitySet.entityType } : { entitySet, entityType: entitySet.entityType, expectedKey };
}

/** A declared property by `Set/Property`. */
export function propertyOf(model: EdmModel, setName: string, name: string): EdmProperty {
  const property = setOf(model, setName).entityType.propertiesByName.get(name);
  if (property === undefined) throw new Error(`fixture has no property ${setName}/${name}`);
  return property;
}

/** A navigation property by `Set/Nav`. */
function navigationOf(model: EdmModel, setName: string, name: string): EdmNavigationProperty {
  const property = setOf(model, setName).entityType.navigationPropertiesByName.get(name);
  if (property === undefined) throw new Error(`fixture has no navigation property ${setName}/${name}`);
  return property;
}

/** The target of `$links/Nav` from an entry of `setName`. */
export function linkTargetOf(model: EdmModel, setName: string, navigation: string): LinkTarget {
  return { entitySet: setOf(model, setName), navigationProperty: navigationOf(model, setName, navigation) };
}

/** Binary values as `{ binary: base64 }` so that Buffer and Uint8Array compare equal. */
export function plainValue(value: PropertyValue): unknown {
  if (value instanceof Uint8Array) return { binary: Buffer.from(value).toString('base64') };
  if (value === null || value instanceof Date || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([name, member]) => [name, plainValue(member)]));
}

/** `Set(key)` text of a reference, for compact expectations. */
function referenceText(reference: { entitySet: EdmEntitySet; key: EntityKey }): string {
  const parts = Object.entries(reference.key).map(([name, value]) => `${name}=${String(value)}`);
  return `${reference.entitySet.name}(${parts.join(',')})`;
}

/** A plain, comparable picture of an EntryBody: names instead of model objects. */
export interface EntrySummary {
  type: string;
  properties: Record<string, unknown>;
  bindings?: Record<string, string[]>;
  inline?: Record<string, { set: string; entries: EntrySummary[] }>;
  mediaLinkEntry?: true;
  id?: string;
  dynamicTypes?: Record<string, string>;
}

export function summarize(entry: EntryBody): EntrySummary {
  const summary: EntrySummary = {
    type: entry.entityType.qualifiedName,
    properties: Object.fromEntries([...entry.properties].map(([name, value]) => [name, plainValue(value)])),
  };
  if (entry.bindings.length > 0) {
    summary.bindings = Object.fromEntries(entry.bindings.map((b) => [b.property.name, b.targets.map(referenceText)]));
  }
  if (entry.inline.length > 0) {
    summary.inline = Object.fromEntries(entry.inline.map((i) => [i.property.name, { set: i.entitySet.name, entries: i.entries.map(summarize) }]));
  }
  if (entry.mediaLinkEntry) summary.mediaLinkEntry = true;
  if (entry.id !== undefined) summary.id = entry.id;
  if (entry.dynamicTypes !== undefined) {
    summary.dynamicTypes = Object.fromEntries(
      [...entry.dynamicTypes].map(([name, type]) => [name, type.kind === 'Primitive' ? type.name : type.type.qualifiedName]),
    );
  }
  return summary;
}

/** Namespace declarations of an Atom entry as clients write them. */
export const ATOM_NAMESPACES =
  'xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"';

/** An Atom entry with the given m:properties content and extra children (links, category, title...). */
export function atomEntry(properties: string, extra = ''): string {
  return `<?xml version="1.0" encoding="utf-8"?><entry ${ATOM_NAMESPACES}>${extra}<content type="application/xml"><m:properties>${properties}</m:properties></content></entry>`;
}

/** The `rel` of a related link. */
export function related(name: string): string {
  return `http://schemas.microsoft.com/ado/2007/08/dataservices/related/${name}`;
}
