/**
 * The $filter/$orderby parser: every operator and form, several spellings per tree, precedence in
 * braced form, print -> reparse round trips, and every syntax error with its code and position.
 */
import { parseExpression, parseOrderBy, printBraced, printExpression, withoutLocations } from '../../../lib/uri/expr';
import type { ExprNode } from '../../../lib/uri/expr/ast';
import { catchODataError, withoutLoc } from './support';

/**
 * One check per expected tree: the first spelling parses to the expected braced form (precedence
 * made visible, `{{a add b} mul c}`), every other spelling parses to the same tree, and printing
 * the tree and parsing the text again gives it back, offsets aside.
 */
function checkTree(spellings: readonly string[], braced: string): void {
  const [first, ...others] = spellings;
  const tree = parseExpression(first);
  expect(printBraced(tree)).toBe(braced);
  for (const other of others) expect(withoutLocations(parseExpression(other))).toEqual(withoutLocations(tree));
  const printed = printExpression(tree);
  expect(withoutLoc(parseExpression(printed))).toEqual(withoutLoc(tree));
  // Printing from values (no literal text) still reads back to the same tree.
  expect(withoutLocations(parseExpression(printExpression(withoutLocations(tree))))).toEqual(withoutLocations(tree));
}

// ------------------------------------------------------------------------------------------------
// Valid expressions: spellings -> braced form
// ------------------------------------------------------------------------------------------------

const OPERATORS: readonly [readonly string[], string][] = [
  [['Price eq 20', 'Price  eq  20', ' Price eq 20 ', '(Price eq 20)', '((Price) eq (20))'], '{Price eq 20}'],
  [['Price ne 20', '(Price)ne(20)'], '{Price ne 20}'],
  [['Price lt 20', 'Price\tlt\t20'], '{Price lt 20}'],
  [['Price le 20', 'Price le 020'], '{Price le 20}'],
  [['Price gt 20', 'Price gt +20'.replace('+', '')], '{Price gt 20}'],
  [['Price ge 20'], '{Price ge 20}'],
  [['true and false', '(true)and(false)'], '{true and false}'],
  [['true or false'], '{true or false}'],
  [['not true', 'not(true)', 'not  true'], '{not true}'],
  [['Price add 1', '(Price) add (1)'], '{Price add 1}'],
  [['Price sub 1'], '{Price sub 1}'],
  [['Price mul 1'], '{Price mul 1}'],
  [['Price div 1'], '{Price div 1}'],
  [['Price mod 1'], '{Price mod 1}'],
  [['-Price', '- Price', '-(Price)', '(-Price)'], '{-Price}'],
  [['- 5', '-(5)'], '{-5}'],
  [['-5'], '-5'],
  [['Price sub -5', 'Price sub (-5)'], '{Price sub -5}'],
  [['Price sub - 5'], '{Price sub {-5}}'],
  [['--Price', '- - Price', '-(-Price)'], '{-{-Price}}'],
  [['-INF lt Price'], '{-INF lt Price}'],
];

const PRECEDENCE: readonly [readonly string[], string][] = [
  [['a add b mul c', 'a add (b mul c)'], '{a add {b mul c}}'],
  [['a mul b add c', '(a mul b) add c'], '{{a mul b} add c}'],
  [['a sub b sub c', '(a sub b) sub c'], '{{a sub b} sub c}'],
  [['a sub (b sub c)'], '{a sub {b sub c}}'],
  [['a div b mul c mod d'], '{{{a div b} mul c} mod d}'],
  [['a or b and c', 'a or (b and c)'], '{a or {b and c}}'],
  [['a and b or c and d'], '{{a and b} or {c and d}}'],
  [['(a or b) and c'], '{{a or b} and c}'],
  [['a eq b and c ne d'], '{{a eq b} and {c ne d}}'],
  [['a add b eq c mul d'], '{{a add b} eq {c mul d}}'],
  [['a eq b eq c'], '{{a eq b} eq c}'],
  [['a lt b or a gt c'], '{{a lt b} or {a gt c}}'],
  [['not a eq b', '(not a) eq b'], '{{not a} eq b}'],
  [['not (a eq b)'], '{not {a eq b}}'],
  [['not not a'], '{not {not a}}'],
  [['-a mul b'], '{{-a} mul b}'],
  [['-(a mul b)'], '{-{a mul b}}'],
  [['a mul -b'], '{a mul {-b}}'],
  [['a or b or c', '(a or b) or c'], '{{a or b} or c}'],
  [['a or (b or c)'], '{a or {b or c}}'],
  [["substringof('x', a) or b gt 1 and c"], "{substringof('x', a) or {{b gt 1} and c}}"],
  [['length(a add b) mul 2'], '{length({a add b}) mul 2}'],
];

