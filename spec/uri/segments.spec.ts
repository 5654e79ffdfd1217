import { percentDecode, splitPath, splitSegment } from '../../lib/uri/segments';
import { catchODataError } from './uri-fixtures';

describe('splitPath', () => {
  it.each<[string, [string, string, number, number][]]>([
    ['', []],
    ['/', []],
    ['Products', [['Products', 'Products', 0, 8]]],
    ['/Products', [['Products', 'Products', 1, 9]]],
    ['Products/', [['Products', 'Products', 0, 8]]],
    [
      'Products(1)/Name/$value',
      [
        ['Products(1)', 'Products(1)', 0, 11],
        ['Name', 'Name', 12, 16],
        ['$value', '$value', 17, 23],
      ],
    ],
    // A slash inside a quoted key value does not split, with raw or encoded quotes.
    [
      "Orders(Line='a/b')/Items",
      [
        ["Orders(Line='a/b')", "Orders(Line='a/b')", 0, 18],
        ['Items', 'Items', 19, 24],
      ],
    ],
    [
      'Orders(Line=%27a/b%27)/Items',
      [
        ['Orders(Line=%27a/b%27)', "Orders(Line='a/b')", 0, 22],
        ['Items', 'Items', 23, 28],
      ],
    ],
    // Doubled quotes inside a literal keep the quote state.
    [
      "Orders(Line='it''s/x')/Items",
      [
        ["Orders(Line='it''s/x')", "Orders(Line='it''s/x')", 0, 22],
        ['Items', 'Items', 23, 28],
      ],
    ],
    ["Orders(Line='it%27%27s/x')", [["Orders(Line='it%27%27s/x')", "Orders(Line='it''s/x')", 0, 26]]],
    // Quotes outside parentheses are just characters.
    [
      "O'Brien/x",
      [
        ["O'Brien", "O'Brien", 0, 7],
        ['x', 'x', 8, 9],
      ],
    ],
    // An encoded slash is data, not a separator.
    ["Orders(Line='a%2Fb')", [["Orders(Line='a%2Fb')", "Orders(Line='a/b')", 0, 20]]],
    ['A%2FB', [['A%2FB', 'A/B', 0, 5]]],
    // `+` is not a space in a path.
    ["Orders(Line='a+b')", [["Orders(Line='a+b')", "Orders(Line='a+b')", 0, 18]]],
    ['Orders(Line=%27%C3%A4%27)', [['Orders(Line=%27%C3%A4%27)', "Orders(Line='ä')", 0, 25]]],
    // An unterminated quote runs to the end (the key parser reports it).
    ["Orders(Line='a/b", [["Orders(Line='a/b", "Orders(Line='a/b", 0, 16]]],
    [
      'a//b',
      [
        ['a', 'a', 0, 1],
        ['', '', 2, 2],
        ['b', 'b', 3, 4],
      ],
    ],
  ])('%j', (path, expected) => {
    expect(splitPath(path).map((s) => [s.raw, s.text, s.start, s.end])).toEqual(expected);
  });

  it.each<[string, string]>([
    ['Products(%ZZ)', "Bad percent-encoding in 'Products(%ZZ)'."],
    ['Products/%E0%A4%A', "Bad percent-encoding in '%E0%A4%A'."],
    ['%FF', "Bad percent-encoding in '%FF'."],
    ['abc%', "Bad percent-encoding in 'abc%'."],
  ])('rejects bad percent-encoding in %j', (path, message) => {
    const error = catchODataError(() => splitPath(path));
    expect([error.code, error.status, error.message]).toEqual(['URI_PERCENT_ENCODING', 400, message]);
  });
});

describe('splitSegment', () => {
  const segment = (text: string) => ({ raw: text, text, start: 4, end: 4 + text.length });

  it.each<[string, string, string | undefined]>([
    ['Products', 'Products', undefined],
    ['Products()', 'Products', ''],
    ['Products(1)', 'Products', '1'],
    ['Products(ID=1)', 'Products', 'ID=1'],
    ["Orders(A=1,B='x')", 'Orders', "A=1,B='x'"],
    ["Orders(B=')(')", 'Orders', "B=')('"],
    ['GetProducts()', 'GetProducts', ''],
    ['$count', '$count', undefined],
  ])('%s', (text, name, predicate) => {
    expect(splitSegment(segment(text))).toEqual({ name, predicate });
  });

  it.each<[string, string]>([
    ['', 'a path segment must not be empty'],
    ['Products(1)x', "the parenthesised part must close with ')' at the end of the segment"],
    ['Products(1', "the parenthesised part must close with ')' at the end of the segment"],
    ['Products)', "')' without a matching '('"],
  ])('rejects %j', (text, detail) => {
    const error = catchODataError(() => splitSegment(segment(text)));
    expect([error.code, error.status, error.message, error.position]).toEqual([
      'URI_INVALID_SEGMENT',
      400,
      `The segment '${text}' is not valid here: ${detail}`,
      4,
    ]);
  });
});

describe('percentDecode', () => {
  it.each<[string, string]>([
    ['abc', 'abc'],
    ['a%20b', 'a b'],
    ['a+b', 'a+b'],
    ['%27O%27%27Neil%27', "'O''Neil'"],
    ['%E2%82%AC', '€'],
  ])('%j -> %j', (input, output) => {
    expect(percentDecode(input)).toBe(output);
  });
});
