/**
 * The meaning of SAP's `search` in the provider kit: which properties it looks in (top-level
 * strings, keys included, complex members and `sap:searchable="false"` left out), the filter AST it
 * builds (exactly the tree the type checker gives for its printed form, so every translator reads
 * it as a `$filter`), and what that filter keeps under the shared evaluator: every term, in at
 * least one property, ignoring case with JavaScript's full Unicode mapping.
 */
import { compileFilter } from '../../lib';
import { defineModel } from '../../lib/edm';
import type { EdmEntityType } from '../../lib/edm/model';
import type { Entity } from '../../lib/provider/types';
import { requestFilter, searchableProperties, searchFilter } from '../../lib';
import { checkFilter, parseExpression, printExpression, withoutLocations } from '../../lib/uri/expr';
import type { ExprNode } from '../../lib/uri/expr/ast';

const SAP = 'http://www.sap.com/Protocols/SAPData';
const unsearchable = { annotationAttributes: [{ namespace: SAP, prefix: 'sap', name: 'searchable', value: 'false' }] } as const;

const model = defineModel({
  namespace: 'S',
  complexTypes: [{ name: 'Address', properties: [{ name: 'City', type: 'Edm.String' }] }],
  entityTypes: [
    {
      name: 'Base',
      key: ['Code'],
      properties: [
        { name: 'Code', type: 'Edm.String', nullable: false },
        { name: 'Rank', type: 'Edm.Int32' },
      ],
    },
    {
      name: 'Item',
      baseType: 'S.Base',
      properties: [
        { name: 'Name', type: 'Edm.String', nullable: false },
        { name: 'Secret', type: 'Edm.String', ...unsearchable },
        { name: 'Address', type: 'S.Address' },
        { name: 'Note', type: 'Edm.String' },
        { name: 'Created', type: 'Edm.DateTime' },
      ],
    },
    { name: 'Special', baseType: 'S.Item', properties: [{ name: 'Extra', type: 'Edm.String' }] },
    { name: 'Counter', key: ['ID'], properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }] },
  ],
  entityContainers: [
    {
      name: 'C',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Items', entityType: 'S.Item' },
        { name: 'Counters', entityType: 'S.Counter' },
      ],
    },
  ],
});
const Item = model.entityTypes.get('S.Item') as EdmEntityType;
const Counter = model.entityTypes.get('S.Counter') as EdmEntityType;

function checked(text: string, type: EdmEntityType = Item): ExprNode {
  return withoutLocations(checkFilter(parseExpression(text), type, model));
}

describe('searchableProperties', () => {
  it('are the top-level strings, inherited key first, without complex members, derived types or sap:searchable="false"', () => {
    expect(searchableProperties(Item).map((property) => property.name)).toEqual(['Code', 'Name', 'Note']);
    expect(searchableProperties(Counter)).toEqual([]);
  });

  it('are computed once per type', () => {
    expect(searchableProperties(Item)).toBe(searchableProperties(Item));
  });
});

describe('searchFilter', () => {
  it.each<[string[], string]>([
    [['Milk'], "substringof('milk', tolower(Code)) or (substringof('milk', tolower(Name)) or substringof('milk', tolower(Note)))"],
    [
      ['Low fat', 'MILK'],
      "(substringof('low fat', tolower(Code)) or (substringof('low fat', tolower(Name)) or substringof('low fat', tolower(Note)))) and (substringof('milk', tolower(Code)) or (substringof('milk', tolower(Name)) or substringof('milk', tolower(Note))))",
    ],
    // Terms equal in lower case count once; the term is lowered as tolower lowers.
    [['ÄPFEL', 'äpfel', 'Äpfel'], "substringof('äpfel', tolower(Code)) or (substringof('äpfel', tolower(Name)) or substringof('äpfel', tolower(Note)))"],
    [['ẞ'], "substringof('ß', tolower(Code)) or (substringof('ß', tolower(Name)) or substringof('ß', tolower(Note)))"],
    [["O'Neil"], "substringof('o''neil', tolower(Code)) or (substringof('o''neil', tolower(Name)) or substringof('o''neil', tolower(Note)))"],
  ])('%j is %s', (terms, text) => {
    const filter = searchFilter(Item, terms);
    if (filter === undefined) throw new Error('no filter');
    expect(printExpression(filter)).toBe(text);
    // The very tree the parser and checker give for that text: a translator cannot tell them apart.
    expect(filter).toEqual(checked(text));
  });

  it('is a balanced tree: 16 terms over 3 properties nest 4 + 2 deep', () => {
    const depth = (node: ExprNode): number => (node.kind === 'Binary' ? 1 + Math.max(depth(node.left), depth(node.right)) : 0);
    const filter = searchFilter(
      Item,
      Array.from({ length: 16 }, (_, i) => `t${i}`),
    );
    expect(filter === undefined ? -1 : depth(filter)).toBe(6);
  });

  it('is undefined for no terms, and false for a type without searchable properties', () => {
    expect(searchFilter(Item, [])).toBeUndefined();
    expect(searchFilter(Counter, ['1'])).toEqual({
      kind: 'Literal',
      literalType: 'Edm.Boolean',
      value: false,
      type: { kind: 'Primitive', name: 'Edm.Boolean' },
    });
  });
});