const PRIMARIES: readonly [readonly string[], string][] = [
  [['Address/City', 'Address / City', 'Address/ City'], 'Address/City'],
  [['a/b/c gt 1'], '{a/b/c gt 1}'],
  [["Name eq 'O''Neil'", "Name eq'O''Neil'"], "{Name eq 'O''Neil'}"],
  [["Name eq ''"], "{Name eq ''}"],
  [['Name eq null'], '{Name eq null}'],
  [['Flag eq true'], '{Flag eq true}'],
  [['Price eq 2.5M', 'Price eq 2.5m', 'Price eq 2.50M'], '{Price eq 2.5M}'],
  [['Id eq 12L', 'Id eq 12l'], '{Id eq 12L}'],
  [['X eq 1.5', 'X eq 1.50'], '{X eq 1.5}'],
  [['X eq 1.5d', 'X eq 1.5D'], '{X eq 1.5d}'],
  [['X eq 2.5f', 'X eq 2.5F'], '{X eq 2.5f}'],
  [['X eq 1E3', 'X eq 1000.0'], '{X eq 1E3}'],
  [['X eq NaN'], '{X eq NaN}'],
  [['X eq INF'], '{X eq INF}'],
  [["D eq datetime'2000-01-01T00:00'", "D eq datetime'2000-01-01T00:00:00'", "D eq DateTime'2000-01-01T00:00:00.000'"], "{D eq datetime'2000-01-01T00:00'}"],
  [["D eq datetimeoffset'2000-01-01T01:00:00+01:00'", "D eq datetimeoffset'2000-01-01T00:00:00Z'"], "{D eq datetimeoffset'2000-01-01T01:00:00+01:00'}"],
  [["T eq time'PT13H20M'"], "{T eq time'PT13H20M'}"],
  [["G eq guid'01234567-89AB-CDEF-0123-456789ABCDEF'", "G eq guid'01234567-89ab-cdef-0123-456789abcdef'"], "{G eq guid'01234567-89AB-CDEF-0123-456789ABCDEF'}"],
  [["B eq X'0aFF'", "B eq binary'0AFF'"], "{B eq X'0aFF'}"],
  [["substringof('a', Name)", "substringof( 'a' , Name )", "substringof ('a',Name)"], "substringof('a', Name)"],
  [["isof('ODataDemo.Product')", 'isof(ODataDemo.Product)'], "isof('ODataDemo.Product')"],
  [["isof(Price, 'Edm.Decimal')", 'isof(Price,Edm.Decimal)'], "isof(Price, 'Edm.Decimal')"],
  [["cast(Price, 'Edm.Double') gt 1"], "{cast(Price, 'Edm.Double') gt 1}"],
  [["cast('NS.Special')/Extra eq 'x'", "cast('NS.Special') / Extra eq 'x'"], "{cast('NS.Special')/Extra eq 'x'}"],
  [['Größe gt 1'], '{Größe gt 1}'],
  [['_x1 gt 1'], '{_x1 gt 1}'],
];

describe('parseExpression: operators', () => {
  it.each(OPERATORS)('%j -> %s', (spellings, braced) => checkTree(spellings, braced));
});

describe('parseExpression: precedence and associativity', () => {
  it.each(PRECEDENCE)('%j -> %s', (spellings, braced) => checkTree(spellings, braced));
});

describe('parseExpression: literals, paths and calls', () => {
  it.each(PRIMARIES)('%j -> %s', (spellings, braced) => checkTree(spellings, braced));
});

