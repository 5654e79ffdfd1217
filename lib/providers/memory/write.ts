/**
 * The write side of MemoryProvider as synchronous steps over the store: a create with its links,
 * inline tree and parent link; an update with its links; a delete; a `$links` change; a media
 * write. Each runs inside one store transaction (the provider opens it), so any failure leaves
 * the store exactly as before. Knows the provider contract, not HTTP.
 */
import type { EdmEntitySet, EdmNavigationProperty } from '../../edm/model';
import { ODataError } from '../../errors';
import type { CreateRequest, DeleteRequest, EntityReference, LinkBinding, LinkRequest, MediaContent, Precondition, UpdateRequest } from '../../provider/types';
import { describeKey, entityKey } from '../../provider/keys';
import { mediaEntryValues } from '../../provider/media-entry';
import { withGeneratedKey } from './new-entry';
import type { LinkTarget, Store, StoredValues, WriteOptions } from './store';

/** The store's `check` for an If-Match precondition: 412 PRECONDITION_FAILED when the current state does not match. */
function preconditionCheck(precondition: Precondition | undefined): WriteOptions {
  if (precondition === undefined) return {};
  return {
    check: (current) => {
      if (!precondition.matches(current)) throw ODataError.fromCode('PRECONDITION_FAILED', { header: 'If-Match' });
    },
  };
}

function label(reference: EntityReference): string {
  return `${reference.entitySet.name}${describeKey(reference.entitySet.entityType, reference.key)}`;
}

/** The set a navigation property leads to from `entitySet`; a target in another set is a 400. */
function checkTargetSet(store: Store, entitySet: EdmEntitySet, property: EdmNavigationProperty, target: EdmEntitySet, what: string): void {
  const expected = store.binding(entitySet, property).target;
  if (target !== expected) {
    throw ODataError.fromCode('BODY_INVALID', {
      detail: `'${property.name}' links to ${what} in '${target.name}', but its targets are in '${expected.name}'.`,
    });
  }
}

/**
 * Links in an entry body to existing entries, as store link targets. A dangling target is a 400
 * naming it (the body is wrong, not the URL), and a single-valued property takes one target.
 */
function bindingTargets(store: Store, entitySet: EdmEntitySet, bindings: readonly LinkBinding[]): LinkTarget[] {
  const targets: LinkTarget[] = [];
  for (const binding of bindings) {
    const property = binding.property;
    if (!property.isCollection && binding.targets.length > 1) {
      throw ODataError.fromCode('BODY_INVALID', { detail: `'${property.name}' is single-valued but the body links it to ${binding.targets.length} entries.` });
    }
    for (const target of binding.targets) {
      checkTargetSet(store, entitySet, property, target.entitySet, label(target));
      if (store.get(target.entitySet, target.key) === undefined) {
        throw ODataError.fromCode('BODY_INVALID', { detail: `'${property.name}' links to ${label(target)}, which does not exist.` });
      }
      targets.push({ property, key: target.key });
    }
  }
  return targets;
}

/**
 * Insert an entry, its links to existing entries, its inline entries (deep insert, MS-ODATA
 * §2.2.7.1.1) recursively, and the link from the parent of a POST through navigation. Call
 * inside a store transaction: required links are checked when the outermost one commits.
 */
