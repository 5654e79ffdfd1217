/**
 * Writes of `$links` (MS-ODATA §2.2.7.1.2 "InsertLink", §2.2.7.3.5 "UpdateLink", §2.2.7.4.2
 * "DeleteLink"): POST adds a link to a many-valued navigation property, PUT replaces a
 * single-valued one, DELETE removes one. Cardinality is the provider's to enforce.
 */
import { ODataError } from '../errors';
import type { EntityReference } from '../provider/types';
import type { ResourcePath } from '../uri/types';
import type { Handler, HandlerContext } from './context';
import { readLinkBody } from './body';
import { keyOf } from './update';

type LinksPath = Extract<ResourcePath, { kind: 'Links' | 'Link' | 'LinksCount' }>;

async function sourceOf(context: HandlerContext, path: LinksPath): Promise<EntityReference> {
  const key = await keyOf(context, { path: path.path, entitySet: path.entitySet, entityType: path.entityType });
  return { entitySet: path.entitySet, key };
}

function linkMethod(context: HandlerContext, resource: string) {
  const { provider } = context.config.options;
  if (provider.link === undefined) throw ODataError.fromCode('METHOD_NOT_ALLOWED', { method: context.request.method, resource });
  return provider.link.bind(provider);
}

/** POST `$links/Nav` (many-valued): add a link; PUT `$links/Nav` (single-valued): replace it. 204. */
export const writeLink: Handler = async (context) => {
  const path = context.path as LinksPath;
  const link = linkMethod(context, `$links/${path.navigationProperty.name}`);
  const isPost = context.request.method === 'POST';
  if (isPost && !path.navigationProperty.isCollection) {
    throw ODataError.fromCode('METHOD_NOT_ALLOWED', { method: 'POST', resource: `$links/${path.navigationProperty.name} (single-valued: use PUT)` }, { headers: { allow: 'GET, PUT, DELETE' } });
  }
  if (!isPost && (path.navigationProperty.isCollection || path.targetKey !== undefined)) {
    throw ODataError.fromCode('METHOD_NOT_ALLOWED', { method: context.request.method, resource: `$links/${path.navigationProperty.name} (many-valued: use POST and DELETE)` }, { headers: { allow: 'GET, POST' } });
  }
  const target = readLinkBody(context, { entitySet: path.entitySet, navigationProperty: path.navigationProperty });
  const source = await sourceOf(context, path);
  await link({ source, property: path.navigationProperty, target, mode: isPost ? 'add' : 'replace' }, context.request.context);
  return { result: { kind: 'NoContent' }, status: 204 };
};

/** DELETE `$links/Nav(key)` or, for a single-valued property, `$links/Nav`. 204. */
export const deleteLink: Handler = async (context) => {
  const path = context.path as LinksPath;
  const link = linkMethod(context, `$links/${path.navigationProperty.name}`);
  if (path.navigationProperty.isCollection && path.targetKey === undefined) {
    throw ODataError.fromCode('BAD_REQUEST', { detail: `Name the link to remove: $links/${path.navigationProperty.name}(key).` });
  }
  const source = await sourceOf(context, path);
  const target = path.targetKey === undefined ? undefined : { entitySet: path.targetEntitySet, key: path.targetKey };
  await link({ source, property: path.navigationProperty, target, mode: 'remove' }, context.request.context);
  return { result: { kind: 'NoContent' }, status: 204 };
};
