/**
 * Keys for any provider, one way each: the EntityKey of an entity's values (`entityKey`), a
 * caller's key converted to model form (`normalizeKey`), a stable identity string of a key for
 * maps and caches (`keyIdentity`), and the key as messages print it (`describeKey`). The URI of an
 * entity (percent-encoded, for `Location` and edit links) is `edm`'s `printKeyPredicate`; a
 * message shows the same literals before percent-encoding, and never throws.
 */
import { canonicalDecimal, canonicalInteger } from '../edm/decimal-text';
import { printLiteral } from '../edm/literals';
import type { EdmEntityType, EdmProperty } from '../edm/model';
import { canonicalGuid } from '../edm/primitive-text';
import { isPrimitiveValue, laneOf } from '../edm/primitives';
import type { PrimitiveValue } from '../edm/primitives';
import { canonicalTime } from '../edm/temporal-text';
import type { EntityKey } from '../uri/types';
import { coerceProperty, describeValue, type CoerceResult } from './values';

/**
 * The key of an entity (or a decoded row, or stored values): its type's key properties and their
 * values. A key property without a primitive value is a provider bug, not a client error: a
 * TypeError (the service logs it and answers 500).
 */
export function entityKey(entityType: EdmEntityType, entity: Readonly<Record<string, unknown>>): EntityKey {
  const key: Record<string, PrimitiveValue> = {};
  for (const property of entityType.key) {
    const value = entity[property.name];
    if (!isPrimitiveValue(value)) {
      const names = entityType.key.map((each) => each.name).join(', ');
      throw new TypeError(`An entity of ${entityType.qualifiedName} has no primitive value for its key property '${property.name}' (the key is ${names}).`);
    }
    key[property.name] = value;
  }
  return key;
}

/**
 * A key given by a caller (a data file's link target, a store call with `{ ID: '7' }`) converted to
 * model form with `coerceProperty`, or why it does not fit the type's key: a key property missing
 * or of the wrong form, or a name that is not a key property.
 */
export function normalizeKey(entityType: EdmEntityType, given: Readonly<Record<string, unknown>>): CoerceResult<EntityKey> {
  const key: Record<string, PrimitiveValue> = {};
  for (const property of entityType.key) {
    const coerced = coerceProperty(property, given[property.name]);
    if (!coerced.ok) return { ok: false, detail: `key property '${property.name}': ${coerced.detail}` };
    // Key properties are non-nullable primitives (the model validator refuses others): never null here.
    if (!isPrimitiveValue(coerced.value)) return { ok: false, detail: `key property '${property.name}': expected a primitive value` };
    key[property.name] = coerced.value;
  }
  for (const name of Object.keys(given)) {
    if (!entityType.key.some((property) => property.name === name)) {
      return { ok: false, detail: `'${name}' is not a key property of ${entityType.qualifiedName}` };
    }
  }
  return { ok: true, value: key };
}

type PartText = (value: unknown) => string;

/** `canonical(text) ?? text` for strings (the model forms with several spellings), `String` otherwise. */
function canonicalText(canonical: (text: string) => string | undefined): PartText {
  return (value) => (typeof value === 'string' ? (canonical(value) ?? value) : String(value));
}

const DECIMAL_TEXT: PartText = (value) => {
  const text = typeof value === 'string' ? value : String(value);
  return canonicalDecimal(text) ?? text;
};

