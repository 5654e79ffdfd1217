/**
 * Totality: every parser ends in a result or a 4xx with a message. Random strings and token soups
 * into the parser, checker and evaluator never throw anything but a 4xx ODataError, never hang (a
 * hang fails on jest's timeout), and every tree that parses prints back to itself. How long the
 * long inputs take, against ordinary ones of the same length, is `npm run bench:bounds`.
 */
import { ODataError } from '../../../lib/errors';
import { compileFilter } from '../../../lib/evaluate/evaluate';
import type { Entity } from '../../../lib/provider/types';
import { checkExpression, checkFilter, parseExpression, parseOrderBy, printExpression } from '../../../lib/uri/expr';
import { demoModel, Product, withoutLoc } from './support';
import { seededRandom } from '../../helpers/random';
import { randomString, tokenSoup } from './fuzz-corpus';

const random = seededRandom;

const PRODUCTS: Entity[] = [
  {
    ID: 0,
    Name: 'Bread',
    Description: null,
    ReleaseDate: new Date('1992-01-01T00:00:00Z'),
    DiscontinuedDate: null,
    Rating: 4,
    Price: '2.5',
    Category: { ID: 0, Name: 'Food' },
  },
  {
    ID: 1,
    Name: null,
    Description: 'x',
    ReleaseDate: new Date('1995-10-01T00:00:00Z'),
    DiscontinuedDate: new Date('2006-10-01T00:00:00Z'),
    Rating: 0,
    Price: '0',
    Category: null,
  },
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
  ] as const)('%s: 3000 inputs, each answered with a result or a 4xx', (_name, generate, seed) => {
    const next = random(seed);
    const stages = new Map<string, number>();
    for (let i = 0; i < 3000; i++) {
      const text = generate(next);
      const stage = run(text);
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

  it.each([
    ['a 200,000-character string literal', 'Name eq ' + "'" + 'x'.repeat(200_000) + "'", 'evaluated'],
    ['a 200,000-character name', 'a'.repeat(200_000), 'check'],
    ['50 parentheses and 1,000 dangling ands', '('.repeat(50) + 'Price gt 1' + ')'.repeat(50) + ' and '.repeat(1000), 'parse'],
    ['700 comparisons joined by or', Array.from({ length: 700 }, (_, i) => `ID eq ${i}`).join(' or '), 'evaluated'],
    ['100,001 quotes', "'".repeat(100_001), 'parse'],
    ['100,000 minus signs', '-'.repeat(100_000), 'parse'],
  ])('long inputs end in a result or a 4xx: %s (%#)', (_name, text, stage) => {
    expect(run(text)).toBe(stage);
  });
});
