/** The protocol layer's surface: content negotiation, versions, ETags and the request/response types. */
export type { ResponseFormat } from './negotiate';
export { checkRequestFeatures, checkRequestVersion, checkResponseVersion, compareVersions, formatVersion, parseVersionHeader, usesSelect } from './version';
export { decodeETag, encodeETag, matchesIfMatch, matchesIfNoneMatch, parseETagList } from './etag';
export type { ETagList } from './etag';
export { negotiateFor, preferredErrorFormat } from './response-format';
export { checkMethodImplemented, effectiveMethod } from './tunneling';
export { assertETagValue, assertHeaderValue, assertHeaderValues } from './header-value';