/** One key value's text in an identity: equal for every spelling of one value (`2.50` and `2.5`, GUID case, `PT1H60M` and `PT2H`). */
function partTextOf(property: EdmProperty): PartText {
  const name = property.type.kind === 'Primitive' ? property.type.name : undefined;
  switch (name === undefined ? undefined : laneOf(name)) {
    case 'decimal':
      return DECIMAL_TEXT;
    case 'int64':
      return canonicalText(canonicalInteger);
    case 'guid':
      return canonicalText(canonicalGuid);
    case 'time':
      return canonicalText(canonicalTime);
    case 'instant':
      return (value) => (value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : String(value));
    case 'binary':
      return (value) => (value instanceof Uint8Array ? Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') : String(value));
    default:
      return String;
  }
}

const IDENTITIES = new WeakMap<EdmEntityType, (key: Readonly<Record<string, unknown>>) => string>();

function compileIdentity(entityType: EdmEntityType): (key: Readonly<Record<string, unknown>>) => string {
  const parts = entityType.key.map((property) => ({ name: property.name, text: partTextOf(property) }));
  if (parts.length === 1) {
    const [{ name, text }] = parts;
    return (key) => text(key[name]);
  }
  // A JSON array cannot be confused with another composite key: each part is quoted and escaped.
  return (key) => JSON.stringify(parts.map(({ name, text }) => text(key[name])));
}

/**
 * A string that identifies a key within its entity type, for maps and caches: one string per
 * entity, whatever spelling of a value the key came in (Decimal `2.50` and `2.5`, Int64 `007`,
 * GUIDs in either case, equal Edm.Time durations, Dates by instant, bytes by content). Takes key
 * values in model form (an EntityKey, an entity, a row); it does not check that they fit the
 * type (`normalizeKey` does). Compiled once per entity type.
 */
export function keyIdentity(entityType: EdmEntityType, key: Readonly<Record<string, unknown>>): string {
  let identity = IDENTITIES.get(entityType);
  if (identity === undefined) {
    identity = compileIdentity(entityType);
    IDENTITIES.set(entityType, identity);
  }
  return identity(key);
}

/**
 * True when two values of `property` in model form are one value, by the rule key identities use
 * (Decimal `2.50` and `2.5`, GUIDs in either case, Dates by instant, bytes by content); complex
 * values member by member, null only equal to null.
 */
export function samePropertyValue(property: EdmProperty, a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined) return (a ?? null) === (b ?? null);
  if (property.type.kind === 'Complex') {
    if (typeof a !== 'object' || typeof b !== 'object') return false;
    const left = a as Readonly<Record<string, unknown>>;
    const right = b as Readonly<Record<string, unknown>>;
    return property.type.type.properties.every((member) => samePropertyValue(member, left[member.name], right[member.name]));
  }
  const text = partTextOf(property);
  return text(a) === text(b);
}

/** The URI literal of a value already in its type's model form, or undefined when it is not in it. */
function printedLiteral(property: EdmProperty, value: unknown): string | undefined {
  if (property.type.kind !== 'Primitive' || !isPrimitiveValue(value)) return undefined;
  try {
    return printLiteral(property.type.name, value);
  } catch {
    // Not the type's JS form (a caller's key that does not fit): the caller tries a conversion.
    return undefined;
  }
}

/** A key value as its URI literal (MS-ODATA §2.2.2), converted first when it is a data file's form (an ISO date string), else described. */
function literalText(property: EdmProperty, value: unknown): string {
  const printed = printedLiteral(property, value);
  if (printed !== undefined) return printed;
  const coerced = coerceProperty(property, value);
  return (coerced.ok ? printedLiteral(property, coerced.value) : undefined) ?? describeValue(value);
}

/**
 * A key as messages print it: the key predicate of a URI before percent-encoding, `(1)`,
 * `('O''Neil')` or `(OrderID=1,ProductID=2)` (MS-ODATA §2.2.3.3 keyPredicate, the literals of
 * `printKeyPredicate`). Total: a value in a form `coerceProperty` converts (an ISO date string)
 * prints as the converted literal, anything else is described (`("x")`, `(null)`), so an error
 * about a bad key can always name it.
 */
export function describeKey(entityType: EdmEntityType, key: Readonly<Record<string, unknown>>): string {
  const properties = entityType.key;
  if (properties.length === 1) return `(${literalText(properties[0], key[properties[0].name])})`;
  return `(${properties.map((property) => `${property.name}=${literalText(property, key[property.name])}`).join(',')})`;
}
