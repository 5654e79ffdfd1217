/**
 * Not found, the same on every provider: 404 ENTITY_NOT_FOUND for a key that matches nothing (or
 * is not linked where the request looks for it), and which 404 a resource path answers when one
 * of its steps does not exist (MS-ODATA §2.2.3.1: every segment before the last must address an
 * existing resource). A provider finds out what exists its own way; the kit says what to answer.
 */
import type { EdmEntitySet } from '../edm/model';
import { ODataError } from '../errors';
import type { EntityPath, KeyedEntityPath } from '../uri/types';
import { describeKey } from './keys';
import type { NavigationReference } from './types';

/** True when the path starts at one entity (a key on its root): only such a path has navigation hops. */
export function isKeyedPath(path: EntityPath): path is KeyedEntityPath {
  return path.root.key !== undefined;
}

/**
 * 404 ENTITY_NOT_FOUND: no entity with `key` in `entitySet`, or, with `over`, none linked to
 * `over.source` over `over.navigationProperty` (the message then names that collection:
 * `Categories(1)/Products`).
 */
export function entityNotFound(entitySet: EdmEntitySet, key: Readonly<Record<string, unknown>>, over?: NavigationReference): ODataError {
  const { source, navigationProperty } = over ?? {};
  const where =
    source === undefined || navigationProperty === undefined
      ? entitySet.name
      : `${source.entitySet.name}${describeKey(source.entitySet.entityType, source.key)}/${navigationProperty.name}`;
  return ODataError.fromCode('ENTITY_NOT_FOUND', { key: describeKey(entitySet.entityType, key), entitySet: where });
}

/**
 * The prefixes of `path` that may not exist, as numbers of navigation hops, in path order: the
 * root (0), every hop with a key, and every single-valued hop before the last. Nothing else can
 * fail: a last many-valued hop without a key addresses a collection (maybe empty), and a last
 * single-valued hop without a link addresses no entity (an empty result, not an error).
 */
export function pathPrefixesThatMayFail(path: KeyedEntityPath): number[] {
  const prefixes = [0];
  path.navigation.forEach((step, index) => {
    if (step.key !== undefined || (!step.property.isCollection && index < path.navigation.length - 1)) prefixes.push(index + 1);
  });
  return prefixes;
}

/**
 * The 404 of a path whose prefix of `hops` navigation hops does not exist (the shorter ones do):
 * ENTITY_NOT_FOUND naming the key for the root or a hop with a key (one that is not linked to the
 * entity before it counts as missing), RESOURCE_NOT_FOUND naming a single-valued hop that has no
 * link in the middle of the path.
 */
export function pathNotFound(path: KeyedEntityPath, hops: number): ODataError {
  if (hops === 0) return entityNotFound(path.root.entitySet, path.root.key);
  const step = path.navigation[hops - 1];
  if (step.key !== undefined) return entityNotFound(step.entitySet, step.key);
  return ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: step.property.name });
}

/** 404 RESOURCE_NOT_FOUND for `$value` of a media link entry that exists but has no media resource stored. */
export function mediaResourceNotFound(): ODataError {
  return ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: '$value' });
}
