/**
 * splitFilter: which conjuncts are pushed and which stay as the residual (table), and the split's
 * exactness under three-valued logic: over rows with nulls and missing related entities, the
 * evaluator keeps a row under `pushed and residual` exactly when it keeps it under the filter.
 */
import type { EdmEntityType } from '../../lib/edm/model';
import { compileFilter } from '../../lib/evaluate/evaluate';
import { conjunction, conjuncts, splitFilter, translateFilter } from '../../lib/provider/pushdown';
import type { Entity } from '../../lib/provider/types';
import { checkExpression, parseExpression, printExpression } from '../../lib/uri/expr';
import type { ExprNode } from '../../lib/uri/expr/ast';
import { DEMO_MODEL } from '../helpers/demo';

const Product = DEMO_MODEL.entityTypes.get('ODataDemo.Product') as EdmEntityType;

function filter(text: string): ExprNode {
  return checkExpression(parseExpression(text), Product, DEMO_MODEL, { target: '$filter' });
}

function print(node: ExprNode | undefined): string | undefined {
  return node === undefined ? undefined : printExpression(node);
}

/** A store that translates `eq`, `ne`, `and`, `or`, `not`, literals and plain (non-navigating) properties. */
function simpleStore(node: ExprNode): boolean {
  switch (node.kind) {
    case 'Literal':
      return true;
    case 'Member':
      return node.base === undefined && (node.steps ?? []).every((step) => step.kind === 'Property');
    case 'Binary':
      return ['eq', 'ne', 'and', 'or'].includes(node.operator);
    case 'Unary':
      return node.operator === 'not';
    default:
      return false;
  }
}

describe('translateFilter', () => {
  /** A translator that finds out by trying: it prints a conjunct every node of which the simple store takes, else gives up. */
  const printWhole = (node: ExprNode): string | undefined => (splitFilter(node, simpleStore).residual === undefined ? `[${printExpression(node)}]` : undefined);

  it.each<[string, string[], string | undefined]>([
    // [filter, translations in order, residual]
    ['Rating eq 3', ['[Rating eq 3]'], undefined],
    ['Rating gt 3 and Price gt 10', [], 'Rating gt 3 and Price gt 10'],
    ['Rating eq 3 and Price gt 10 and ID eq 1', ['[Rating eq 3]', '[ID eq 1]'], 'Price gt 10'],
    ["(Rating eq 3 or Price gt 10) and Name ne 'x'", ["[Name ne 'x']"], 'Rating eq 3 or Price gt 10'],
  ])('%s', (text, pushed, residual) => {
    const split = translateFilter(filter(text), printWhole);
    expect(split.pushed).toEqual(pushed.map((part) => `[${printExpression(filter(part.slice(1, -1)))}]`));
    expect(print(split.residual)).toBe(residual === undefined ? undefined : print(filter(residual)));
  });

  it('asks once per top-level conjunct, and keeps the original tree as the residual when nothing translates', () => {
    const asked: string[] = [];
    const none = filter('Rating gt 3 and (ID lt 1 and Price gt 2)');
    const split = translateFilter(none, (node) => {
      asked.push(printExpression(node));
      return undefined;
    });
    expect(asked).toEqual(['Rating gt 3', 'ID lt 1', 'Price gt 2'].map((part) => printExpression(filter(part))));
    expect(split).toEqual({ pushed: [], residual: none });
    expect(split.residual).toBe(none);
    expect(translateFilter(undefined, printWhole)).toEqual({ pushed: [], residual: undefined });
  });
});

