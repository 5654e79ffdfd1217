/**
 * Text every format can carry: well-formed UTF-16 (every surrogate in a pair: what UTF-8 and
 * `encodeURIComponent` need) without the characters XML 1.0 excludes (§2.2 "Characters": C0
 * controls other than tab, LF and CR, and U+FFFE, U+FFFF), which Atom cannot write even as
 * character references. Readers refuse other strings, so a stored string reads back the same in
 * JSON, Atom and URIs.
 */

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');
const NOT_XML_TEXT = new RegExp(`[\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\uFFFE\\uFFFF]|${LONE_SURROGATE.source}`);

/** True when `text` holds no unpaired surrogate (ES2024 `String.prototype.isWellFormed`). */
function isWellFormed(text: string): boolean {
  return !LONE_SURROGATE.test(text);
}

/** `text` with each unpaired surrogate replaced by U+FFFD (ES2024 `String.prototype.toWellFormed`). */
export function toWellFormed(text: string): string {
  return isWellFormed(text) ? text : text.replace(LONE_SURROGATES, '\uFFFD');
}

/** True for a UTF-16 code unit that is not a character of XML 1.0 text (surrogates aside). */
export function isExcludedFromXml(code: number): boolean {
  return (code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0xfffe || code === 0xffff;
}

/**
 * Why `text` cannot be stored as an Edm.String (an unpaired surrogate, or a character XML 1.0
 * excludes, named as `U+XXXX` with its offset), or undefined when it is fine.
 */
export function textProblem(text: string): string | undefined {
  const match = NOT_XML_TEXT.exec(text);
  if (match === null) return undefined;
  const at = match.index + match[0].length - 1;
  const code = text.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0');
  return code >= 'D800' && code <= 'DFFF'
    ? `it holds an unpaired UTF-16 surrogate (U+${code} at offset ${at}); text must be valid Unicode.`
    : `it holds U+${code} (at offset ${at}), a character XML 1.0 excludes, which Atom cannot carry.`;
}
