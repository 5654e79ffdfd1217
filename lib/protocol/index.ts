/** The protocol layer's surface: content negotiation, versions, ETags and the request/response types. */
export { negotiateErrorFormat, negotiateFormat } from './negotiate';
export type { ErrorFormat, NegotiatedFormat, NegotiationInput, PayloadKind, ResponseFormat } from './negotiate';
export { charsetOf, isTokenChar, isValidBoundary, mediaTypeOf, parseAccept, parseAcceptCharset, parseMediaRange, parseMediaType, parseQuality, readContentType } from './media-type';
export type { CharsetRange, MediaRange, MediaType } from './media-type';
export { checkRequestFeatures, checkRequestVersion, checkResponseVersion, compareVersions, formatVersion, parseVersionHeader, usesSelect, versionTwoFeatureOf } from './version';
export type { ProtocolVersion, RequestVersions, VersionHeader } from './version';
export { computeETag, matchesIfMatch, matchesIfNoneMatch, parseETagList } from './etag';
export type { ETagList, ETagSource } from './etag';
export { negotiateFor, payloadKindOf, preferredErrorFormat } from './response-format';
export type { ODataRequest, ODataResponse, RequestContext, ResponseBody } from './message';
export { checkMethodImplemented, effectiveMethod, SERVICE_METHODS } from './tunneling';
export { assertETagValue, assertHeaderValue, assertHeaderValues } from './header-value';
