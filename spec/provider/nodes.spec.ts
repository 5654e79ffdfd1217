/**
 * The key conditions of batched reads: `keyCondition` selects exactly the entity with a key
 * (composite keys too), `anyOf` is a balanced `or` whose depth grows with log2 of its terms, and
 * the pair, compiled by the shared evaluator, keeps exactly the entities whose keys were listed;
 * `keysOfCondition` reads such a list of keys back out of a filter, and refuses anything else.
 */
import { compileFilter } from '../../lib';
import { defineModel } from '../../lib/edm';
import type { EdmEntityType } from '../../lib/edm/model';
import { anyOf, FALSE, keyCondition, keysOfCondition } from '../../lib/provider/nodes';
import type { ExprNode } from '../../lib/uri/expr/ast';
import { checkFilter, parseExpression, printExpression } from '../../lib/uri/expr';

const model = defineModel({
  namespace: 'Nodes',
  entityTypes: [
    {
      name: 'Line',
      key: ['Order', 'Code'],
      properties: [
        { name: 'Order', type: 'Edm.Int64', nullable: false },
        { name: 'Code', type: 'Edm.String', nullable: false },
      ],
    },
    {
      name: 'Item',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Rank', type: 'Edm.Int32' },
      ],
    },
    { name: 'Reading', key: ['At'], properties: [{ name: 'At', type: 'Edm.DateTime', nullable: false }] },
  ],
  entityContainers: [
    {
      name: 'C',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Lines', entityType: 'Nodes.Line' },
        { name: 'Items', entityType: 'Nodes.Item' },
        { name: 'Readings', entityType: 'Nodes.Reading' },
      ],
    },
  ],
});
const Line = model.entityTypes.get('Nodes.Line') as EdmEntityType;
const Item = model.entityTypes.get('Nodes.Item') as EdmEntityType;
const Reading = model.entityTypes.get('Nodes.Reading') as EdmEntityType;

function depth(node: ExprNode): number {
  return node.kind === 'Binary' ? 1 + Math.max(depth(node.left), depth(node.right)) : 0;
}

describe('keyCondition', () => {
  it.each([
    [Item, { ID: 7 }, 'ID eq 7'],
    [Line, { Order: '9007199254740993', Code: "O'Neil" }, "Order eq 9007199254740993L and Code eq 'O''Neil'"],
  ] as const)('%#: %j is %s', (type, key, text) => {
    expect(printExpression(keyCondition(type, key))).toBe(text);
  });
});

describe('anyOf', () => {
  it('is false for no condition and the condition itself for one', () => {
    expect(anyOf([])).toBe(FALSE);
    const one = keyCondition(Item, { ID: 1 });
    expect(anyOf([one])).toBe(one);
  });

  it.each([
    [2, 1],
    [3, 2],
    [100, 7],
    [1000, 10],
  ])('of %i conditions nests %i or deep', (count, expected) => {
    const condition = anyOf(Array.from({ length: count }, (_, id) => keyCondition(Item, { ID: id })));
    expect(depth(condition)).toBe(expected + 1);
  });

  it('keeps exactly the entities whose composite keys it lists, in the shared evaluator', () => {
    const lines = [];
    for (const order of ['1', '2', '9007199254740993']) for (const code of ['a', 'A', "O'Neil"]) lines.push({ Order: order, Code: code });
    const wanted = [lines[0], lines[4], lines[8]];
    const keep = compileFilter(anyOf(wanted.map((key) => keyCondition(Line, key))));
    expect(lines.filter((line) => keep(line))).toEqual(wanted);
  });
});

describe('keysOfCondition', () => {
  const keysOf = (type: EdmEntityType, filter: string) => keysOfCondition(checkFilter(parseExpression(filter), type, model), type);

  it.each([
    [Item, 'ID eq 7', [{ ID: 7 }]],
    [Item, '7 eq ID', [{ ID: 7 }]],
    [Item, 'ID eq 1 or ID eq 2 or ID eq 1', [{ ID: 1 }, { ID: 2 }, { ID: 1 }]],
    [Item, '(ID eq 1 or ID eq 2) or (ID eq 3 or ID eq 4)', [{ ID: 1 }, { ID: 2 }, { ID: 3 }, { ID: 4 }]],
    [Line, "Order eq 1L and Code eq 'a'", [{ Order: '1', Code: 'a' }]],
    [
      Line,
      "Code eq 'b' and Order eq 2L or Order eq 1L and Code eq 'a'",
      [
        { Code: 'b', Order: '2' },
        { Order: '1', Code: 'a' },
      ],
    ],
  ] as const)('%#: %s is a list of keys', (type, filter, keys) => {
    expect(keysOf(type, filter)).toEqual(keys);
  });

  it.each([
    [Item, 'ID ne 7', 'another operator'],
    [Item, 'ID eq 7 or ID gt 9', 'one disjunct is no key condition'],
    [Item, 'ID eq 7 or Rank eq 9', 'a property that is not the key'],
    [Item, 'ID eq 7 and Rank eq 9', 'a conjunct beside the key'],
    [Item, 'ID eq 7 and ID eq 8', 'a key property twice'],
    [Item, 'not (ID eq 7)', 'not'],
    [Item, 'ID eq null', 'null'],
    [Item, 'ID eq Rank', 'no literal'],
    [Item, 'ID add 0 eq 7', 'an expression of the key'],
    [Item, 'true', 'a constant'],
    [Line, 'Order eq 1L', 'a composite key in part'],
    [Line, 'Order eq 1', 'a literal of another type than the key (Int32 for Int64)'],
    [Reading, "At eq datetime'2020-01-01T00:00'", 'a key type whose eq is not identity (DateTime)'],
  ] as const)('%#: %s is not (%s)', (type, filter, _why) => {
    expect(keysOf(type, filter)).toBeUndefined();
  });

  it('reads back the keys anyOf and keyCondition put in, composite and in their order', () => {
    const keys = Array.from({ length: 100 }, (_, i) => ({ Order: String(i * 7), Code: `c${i % 3}` }));
    expect(keysOfCondition(anyOf(keys.map((key) => keyCondition(Line, key))), Line)).toEqual(keys);
  });
});
