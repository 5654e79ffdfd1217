/**
 * The DataServiceVersion of feeds: the lowest version whose features a page uses, with every page
 * of a server-paged feed at 2.0 (the last one has no next link but answers a `$skiptoken`).
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { loadEdmx } from '../../lib/edm';
import { responseVersion } from '../../lib/handlers/response-version';
import type { ResponseFormat } from '../../lib/protocol';
import type { FeedResult } from '../../lib/result';

const model = loadEdmx(readFileSync(resolve(__dirname, '../fixtures/odata-demo/metadata.xml'), 'utf8'));
function entitySet(name: string) {
  const set = model.entitySets.get(name);
  if (set === undefined) throw new Error(`no entity set ${name}`);
  return set;
}

const categories = entitySet('Categories');

function feed(extra: Partial<FeedResult>): FeedResult {
  return {
    kind: 'Feed',
    entitySet: categories,
    entityType: categories.entityType,
    selfPath: 'Categories',
    title: 'Categories',
    entities: [],
    count: undefined,
    nextLink: undefined,
    selectExpand: { select: undefined, expand: [] },
    ...extra,
  };
}

describe('responseVersion of a feed', () => {
  it.each([
    ['a plain feed', {}, 'json', '1.0'],
    ['a plain feed', {}, 'atom', '1.0'],
    ['a page with a next link', { nextLink: 'http://localhost/odata/Categories?$skiptoken=1' }, 'json', '2.0'],
    ['the last page of a paged feed', { continuation: true }, 'json', '2.0'],
    ['the last page of a paged feed', { continuation: true }, 'atom', '2.0'],
    ['a feed asked for without $skiptoken', { continuation: false }, 'json', '1.0'],
    ['a counted feed', { count: 3 }, 'json', '2.0'],
  ] as const)('%s (%p) in %s is %s', (_what, extra, format, version) => {
    expect(responseVersion(feed(extra), format as ResponseFormat)).toBe(version);
  });
});