describe('parseExpression: trees', () => {
  it('builds typed literal nodes with their text and offsets', () => {
    expect(parseExpression("Name eq 'a b'")).toEqual({
      kind: 'Binary',
      operator: 'eq',
      left: { kind: 'Member', path: ['Name'], loc: { start: 0, end: 4 } },
      right: { kind: 'Literal', literalType: 'Edm.String', value: 'a b', text: "'a b'", loc: { start: 8, end: 13 } },
      loc: { start: 0, end: 13 },
    });
  });

  it('reads exact Int64 and Decimal values as strings', () => {
    const tree = parseExpression('9007199254740993L eq 0.30000000000000000001M');
    expect(tree).toMatchObject({
      left: { literalType: 'Edm.Int64', value: '9007199254740993' },
      right: { literalType: 'Edm.Decimal', value: '0.30000000000000000001' },
    });
  });

  it('turns the quoted type argument of isof and cast into a TypeName node', () => {
    expect(withoutLocations(parseExpression("cast(Price, 'Edm.Int32')"))).toEqual({
      kind: 'Call',
      name: 'cast',
      args: [
        { kind: 'Member', path: ['Price'] },
        { kind: 'TypeName', name: 'Edm.Int32' },
      ],
    });
  });

  it('keeps a member path after cast as the base of the path', () => {
    const tree = parseExpression("cast('NS.T')/A/B");
    expect(withoutLocations(tree)).toEqual({
      kind: 'Member',
      path: ['A', 'B'],
      base: { kind: 'Call', name: 'cast', args: [{ kind: 'TypeName', name: 'NS.T' }] },
    });
    expect(tree.loc).toEqual({ start: 0, end: 16 });
  });

  it('spans unary and call nodes over their whole text', () => {
    expect(parseExpression('not  Flag').loc).toEqual({ start: 0, end: 9 });
    expect(parseExpression('length( Name )').loc).toEqual({ start: 0, end: 14 });
  });

  it('parses a long or-chain as SAPUI5 sends for multi-value filters', () => {
    const text = Array.from({ length: 300 }, (_, i) => `ID eq ${i}`).join(' or ');
    const tree = parseExpression(text, { maxDepth: 5 });
    expect(printExpression(tree)).toBe(text);
  });
});

// ------------------------------------------------------------------------------------------------
// Invalid expressions: [input, code, position, message fragment]
// ------------------------------------------------------------------------------------------------

const INVALID: readonly [string, string, number, string][] = [
  ['', 'FILTER_SYNTAX', 0, 'expected an expression, found the end'],
  ['   ', 'FILTER_SYNTAX', 3, 'expected an expression'],
  ['Price gt', 'FILTER_SYNTAX', 8, 'found the end of the expression'],
  ['Price gt 20 and', 'FILTER_SYNTAX', 15, 'expected an expression'],
  ['Price GT 20', 'FILTER_SYNTAX', 6, "operators are lower-case: 'gt'"],
  ['Price Eq 20', 'FILTER_SYNTAX', 6, "lower-case: 'eq'"],
  ['Price gt 20 20', 'FILTER_SYNTAX', 12, "expected an operator, found '20'"],
  ['(Price gt 20', 'FILTER_SYNTAX', 12, "expected ')'"],
  ['Price gt 20)', 'FILTER_SYNTAX', 11, "found ')'"],
  ['()', 'FILTER_SYNTAX', 1, "found ')'"],
  ["Price gt 'abc", 'FILTER_SYNTAX', 9, 'closing quote is missing'],
  ["Name eq 'a''", 'FILTER_SYNTAX', 8, 'closing quote is missing'],
  ['Price gt 12abc', 'FILTER_SYNTAX', 9, 'not a valid number'],
  ['Price gt 1.5.5', 'FILTER_SYNTAX', 9, 'not a valid number'],
  ['Price gt 1e', 'FILTER_SYNTAX', 9, 'not a valid number'],
  ['Price gt 2147483648000000000000L', 'FILTER_SYNTAX', 9, 'out of range for Edm.Int64'],
  ["D eq datetime'2020-13-45'", 'FILTER_SYNTAX', 5, 'valid date'],
  ["G eq guid'123'", 'FILTER_SYNTAX', 5, 'GUID'],
  ["B eq X'ABC'", 'FILTER_SYNTAX', 5, 'hex digits'],
  ["Name eq foo'bar'", 'FILTER_SYNTAX', 8, 'unknown literal prefix'],
  ['Price # 2', 'FILTER_SYNTAX', 6, "unexpected character '#'"],
  ['Price eq .5', 'FILTER_SYNTAX', 9, 'malformed literal'],
  ['Price eq @p', 'FILTER_SYNTAX', 9, "unexpected character '@'"],
  ['and', 'FILTER_SYNTAX', 0, "the operator 'and' needs an operand"],
  ['Price and and', 'FILTER_SYNTAX', 10, "found 'and'"],
  ['not', 'FILTER_SYNTAX', 3, 'expected an expression'],
  ['-', 'FILTER_SYNTAX', 1, 'expected an expression'],
  ['Price,gt', 'FILTER_SYNTAX', 5, "found ','"],
  ['Address/', 'FILTER_SYNTAX', 8, 'expected a property name'],
  ['Address/ eq 1', 'FILTER_SYNTAX', 9, "found 'eq'"],
  ['Address/1', 'FILTER_SYNTAX', 8, 'expected a property name'],
  ['/Name', 'FILTER_SYNTAX', 0, "found '/'"],
  ['(Category)/Name', 'FILTER_SYNTAX', 10, "found '/'"],
  ['ODataDemo.Product eq 1', 'FILTER_SYNTAX', 0, 'only allowed as the type argument'],
  ["substringof('a' Name)", 'FILTER_SYNTAX', 16, "expected ',' or ')'"],
  ['substringof(', 'FILTER_SYNTAX', 12, 'expected an expression'],
  ["substringof('a',)", 'FILTER_SYNTAX', 16, 'expected an expression'],
  ['length(Name)/Foo', 'FILTER_SYNTAX', 12, 'only cast(...)/Property'],
  ['isof(Name)', 'FILTER_SYNTAX', 5, 'must be a quoted type name'],
  ["isof('Edm.Int32', Name)", 'FILTER_SYNTAX', 5, 'only the last argument'],
  ["cast('a' eq 'b')", 'FILTER_SYNTAX', 5, 'must be a quoted type name'],
  ['foo(1)', 'FILTER_UNKNOWN_FUNCTION', 0, "Unknown function 'foo'"],
  ["SubstringOf('a', Name)", 'FILTER_UNKNOWN_FUNCTION', 0, "Did you mean 'substringof' or 'substring'?"],
  ['Price gt lenght(Name)', 'FILTER_UNKNOWN_FUNCTION', 9, "Did you mean 'length'?"],
  ['length()', 'FILTER_ARITY', 0, "'length' takes 1 argument(s), got 0"],
  ["length('a', 'b')", 'FILTER_ARITY', 0, 'got 2'],
  ["substring('a')", 'FILTER_ARITY', 0, "'substring' takes 2 or 3 argument(s), got 1"],
  ["concat('a')", 'FILTER_ARITY', 0, 'takes 2 argument(s)'],
  ['isof()', 'FILTER_ARITY', 0, 'takes 1 or 2'],
  ['round(1, 2)', 'FILTER_ARITY', 0, 'takes 1 argument(s), got 2'],
];

