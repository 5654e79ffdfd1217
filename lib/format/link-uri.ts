/**
 * Link URIs in request bodies (Atom `link/@href`, JSON `__metadata.uri` / `__deferred.uri`, `$links`
 * bodies) resolved to the entry they address. The URI may be absolute under the service root,
 * path-absolute, relative to the service root (or to `xml:base`), or a `$batch` Content-ID reference.
 */
import type { EdmEntitySet, EdmNavigationProperty } from '../edm/model';
import { ODataError, isODataError } from '../errors';
import { parseResourcePath } from '../uri';
import type { ResourcePath } from '../uri/types';
import type { EntryReference, ReadContext } from './entry-body';

/** What a link URI addresses: an entry by key, or a navigation property of some entry (a deferred link). */
type ResolvedLink = { readonly kind: 'Entry'; readonly reference: EntryReference } | { readonly kind: 'Navigation'; readonly property: EdmNavigationProperty };

/** RFC 3986 §3.1: `scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, followed by `:`. */
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:/;

/** RFC 3986 §3: the path ends at the first `?` (query) or `#` (fragment). */
const PATH_END = /[?#]/;

/** The service root as a parsed URL whose path ends with `/`, cached per root string. */
const ROOTS = new Map<string, URL>();

function rootOf(serviceRoot: string): URL {
  let root = ROOTS.get(serviceRoot);
  if (root === undefined) {
    root = new URL(serviceRoot.endsWith('/') ? serviceRoot : serviceRoot + '/');
    if (ROOTS.size > 64) ROOTS.clear();
    ROOTS.set(serviceRoot, root);
  }
  return root;
}

function invalidLink(uri: string, detail: string, cause?: unknown): ODataError {
  return ODataError.fromCode('BODY_INVALID', { detail: `the link '${uri}' ${detail}` }, { cause });
}

/**
 * The path of `uri` relative to the service root, still percent-encoded, without query or fragment.
 * `base` is an `xml:base` in scope (Atom); without one, relative URIs are relative to the service root
 * (MS-ODATA §2.2.6.3.6: "a URI relative to the service root").
 */
function relativePath(uri: string, serviceRoot: string, base: string | undefined): string {
  const root = rootOf(serviceRoot);
  let absolute: URL | undefined;
  try {
    if (SCHEME.test(uri)) absolute = new URL(uri);
    else if (uri.startsWith('/')) absolute = new URL(uri, root);
    else if (base !== undefined && !uri.startsWith('$')) absolute = new URL(uri, new URL(base, root));
  } catch (cause) {
    throw invalidLink(uri, 'is not a valid URI.', cause);
  }
  let path: string;
  if (absolute === undefined) {
    path = uri;
  } else {
    if (absolute.origin !== root.origin || !absolute.pathname.startsWith(root.pathname)) {
      throw invalidLink(uri, `does not address a resource of this service (${root.href}).`);
    }
    path = absolute.pathname.slice(root.pathname.length);
  }
  const end = path.search(PATH_END);
  return end === -1 ? path : path.slice(0, end);
}

/**
 * Replace a leading `$<ContentID>` segment by the path the batch part created (MS-ODATA §2.2.7.6.1:
 * "$<contentIdValue>" stands for the resource the referenced request created). The mapped value may
 * be relative to the service root, path-absolute or absolute.
 */
function expandContentId(uri: string, path: string, context: ReadContext): string {
  if (!path.startsWith('$')) return path;
  const slash = path.indexOf('/');
  const id = path.slice(1, slash === -1 ? undefined : slash);
  const target = context.contentIds?.get(id);
  if (target === undefined) throw invalidLink(uri, `refers to the Content-ID '${id}', which no earlier request of this change set defined.`);
  const rest = slash === -1 ? '' : path.slice(slash);
  return relativePath(target, context.serviceRoot, undefined) + rest;
}

/** Resolve a link URI from a request body to the entry (or deferred navigation) it addresses; 400 BODY_INVALID otherwise. */
export function resolveLinkUri(uri: string, context: ReadContext, base?: string): ResolvedLink {
  const trimmed = uri.trim();
  if (trimmed === '') throw invalidLink(uri, 'is empty.');
  const path = expandContentId(trimmed, relativePath(trimmed, context.serviceRoot, base), context);
  let resource: ResourcePath;
  try {
    resource = parseResourcePath(path, context.model);
  } catch (error) {
    if (!isODataError(error)) throw error;
    throw invalidLink(trimmed, `does not address an entry: ${error.message}`, error);
  }
  if (resource.kind === 'Entity' || resource.kind === 'NavigationEntity' || resource.kind === 'NavigationCollection') {
    const steps = resource.path.navigation;
    const last = steps[steps.length - 1];
    const key = last === undefined ? resource.path.root.key : last.key;
    if (key !== undefined) return { kind: 'Entry', reference: { entitySet: resource.entitySet, key } };
    // `Products(1)/Category`: the deferred link of a read entry, echoed back by a client.
    if (last !== undefined) return { kind: 'Navigation', property: last.property };
  }
  throw invalidLink(trimmed, 'does not address a single entry by its key.');
}

/**
 * Check that a referenced entry may be linked over `property` from an entry of `source`: it must sit
 * in the entity set the association set binds (MS-ODATA §2.2.7.1.1: links go to entries "in the
 * EntitySet associated with the navigation property"), or, without an association set, have the target type.
 */
function checkLinkTarget(reference: EntryReference, source: EdmEntitySet, property: EdmNavigationProperty, context: ReadContext, uri: string): EntryReference {
  const expected = context.model.navigationTarget(source, property);
  if (expected !== undefined) {
    if (reference.entitySet !== expected) {
      throw invalidLink(uri, `addresses the entity set '${reference.entitySet.name}', but '${property.name}' links to entries of '${expected.name}'.`);
    }
    return reference;
  }
  let type: typeof reference.entitySet.entityType | undefined = reference.entitySet.entityType;
  while (type !== undefined && type !== property.target) type = type.baseType;
  if (type === undefined) {
    throw invalidLink(uri, `addresses the entity set '${reference.entitySet.name}', whose type is not '${property.target.qualifiedName}'.`);
  }
  return reference;
}

/**
 * The entry a link in an entry body binds to (Atom `href`, JSON `__metadata.uri`/`__deferred.uri`),
 * checked against the navigation property; undefined when the link is the entry's own deferred
 * link echoed back from a read (`Products(1)/Category` for `Category`), which changes nothing.
 * `fail` builds the reader's own error for a link that addresses no single entry.
 */
export function bindingTarget(
  uri: string,
  source: EdmEntitySet,
  property: EdmNavigationProperty,
  context: ReadContext,
  fail: (detail: string) => ODataError,
  base?: string,
): EntryReference | undefined {
  const resolved = resolveLinkUri(uri, context, base);
  if (resolved.kind === 'Navigation') {
    if (resolved.property.name === property.name) return undefined;
    throw fail(`the link '${uri.trim()}' of '${property.name}' does not address a single entry by its key.`);
  }
  return checkLinkTarget(resolved.reference, source, property, context, uri.trim());
}

/** Resolve a link to an entry for a binding or a `$links` body and check its set (both 400 BODY_INVALID). */
export function resolveEntryLink(uri: string, source: EdmEntitySet, property: EdmNavigationProperty, context: ReadContext, base?: string): EntryReference {
  const resolved = resolveLinkUri(uri, context, base);
  if (resolved.kind !== 'Entry') throw invalidLink(uri.trim(), 'does not address a single entry by its key.');
  return checkLinkTarget(resolved.reference, source, property, context, uri.trim());
}
