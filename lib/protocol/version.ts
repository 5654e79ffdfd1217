/**
 * Protocol versions (MS-ODATA §2.2.5.3 DataServiceVersion, §2.2.5.7 MaxDataServiceVersion):
 * reading the request headers, refusing what this 2.0 service cannot honour, and writing the
 * response header.
 */
import { ODataError } from '../errors';
import type { QueryOptions, ResourcePath, SelectExpand } from '../uri/types';
import type { ODataRequest } from './message';

/** A version this service writes in responses. */
export type ProtocolVersion = '1.0' | '2.0';

/** A parsed version header. */
export interface VersionHeader {
  readonly major: number;
  readonly minor: number;
  /** The text after `;` (`NetFx`), when present and not empty. */
  readonly agent?: string;
}

/** The highest version this service implements. */
const SUPPORTED: VersionHeader = { major: 2, minor: 0 };

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/**
 * Read a DataServiceVersion or MaxDataServiceVersion value:
 *
 *   version      = OWS VersionNum OWS [";" [VersionAgent]]
 *   VersionNum   = 1*DIGIT "." 1*DIGIT
 *
 * (`2.0`, `1.0;NetFx`, `2.0;`). Undefined when malformed or when the major version is 0.
 */
export function parseVersionHeader(value: string): VersionHeader | undefined {
  const semicolon = value.indexOf(';');
  const number = (semicolon < 0 ? value : value.slice(0, semicolon)).trim();
  const dot = number.indexOf('.');
  if (dot <= 0 || dot === number.length - 1 || number.length > 12) return undefined;
  for (let i = 0; i < number.length; i++) {
    if (i !== dot && !isDigit(number.charCodeAt(i))) return undefined;
  }
  const major = Number(number.slice(0, dot));
  const minor = Number(number.slice(dot + 1));
  if (major === 0) return undefined;
  const agent = semicolon < 0 ? '' : value.slice(semicolon + 1).trim();
  return agent === '' ? { major, minor } : { major, minor, agent };
}

/** Order two versions: negative, zero or positive. */
export function compareVersions(a: VersionHeader, b: VersionHeader): number {
  return a.major !== b.major ? a.major - b.major : a.minor - b.minor;
}

/** The request's version headers, validated. */
interface RequestVersions {
  readonly dataServiceVersion: VersionHeader | undefined;
  readonly maxDataServiceVersion: VersionHeader | undefined;
}

function readHeader(headers: Readonly<Record<string, string | undefined>>, key: string, name: string): VersionHeader | undefined {
  const raw = headers[key];
  if (raw === undefined || raw.trim() === '') return undefined;
  const parsed = parseVersionHeader(raw);
  if (parsed === undefined) throw ODataError.fromCode('VERSION_INVALID', { header: name, value: raw });
  return parsed;
}

/**
 * Validate the version headers of a request (header names in lower case). A DataServiceVersion
 * above 2.0 means the request may use features this service does not know: 400
 * VERSION_TOO_HIGH (MS-ODATA §2.2.5.3: the server "MUST" fail a request whose version it does
 * not implement). A MaxDataServiceVersion above 2.0 is fine (responses are 2.0 at most). An
 * unreadable value of either is 400 VERSION_INVALID.
 */
export function checkRequestVersion(headers: Readonly<Record<string, string | undefined>>): RequestVersions {
  const dataServiceVersion = readHeader(headers, 'dataserviceversion', 'DataServiceVersion');
  const maxDataServiceVersion = readHeader(headers, 'maxdataserviceversion', 'MaxDataServiceVersion');
  if (dataServiceVersion !== undefined && compareVersions(dataServiceVersion, SUPPORTED) > 0) {
    throw ODataError.fromCode('VERSION_TOO_HIGH', { header: 'DataServiceVersion', value: `${dataServiceVersion.major}.${dataServiceVersion.minor}` });
  }
  return { dataServiceVersion, maxDataServiceVersion };
}

/**
 * The first feature of the request URI that only OData 2.0 defines, in the words of an error
 * message, or undefined for a 1.0 request: the `$count` segment, `$inlinecount=allpages`, `$select`
 * (at any level) and `$skiptoken` (MS-ODATA §2.2.3.6.1: each is marked as new in 2.0).
 */
function versionTwoFeatureOf(path: ResourcePath, query: QueryOptions): string | undefined {
  if (path.kind === 'CollectionCount' || path.kind === 'LinksCount' || (path.kind === 'ServiceOperation' && path.suffix === 'count'))
    return 'the $count segment';
  if (query.inlineCount === 'allpages') return '$inlinecount=allpages';
  if (usesSelect(query.selectExpand)) return '$select';
  if (query.skipToken !== undefined) return '$skiptoken';
  return undefined;
}

/** True when `$select` narrows this level or any expanded level below it (a 2.0 feature). */
export function usesSelect(selectExpand: SelectExpand): boolean {
  return selectExpand.select !== undefined || selectExpand.expand.some(usesSelect);
}

/**
 * Refuse a request that declares `DataServiceVersion: 1.0` (or lower) and uses a 2.0 feature:
 * 400 VERSION_REQUEST_TOO_LOW naming the version it needs (MS-ODATA §3.2.5.1: the server answers
 * with an error when the request's DataServiceVersion is lower than the features it uses need,
 * as WCF Data Services did). Only a version the request states itself counts: a `$batch` part
 * that inherits the outer request's header is not refused, because datajs (SAPUI5's Atom path)
 * stamps `DataServiceVersion: 1.0` on every `POST $batch` as the version of the multipart body,
 * while its GET parts send no version of their own.
 */
export function checkRequestFeatures(request: Pick<ODataRequest, 'headers' | 'inheritedHeaders'>, path: ResourcePath, query: QueryOptions): void {
  const raw = request.headers['dataserviceversion'];
  if (raw === undefined || request.inheritedHeaders?.has('dataserviceversion') === true) return;
  const declared = parseVersionHeader(raw);
  if (declared === undefined || compareVersions(declared, REQUIRED['2.0']) >= 0) return;
  const feature = versionTwoFeatureOf(path, query);
  if (feature !== undefined) {
    throw ODataError.fromCode('VERSION_REQUEST_TOO_LOW', { feature, required: '2.0', declared: `${declared.major}.${declared.minor}` });
  }
}

const REQUIRED: Readonly<Record<ProtocolVersion, VersionHeader>> = {
  '1.0': { major: 1, minor: 0 },
  '2.0': { major: 2, minor: 0 },
};

/**
 * Refuse a response the client cannot read: 400 VERSION_TOO_LOW when the request's
 * MaxDataServiceVersion is below the version the response needs (MS-ODATA §2.2.5.7). No header
 * means no limit.
 */
export function checkResponseVersion(required: ProtocolVersion, maxHeader: string | undefined): void {
  if (maxHeader === undefined || maxHeader.trim() === '') return;
  const max = parseVersionHeader(maxHeader);
  if (max === undefined) throw ODataError.fromCode('VERSION_INVALID', { header: 'MaxDataServiceVersion', value: maxHeader });
  if (compareVersions(max, REQUIRED[required]) < 0) {
    throw ODataError.fromCode('VERSION_TOO_LOW', { required, max: `${max.major}.${max.minor}` });
  }
}

/** The DataServiceVersion response header value: `2.0;` (the reference servers wrote the `;`). */
export function formatVersion(version: ProtocolVersion): string {
  return version + ';';
}