describe('parseExpression: invalid input', () => {
  it.each(INVALID)('%j -> %s at %i', (text, code, position, fragment) => {
    const error = catchODataError(() => parseExpression(text));
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    expect(error.position).toBe(position);
    expect(error.target).toBe('$filter');
    expect(error.message).toContain(fragment);
    expect(error.message).toContain(`position ${position}`);
  });

  it('echoes the text in the message', () => {
    expect(catchODataError(() => parseExpression('Price gt')).message).toBe(
      "Syntax error at position 8 in 'Price gt': expected an expression, found the end of the expression",
    );
  });

  it('cuts a long text to a window around the position in messages', () => {
    const text = 'Name eq ' + 'x'.repeat(5000) + ' gt';
    const error = catchODataError(() => parseExpression(text));
    expect(error.position).toBe(text.length);
    expect(error.message.length).toBeLessThan(400);
    expect(error.message).toContain("in '...xxx");
  });

  it('names the option given as target', () => {
    const error = catchODataError(() => parseExpression('a gt', { target: '$orderby' }));
    expect(error.target).toBe('$orderby');
  });
});

// ------------------------------------------------------------------------------------------------
// Limits: nesting and tree depth end in 400, never in a stack overflow
// ------------------------------------------------------------------------------------------------

describe('parseExpression: limits', () => {
  const nested = (depth: number): string => '('.repeat(depth) + 'true' + ')'.repeat(depth);

  it.each([
    ['parentheses', nested(101), 100],
    ['not', 'not '.repeat(101) + 'true', 400],
    ['negation', '- '.repeat(101) + '1 eq 1', 200],
    ['calls', 'length('.repeat(101) + "'a'" + ')'.repeat(101), 7 * 100],
  ])('refuses nesting deeper than the default 100 (%s)', (_what, text, position) => {
    const error = catchODataError(() => parseExpression(text));
    expect([error.code, error.status, error.position]).toEqual(['QUERY_LIMIT_EXCEEDED', 400, position]);
    expect(error.message).toContain('$filter exceeds the limit of 100');
  });

  it('accepts nesting up to the limit', () => {
    expect(printBraced(parseExpression(nested(100)))).toBe('true');
    expect(printBraced(parseExpression(nested(3), { maxDepth: 3 }))).toBe('true');
  });

  it('honours maxDepth', () => {
    const error = catchODataError(() => parseExpression('((((a))))', { maxDepth: 3 }));
    expect([error.code, error.position]).toEqual(['QUERY_LIMIT_EXCEEDED', 3]);
  });

  it('refuses a tree deeper than maxTreeDepth (a long chain)', () => {
    const text = Array.from({ length: 1002 }, () => '1').join(' add ');
    const error = catchODataError(() => parseExpression(text));
    expect(error.code).toBe('QUERY_LIMIT_EXCEEDED');
    expect(error.message).toContain('limit of 1000');
    expect(parseExpression(Array.from({ length: 1000 }, () => '1').join(' add '))).toMatchObject({ kind: 'Binary' });
  });

  it('refuses a million parentheses at the 101st, and echoes only the start of the text', () => {
    const error = catchODataError(() => parseExpression('('.repeat(1_000_000)));
    expect([error.code, error.position]).toEqual(['QUERY_LIMIT_EXCEEDED', 100]);
    expect(error.message.length).toBeLessThan(400);
  });
});

