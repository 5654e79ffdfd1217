/**
 * The key conditions of batched reads: `keyCondition` selects exactly the entity with a key
 * (composite keys too), `anyOf` is a balanced `or` whose depth grows with log2 of its terms, and
 * the pair, compiled by the shared evaluator, keeps exactly the entities whose keys were listed.
 */
import { compileFilter } from '../../lib';
import { defineModel } from '../../lib/edm';
import type { EdmEntityType } from '../../lib/edm/model';
import { anyOf, FALSE, keyCondition } from '../../lib/provider/nodes';
import type { ExprNode } from '../../lib/uri/expr/ast';
import { printExpression } from '../../lib/uri/expr';

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
    { name: 'Item', key: ['ID'], properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }] },
  ],
  entityContainers: [
    {
      name: 'C',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Lines', entityType: 'Nodes.Line' },
        { name: 'Items', entityType: 'Nodes.Item' },
      ],
    },
  ],
});
const Line = model.entityTypes.get('Nodes.Line') as EdmEntityType;
const Item = model.entityTypes.get('Nodes.Item') as EdmEntityType;

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
