/**
 * The write side of MemoryProvider as synchronous steps over the store: a create with its links,
 * inline tree and parent link; an update with its links; a delete; a `$links` change; a media
 * write. Each runs inside one store transaction (the provider opens it), so any failure leaves
 * the store exactly as before. Knows the provider contract, not HTTP: the shape of each request
 * (target sets, single-valued ends, `$links` modes, `m:HasStream`) is the service's to check
 * before it calls (see CreateRequest); what needs the data (a target that does not exist, a taken
 * key, multiplicities) is checked here.
 */
import { ODataError } from '../../errors';
import type { CreateRequest, DeleteRequest, EntityReference, LinkBinding, LinkRequest, MediaContent, Precondition, UpdateRequest } from '../../provider/types';
import { describeKey, entityKey } from '../../provider/keys';
import { withLinkedValues } from '../../provider/linked-values';
import { mediaEntryValues } from '../../provider/media-entry';
import { fillDefaults } from '../../provider/sent';
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

/**
 * Links in an entry body to existing entries, as store link targets. A dangling target is a 400
 * naming it (the body is wrong, not the URL).
 */
function bindingTargets(store: Store, bindings: readonly LinkBinding[]): LinkTarget[] {
  const targets: LinkTarget[] = [];
  for (const binding of bindings) {
    const property = binding.property;
    for (const target of binding.targets) {
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
  // The request holds what was sent: MemoryProvider stores the model's defaults for the rest.
  const given = fillDefaults(type, media === undefined ? request.values : mediaEntryValues(type, request.values, media.slug));
  const values = withGeneratedKey(store, entitySet, given, media === undefined ? '' : ' (a string key may be given in the Slug header)');
  const stored = store.insert(entitySet, values, bindingTargets(store, request.bindings));
  const key = entityKey(type, stored);
  if (media !== undefined) store.setMedia(entitySet, key, storedMedia(media));
  const parentLabel = `${entitySet.name}${describeKey(type, key)}`;
  for (const inline of request.inline) {
    for (const entry of inline.entries) {
      // Now that the parent's key is known: what the link fixes in the child (its key may hold it).
      const child = createEntry(store, withLinkedValues(entry, inline.property, 'other', stored, parentLabel));
      store.link(entitySet, key, inline.property, entityKey(entry.entitySet.entityType, child));
    }
  }
  const parent = request.parent;
  if (parent !== undefined) store.link(parent.source.entitySet, parent.source.key, parent.navigationProperty, key);
  return stored;
}

/** PUT (replace) or MERGE/PATCH (merge) after the precondition, then the body's links (a single-valued one replaces, an empty one unlinks). */
export function updateEntry(store: Store, request: UpdateRequest): StoredValues {
  const { entitySet, key } = request;
  const options = preconditionCheck(request.precondition);
  const updated = request.mode === 'replace' ? store.replace(entitySet, key, request.values, options) : store.merge(entitySet, key, request.values, options);
  for (const target of bindingTargets(store, request.bindings)) store.link(entitySet, key, target.property, target.key);
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

/**
 * `$links` writes: add (a single-valued end replaces its link), replace, remove (the one target,
 * or a single-valued property's link). The service always names the target of an add or replace.
 */
export function writeLink(store: Store, request: LinkRequest): void {
  const { source, property, target, mode } = request;
  if (mode === 'remove') {
    store.unlink(source.entitySet, source.key, property, target?.key);
    return;
  }
  if (target === undefined) throw new TypeError(`A $links ${mode} of '${property.name}' carries no target (the service always sends one).`);
  store.link(source.entitySet, source.key, property, target.key);
}

/** A stored copy of a media resource: the caller's buffer may be reused after the request. */
function storedMedia(media: MediaContent): { contentType: string; body: Buffer } {
  return { contentType: media.contentType, body: Buffer.from(media.body) };
}

/** Replace the media resource after the precondition; the entry is written too, so its concurrency tokens move. */
export function writeMedia(store: Store, reference: EntityReference, media: MediaContent, precondition: Precondition | undefined): StoredValues {
  const { entitySet, key } = reference;
  const updated = store.merge(entitySet, key, {}, preconditionCheck(precondition));
  store.setMedia(entitySet, key, storedMedia(media));
  return updated;
}