export function createEntry(store: Store, request: CreateRequest): StoredValues {
  const { entitySet, media } = request;
  const type = entitySet.entityType;
  if (media !== undefined && !type.hasStream) {
    throw ODataError.fromCode('BAD_REQUEST', { detail: `${type.qualifiedName} is not a media link entry type (m:HasStream); post an entry instead.` });
  }
  const given = media === undefined ? request.values : mediaEntryValues(type, request.values, media.slug);
  const values = withGeneratedKey(store, entitySet, given, media === undefined ? '' : ' (a string key may be given in the Slug header)');
  const stored = store.insert(entitySet, values, bindingTargets(store, entitySet, request.bindings));
  const key = entityKey(type, stored);
  if (media !== undefined) store.setMedia(entitySet, key, storedMedia(media));
  for (const inline of request.inline) {
    const property = inline.property;
    if (!property.isCollection && inline.entries.length > 1) {
      throw ODataError.fromCode('BODY_INVALID', {
        detail: `'${property.name}' is single-valued but the body has ${inline.entries.length} inline entries for it.`,
      });
    }
    for (const entry of inline.entries) {
      checkTargetSet(store, entitySet, property, entry.entitySet, 'an inline entry');
      const child = createEntry(store, entry);
      store.link(entitySet, key, property, entityKey(entry.entitySet.entityType, child));
    }
  }
  const parent = request.parent;
  if (parent !== undefined) {
    const { source, navigationProperty } = parent;
    checkTargetSet(store, source.entitySet, navigationProperty, entitySet, 'the new entry');
    store.link(source.entitySet, source.key, navigationProperty, key);
  }
  return stored;
}

/** PUT (replace) or MERGE/PATCH (merge) after the precondition, then the body's links (a single-valued one replaces, an empty one unlinks). */
export function updateEntry(store: Store, request: UpdateRequest): StoredValues {
  const { entitySet, key } = request;
  const options = preconditionCheck(request.precondition);
  const updated = request.mode === 'replace' ? store.replace(entitySet, key, request.values, options) : store.merge(entitySet, key, request.values, options);
  for (const target of bindingTargets(store, entitySet, request.bindings)) store.link(entitySet, key, target.property, target.key);
  // An explicit null for a single-valued navigation property removes its link.
  for (const binding of request.bindings) {
    if (binding.targets.length === 0 && !binding.property.isCollection) store.unlink(entitySet, key, binding.property);
  }
  return updated;
}

/** Delete after the precondition; cascades, link removal and media removal are the store's. */
export function deleteEntry(store: Store, request: DeleteRequest): void {
  store.delete(request.entitySet, request.key, preconditionCheck(request.precondition));
}

/** `$links` writes: add (a single-valued end replaces its link), replace (single-valued only), remove. */
export function writeLink(store: Store, request: LinkRequest): void {
  const { source, property, target, mode } = request;
  if (target !== undefined) checkTargetSet(store, source.entitySet, property, target.entitySet, label(target));
  if (mode === 'remove') {
    if (target === undefined && property.isCollection) {
      throw ODataError.fromCode('BAD_REQUEST', { detail: `Name the link to remove: $links/${property.name}(key).` });
    }
    store.unlink(source.entitySet, source.key, property, target?.key);
    return;
  }
  if (target === undefined) throw ODataError.fromCode('BAD_REQUEST', { detail: `A link to ${mode === 'add' ? 'add' : 'set'} needs a target entry.` });
  if (mode === 'replace' && property.isCollection) {
    throw ODataError.fromCode('BAD_REQUEST', { detail: `'${property.name}' is many-valued: add and remove its links one by one.` });
  }
  store.link(source.entitySet, source.key, property, target.key);
}

/** A stored copy of a media resource: the caller's buffer may be reused after the request. */
function storedMedia(media: MediaContent): { contentType: string; body: Buffer } {
  return { contentType: media.contentType, body: Buffer.from(media.body) };
}

/** Replace the media resource after the precondition; the entry is written too, so its concurrency tokens move. */
export function writeMedia(store: Store, reference: EntityReference, media: MediaContent, precondition: Precondition | undefined): StoredValues {
  const { entitySet, key } = reference;
  if (!entitySet.entityType.hasStream) {
    throw ODataError.fromCode('BAD_REQUEST', { detail: `${entitySet.entityType.qualifiedName} is not a media link entry type (m:HasStream).` });
  }
  const updated = store.merge(entitySet, key, {}, preconditionCheck(precondition));
  store.setMedia(entitySet, key, storedMedia(media));
  return updated;
}
