/** XML escaping: the characters XML reserves, line ends, and the characters XML forbids. */
import { escapeXmlAttribute, escapeXmlText } from '../../../lib/format';
import { attr, parseTree } from '../xml-tree';

describe('escapeXmlText', () => {
  it.each([
    ['plain', 'plain'],
    ['', ''],
    ['a<b', 'a&lt;b'],
    ['a&b', 'a&amp;b'],
    ['a>b', 'a&gt;b'],
    [`"quotes" and 'apostrophes'`, `"quotes" and 'apostrophes'`],
    ['tab\tand\nnewline', 'tab\tand\nnewline'],
    ['cr\r\nlf', 'cr&#xD;\nlf'],
    ['nul\u0000bell\u0007', 'nul\uFFFDbell\uFFFD'],
    ['vt\u000Bff\u000C', 'vt\uFFFDff\uFFFD'],
    ['\uFFFE\uFFFF', '\uFFFD\uFFFD'],
    ['pair \uD83D\uDE00 ok', 'pair \uD83D\uDE00 ok'],
    ['lone \uD83D high', 'lone \uFFFD high'],
    ['lone \uDE00 low', 'lone \uFFFD low'],
    ['\uDE00', '\uFFFD'],
    ['<&>', '&lt;&amp;&gt;'],
  ])('escapes %j as %j', (input, expected) => {
    expect(escapeXmlText(input)).toBe(expected);
  });

  it('returns the same string object when nothing needs escaping (fast path)', () => {
    const input = 'x'.repeat(1000);
    expect(escapeXmlText(input)).toBe(input);
  });
});

describe('escapeXmlAttribute', () => {
  it.each([
    ['plain', 'plain'],
    ['W/"0"', 'W/&quot;0&quot;'],
    ["it's", "it's"],
    ['a<b&c>d', 'a&lt;b&amp;c&gt;d'],
    ['tab\tlf\ncr\r', 'tab&#x9;lf&#xA;cr&#xD;'],
    ['\u0001', '\uFFFD'],
  ])('escapes %j as %j', (input, expected) => {
    expect(escapeXmlAttribute(input)).toBe(expected);
  });
});

describe('round trip through an XML parser', () => {
  const nasty = `<&"'> tab\t lf\n crlf\r\n end`;

  it('reads back element text and attribute values exactly', () => {
    const root = parseTree(`<r a="${escapeXmlAttribute(nasty)}">${escapeXmlText(nasty)}</r>`);
    expect(root.text).toBe(nasty);
    expect(attr(root, 'a')).toBe(nasty);
  });

  it('stays well-formed with forbidden characters, which read back as U+FFFD', () => {
    const root = parseTree(`<r a="${escapeXmlAttribute('a\u0000b')}">${escapeXmlText('c\u001Fd\uD800')}</r>`);
    expect(root.text).toBe('c\uFFFDd\uFFFD');
    expect(attr(root, 'a')).toBe('a\uFFFDb');
  });
});
