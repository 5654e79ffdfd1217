/**
 * Totality: every parser ends in a result or a 4xx with a message, in bounded time. Random strings
 * and token soups into the parser, checker and evaluator never throw anything but a 4xx ODataError,
 * never hang, and every tree that parses prints back to itself.
 */
import { ODataError } from '../../../lib/errors';
import { compileFilter } from '../../../lib/provider/evaluate';
import type { Entity } from '../../../lib/provider/types';
import { checkExpression, checkFilter, parseExpression, parseOrderBy, printExpression } from '../../../lib/uri/expr';
import { demoModel, Product, withoutLoc } from './support';
import { seededRandom } from '../../helpers/random';

const random = seededRandom;

const CHARACTERS = "abcdeINFNaNXLMdf0123456789 '()/,-.+:_\t%#@éß\u{1F600}";
const TOKENS = [
  'Price', 'Name', 'Rating', 'ID', 'ReleaseDate', 'DiscontinuedDate', 'Category/Name', 'Category', 'Supplier/Address/City', 'Nope',
  'eq', 'ne', 'lt', 'le', 'gt', 'ge', 'and', 'or', 'not', 'add', 'sub', 'mul', 'div', 'mod', 'asc', 'desc', 'GT',
  '(', ')', ',', '/', '-', '- ',
  '0', '1', '-1', '2.5', '2.5M', '0M', '12L', '1E400', '2147483648', 'INF', '-INF', 'NaN', 'null', 'true', 'false', "'x'", "'", "''", "'O''Neil'",
  "datetime'2000-01-01T00:00'", "datetime'bad'", "guid'01234567-89ab-cdef-0123-456789abcdef'", "X'0A'", "time'PT1H'",
  'substringof', 'startswith', 'endswith', 'length', 'indexof', 'replace', 'substring', 'tolower', 'toupper', 'trim', 'concat',
  'year', 'month', 'day', 'hour', 'minute', 'second', 'round', 'floor', 'ceiling', 'isof', 'cast', 'nosuch',
  "'Edm.Int32'", "'Edm.Decimal'", "'ODataDemo.Product'", "'Edm.String'", 'ODataDemo.Product',
];

function randomString(next: () => number): string {
  const chars = [...CHARACTERS];
  const length = Math.floor(next() * 60);
  let text = '';
  for (let i = 0; i < length; i++) text += chars[Math.floor(next() * chars.length)];
  return text;
}

function tokenSoup(next: () => number): string {
  const count = 1 + Math.floor(next() * 25);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(TOKENS[Math.floor(next() * TOKENS.length)]);
  return parts.join(next() < 0.8 ? ' ' : '');
}

const PRODUCTS: Entity[] = [
  { ID: 0, Name: 'Bread', Description: null, ReleaseDate: new Date('1992-01-01T00:00:00Z'), DiscontinuedDate: null, Rating: 4, Price: '2.5', Category: { ID: 0, Name: 'Food' } },
  { ID: 1, Name: null, Description: 'x', ReleaseDate: new Date('1995-10-01T00:00:00Z'), DiscontinuedDate: new Date('2006-10-01T00:00:00Z'), Rating: 0, Price: '0', Category: null },
];

/** Run the whole chain; return the stage that refused the text (or 'evaluated'). */
function run(text: string): string {
  let tree;
  try {
    tree = parseExpression(text);
  } catch (error) {
    expectClientError(error, text);
    return 'parse';
  }
  expect(withoutLoc(parseExpression(printExpression(tree)))).toEqual(withoutLoc(tree));
  let checked;
  try {
    checked = checkFilter(tree, Product, demoModel);
  } catch (error) {
    expectClientError(error, text);
    return 'check';
  }
  try {
    PRODUCTS.filter(compileFilter(checked));
  } catch (error) {
    expectClientError(error, text);
    expect((error as ODataError).code).toBe('FILTER_DIVISION_BY_ZERO');
  }
  return 'evaluated';
}

function expectClientError(error: unknown, text: string): void {
  if (!(error instanceof ODataError) || error.status < 400 || error.status > 499) {
    throw new Error(`${JSON.stringify(text)} threw ${String(error)}${error instanceof Error ? '\n' + error.stack : ''}`);
  }
}

describe('fuzz: the expression pipeline is total', () => {
  it.each([
    ['random strings', randomString, 1],
    ['token soups', tokenSoup, 2],
    ['token soups (second seed)', tokenSoup, 3],
  ] as const)('%s: 3000 inputs, each answered fast with a result or a 4xx', (_name, generate, seed) => {
    const next = random(seed);
    const stages = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const text = generate(next);
      const started = Date.now();
      const stage = run(text);
      expect(Date.now() - started).toBeLessThan(200);
      stages.set(stage, (stages.get(stage) ?? 0) + 1);
    }
    // The generator must reach every stage, or the test proves little.
    expect(stages.get('parse')).toBeGreaterThan(0);
    if (generate === tokenSoup) {
      expect(stages.get('check')).toBeGreaterThan(0);
      expect(stages.get('evaluated')).toBeGreaterThan(0);
    }
  });

  it('$orderby: token soups give items or a 4xx', () => {
    const next = random(4);
    for (let i = 0; i < 2000; i++) {
      const text = tokenSoup(next);
      try {
        for (const item of parseOrderBy(text)) checkExpression(item.expression, Product, demoModel);
      } catch (error) {
        expectClientError(error, text);
      }
    }
  });

  it('long inputs finish quickly', () => {
    const inputs = [
      'Name eq ' + "'" + 'x'.repeat(200_000) + "'",
      'a'.repeat(200_000),
      '('.repeat(50) + 'Price gt 1' + ')'.repeat(50) + ' and '.repeat(1000),
      Array.from({ length: 700 }, (_, i) => `ID eq ${i}`).join(' or '),
      "'".repeat(100_001),
      '-'.repeat(100_000),
    ];
    for (const text of inputs) {
      const started = Date.now();
      run(text);
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });
});
