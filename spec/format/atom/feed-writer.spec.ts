/**
 * Atom feed documents (RFC 4287 §4.1.1): the feed-level elements, and the `atom:author` a feed
 * needs when no entry carries one, i.e. when it has no entries, for an array and a stream alike.
 */
import { writeAtomFeed } from '../../../lib/format';
import type { Entity } from '../../../lib/provider/types';
import type { FeedResult } from '../../../lib/result';
import { ALL, SERVICE_ROOT, UPDATED, context, demo, entitySet, text } from '../support';

const NAMESPACES =
  'xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns="http://www.w3.org/2005/Atom"';

function feed(entities: FeedResult['entities'], count?: number): FeedResult {
  const set = entitySet('Products');
  return {
    kind: 'Feed',
    entitySet: set,
    entityType: set.entityType,
    selfPath: 'Products',
    title: 'Products',
    entities,
    count,
    nextLink: undefined,
    selectExpand: ALL,
  };
}

async function* stream(entities: readonly Entity[]): AsyncIterable<Entity> {
  for (const entity of entities) yield entity;
}

async function written(result: FeedResult): Promise<string> {
  const output = writeAtomFeed(result, context());
  if (typeof output === 'string') return output;
  let out = '';
  for await (const chunk of output) out += chunk;
  return out;
}

describe('writeAtomFeed', () => {
  it('writes the author in an empty expanded feed (m:inline) too, and none in a filled one', async () => {
    const set = entitySet('Categories');
    const products = set.entityType.navigationPropertiesByName.get('Products');
    if (products === undefined) throw new Error('the demo model has no Categories/Products');
    const expand = { select: undefined, expand: [{ property: products, entitySet: entitySet('Products'), select: undefined, expand: [] }] };
    const categories = [
      { ID: 7, Name: 'Empty', Products: [] },
      { ID: 0, Name: 'Food', Products: demo.Products.slice(0, 1) },
    ];
    const out = await written({
      kind: 'Feed',
      entitySet: set,
      entityType: set.entityType,
      selfPath: 'Categories',
      title: 'Categories',
      entities: categories,
      count: undefined,
      nextLink: undefined,
      selectExpand: expand,
    });
    expect(out).toContain(
      `<m:inline><feed><title type="text">Products</title><id>${SERVICE_ROOT}Categories(7)/Products</id><updated>${UPDATED}</updated><author><name/></author><link rel="self" title="Products" href="Categories(7)/Products"/></feed></m:inline>`,
    );
    expect(out).toContain(
      `<m:inline><feed><title type="text">Products</title><id>${SERVICE_ROOT}Categories(0)/Products</id><updated>${UPDATED}</updated><link rel="self"`,
    );
  });

  const EMPTY =
    `<?xml version="1.0" encoding="utf-8" standalone="yes"?><feed xml:base="${SERVICE_ROOT}" ${NAMESPACES}>` +
    `<title type="text">Products</title><id>${SERVICE_ROOT}Products</id><updated>${UPDATED}</updated>` +
    '<author><name/></author><link rel="self" title="Products" href="Products"/></feed>';

  it.each([
    ['an array', () => feed([])],
    ['a stream', () => feed(stream([]))],
  ])('writes <author><name/></author> in a feed without entries (%s), as RFC 4287 §4.1.1 requires', async (_what, result) => {
    expect(await written(result())).toBe(EMPTY);
  });

  it('puts the author before m:count in an empty feed with $inlinecount', async () => {
    const out = await written(feed([], 0));
    expect(out).toContain(
      `<updated>${UPDATED}</updated><author><name/></author><link rel="self" title="Products" href="Products"/><m:count>0</m:count></feed>`,
    );
  });

  it.each([
    ['an array', () => feed(demo.Products.slice(0, 2))],
    ['a stream', () => feed(stream(demo.Products.slice(0, 2)))],
  ])('writes no feed-level author when entries carry theirs (%s)', async (_what, result) => {
    const out = await written(result());
    expect(out).toContain(`<updated>${UPDATED}</updated><link rel="self" title="Products" href="Products"/><entry>`);
    expect(out.split('<author>').length - 1).toBe(2);
    expect(text(writeAtomFeed(feed(demo.Products.slice(0, 2)), context()))).toBe(out);
  });
});