describe('splitFilter', () => {
  it.each<[string, string | undefined, string | undefined]>([
    // [filter, pushed, residual]
    ['Rating eq 3', 'Rating eq 3', undefined],
    ['Rating gt 3', undefined, 'Rating gt 3'],
    ['Rating eq 3 and Price gt 10', 'Rating eq 3', 'Price gt 10'],
    ['Price gt 10 and Rating eq 3', 'Rating eq 3', 'Price gt 10'],
    // nested conjunctions flatten, each side keeps its order
    ['(Rating eq 3 and Price gt 10) and (Name eq null and Rating lt 9)', 'Rating eq 3 and Name eq null', 'Price gt 10 and Rating lt 9'],
    ["Rating eq 3 and (Name ne null and (ID eq 1 and startswith(Name, 'B')))", 'Rating eq 3 and Name ne null and ID eq 1', "startswith(Name,'B')"],
    // an `or` or a `not` is one conjunct: never split inside it
    ['Rating eq 3 or Price gt 10', undefined, 'Rating eq 3 or Price gt 10'],
    ['(Rating eq 3 or Price gt 10) and ID eq 1', 'ID eq 1', 'Rating eq 3 or Price gt 10'],
    ['not (Rating eq 3 and Price gt 10)', undefined, 'not (Rating eq 3 and Price gt 10)'],
    ['not (Rating eq 3 and ID eq 1) and Price gt 10', 'not (Rating eq 3 and ID eq 1)', 'Price gt 10'],
    ['(Rating eq 3 and Price gt 10) or ID eq 1', undefined, '(Rating eq 3 and Price gt 10) or ID eq 1'],
    // navigation paths are nodes the store refuses
    ["Category/Name eq 'Food' and Rating eq 3", 'Rating eq 3', "Category/Name eq 'Food'"],
    ["Rating eq 3 or Category/Name eq 'Food'", undefined, "Rating eq 3 or Category/Name eq 'Food'"],
    // null literals and nullable comparisons
    ['Name eq null and DiscontinuedDate eq null', 'Name eq null and DiscontinuedDate eq null', undefined],
    ['Name eq null and length(Name) eq null', 'Name eq null', 'length(Name) eq null'],
  ])('%s', (text, pushed, residual) => {
    const split = splitFilter(filter(text), simpleStore);
    expect(print(split.pushed)).toBe(pushed === undefined ? undefined : print(filter(pushed)));
    expect(print(split.residual)).toBe(residual === undefined ? undefined : print(filter(residual)));
  });

  it('gives no parts for no filter, and the original tree when one side is empty', () => {
    expect(splitFilter(undefined, simpleStore)).toEqual({ pushed: undefined, residual: undefined });
    const all = filter('Rating eq 3 and ID eq 1');
    expect(splitFilter(all, simpleStore).pushed).toBe(all);
    const none = filter('Rating gt 3 and ID lt 1');
    expect(splitFilter(none, simpleStore).residual).toBe(none);
  });

  it('asks about every node of a conjunct, type names and cast bases included', () => {
    const seen: string[] = [];
    splitFilter(filter("isof(Category, 'ODataDemo.Category') and Rating eq 3"), (node) => {
      seen.push(node.kind);
      return true;
    });
    expect(seen).toEqual(['Call', 'Member', 'TypeName', 'Binary', 'Member', 'Literal']);
  });

  it('types the joined parts as Edm.Boolean `and` nodes', () => {
    const joined = conjunction(conjuncts(filter('Rating eq 3 and ID eq 1 and Name eq null')));
    expect(joined).toMatchObject({ kind: 'Binary', operator: 'and', type: { kind: 'Primitive', name: 'Edm.Boolean' } });
    expect(conjunction([])).toBeUndefined();
  });

  describe('is exact under three-valued logic', () => {
    const categories: (Entity | null)[] = [null, { ID: 1, Name: 'Food' }, { ID: 2, Name: null }];
    const rows: Entity[] = [];
    let id = 0;
    for (const name of [null, 'Bread', 'Milk'])
      for (const rating of [1, 3])
        for (const price of ['2.5', '20'])
          for (const category of categories) rows.push({ ID: ++id, Name: name, Rating: rating, Price: price, DiscontinuedDate: null, Category: category });

    it.each([
      "Name eq 'Bread' and Price gt 10",
      "Name ne 'Bread' and length(Name) gt 3",
      "not (Name eq 'Bread' and Price gt 10) and Rating eq 3",
      "(Name eq null or Price gt 10) and Category/Name eq 'Food' and Rating ne 1",
      "Category/Name ne 'Food' and Name ne null and not (Rating eq 1 or length(Name) eq 4)",
      'Name eq null and (Rating gt 1 and (Category/Name eq null and ID ne 5))',
      "not (Category/Name eq 'Food') and Name ne 'Milk'",
    ])('%s', (text) => {
      const original = filter(text);
      const split = splitFilter(original, simpleStore);
      // Each of these leaves something on both sides.
      expect(split.pushed).toBeDefined();
      expect(split.residual).toBeDefined();
      const whole = compileFilter(original);
      const pushed = compileFilter(split.pushed as ExprNode);
      const residual = compileFilter(split.residual as ExprNode);
      const expected = rows.filter(whole).map((row) => row.ID);
      expect(rows.filter((row) => pushed(row) && residual(row)).map((row) => row.ID)).toEqual(expected);
      // The filter keeps some rows and drops some: the comparison can tell a wrong split.
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(rows.length);
    });
  });
});
