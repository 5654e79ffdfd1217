/**
 * Content-ID referencing (MS-ODATA §2.2.7.6.1.1): inside one changeset, `$<Content-ID>` as the
 * first segment of a later request's path stands for the resource an earlier request created.
 */
import { ODataError } from '../errors';
import type { ODataRequest } from '../protocol/message';
import { printable } from './headers';
import { toServiceTarget } from './request-target';

/** Resources at the service root whose names start with `$`; they are never Content-ID references. */
const SYSTEM_RESOURCES: ReadonlySet<string> = new Set(['metadata', 'batch']);

/** Longest Content-ID accepted; SAP Cloud SDK sends 36-character UUIDs. */
const MAX_CONTENT_ID_LENGTH = 200;

/**
 * A Content-ID value: 1 to 200 visible ASCII characters except `/`, `?` and `#`, which would make
 * `$<id>/Segment` ambiguous. Any token works (`1`, `id-1700000000000-12`, a UUID). Throws BATCH_CONTENT_ID.
 */
export function checkContentId(value: string, where: string): string {
  const fail = (detail: string): ODataError =>
    ODataError.fromCode('BATCH_CONTENT_ID', { detail: `${where}: the Content-ID '${printable(value)}' ${detail}` }, { target: 'Content-ID' });
  if (value.length === 0 || value.length > MAX_CONTENT_ID_LENGTH) throw fail(`must have 1 to ${MAX_CONTENT_ID_LENGTH} characters`);
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code <= 0x20 || code >= 0x7f || code === 0x2f || code === 0x3f || code === 0x23) {
      throw fail("may contain only visible ASCII characters other than '/', '?' and '#'");
    }
  }
  return value;
}

/**
 * The request with a leading `$<id>` segment replaced by the path it stands for, and `contentIds`
 * set so body readers can resolve `$<id>` in links (`{"uri":"$1"}`, `__metadata.uri`, Atom `href`).
 * A `$name` segment that is neither a known id nor `$metadata`/`$batch` throws BATCH_CONTENT_ID:
 * references work only to earlier requests of the same changeset.
 */
export function resolveReferences(request: ODataRequest, ids: ReadonlyMap<string, string>, where: string): ODataRequest {
  const contentIds: ReadonlyMap<string, string> = new Map(ids);
  if (!request.path.startsWith('$')) return { ...request, contentIds };
  const slash = request.path.indexOf('/');
  const name = slash < 0 ? request.path.slice(1) : request.path.slice(1, slash);
  const target = ids.get(name);
  if (target !== undefined) {
    return { ...request, path: slash < 0 ? target : target + request.path.slice(slash), contentIds };
  }
  if (SYSTEM_RESOURCES.has(name)) return { ...request, contentIds };
  throw ODataError.fromCode(
    'BATCH_CONTENT_ID',
    {
      detail: `${where}: '$${printable(name)}' does not name an earlier request of this changeset (MS-ODATA §2.2.7.6.1.1: references work only inside one changeset)`,
    },
    { target: 'Content-ID' },
  );
}

/**
 * The resource path an operation's Content-ID stands for: the `Location` of its response (a created
 * entity), made relative to the service root; without a Location, the path the request addressed.
 */
export function referencedPath(request: ODataRequest, responseHeaders: Readonly<Record<string, string>>, servicePath: string): string {
  const location = headerValue(responseHeaders, 'location');
  if (location === undefined) return request.path;
  const relative = location.startsWith(request.serviceRoot) ? location.slice(request.serviceRoot.length) : location;
  try {
    return toServiceTarget(relative, servicePath, 'Location').path;
  } catch {
    return request.path;
  }
}

/** A header by name, ignoring case (handlers are expected to use lower case, but a provider header may not). */
export function headerValue(headers: Readonly<Record<string, string>>, name: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(headers, name)) return headers[name];
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return headers[key];
  return undefined;
}