// ------------------------------------------------------------------------------------------------
// $orderby
// ------------------------------------------------------------------------------------------------

function orderBy(text: string): [string, string][] {
  return parseOrderBy(text).map((item) => [printBraced(item.expression), item.direction]);
}

describe('parseOrderBy', () => {
  it.each([
    [['Name', ' Name ', 'Name asc', 'Name  asc'], [['Name', 'asc']]],
    [['Name desc', '(Name) desc'], [['Name', 'desc']]],
    [
      ['Name desc,Price', 'Name desc, Price', 'Name desc , Price asc'],
      [
        ['Name', 'desc'],
        ['Price', 'asc'],
      ],
    ],
    [
      ['length(Name) desc, Category/Name'],
      [
        ['length(Name)', 'desc'],
        ['Category/Name', 'asc'],
      ],
    ],
    [['Price mul 2 add 1 desc'], [['{{Price mul 2} add 1}', 'desc']]],
    [['asc'], [['asc', 'asc']]],
  ] as const)('%j', (spellings, expected) => {
    for (const text of spellings) expect(orderBy(text)).toEqual(expected);
  });

  it.each([
    ['', 0, 'expected an expression'],
    ['Name desc desc', 10, "expected ',' or 'asc'/'desc'"],
    ['Name,', 5, 'expected an expression'],
    [',Name', 0, "found ','"],
    ['Name DESC', 5, "found 'DESC'"],
    ['Name asc,', 9, 'expected an expression'],
  ])('%j -> FILTER_SYNTAX at %i', (text, position, fragment) => {
    const error = catchODataError(() => parseOrderBy(text));
    expect([error.code, error.position, error.target]).toEqual(['FILTER_SYNTAX', position, '$orderby']);
    expect(error.message).toContain(fragment);
  });

  it('records offsets into the whole $orderby text', () => {
    const [, second] = parseOrderBy('Name desc, Price');
    expect(second.expression.loc).toEqual({ start: 11, end: 16 });
  });
});

describe('printExpression', () => {
  const cases: readonly [ExprNode, string][] = [
    [{ kind: 'Unary', operator: 'negate', operand: { kind: 'Literal', literalType: 'Edm.Int32', value: 5 } }, '- 5'],
    [{ kind: 'Literal', literalType: 'Edm.Double', value: 2 }, '2.0'],
    [{ kind: 'Literal', literalType: 'Edm.Decimal', value: '2.5' }, '2.5M'],
    [{ kind: 'Literal', literalType: 'Edm.Int64', value: '-9223372036854775808' }, '-9223372036854775808L'],
    [{ kind: 'Literal', literalType: 'Edm.String', value: "it's" }, "'it''s'"],
    [{ kind: 'Literal', literalType: null, value: null }, 'null'],
    [{ kind: 'Literal', literalType: 'Edm.DateTime', value: new Date('2000-01-02T03:04:05.006Z') }, "datetime'2000-01-02T03:04:05.006'"],
    [{ kind: 'Call', name: 'isof', args: [{ kind: 'TypeName', name: "O'Neil" }] }, "isof('O''Neil')"],
    [
      {
        kind: 'Binary',
        operator: 'sub',
        left: { kind: 'Member', path: ['a'] },
        right: { kind: 'Binary', operator: 'sub', left: { kind: 'Member', path: ['b'] }, right: { kind: 'Member', path: ['c'] } },
      },
      'a sub (b sub c)',
    ],
    [
      {
        kind: 'Unary',
        operator: 'not',
        operand: { kind: 'Binary', operator: 'and', left: { kind: 'Member', path: ['a'] }, right: { kind: 'Member', path: ['b'] } },
      },
      'not (a and b)',
    ],
  ];

  it.each(cases)('prints %j as %s', (node, text) => {
    expect(printExpression(node)).toBe(text);
    expect(withoutLocations(parseExpression(text))).toEqual(withoutLocations(node));
  });
});
