/**
 * The traversals offered to provider authors, including the worked example of docs/query-options.md:
 * translating a checked $filter into an SQL WHERE clause with `foldExpression`.
 */
import {
  checkFilter,
  childrenOf,
  foldExpression,
  parseExpression,
  printBraced,
  transformExpression,
  walkExpression,
  type ExpressionFolder,
} from '../../../lib/uri/expr';
import type { ExprNode } from '../../../lib/uri/expr/ast';
import { demoModel, Product } from './support';

describe('walkExpression', () => {
  it('visits parents before children, with per-kind callbacks', () => {
    const seen: string[] = [];
    walkExpression(parseExpression("substringof('a', Name) and not (Price gt -1)"), {
      enter: (node) => void seen.push(`enter ${node.kind}`),
      leave: (node) => void seen.push(`leave ${node.kind}`),
      Member: (node) => void seen.push(`member ${node.path.join('/')}`),
      Literal: (node) => void seen.push(`literal ${String(node.value)}`),
      Call: (node, parent) => void seen.push(`call ${node.name} in ${parent?.kind}`),
    });
    expect(seen).toEqual([
      'enter Binary',
      'enter Call',
      'call substringof in Binary',
      'enter Literal',
      'literal a',
      'leave Literal',
      'enter Member',
      'member Name',
      'leave Member',
      'leave Call',
      'enter Unary',
      'enter Binary',
      'enter Member',
      'member Price',
      'leave Member',
      'enter Literal',
      'literal -1',
      'leave Literal',
      'leave Binary',
      'leave Unary',
      'leave Binary',
    ]);
  });

  it('skips the children of a node when enter returns false', () => {
    const kinds: string[] = [];
    walkExpression(parseExpression('length(Name) eq 1'), { enter: (node) => (kinds.push(node.kind), node.kind !== 'Call') });
    expect(kinds).toEqual(['Binary', 'Call', 'Literal']);
  });

  it('lists children, including the base of a cast path', () => {
    const member = parseExpression("cast('NS.T')/A");
    expect(childrenOf(member).map((c) => c.kind)).toEqual(['Call']);
  });
});

describe('transformExpression', () => {
  it('replaces nodes bottom-up and keeps untouched subtrees', () => {
    const tree = parseExpression('Price gt 1 and Rating eq 2');
    const renamed = transformExpression(tree, (node) => (node.kind === 'Member' && node.path[0] === 'Rating' ? { ...node, path: ['Stars'] } : node));
    expect(printBraced(renamed)).toBe('{{Price gt 1} and {Stars eq 2}}');
    expect(renamed.kind === 'Binary' && tree.kind === 'Binary' && renamed.left).toBe(tree.kind === 'Binary' && tree.left);
    expect(transformExpression(tree, (node) => node)).toBe(tree);
  });
});

// ------------------------------------------------------------------------------------------------
// The worked example: a provider translating the typed AST to SQL (docs/query-options.md).
// ------------------------------------------------------------------------------------------------

interface SqlWhere {
  readonly sql: string;
  readonly parameters: unknown[];
}

/** Translate a type-checked $filter into a parameterised WHERE clause (PostgreSQL flavour). */
function toSqlWhere(filter: ExprNode): SqlWhere {
  const parameters: unknown[] = [];
  const parameter = (value: unknown): string => {
    parameters.push(value);
    return `$${parameters.length}`;
  };
  const BINARY: Record<string, string> = {
    and: 'AND',
    or: 'OR',
    eq: '=',
    ne: '<>',
    lt: '<',
    le: '<=',
    gt: '>',
    ge: '>=',
    add: '+',
    sub: '-',
    mul: '*',
    div: '/',
    mod: '%',
  };
  const folder: ExpressionFolder<string> = {
    Literal: (node) => (node.value === null ? 'NULL' : parameter(node.value)),
    Member: (node) => {
      // Navigation steps name a joined table; the last step is the column.
      const steps = node.steps ?? [];
      if (steps.some((step) => step.kind === 'Dynamic')) throw new Error('dynamic properties are not stored in columns');
      return node.path.map((name) => `"${name}"`).join('.');
    },
    Binary: (node, left, right) => {
      // OData `X eq null` is SQL `X IS NULL` (= NULL would never be true).
      if ((node.operator === 'eq' || node.operator === 'ne') && (left === 'NULL' || right === 'NULL')) {
        const operand = left === 'NULL' ? right : left;
        return `(${operand} IS ${node.operator === 'eq' ? '' : 'NOT '}NULL)`;
      }
      return `(${left} ${BINARY[node.operator]} ${right})`;
    },
    Unary: (node, operand) => (node.operator === 'not' ? `(NOT ${operand})` : `(-${operand})`),
    Call: (node, args) => {
      switch (node.name) {
        case 'substringof':
          return `(strpos(${args[1]}, ${args[0]}) > 0)`;
        case 'startswith':
          return `(${args[0]} LIKE ${args[1]} || '%')`;
        case 'tolower':
          return `lower(${args[0]})`;
        case 'year':
          return `extract(year from ${args[0]})`;
        default:
          throw new Error(`${node.name} is not translated; evaluate it in memory instead`);
      }
    },
    TypeName: (node) => node.name,
  };
  return { sql: foldExpression(filter, folder), parameters };
}

describe('foldExpression: the SQL translation example', () => {
  const sql = (text: string): SqlWhere => toSqlWhere(checkFilter(parseExpression(text), Product, demoModel));

  it.each([
    ["Price gt 20 and substringof('soda', tolower(Name))", '(("Price" > $1) AND (strpos(lower("Name"), $2) > 0))', [20, 'soda']],
    ['Price le 200.5 or DiscontinuedDate eq null', '(("Price" <= $1) OR ("DiscontinuedDate" IS NULL))', ['200.5']],
    ["not (Category/Name ne 'Food')", '(NOT ("Category"."Name" <> $1))', ['Food']],
    ['year(ReleaseDate) eq 2005 and -Rating lt -3', '((extract(year from "ReleaseDate") = $1) AND ((-"Rating") < $2))', [2005, -3]],
  ])('%s', (text, where, parameters) => {
    expect(sql(text)).toEqual({ sql: where, parameters });
  });

  it('keeps Decimal literals exact (the checker re-read 200.5 as a Decimal string)', () => {
    expect(sql('Price eq 0.30000000000000000001').parameters).toEqual(['0.30000000000000000001']);
  });
});
