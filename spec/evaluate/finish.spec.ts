/**
 * finishQuery: what a provider's `QueryResult.applied` leaves undone, the service finishes exactly
 * (residual, skiptoken, order, skip/top, count) and no more; in order it stops reading a streamed
 * result after the page; an `applied` that cannot be right is a TypeError (a provider bug, 500).
 */
import type { EdmEntitySet, EdmEntityType } from '../../lib/edm/model';
import { applyQuery, finishQuery } from '../../lib/evaluate/evaluate';
import type { Entity, QueryApplied, QueryRequest } from '../../lib/provider/types';
import type { SkipTokenPosition } from '../../lib/uri/types';
import { withKeyTieBreaker } from '../../lib/uri';
import { checkExpression, parseExpression } from '../../lib/uri/expr';
import { DEMO_MODEL } from '../helpers/demo';

const Product = DEMO_MODEL.entityTypes.get('ODataDemo.Product') as EdmEntityType;
const Products = DEMO_MODEL.entitySets.get('Products') as EdmEntitySet;
const ROWS: Entity[] = Array.from({ length: 20 }, (_, i) => ({ ID: i + 1, Name: i % 3 === 0 ? null : `P${i % 5}`, Rating: i % 4, Price: String(i) }));

function request(options: { filter?: string; orderBy?: string; skip?: number; top?: number; skipToken?: number; count?: boolean }): QueryRequest {
  const orderBy = withKeyTieBreaker(
    options.orderBy === undefined ? [] : [{ expression: checkExpression(parseExpression(options.orderBy), Product, DEMO_MODEL), direction: 'desc' as const }],
    Product,
  );
  return {
    entitySet: Products,
    entityType: Product,
    path: { root: { entitySet: Products, key: undefined }, navigation: [] },
    single: false,
    filter: options.filter === undefined ? undefined : checkExpression(parseExpression(options.filter), Product, DEMO_MODEL, { target: '$filter' }),
    orderBy,
    skip: options.skip,
    top: options.top,
    skipToken: options.skipToken === undefined ? undefined : { orderByValues: [], key: { ID: options.skipToken } },
    selectExpand: { select: undefined, expand: [] },
    count: options.count ?? false,
    customOptions: {},
  };
}

/** An async iterable over `rows` that records how many were read. */
function streamed(rows: readonly Entity[]): { entities: AsyncIterable<Entity>; read: () => number } {
  let read = 0;
  return {
    entities: (async function* () {
      for (const row of rows) {
        read++;
        yield row;
      }
    })(),
    read: () => read,
  };
}

async function ids(entities: readonly Entity[] | AsyncIterable<Entity>): Promise<unknown[]> {
  const list: unknown[] = [];
  for await (const entity of entities) list.push(entity.ID);
  return list;
}

