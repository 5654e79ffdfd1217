/**
 * A bounded memo for parsers of header texts that repeat (a client sends the same Accept and
 * Content-Type with every request): a Map lookup instead of a parse per request. At most `size`
 * texts are kept; a full memo starts over, so unusual texts cannot make it grow. Results are
 * shared between callers, so a parser should return frozen values.
 */
export function memoByText<T>(parse: (text: string) => T, size = 64): (text: string) => T {
  // Boxed, so that a text that parses to undefined is remembered too.
  const memo = new Map<string, { readonly parsed: T }>();
  return (text) => {
    let entry = memo.get(text);
    if (entry === undefined) {
      entry = { parsed: parse(text) };
      if (memo.size >= size) memo.clear();
      memo.set(text, entry);
    }
    return entry.parsed;
  };
}
