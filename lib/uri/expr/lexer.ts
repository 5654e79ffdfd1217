/**
 * The `$filter`/`$orderby` lexer: one pass over the text with offsets, tokens produced on demand.
 * Literal tokens are delimited by `scanLiteral` and read by `parseLiteral` (lib/edm/literals), so URI
 * literals have one implementation. Operators (`eq`, `and`, `asc`...) are plain identifiers here;
 * the parser decides what they mean.
 */
import { isODataError } from '../../errors';
import { parseLiteral, scanLiteral } from '../../edm/literals';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../edm/primitives';
import { clip, syntaxError, type ExpressionSource } from './source';

export type TokenKind =
  | 'Identifier'
  /** A dotted name (`ODataDemo.Product`): only meaningful as the type argument of isof/cast. */
  | 'QualifiedName'
  | 'Literal'
  | 'OpenParen'
  | 'CloseParen'
  | 'Comma'
  | 'Slash'
  /** A `-` that does not start a numeric literal: unary negation. */
  | 'Minus'
  | 'End';

export interface Token {
  readonly kind: TokenKind;
  /** Offset of the first character. */
  readonly start: number;
  /** Offset after the last character. */
  readonly end: number;
  /** The token's text as written. */
  readonly text: string;
  /** Literal tokens: the EDM type (`null` for the `null` literal) and value. */
  readonly literalType?: EdmPrimitiveTypeName | null;
  readonly value?: PrimitiveValue | null;
}

// Keywords that are literals although `scanLiteral` may not claim them (MS-ODATA nullLiteral, booleanLiteral).
const KEYWORD_LITERALS = new Set(['null', 'true', 'false']);

// Operators that may stand directly before a quoted string.
const GLUED_OPERATORS = new Set(['eq', 'ne', 'lt', 'le', 'gt', 'ge', 'and', 'or', 'not', 'add', 'sub', 'mul', 'div', 'mod']);

const NON_ASCII_IDENTIFIER = /[\p{L}\p{Nl}\p{Mn}\p{Mc}\p{Nd}\p{Pc}]/u;

/** `[A-Za-z_]` or a non-ASCII letter: MS-ODATA identifiers follow CSDL SimpleIdentifier. */
function isIdentifierStart(code: number): boolean {
  if (code < 128) return (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95;
  return isNonAsciiIdentifierPart(code);
}

/** An identifier start, or a digit. */
function isIdentifierPart(code: number): boolean {
  if (code < 128) return isIdentifierStart(code) || (code >= 48 && code <= 57);
  return isNonAsciiIdentifierPart(code);
}

function isNonAsciiIdentifierPart(code: number): boolean {
  // Surrogate halves are let through: a name with astral letters then fails as an unknown property.
  if (code >= 0xd800 && code <= 0xdfff) return true;
  return NON_ASCII_IDENTIFIER.test(String.fromCharCode(code));
}

/** The whitespace between tokens (SP, HTAB, LF, CR); `search` splits its terms on the same set. */
export function isWhitespace(code: number): boolean {
  return code === 32 || code === 9 || code === 10 || code === 13;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

const PUNCTUATION: Readonly<Record<number, TokenKind>> = {
  40: 'OpenParen',
  41: 'CloseParen',
  44: 'Comma',
  47: 'Slash',
};

/** Tokens of one expression text, read lazily with any lookahead. */
export class Lexer {
  private position = 0;
  private readonly buffer: Token[] = [];

  constructor(private readonly source: ExpressionSource) {}

  /** The token `ahead` tokens past the current one, without consuming. */
  peek(ahead = 0): Token {
    while (this.buffer.length <= ahead) this.buffer.push(this.read());
    return this.buffer[ahead];
  }

  /** Consume and return the current token. */
  next(): Token {
    const token = this.peek();
    this.buffer.shift();
    return token;
  }

  private read(): Token {
    const text = this.source.text;
    let i = this.position;
    while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
    if (i >= text.length) {
      this.position = i;
      return { kind: 'End', start: i, end: i, text: '' };
    }
    const code = text.charCodeAt(i);
    const punctuation = PUNCTUATION[code];
    if (punctuation !== undefined) return this.token(punctuation, i, i + 1);
    if (code === 39 /* ' */ || isDigit(code) || code === 46 /* . */) return this.literal(i, scanLiteral(text, i));
    if (code === 45 /* - */) {
      // `-5` and `-INF` are literals (as in WCF's lexer); `-Price` and `- 5` are negations.
      const end = scanLiteral(text, i);
      if (end > i + 1 && !this.continuesWord(end)) return this.literal(i, end);
      return this.token('Minus', i, i + 1);
    }
    if (isIdentifierStart(code)) return this.word(i);
    throw syntaxError(this.source, i, `unexpected character '${text[i]}'`);
  }

  /** An identifier, a dotted name, or a word-shaped literal (`true`, `datetime'...'`, `X'0A'`, `INF`). */
  private word(start: number): Token {
    const text = this.source.text;
    let end = start + 1;
    while (end < text.length && isIdentifierPart(text.charCodeAt(end))) end++;
    const literalEnd = scanLiteral(text, start);
    if (literalEnd >= end && !this.continuesWord(literalEnd)) return this.literal(start, literalEnd);
    const name = text.slice(start, end);
    // `Name eq'Milk'`: WCF read an operator glued to a string; any other word before a quote is a bad prefix.
    if (text.charCodeAt(end) === 39 && !GLUED_OPERATORS.has(name)) {
      throw syntaxError(this.source, start, `unknown literal prefix or malformed literal '${clip(name)}'`);
    }
    if (KEYWORD_LITERALS.has(name)) return this.literal(start, end);
    // A qualified type name: identifiers joined by dots (namespaces may contain dots).
    let qualifiedEnd = end;
    while (text.charCodeAt(qualifiedEnd) === 46 && isIdentifierStart(text.charCodeAt(qualifiedEnd + 1))) {
      qualifiedEnd += 2;
      while (qualifiedEnd < text.length && isIdentifierPart(text.charCodeAt(qualifiedEnd))) qualifiedEnd++;
    }
    return this.token(qualifiedEnd > end ? 'QualifiedName' : 'Identifier', start, qualifiedEnd);
  }

  /** A literal token over [start, end); end < 0 means `scanLiteral` found none. */
  private literal(start: number, end: number): Token {
    const text = this.source.text;
    if (end <= start) throw syntaxError(this.source, start, `malformed literal starting with '${text[start]}'`);
    if (this.continuesWord(end)) {
      throw syntaxError(this.source, end, `unexpected character '${text[end]}' after the literal '${clip(text.slice(start, end))}'`);
    }
    const written = text.slice(start, end);
    try {
      const { type, value } = parseLiteral(written);
      this.position = end;
      return { kind: 'Literal', start, end, text: written, literalType: type, value };
    } catch (error) {
      if (isODataError(error)) throw syntaxError(this.source, start, error.message);
      throw error;
    }
  }

  /** True when the character at `offset` would glue onto the previous token (`12abc`, `'a''`). */
  private continuesWord(offset: number): boolean {
    if (offset >= this.source.text.length) return false;
    const code = this.source.text.charCodeAt(offset);
    return isIdentifierPart(code) || code === 39 || code === 46;
  }

  private token(kind: TokenKind, start: number, end: number): Token {
    this.position = end;
    return { kind, start, end, text: this.source.text.slice(start, end) };
  }
}
