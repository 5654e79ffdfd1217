/**
 * Reads of `$links` (MS-ODATA §2.2.3.3 "Resource Path: Links"): the URIs of the entries linked to
 * one entry over a navigation property.
 */
import { printKeyPredicate } from '../edm';
import type { Entity } from '../provider/types';
import type { EntityPath, LinksPath } from '../uri/types';
import type { Handler } from './context';
import { checkCollectionPreconditions } from './preconditions';
import { collect, collectionQuery, type EntityTarget, entityQuery, notFound, providerCount, queryProvider } from './query-request';

/** The linked entries as an entity target: the source path plus one navigation hop. */
function linkedTarget(path: LinksPath): EntityTarget {
  const entityPath: EntityPath = {
    root: path.path.root,
    navigation: [...path.path.navigation, { property: path.navigationProperty, entitySet: path.targetEntitySet, key: path.targetKey }],
  };
  return { path: entityPath, entitySet: path.targetEntitySet, entityType: path.targetEntitySet.entityType };
}

/** GET `$links/Nav`, `$links/Nav(key)` and `$links/Nav/$count`. */
export const readLinks: Handler<LinksPath> = async (context) => {
  const { path } = context;
  if (path.kind !== 'Link') checkCollectionPreconditions(context, `$links/${path.navigationProperty.name}`);
  const source = { path: path.path, entitySet: path.entitySet, entityType: path.entityType };
  // The source must exist even when it has no links: 404 names it, not the navigation property.
  const sourceResult = await queryProvider(context, entityQuery(source, undefined));
  if ((await collect(sourceResult.entities)).length === 0) throw notFound(source);

  const target = linkedTarget(path);
  const uriOf = (entity: Entity): string => `${context.request.serviceRoot}${target.entitySet.name}${printKeyPredicate(target.entityType, entity)}`;

  if (path.kind === 'Link') {
    const result = await queryProvider(context, entityQuery(target, undefined));
    const [entity] = await collect(result.entities);
    if (entity === undefined) throw notFound(target);
    return { result: { kind: 'Link', uri: uriOf(entity) } };
  }
  const wantsCount = context.query.inlineCount === 'allpages' || path.kind === 'LinksCount';
  const result = await queryProvider(context, collectionQuery(target, context.query, wantsCount));
  const entities = await collect(result.entities);
  if (path.kind === 'LinksCount') return { result: { kind: 'Count', count: providerCount(result.count) ?? entities.length } };
  return {
    result: {
      kind: 'Links',
      uris: entities.map(uriOf),
      count: context.query.inlineCount === 'allpages' ? providerCount(result.count) : undefined,
      nextLink: undefined,
    },
  };
};