describe('finishQuery', () => {
  it.each([
    { filter: "Name eq 'P1' or Rating gt 1", top: 3 },
    { filter: 'Rating gt 1', skip: 2, top: 3, count: true },
    { filter: 'Rating gt 1', skipToken: 6, top: 4 },
    { filter: 'Rating gt 1', count: true },
    { filter: 'Name eq null', top: 0, count: true },
  ])('finishes %j over ordered, unordered, array and streamed results as applyQuery does', async (options) => {
    const asked = request(options);
    const expected = applyQuery(ROWS, asked);
    const residual = asked.filter;
    const ordered: QueryApplied = { residual, orderBy: true, skipToken: false, skipTop: false };
    const unordered: QueryApplied = { residual, orderBy: false, skipToken: false, skipTop: false };
    for (const [entities, applied] of [
      [ROWS, ordered],
      [streamed(ROWS).entities, ordered],
      [[...ROWS].reverse(), unordered],
      [streamed([...ROWS].reverse()).entities, unordered],
    ] as const) {
      const result = await finishQuery(asked, { entities, applied });
      expect(await ids(result.entities)).toEqual(expected.entities.map((row) => row.ID));
      expect(result.count).toBe(expected.count);
    }
  });

  it('stops reading an ordered stream after the page, and reads it all for a count', async () => {
    const page = streamed(ROWS);
    const result = await finishQuery(request({ filter: 'Rating eq 1', top: 2 }), {
      entities: page.entities,
      applied: { residual: request({ filter: 'Rating eq 1' }).filter, orderBy: true, skipToken: true, skipTop: false },
    });
    expect(await ids(result.entities)).toEqual([2, 6]);
    expect(page.read()).toBe(6);
    const counted = streamed(ROWS);
    const withCount = await finishQuery(request({ filter: 'Rating eq 1', top: 2, count: true }), {
      entities: counted.entities,
      applied: { residual: request({ filter: 'Rating eq 1' }).filter, orderBy: true, skipToken: true, skipTop: false },
    });
    expect([await ids(withCount.entities), withCount.count, counted.read()]).toEqual([[2, 6], 5, 20]);
  });

  // Stand-ins for a store's finer positions (a microsecond timestamp): each entity's position is
  // its ID doubled, so after the skiptoken ID 6 come the IDs from 4 by position, from 7 by value.
  const doubled = (entity: Entity): SkipTokenPosition => ({ orderByValues: [(entity.ID as number) * 2], key: { ID: (entity.ID as number) * 2 } });
  it.each<[string, boolean, ((entity: Entity) => SkipTokenPosition | undefined) | undefined, number]>([
    ['on the provider positions, in its order', true, doubled, 4],
    ['on the entity, for an entity without a position', true, () => undefined, 7],
    ['on the entity, without positionOf', true, undefined, 7],
    ['on the entity, in the order the service sorts by', false, doubled, 7],
  ])('applies the skiptoken %s', async (_how, orderBy, positionOf, first) => {
    const asked = request({ skipToken: 6, top: 3, count: true });
    const result = await finishQuery(asked, { entities: ROWS, positionOf, applied: { residual: undefined, orderBy, skipToken: false, skipTop: false } });
    expect([await ids(result.entities), result.count]).toEqual([[first, first + 1, first + 2], 20]);
    // In the provider's order its positions are the result's too: the next link is written from them.
    if (orderBy) expect(result.positionOf).toBe(positionOf);
  });

  it('reaches related entities and types through `access`, and gives positions through it when it sorts', async () => {
    const categories = new Map(ROWS.map((row) => [row, { ID: (row.ID as number) % 2, Name: (row.ID as number) % 2 === 0 ? 'Food' : 'Beverages' }]));
    const navigate = (entity: Entity): Entity | null => categories.get(entity) ?? null;
    const asked = request({ filter: "Category/Name eq 'Food'", orderBy: 'Category/Name', top: 2 });
    const applied: QueryApplied = { residual: asked.filter, orderBy: false, skipToken: true, skipTop: false };
    const result = await finishQuery(asked, { entities: [...ROWS].reverse(), applied }, { navigate });
    expect(await ids(result.entities)).toEqual([2, 4]);
    expect(result.positionOf?.(ROWS[3])).toEqual({ orderByValues: ['Food', 4], key: { ID: 4 } });
    // Without `access` the entities hold no Category: none passes, and the service finds positions itself.
    const bare = await finishQuery(asked, { entities: ROWS, applied });
    expect([await ids(bare.entities), bare.positionOf]).toEqual([[], undefined]);
  });

  it('returns a result without `applied` as it is', async () => {
    const result = { entities: ROWS, count: 7 };
    expect(await finishQuery(request({ filter: 'Rating gt 1', top: 2 }), result)).toBe(result);
  });

  it.each<[string, Parameters<typeof request>[0], QueryApplied, number | undefined]>([
    ['skip and top before the residual', { filter: 'Rating gt 1', top: 2 }, { residual: undefined, orderBy: false, skipToken: true, skipTop: true }, undefined],
    [
      'skip and top before the residual',
      { filter: 'Rating gt 1', top: 2 },
      { residual: parseExpression('true'), orderBy: true, skipToken: true, skipTop: true },
      undefined,
    ],
    [
      'a count with a residual',
      { filter: 'Rating gt 1', count: true },
      { residual: parseExpression('true'), orderBy: true, skipToken: true, skipTop: false },
      3,
    ],
    ['the service must count', { skipToken: 4, count: true }, { residual: undefined, orderBy: true, skipToken: true, skipTop: false }, undefined],
    ['the service must count', { top: 4, count: true }, { residual: undefined, orderBy: true, skipToken: true, skipTop: true }, undefined],
  ])('an impossible applied (%s) is a TypeError', async (why, options, applied, count) => {
    await expect(finishQuery(request(options), { entities: ROWS, applied, count })).rejects.toThrow(
      new RegExp(`QueryResult.applied is inconsistent: .*${why.split(' ')[0]}`),
    );
  });
});
