/**
 * Column defaults as the model can state them: a constant PostgreSQL prints as a literal
 * (`0`, `'abc'::text`, `'2020-01-01'::date`, `true`) becomes the property's CSDL `DefaultValue`
 * when it reads as a value of the property's EDM type; anything else (`now()`, `nextval(...)`, a
 * value no EDM literal spells exactly) is a default only the database knows, which the mapping
 * records as store-generated. Nothing here runs an expression.
 */
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import { formatPrimitiveText, parsePrimitiveText } from '../../edm/primitive-text';
import { formatDuration } from '../../edm/temporal-text';
import { parseIntervalText, parseTimestampText } from '../temporal';

/** What a column's default is for the model. */
export type ColumnDefault =
  | { readonly kind: 'none' }
  /** A constant, in the CSDL DefaultValue text form of the property's type. */
  | { readonly kind: 'constant'; readonly value: string }
  /** A default the database evaluates, or one the model cannot spell. */
  | { readonly kind: 'database' };

const NONE: ColumnDefault = { kind: 'none' };
const DATABASE: ColumnDefault = { kind: 'database' };

/** `'text'` with an optional cast to a type name: `'it''s'::text`, `'{}'::integer[]`, `'101'::"bit"`. */
const QUOTED_LITERAL = /^'((?:[^']|'')*)'(?:::[\p{L}_"][\p{L}\p{N}_ ".[\](),]*)?$/u;
const NUMBER_LITERAL = /^\(?(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)\)?$/;
const NULL_LITERAL = /^NULL(?:::.*)?$/;

/** The characters an XML 1.0 attribute can carry (a DefaultValue is one). */
const XML_TEXT = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

/** More than three fractional-second digits: the library's values keep milliseconds. */
const SUB_MILLISECOND = /\.\d{4,}/;

/** The literal's text, or undefined for an expression that is not a literal. */
function literalText(expression: string): string | undefined {
  const trimmed = expression.trim();
  if (trimmed === 'true' || trimmed === 'false') return trimmed;
  const number = NUMBER_LITERAL.exec(trimmed);
  if (number !== null) return number[1];
  const quoted = QUOTED_LITERAL.exec(trimmed);
  return quoted === null ? undefined : quoted[1].replace(/''/g, "'");
}

/** The CSDL text of a PostgreSQL literal's text for `type`, or undefined when it is not exactly one. */
function edmText(type: EdmPrimitiveTypeName, text: string, storedAsDate: boolean): string | undefined {
  switch (type) {
    case 'Edm.Boolean':
      return text === 'true' || text === 't' ? 'true' : text === 'false' || text === 'f' ? 'false' : undefined;
    case 'Edm.Single':
    case 'Edm.Double': {
      const spelled = text === 'Infinity' ? 'INF' : text === '-Infinity' ? '-INF' : text;
      const value = parsePrimitiveText(type, spelled);
      return value === undefined ? undefined : formatPrimitiveText(type, value);
    }
    case 'Edm.DateTime':
    case 'Edm.DateTimeOffset':
    case 'Edm.Time': {
      if (SUB_MILLISECOND.test(text)) return undefined;
      try {
        const literal = storedAsDate ? `${text} 00:00:00` : text;
        const value = type === 'Edm.Time' ? formatDuration(parseIntervalText(literal)) : parseTimestampText(literal, type === 'Edm.DateTimeOffset');
        return formatPrimitiveText(type, value);
      } catch {
        return undefined; // infinity, BC dates, a time of day PostgreSQL spells differently
      }
    }
    case 'Edm.Binary':
      return undefined; // bytea literals are escapes, not the Base64 a DefaultValue holds
    case 'Edm.String':
      return text;
    default: {
      const value = parsePrimitiveText(type, text);
      return value === undefined ? undefined : formatPrimitiveText(type, value);
    }
  }
}

/**
 * What a column's default expression is for a property of `type`. `storedAsDate`: the column is a
 * `date` shown as an Edm.DateTime.
 */
export function columnDefault(expression: string | null, type: EdmPrimitiveTypeName, storedAsDate = false): ColumnDefault {
  if (expression === null || NULL_LITERAL.test(expression.trim())) return NONE;
  const literal = literalText(expression);
  if (literal === undefined) return DATABASE;
  const text = edmText(type, literal, storedAsDate);
  if (text === undefined || !XML_TEXT.test(text) || parsePrimitiveText(type, text) === undefined) return DATABASE;
  return { kind: 'constant', value: text };
}
