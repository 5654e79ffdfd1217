/** Builders for the typed paths and expand trees the URI layer would hand a provider. */
import type { EdmModel } from '../../../lib/edm/model';
import type { QueryRequest } from '../../../lib/provider/types';
import { parseQueryOptions, parseResourcePath, withKeyTieBreaker } from '../../../lib/uri';
import type { EntityKey, EntityPath, ExpandItem, SelectExpand, Selection } from '../../../lib/uri/types';
import { setOf } from './models';

/** `Customers(2)/Orders(...)/Lines`: a root set with an optional key, then `[navigation, key?]` hops. */
export function pathOf(model: EdmModel, root: string, key: EntityKey | undefined, ...hops: [string, EntityKey?][]): EntityPath {
  let entitySet = setOf(model, root);
  const navigation = hops.map(([name, hopKey]) => {
    const property = entitySet.entityType.navigationPropertiesByName.get(name);
    if (property === undefined) throw new Error(`no navigation property ${name}`);
    const target = model.navigationTarget(entitySet, property);
    if (target === undefined) throw new Error(`no target for ${name}`);
    entitySet = target;
    return { property, entitySet: target, key: hopKey };
  });
  if (key !== undefined) return { root: { entitySet: setOf(model, root), key }, navigation };
  if (navigation.length > 0) throw new Error('navigation starts from one entity: give the root a key');
  return { root: { entitySet: setOf(model, root), key: undefined }, navigation: [] };
}

/** An expand tree: navigation name to its own tree, or to `{ $select, $expand }`. */
export interface ExpandSpec {
  readonly [navigation: string]: ExpandSpec | SelectedSpec;
}

/** A level with a `$select` list. */
interface SelectedSpec {
  readonly $select: readonly string[];
  readonly $expand?: ExpandSpec;
}

function isSelected(spec: ExpandSpec | SelectedSpec): spec is SelectedSpec {
  return Array.isArray(spec.$select);
}

function selection(names: readonly string[] | undefined): Selection | undefined {
  if (names === undefined) return undefined;
  return { allProperties: names.includes('*'), properties: new Set(names.filter((n) => n !== '*')), navigationProperties: new Set() };
}

/** `$select`/`$expand` for a set from a compact spec. */
export function selectExpandOf(model: EdmModel, setName: string, spec: ExpandSpec = {}, select?: readonly string[]): SelectExpand {
  const entitySet = setOf(model, setName);
  const expand: ExpandItem[] = Object.entries(spec).map(([name, inner]) => {
    const property = entitySet.entityType.navigationPropertiesByName.get(name);
    const target = property === undefined ? undefined : model.navigationTarget(entitySet, property);
    if (property === undefined || target === undefined) throw new Error(`cannot expand ${name}`);
    const level = isSelected(inner) ? selectExpandOf(model, target.name, inner.$expand, inner.$select) : selectExpandOf(model, target.name, inner);
    return { property, entitySet: target, ...level };
  });
  return { select: selection(select), expand };
}

const LIMITS = { maxExpandDepth: 10, maxExpandBreadth: 20, maxFilterLength: 2000, maxFilterDepth: 50, maxSearchTerms: 20 };

/** The QueryRequest the service would hand a provider for a collection URL (relative to the service root). */
export function requestOf(model: EdmModel, url: string): QueryRequest {
  const [pathText, query = ''] = url.split('?');
  const path = parseResourcePath(pathText, model);
  if (!('path' in path)) throw new Error(`not an entity path: ${url}`);
  const options = parseQueryOptions(query, path, model, LIMITS);
  return {
    entitySet: path.entitySet,
    entityType: path.entityType,
    path: path.path,
    single: false,
    filter: options.filter,
    orderBy: withKeyTieBreaker(options.orderBy, path.entityType),
    skip: options.skip,
    top: options.top,
    skipToken: options.skipToken,
    selectExpand: options.selectExpand,
    count: options.inlineCount === 'allpages',
    customOptions: options.custom,
  };
}