describe('what a search keeps (the shared evaluator)', () => {
  const rows: Entity[] = [
    { Code: 'A1', Rank: 1, Name: 'Whole grain bread', Secret: 'milk', Address: { City: 'Milkton' }, Note: null },
    { Code: 'B2', Rank: 2, Name: 'Milk', Secret: null, Address: null, Note: 'Low fat milk' },
    { Code: 'C3', Rank: 3, Name: 'Äpfel', Secret: null, Address: null, Note: 'aus dem Garten' },
    { Code: 'D4', Rank: 4, Name: 'Straße', Secret: null, Address: null, Note: '100% pure' },
    { Code: 'milk-5', Rank: 5, Name: 'Soda', Secret: null, Address: null, Note: null },
  ];
  const keeps = (terms: string[]): string[] => {
    const filter = searchFilter(Item, terms);
    const keep = filter === undefined ? () => true : compileFilter(filter);
    return rows.filter(keep).map((row) => row.Code as string);
  };

  it.each<[string[], string[]]>([
    // In any searchable property, the key included; never in Secret or the complex Address.
    [['milk'], ['B2', 'milk-5']],
    [['MILK'], ['B2', 'milk-5']],
    // Every term, each in some property (not necessarily the same one).
    [['milk', 'low'], ['B2']],
    [['milk', 'soda'], ['milk-5']],
    [['milk', 'bread'], []],
    // A phrase is one term: its words next to each other.
    [['low fat'], ['B2']],
    [['fat low'], []],
    // Case ignored beyond ASCII: Ä and ä; ẞ lowers to ß (but SS is not ß).
    [['äpfel'], ['C3']],
    [['ÄPFEL'], ['C3']],
    [['STRAẞE'], ['D4']],
    [['strasse'], []],
    // No wildcards: % and _ are characters.
    [['100%'], ['D4']],
    [['%'], ['D4']],
    [['_'], []],
    [[], ['A1', 'B2', 'C3', 'D4', 'milk-5']],
  ])('%j keeps %j', (terms, codes) => {
    expect(keeps(terms)).toEqual(codes);
  });
});

describe('requestFilter', () => {
  const filter = checked('Rank gt 1');

  it('is the filter, the search, or both joined by and', () => {
    expect(requestFilter({ entityType: Item, filter: undefined, search: undefined })).toBeUndefined();
    expect(requestFilter({ entityType: Item, filter, search: undefined })).toBe(filter);
    expect(requestFilter({ entityType: Item, filter, search: [] })).toBe(filter);
    expect(requestFilter({ entityType: Item, filter: undefined })).toBeUndefined();
    const search = requestFilter({ entityType: Item, filter: undefined, search: ['x'] });
    expect(search === undefined ? '' : printExpression(search)).toBe(
      "substringof('x', tolower(Code)) or (substringof('x', tolower(Name)) or substringof('x', tolower(Note)))",
    );
    const both = requestFilter({ entityType: Item, filter, search: ['x'] });
    expect(both === undefined ? '' : printExpression(both)).toBe(
      "Rank gt 1 and (substringof('x', tolower(Code)) or (substringof('x', tolower(Name)) or substringof('x', tolower(Note))))",
    );
  });
});
