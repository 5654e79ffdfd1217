import { memoByText } from '../../lib/util/text-memo';

describe('memoByText', () => {
  it('parses each text once and hands out the same result', () => {
    const parsed: string[] = [];
    const parse = memoByText((text) => {
      parsed.push(text);
      return { length: text.length };
    });
    const first = parse('application/json');
    expect(parse('application/json')).toBe(first);
    expect(parse('text/plain')).toEqual({ length: 10 });
    expect(parsed).toEqual(['application/json', 'text/plain']);
  });

  it('remembers a text that parses to undefined', () => {
    let calls = 0;
    const parse = memoByText(() => {
      calls++;
      return undefined;
    });
    expect([parse('x'), parse('x')]).toEqual([undefined, undefined]);
    expect(calls).toBe(1);
  });

  it('keeps at most `size` texts: a full memo starts over', () => {
    const parsed: string[] = [];
    const parse = memoByText((text) => parsed.push(text), 2);
    for (const text of ['a', 'b', 'a', 'c', 'a', 'b']) parse(text);
    // 'c' finds the memo full (a, b) and clears it; then 'a' and 'b' are parsed again.
    expect(parsed).toEqual(['a', 'b', 'c', 'a', 'b']);
  });
});
