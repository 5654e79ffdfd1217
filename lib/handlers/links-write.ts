/**
 * Writes of `$links` (MS-ODATA §2.2.7.1.2 "InsertLink", §2.2.7.3.5 "UpdateLink", §2.2.7.4.2
 * "DeleteLink"): POST adds a link to a many-valued navigation property, PUT replaces a
 * single-valued one, DELETE removes one. Cardinality is the provider's to enforce.
 */
import type { EntityReference } from '../provider/types';
import type { HandlerOutcome } from '../result';
import type { LinksPath } from '../uri/types';
import type { HandlerContext, ProviderWith } from './context';
import { readLinkBody } from './body';
import { keyOf } from './update';

async function sourceOf(context: HandlerContext, path: LinksPath<'Links' | 'Link'>): Promise<EntityReference> {
  const key = await keyOf(context, { path: path.path, entitySet: path.entitySet, entityType: path.entityType });
  return { entitySet: path.entitySet, key };
}

/**
 * POST `$links/Nav` of a many-valued navigation property: add a link; PUT `$links/Nav` of a
 * single-valued one: replace it (the dispatch table takes PUT only there). 204.
 */
export async function writeLink(context: HandlerContext<LinksPath<'Links' | 'Link'>>, provider: ProviderWith<'link'>): Promise<HandlerOutcome> {
  const { path } = context;
  const target = readLinkBody(context, { entitySet: path.entitySet, navigationProperty: path.navigationProperty });
  const source = await sourceOf(context, path);
  const mode = path.kind === 'Links' ? 'add' : 'replace';
  await provider.link({ source, property: path.navigationProperty, target, mode }, context.request.context);
  return { result: { kind: 'NoContent' }, status: 204 };
}

/** DELETE `$links/Nav(key)` or, for a single-valued property, `$links/Nav`. 204. */
export async function deleteLink(context: HandlerContext<LinksPath<'Link'>>, provider: ProviderWith<'link'>): Promise<HandlerOutcome> {
  const { path } = context;
  const source = await sourceOf(context, path);
  const target = path.targetKey === undefined ? undefined : { entitySet: path.targetEntitySet, key: path.targetKey };
  await provider.link({ source, property: path.navigationProperty, target, mode: 'remove' }, context.request.context);
  return { result: { kind: 'NoContent' }, status: 204 };
}
