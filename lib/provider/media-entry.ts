/**
 * The values of a media link entry created by POSTing its media resource (MS-ODATA §2.2.7.1.3):
 * no entry body, so every property starts at its default and the `Slug` header names the key or
 * the title. The same rule for every provider, so a media POST stores the same entry anywhere.
 */
import { defaultValueOf } from '../edm/facets';
import type { EdmEntityType, EdmProperty } from '../edm/model';

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
 * `CreateRequest.media` set): every non-key property gets its model default (its `DefaultValue`,
 * else null when nullable, else its type's zero value); the decoded `Slug` becomes the key when
 * the type has a single string key, else the value of its title property (the one mapped to the
 * Atom title, else a `Title` or `Name` string); values the request carries win over both.
 */
export function mediaEntryValues(type: EdmEntityType, given: Readonly<Record<string, unknown>>, slug: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const property of type.properties) if (!property.isKey) out[property.name] = defaultValueOf(property);
  if (slug !== undefined && slug !== '') {
    const text = decodeSlug(slug);
    const key = type.key.length === 1 ? type.key[0] : undefined;
    const target = isString(key) ? key : titleProperty(type);
    if (target !== undefined) out[target.name] = text;
  }
  for (const name of Object.keys(given)) if (given[name] !== undefined) out[name] = given[name];
  return out;
}
