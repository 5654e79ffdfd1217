/**
 * The values of a media link entry created by POSTing its media resource (MS-ODATA §2.2.7.1.3):
 * no entry body, so the `Slug` header names the key or the title, and every other property is
 * left out as a create that did not send it (the model's defaults: `fillDefaults`). The same rule
 * for every provider, so a media POST stores the same entry anywhere.
 */
import type { EdmEntityType, EdmProperty } from '../edm/model';
import type { PropertyValue } from '../edm/primitives';

/** RFC 5023 §9.7: the Slug header is percent-encoded UTF-8; text that does not decode is taken as it is. */
function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

function isString(property: EdmProperty | undefined): property is EdmProperty {
  return property?.type.kind === 'Primitive' && property.type.name === 'Edm.String';
}

/** The property a Slug names when the key is not a string: the one mapped to the Atom title, else `Title` or `Name`. */
function titleProperty(type: EdmEntityType): EdmProperty | undefined {
  const mapped = type.properties.find((property) => property.feedCustomization?.targetPath === 'SyndicationTitle' && isString(property));
  if (mapped !== undefined) return mapped;
  for (const name of ['Title', 'Name']) {
    const property = type.propertiesByName.get(name);
    if (isString(property) && !property.isKey) return property;
  }
  return undefined;
}

/**
 * The values of a media link entry created by POSTing its media resource (MS-ODATA §2.2.7.1.3,
 * `CreateRequest.media` set): the decoded `Slug` as the key when the type has a single string key,
 * else as the value of its title property (the one mapped to the Atom title, else a `Title` or
 * `Name` string); values the request carries win. Nothing else: like any create's `values`, the
 * omitted properties are the provider's to default (`fillDefaults`, or the store's defaults).
 */
export function mediaEntryValues(type: EdmEntityType, given: Readonly<Record<string, PropertyValue>>, slug: string | undefined): Record<string, PropertyValue> {
  const out: Record<string, PropertyValue> = {};
  if (slug !== undefined && slug !== '') {
    const text = decodeSlug(slug);
    const key = type.key.length === 1 ? type.key[0] : undefined;
    const target = isString(key) ? key : titleProperty(type);
    if (target !== undefined) out[target.name] = text;
  }
  for (const name of Object.keys(given)) if (given[name] !== undefined) out[name] = given[name];
  return out;
}
