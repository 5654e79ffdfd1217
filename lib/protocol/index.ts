/** The protocol layer's surface: content negotiation, versions, ETags and the request/response types. */
export { negotiateFormat } from './negotiate';
export type { NegotiatedFormat, NegotiationInput, PayloadKind, ResponseFormat } from './negotiate';
export { parseAccept } from './media-type';
export type { MediaRange } from './media-type';
export { checkRequestFeatures, checkRequestVersion, checkResponseVersion, compareVersions, formatVersion, parseVersionHeader, usesSelect } from './version';
export type { ProtocolVersion, VersionHeader } from './version';
export { decodeETag, encodeETag, matchesIfMatch, matchesIfNoneMatch, parseETagList } from './etag';
export type { ETagList } from './etag';
export { negotiateFor, payloadKindOf, preferredErrorFormat } from './response-format';
export type { ODataRequest, ODataResponse, RequestContext, ResponseBody } from './message';
export { checkMethodImplemented, effectiveMethod, SERVICE_METHODS } from './tunneling';
export { assertETagValue, assertHeaderValue, assertHeaderValues } from './header-value';
