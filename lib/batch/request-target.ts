/**
 * The request target of an embedded request, made relative to the service root. Also used to turn
 * a `Location` header back into a resource path for Content-ID references.
 */
import { ODataError } from '../errors';
import { printable } from './headers';

/** A request target as the pipeline wants it: path relative to the service root (no leading `/`) and raw query. */
interface ServiceTarget {
  /** Percent-encoded resource path relative to the service root, without a leading slash. */
  readonly path: string;
  /** Raw query string without `?`. */
  readonly query: string;
}

/** The mount path of a service root URI: `http://host/odata/` -> `/odata`, `http://host/` -> ``. */
export function servicePathOf(serviceRoot: string): string {
  let pathname: string;
  try {
    pathname = new URL(serviceRoot).pathname;
  } catch {
    pathname = serviceRoot.startsWith('/') ? serviceRoot : '/';
  }
  return pathname.endsWith('/') ? pathname.slice(0, -1) : pathname;
}

/**
 * request-target = origin-form / absolute-form                      RFC 7230 §5.3
 * Batch clients spell the target three ways, all accepted:
 *   `Products(1)?$top=2`               relative to the service root (datajs, SAPUI5, MS-ODATA examples)
 *   `/odata/Products(1)`               absolute path with the mount path (SAP Cloud SDK)
 *   `http://host/odata/Products(1)`    absolute URL (WCF Data Services client); the authority is not checked
 * An absolute path outside the mount path is read as relative to the service root (SAP Cloud SDK's
 * `relativeToEntity` mode sends `/Products`). Bytes above 0x7E arrive as ISO-8859-1 characters and
 * are percent-encoded; control characters, `#` and the asterisk form are refused (BATCH_SYNTAX).
 */
export function toServiceTarget(target: string, servicePath: string, where: string): ServiceTarget {
  const fail = (detail: string): ODataError => ODataError.fromCode('BATCH_SYNTAX', { detail: `${where}: the request target '${printable(target)}' ${detail}` });
  let needsEncoding = false;
  for (let i = 0; i < target.length; i++) {
    const code = target.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f) throw fail('contains a control character or space');
    if (code === 0x23) throw fail("contains '#'; a fragment is not part of a request target");
    if (code > 0x7e) needsEncoding = true;
  }
  // Built character by character only when some character needs percent-encoding (rare).
  let encoded = target;
  if (needsEncoding) {
    encoded = '';
    for (let i = 0; i < target.length; i++) {
      const code = target.charCodeAt(i);
      encoded += code > 0x7e ? `%${code.toString(16).toUpperCase().padStart(2, '0')}` : target[i];
    }
  }
  if (encoded === '' || encoded === '*') throw fail('is not a resource path');
  let rest = encoded;
  const scheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.exec(rest);
  if (scheme !== null) {
    const afterAuthority = rest.slice(scheme[0].length).search(/[/?]/);
    rest = afterAuthority < 0 ? '/' : rest.slice(scheme[0].length + afterAuthority);
    if (rest.startsWith('?')) rest = `/${rest}`;
  }
  if (rest.startsWith('//')) throw fail("starts with '//'");
  if (rest.startsWith('/')) {
    if (servicePath !== '' && (rest === servicePath || rest.startsWith(`${servicePath}/`) || rest.startsWith(`${servicePath}?`))) {
      rest = rest.slice(servicePath.length);
    }
    rest = rest.startsWith('/') ? rest.slice(1) : rest;
  }
  const question = rest.indexOf('?');
  return question < 0 ? { path: rest, query: '' } : { path: rest.slice(0, question), query: rest.slice(question + 1) };
}
