/**
 * Key predicates: `(1)`, `(ID=1)` (as SAP Cloud SDK sends them), `(OrderID=1,Line='x')` in any
 * order. Values are scanned with the literal scanner (quotes, `''`, `datetime'...'`, suffixes) and
 * converted to each key property's type; anything else is a 400 URI_KEY_SYNTAX that names the key.
 */
import { ODataError, isODataError } from '../errors';
import type { EdmEntityType, EdmProperty } from '../edm/model';
import type { PrimitiveValue } from '../edm/primitives';
import { convertLiteral, parseLiteral, scanLiteral } from '../edm/literals';
import { didYouMean } from '../util';
import type { EntityKey } from './types';

interface KeyItem {
  readonly name: string | undefined;
  readonly literal: string;
  /** Offset of the item (its name, when named). */
  readonly start: number;
  readonly valueStart: number;
}

const IDENTIFIER_START = /[\p{L}\p{Nl}_]/u;
const IDENTIFIER_PART = /[\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}]/u;

/** End offset of the identifier (CSDL SimpleIdentifier) starting at `start`; `start` when there is none. */
export function scanIdentifier(text: string, start: number): number {
  let i = start;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const ascii = (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x5f || (i > start && code >= 0x30 && code <= 0x39);
    if (ascii || (code > 0x7f && (i === start ? IDENTIFIER_START : IDENTIFIER_PART).test(text[i]))) i++;
    else break;
  }
  return i;
}

function keyError(predicate: string, entityType: EdmEntityType, detail: string, position: number, cause?: unknown): ODataError {
  return ODataError.fromCode('URI_KEY_SYNTAX', { key: predicate, type: entityType.qualifiedName, detail }, { target: 'key', position, cause });
}

function keyPropertyNames(entityType: EdmEntityType): string {
  return entityType.key.map((p) => `${p.name} ${p.type.kind === 'Primitive' ? p.type.name : p.type.type.qualifiedName}`).join(', ');
}

/**
 * Split the text between the parentheses into (optionally named) literal items.
 *
 *   keyPredicate        = keyPredicate-single / keyPredicate-cmplx      ; MS-ODATA §2.2.3.1
 *   keyPredicate-single = primitiveLiteral
 *   keyPredicate-cmplx  = entityProperty "=" primitiveLiteral *( "," entityProperty "=" primitiveLiteral )
 */
function scanItems(predicate: string, entityType: EdmEntityType): KeyItem[] {
  const items: KeyItem[] = [];
  let pos = 0;
  for (;;) {
    let name: string | undefined;
    const start = pos;
    const nameEnd = scanIdentifier(predicate, pos);
    if (nameEnd > pos && predicate.charCodeAt(nameEnd) === 0x3d /* = */) {
      name = predicate.slice(pos, nameEnd);
      pos = nameEnd + 1;
    }
    const end = pos < predicate.length ? scanLiteral(predicate, pos) : -1;
    if (end <= pos) {
      const what = pos >= predicate.length ? 'a key value is missing' : `no valid literal starts at '${predicate.slice(pos)}'`;
      throw keyError(predicate, entityType, `${what} (position ${pos})`, pos);
    }
    items.push({ name, literal: predicate.slice(pos, end), start, valueStart: pos });
    pos = end;
    if (pos === predicate.length) return items;
    if (predicate.charCodeAt(pos) !== 0x2c /* , */) {
      throw keyError(predicate, entityType, `expected ',' or the end of the key at position ${pos}`, pos);
    }
    pos++;
  }
}

/** Pair each item with its key property: positional for single keys, by name otherwise. */
function assignItems(predicate: string, entityType: EdmEntityType, items: readonly KeyItem[]): Map<EdmProperty, KeyItem> {
  const keyProperties = entityType.key;
  const assigned = new Map<EdmProperty, KeyItem>();
  const named = items.filter((item) => item.name !== undefined).length;
  if (named === 0) {
    if (keyProperties.length !== 1) {
      throw keyError(predicate, entityType, `the key has ${keyProperties.length} properties (${keyPropertyNames(entityType)}); name each one as Name=value`, 0);
    }
    if (items.length !== 1) {
      throw keyError(predicate, entityType, `expected 1 key value (${keyPropertyNames(entityType)}), got ${items.length}`, items[1].start);
    }
    assigned.set(keyProperties[0], items[0]);
    return assigned;
  }
  if (named !== items.length) {
    const unnamed = items.find((item) => item.name === undefined);
    throw keyError(predicate, entityType, 'either name every key value or give a single unnamed value', unnamed?.start ?? 0);
  }
  for (const item of items) {
    const name = item.name ?? '';
    const property = entityType.propertiesByName.get(name);
    if (property === undefined || !property.isKey) {
      const suggestion = didYouMean(
        name,
        keyProperties.map((p) => p.name),
      );
      throw keyError(predicate, entityType, `'${name}' is not a key property; the key is (${keyPropertyNames(entityType)}).${suggestion}`, item.start);
    }
    if (assigned.has(property)) {
      throw keyError(predicate, entityType, `the key property '${name}' is given more than once`, item.start);
    }
    assigned.set(property, item);
  }
  const missing = keyProperties.filter((p) => !assigned.has(p));
  if (missing.length > 0) {
    throw keyError(predicate, entityType, `the key property '${missing[0].name}' is missing; the key is (${keyPropertyNames(entityType)})`, predicate.length);
  }
  return assigned;
}

/** Convert one literal to its key property's type: a non-null value of that type, or 400. */
function convertItem(predicate: string, entityType: EdmEntityType, property: EdmProperty, item: KeyItem): PrimitiveValue {
  if (property.type.kind !== 'Primitive') {
    throw keyError(predicate, entityType, `the key property '${property.name}' is not of a primitive type`, item.valueStart);
  }
  const typeName = property.type.name;
  let value: PrimitiveValue | null | undefined;
  try {
    value = convertLiteral(parseLiteral(item.literal), typeName);
  } catch (error) {
    if (!isODataError(error)) throw error;
    throw keyError(predicate, entityType, `key property '${property.name}': ${error.message}`, item.valueStart, error);
  }
  if (value === null) {
    throw keyError(predicate, entityType, `the key property '${property.name}' (${typeName}) cannot be null`, item.valueStart);
  }
  if (value === undefined) {
    throw keyError(
      predicate,
      entityType,
      `the value ${item.literal} is not compatible with the key property '${property.name}' of type ${typeName}`,
      item.valueStart,
    );
  }
  return value;
}

/**
 * Parse the text between a key predicate's parentheses (already percent-decoded) into an
 * EntityKey in key order (MS-ODATA §2.2.3.1 keyPredicate). Every failure is 400 URI_KEY_SYNTAX:
 * wrong count, unknown or repeated names, malformed or incompatible literals, `null`.
 */
export function parseKeyPredicate(predicate: string, entityType: EdmEntityType): EntityKey {
  const assigned = assignItems(predicate, entityType, scanItems(predicate, entityType));
  const key: Record<string, PrimitiveValue> = {};
  for (const property of entityType.key) {
    const item = assigned.get(property);
    if (item !== undefined) key[property.name] = convertItem(predicate, entityType, property, item);
  }
  return Object.freeze(key);
}
