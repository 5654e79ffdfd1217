/**
 * SAP's `search` query option (the text of a Fiori search field; SAP Gateway passes it to the
 * application as it is): split once into its terms. What the terms mean, and which entity sets and
 * properties they search, is the provider kit's (lib/provider/search.ts).
 */
import { ODataError } from '../errors';
import { isWhitespace } from './expr/lexer';
import { excerpt } from './expr/source';

const QUOTE = 0x22;

function invalid(text: string, position: number, detail: string): ODataError {
  return ODataError.fromCode('SEARCH_INVALID', { text: excerpt(text, position), detail }, { target: 'search', position });
}

/**
 * The terms of a `search` text, in order, as written (case kept, so a provider with a search of
 * its own sees what the user typed). Whitespace (SP, HTAB, LF, CR) separates terms; a double quote
 * opens a phrase that runs to the next one, whitespace included, and a doubled quote inside a phrase
 * stands for one quote (as `''` does in an OData string literal). Quotes may start mid-term:
 * `ab"c d"` is the one term `abc d`. Empty terms (`""`) are dropped, so a text of whitespace gives
 * no terms: no search. An unclosed quote: 400 SEARCH_INVALID at its position; more than `maxTerms`
 * terms: 400 QUERY_LIMIT_EXCEEDED.
 *
 *   search = *WSP [ term *( 1*WSP term ) ] *WSP
 *   term   = 1*( plain / phrase )
 *   plain  = <any character but WSP and DQUOTE>
 *   phrase = DQUOTE *( <any character but DQUOTE> / 2DQUOTE ) DQUOTE
 */
export function parseSearch(text: string, maxTerms: number): string[] {
  const terms: string[] = [];
  let position = 0;
  while (position < text.length) {
    if (isWhitespace(text.charCodeAt(position))) {
      position++;
      continue;
    }
    let term = '';
    while (position < text.length && !isWhitespace(text.charCodeAt(position))) {
      if (text.charCodeAt(position) !== QUOTE) {
        term += text[position++];
        continue;
      }
      const opening = position++;
      for (;;) {
        if (position >= text.length) throw invalid(text, opening, `the double quote at position ${opening} is not closed`);
        if (text.charCodeAt(position) !== QUOTE) term += text[position++];
        else if (text.charCodeAt(position + 1) === QUOTE) {
          term += '"';
          position += 2;
        } else {
          position++;
          break;
        }
      }
    }
    if (term.length === 0) continue;
    if (terms.length === maxTerms) {
      throw ODataError.fromCode(
        'QUERY_LIMIT_EXCEEDED',
        { option: 'search', limit: `${maxTerms} terms`, detail: `'${excerpt(text, position)}' has more` },
        { target: 'search' },
      );
    }
    terms.push(term);
  }
  return terms;
}
