/**
 * From an entry body to the values a provider stores: what was sent (POST: the provider defaults
 * the rest), what a replace resets (PUT), dynamic properties kept, key properties taken from the
 * URL on updates.
 */
import { ODataError } from '../errors';
import { propertyCapabilities, setCapabilities } from '../edm/sap';
import type { EdmEntityType, EdmProperty } from '../edm/model';
import type { PropertyValue } from '../edm/primitives';
import type { EntryBody } from '../format/entry-body';
import { replacedValues } from '../provider/sent';
import { describeKey, samePropertyValue } from '../provider/keys';
import { withLinkedValues } from '../provider/linked-values';
import type { CreateRequest, Entity, LinkBinding } from '../provider/types';
import type { EdmEntitySet } from '../edm/model';
import type { EntityKey } from '../uri/types';

/** The body's values by name; the readers refuse undeclared names for a closed type, so the rest are an open type's dynamic ones. */
function bodyValues(body: EntryBody): Record<string, PropertyValue> {
  const given: Record<string, PropertyValue> = {};
  for (const [name, value] of body.properties) given[name] = value;
  return given;
}

/**
 * Values for a replacing PUT: the body's, the key from the URL, and every omitted property reset
 * by the kit's one rule (`replacedValues`: 400 PROPERTY_REQUIRED before anything is written).
 */
export function replaceValues(body: EntryBody, key: EntityKey, bindings: readonly LinkBinding[]): Record<string, PropertyValue> {
  const given = bodyValues(body);
  for (const property of body.entityType.key) given[property.name] = key[property.name];
  return replacedValues(body.entityType, given, bindings);
}

/**
 * An update body without its properties marked `sap:updatable="false"` (fixedProperties), after
 * checking that each one sent repeats the stored value of `current` (read only when one is
 * sent): 400 PROPERTY_NOT_UPDATABLE naming the first that differs. Keys are KEY_MISMATCH's.
 */
export async function withoutFixed(body: EntryBody, entitySet: EdmEntitySet, current: () => Promise<Entity>): Promise<EntryBody> {
  const fixed = fixedProperties(body.entityType);
  const sent = fixed.filter((property) => body.properties.has(property.name));
  if (sent.length > 0) {
    const stored = await current();
    const changed = sent.find((property) => !samePropertyValue(property, body.properties.get(property.name), stored[property.name]));
    if (changed !== undefined)
      throw ODataError.fromCode('PROPERTY_NOT_UPDATABLE', { property: changed.name, entitySet: entitySet.name }, { target: changed.name });
  }
  return fixed.length === 0 ? body : withoutProperties(body, (property) => fixed.includes(property));
}

/** Values for a MERGE: only what the body lists. */
export function listedValues(type: EdmEntityType, body: EntryBody): Record<string, PropertyValue> {
  const values: Record<string, PropertyValue> = {};
  for (const [name, value] of body.properties) {
    if (type.propertiesByName.get(name)?.isKey) continue;
    values[name] = value;
  }
  return values;
}

/** The names of the non-key properties a body listed (`UpdateRequest.sent`). */
export function sentNames(type: EdmEntityType, body: EntryBody): ReadonlySet<string> {
  const names = new Set<string>();
  for (const name of body.properties.keys()) if (type.propertiesByName.get(name)?.isKey !== true) names.add(name);
  return names;
}

/** The body's links to existing entries, in the provider's terms. */
function bindingsOf(body: EntryBody): LinkBinding[] {
  return body.bindings.map((binding) => ({ property: binding.property, targets: binding.targets }));
}

/**
 * The links of an update body (PUT, MERGE, PATCH): its bindings, and for each single-valued
 * navigation property the body sets to null (`"Supplier": null`, an empty `m:inline`) a binding
 * without targets, which removes the link. 400 BODY_INVALID before the provider is called for a
 * required end (multiplicity `1`) set to null, and for new inline entries: OData 2.0 inserts
 * inline entries with a new entry only (MS-ODATA §2.2.7.1.1 deep insert; §2.2.7.3 updates the one
 * entry the URI names), and dropping them silently would lose what the client sent. An entry echoed from an expanded read with its
 * `__metadata.uri` is a binding, not a new entry, and an empty many-valued list changes nothing.
 */
export function updateBindingsOf(body: EntryBody): LinkBinding[] {
  const bindings = bindingsOf(body);
  for (const inline of body.inline) {
    const { property } = inline;
    if (inline.entries.length > 0) {
      throw ODataError.fromCode('BODY_INVALID', {
        detail: `'${property.name}' holds new inline entries, but an update does not create entries (no deep update in OData 2.0): POST them, or link existing entries by their URI.`,
      });
    }
    if (property.isCollection) continue;
    if (property.toEnd.multiplicity === '1') {
      throw ODataError.fromCode('BODY_INVALID', {
        detail: `the navigation property '${property.name}' is required (multiplicity 1): it cannot be set to null; link another entry instead.`,
      });
    }
    bindings.push({ property, targets: [] });
  }
  return bindings;
}

/** `body` without the properties `leave` picks (as if the client had not sent them). */
function withoutProperties(body: EntryBody, leave: (property: EdmProperty) => boolean): EntryBody {
  const kept = [...body.properties].filter(([name]) => {
    const property = body.entityType.propertiesByName.get(name);
    return property === undefined || !leave(property);
  });
  return kept.length === body.properties.size ? body : { ...body, properties: new Map(kept) };
}

const FIXED = new WeakMap<EdmEntityType, readonly EdmProperty[]>();

/**
 * The non-key properties of a type marked `sap:updatable="false"`, which an update leaves as they
 * are; concurrency tokens aside (the store moves them, and a stale one is If-Match's 412 to tell).
 */
function fixedProperties(type: EdmEntityType): readonly EdmProperty[] {
  let fixed = FIXED.get(type);
  if (fixed === undefined) {
    fixed = type.properties.filter((property) => !property.isKey && property.concurrencyMode !== 'Fixed' && !propertyCapabilities(property).updatable);
    FIXED.set(type, fixed);
  }
  return fixed;
}

/**
 * A CreateRequest for an entry body and its inline tree (deep insert). A property marked
 * `sap:creatable="false"` is taken as not sent (the store makes its value).
 */
export function createRequestOf(entitySet: EdmEntitySet, sentBody: EntryBody): CreateRequest {
  const body = withoutProperties(sentBody, (property) => !propertyCapabilities(property).creatable);
  const request: CreateRequest = {
    entitySet,
    entityType: body.entityType,
    values: bodyValues(body),
    bindings: bindingsOf(body),
    inline: body.inline.map((inline) => {
      if (inline.entries.length > 0 && !setCapabilities(inline.entitySet).creatable)
        throw ODataError.fromCode('BODY_INVALID', {
          detail: `'${inline.property.name}' holds new entries for '${inline.entitySet.name}', which is marked sap:creatable="false": link existing entries by their URI instead.`,
        });
      return { property: inline.property, entries: inline.entries.map((entry) => createRequestOf(inline.entitySet, entry)) };
    }),
    parent: undefined,
    media: undefined,
  };
  // A binding to the principal of a ReferentialConstraint fixes the properties that hold it.
  let linked = request;
  for (const binding of request.bindings) {
    const [target] = binding.targets;
    if (binding.property.isCollection || target === undefined) continue;
    const label = `${target.entitySet.name}${describeKey(target.entitySet.entityType, target.key)}`;
    linked = withLinkedValues(linked, binding.property, 'entry', target.key, label);
  }
  return linked;
}
