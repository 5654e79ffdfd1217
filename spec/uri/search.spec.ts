/**
 * SAP's `search` text split into terms (lib/uri/search.ts): whitespace separates terms, double
 * quotes keep a phrase together (a doubled quote inside one is a quote), empty terms are dropped;
 * an unclosed quote is 400 SEARCH_INVALID at the quote, and more terms than the limit is 400
 * QUERY_LIMIT_EXCEEDED. Several spellings per expected list, each checked whole.
 */
import { parseSearch } from '../../lib/uri/search';
import { catchODataError } from '../helpers/odata-error';

describe('parseSearch', () => {
  it.each<[string[], string[]]>([
    [[''], []],
    [['   ', '\t\r\n', '""', ' "" "" '], []],
    [['milk', ' milk', 'milk ', '"milk"', 'mi"lk"', '"mi"lk'], ['milk']],
    [
      ['Low fat', 'Low  fat', ' Low\tfat\n', '"Low" fat', 'Low\r\nfat'],
      ['Low', 'fat'],
    ],
    [['"Low fat"', 'Low" "fat', '"Low "fat', 'Lo"w f"at'], ['Low fat']],
    [
      ['"pack of" 12', ' "pack of"   12 ', 'pack" "of 12'],
      ['pack of', '12'],
    ],
    // Inside a phrase a doubled quote is a quote, so two phrases cannot touch.
    [['"Low"" fat"'], ['Low" fat']],
    [['"5"" screen"', '5""" screen"'], ['5" screen']],
    [['""""'], ['"']],
    [
      ['Ä ß 日本語 𝄞', '"Ä" "ß" "日本語" "𝄞"'],
      ['Ä', 'ß', '日本語', '𝄞'],
    ],
    [
      ["O'Neil 100% a_c d\\", '"O\'Neil" "100%" a_c "d\\"'],
      ["O'Neil", '100%', 'a_c', 'd\\'],
    ],
    [
      ['milk milk', '"milk" milk'],
      ['milk', 'milk'],
    ],
    [['"  "'], ['  ']],
  ])('%j are %j', (spellings, terms) => {
    for (const text of spellings) expect([text, parseSearch(text, 10)]).toEqual([text, terms]);
  });

  it.each<[string, number, string]>([
    ['"milk', 0, 'the double quote at position 0 is not closed'],
    ['milk"', 4, 'the double quote at position 4 is not closed'],
    ['"Low fat" "pack', 10, 'the double quote at position 10 is not closed'],
    ['"a""', 0, 'the double quote at position 0 is not closed'],
    ['a """', 2, 'the double quote at position 2 is not closed'],
    ['"', 0, 'the double quote at position 0 is not closed'],
  ])('%j is SEARCH_INVALID at %i', (text, position, detail) => {
    const error = catchODataError(() => parseSearch(text, 10));
    expect([error.status, error.code, error.position, error.target, error.message]).toEqual([
      400,
      'SEARCH_INVALID',
      position,
      'search',
      `Invalid search '${text}': ${detail}`,
    ]);
  });

  it('quotes a long text around the unclosed quote', () => {
    const text = `${'word '.repeat(100)}"open`;
    const error = catchODataError(() => parseSearch(text, 1000));
    expect(error.message).toMatch(/^Invalid search '\.\.\.(word )+"open': the double quote at position 500 is not closed$/);
  });

  it('allows exactly maxTerms terms and refuses one more', () => {
    expect(parseSearch('a b "c d"', 3)).toEqual(['a', 'b', 'c d']);
    const error = catchODataError(() => parseSearch('a b "c d" e', 3));
    expect([error.status, error.code, error.message]).toEqual([400, 'QUERY_LIMIT_EXCEEDED', 'search exceeds the limit of 3 terms: \'a b "c d" e\' has more']);
    // Empty phrases are not terms, so they count for nothing.
    expect(parseSearch('a "" b "" c ""', 3)).toEqual(['a', 'b', 'c']);
  });
});
