/**
 * Writing URI literals (MS-ODATA §2.2.2) for edit links, key predicates, ETags, skip tokens and
 * next links. Every form written here is read back by `parseLiteral` to the same value.
 */
import type { EdmEntityType } from './model';
import type { EdmPrimitiveTypeName, PrimitiveValue } from './primitives';
import {
  asBoolean,
  asBytes,
  asDate,
  asDecimalText,
  asGuidText,
  asInteger,
  asIntegerText,
  asNumber,
  asSingle,
  asString,
  asTimeText,
  formatFloatText,
} from './primitive-text';
import { isPreciseInstant, type PreciseInstant } from './precise-instant';
import { formatDateTimeText, formatPreciseDateTimeText } from './temporal-text';
import { toWellFormed } from '../util';

const HEX = '0123456789ABCDEF';

function hexText(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i++) text += HEX[bytes[i] >> 4] + HEX[bytes[i] & 15];
  return text;
}

/** A double that prints as digits only gets `.0`, so it reads back as a double (WCF did the same). */
function doubleLiteral(value: number): string {
  const text = formatFloatText(value);
  return /^-?\d+$/.test(text) ? text + '.0' : text;
}

const PRINTERS: Readonly<Record<EdmPrimitiveTypeName, (value: PrimitiveValue) => string>> = {
  'Edm.Binary': (value) => "X'" + hexText(asBytes(value)) + "'",
  'Edm.Boolean': (value) => (asBoolean(value) ? 'true' : 'false'),
  'Edm.Byte': (value) => String(asInteger('Edm.Byte', value)),
  'Edm.SByte': (value) => String(asInteger('Edm.SByte', value)),
  'Edm.Int16': (value) => String(asInteger('Edm.Int16', value)),
  'Edm.Int32': (value) => String(asInteger('Edm.Int32', value)),
  'Edm.Int64': (value) => asIntegerText('Edm.Int64', value) + 'L',
  'Edm.Decimal': (value) => asDecimalText(value) + 'M',
  'Edm.Single': (value) => formatFloatText(asSingle(value)) + 'f',
  'Edm.Double': (value) => doubleLiteral(asNumber('Edm.Double', value)),
  'Edm.DateTime': (value) => "datetime'" + formatDateTimeText(asDate('Edm.DateTime', value)) + "'",
  'Edm.DateTimeOffset': (value) => "datetimeoffset'" + formatDateTimeText(asDate('Edm.DateTimeOffset', value), 'Z') + "'",
  'Edm.Time': (value) => "time'" + asTimeText(value) + "'",
  'Edm.Guid': (value) => "guid'" + asGuidText(value) + "'",
  'Edm.String': (value) => "'" + asString('Edm.String', value).replace(/'/g, "''") + "'",
};

/**
 * The canonical URI literal of a value, not percent-encoded: `'O''Neil'`, `12L`, `2.5M`, `1.5`
 * (Edm.Double, unsuffixed as WCF wrote it), `2.5f`, `datetime'2000-01-01T00:00:00'`,
 * `datetimeoffset'2000-01-01T00:00:00Z'`, `time'PT13H20M'`, `guid'...'`, `X'0AFF'`, `true`.
 * A PreciseInstant (a position's date/time) is written with all its digits:
 * `datetime'2024-05-01T10:00:00.123456'`. Throws a TypeError when the value is not in its type's
 * JS representation (a provider bug).
 */
export function printLiteral(type: EdmPrimitiveTypeName, value: PrimitiveValue | PreciseInstant): string {
  if (!isPreciseInstant(value)) return PRINTERS[type](value);
  if (type === 'Edm.DateTime') return "datetime'" + formatPreciseDateTimeText(value) + "'";
  if (type === 'Edm.DateTimeOffset') return "datetimeoffset'" + formatPreciseDateTimeText(value, 'Z') + "'";
  throw new TypeError(`Cannot write a precise instant as a literal of ${type}.`);
}

/** Characters encodeURIComponent leaves alone: a literal made only of these is its own URI form. */
const URI_SAFE = /^[A-Za-z0-9\-_.!~*'()]*$/;

/**
 * Percent-encode a literal for a URI path or query (as encodeURIComponent does; `:` becomes `%3A`
 * in dates, which is what WCF edit links carried). Lone surrogates become U+FFFD instead of throwing.
 */
export function encodeLiteral(literal: string): string {
  if (URI_SAFE.test(literal)) return literal;
  return encodeURIComponent(toWellFormed(literal));
}

type KeyPrinter = (entity: Readonly<Record<string, unknown>>) => string;

const KEY_PRINTERS = new WeakMap<EdmEntityType, KeyPrinter>();

function keyValue(entityType: EdmEntityType, name: string, entity: Readonly<Record<string, unknown>>): PrimitiveValue {
  const value = entity[name];
  if (value === undefined || value === null) {
    throw new TypeError(`An entity of type '${entityType.qualifiedName}' has no value for its key property '${name}'.`);
  }
  return value as PrimitiveValue;
}

function compileKeyPrinter(entityType: EdmEntityType): KeyPrinter {
  const parts = entityType.key.map((property) => {
    if (property.type.kind !== 'Primitive') {
      throw new TypeError(`Key property '${property.name}' of '${entityType.qualifiedName}' is not primitive.`);
    }
    return { name: property.name, print: PRINTERS[property.type.name] };
  });
  if (parts.length === 1) {
    const [{ name, print }] = parts;
    return (entity) => '(' + encodeLiteral(print(keyValue(entityType, name, entity))) + ')';
  }
  return (entity) => {
    let text = '(';
    for (let i = 0; i < parts.length; i++) {
      if (i > 0) text += ',';
      text += parts[i].name + '=' + encodeLiteral(parts[i].print(keyValue(entityType, parts[i].name, entity)));
    }
    return text + ')';
  };
}

/**
 * The key predicate of an entity, percent-encoded for a URI: `(1)` for a single key,
 * `(A=1,B='x')` for a composite one (MS-ODATA §2.2.3.3 keyPredicate). Compiled once per type.
 */
export function printKeyPredicate(entityType: EdmEntityType, entity: Readonly<Record<string, unknown>>): string {
  let printer = KEY_PRINTERS.get(entityType);
  if (printer === undefined) {
    printer = compileKeyPrinter(entityType);
    KEY_PRINTERS.set(entityType, printer);
  }
  return printer(entity);
}
