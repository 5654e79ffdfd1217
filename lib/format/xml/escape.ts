/**
 * XML escaping for writers, with a fast path: one precompiled character-class test, and the slow
 * loop only for strings that need it. Characters that XML 1.0 forbids outright (C0 controls other
 * than tab, LF and CR; U+FFFE, U+FFFF; unpaired surrogates) cannot be written even as references
 * (XML 1.0 §2.2 "Characters"), so they become U+FFFD: the document stays well-formed.
 */

// Anything that is not plain text in element content. Unpaired surrogates are matched by the
// last two alternatives (a high surrogate not followed by a low one, a low one not preceded by a high one).
const TEXT_SPECIAL = /[&<>\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const ATTRIBUTE_SPECIAL =
  /[&<>"\t\n\r\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:^|[^\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const REPLACEMENT = '\uFFFD';

/** Escape text for element content: `&`, `<`, `>`, and CR (kept as `&#xD;` so it survives end-of-line normalization). */
export function escapeXmlText(text: string): string {
  return TEXT_SPECIAL.test(text) ? escapeSlow(text, false) : text;
}

/** Escape text for a double-quoted attribute value: also `"`, and tab/LF/CR as references (attribute-value normalization would turn them into spaces). */
export function escapeXmlAttribute(text: string): string {
  return ATTRIBUTE_SPECIAL.test(text) ? escapeSlow(text, true) : text;
}

function escapeSlow(text: string, attribute: boolean): string {
  let out = '';
  let start = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const code = text.charCodeAt(i);
    let replacement: string | undefined;
    if (code < 0x20) {
      if (code === 0x0d) replacement = '&#xD;';
      else if (code === 0x0a) replacement = attribute ? '&#xA;' : undefined;
      else if (code === 0x09) replacement = attribute ? '&#x9;' : undefined;
      else replacement = REPLACEMENT;
    } else if (code === 0x26) replacement = '&amp;';
    else if (code === 0x3c) replacement = '&lt;';
    else if (code === 0x3e) replacement = '&gt;';
    else if (code === 0x22) replacement = attribute ? '&quot;' : undefined;
    else if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < length ? text.charCodeAt(i + 1) : 0;
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++; // a valid pair: keep both halves
        continue;
      }
      replacement = REPLACEMENT;
    } else if (code === 0xfffe || code === 0xffff) replacement = REPLACEMENT;
    if (replacement !== undefined) {
      out += text.slice(start, i) + replacement;
      start = i + 1;
    }
  }
  return start === 0 ? text : out + text.slice(start);
}
