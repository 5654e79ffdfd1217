/**
 * The typed results handlers produce and format writers consume. A result holds data only: the
 * status, headers and version are decided by the service from the result and the request.
 */
import type { EdmEntitySet, EdmEntityType, EdmPropertyTypeRef, EdmReturnType } from './edm/model';
import type { PropertyValue } from './edm/primitives';
import type { Entity } from './provider/types';
import type { SelectExpand } from './uri/types';

/** A feed: one page of entries of one set (or an operation's entities), with its count and next link. */
export interface FeedResult {
  readonly kind: 'Feed';
  readonly entitySet: EdmEntitySet;
  readonly entityType: EdmEntityType;
  /** Path of the feed relative to the service root (`Products`, `Categories(1)/Products`). */
  readonly selfPath: string;
  /** Feed title: the entity set name, or the navigation property name, or the function import name. */
  readonly title: string;
  readonly entities: readonly Entity[] | AsyncIterable<Entity>;
  /** `$inlinecount=allpages`: the count after filtering, before paging. */
  readonly count: number | undefined;
  /** Absolute URI of the next page (server-driven paging). */
  readonly nextLink: string | undefined;
  readonly selectExpand: SelectExpand;
  /** The request carried a `$skiptoken`: a later page of a server-paged feed, which is 2.0 even when it is the last. */
  readonly continuation?: boolean;
}

/** One entry: a read by key or over a single-valued navigation, or a POST's created entity. */
export interface EntryResult {
  readonly kind: 'Entry';
  readonly entitySet: EdmEntitySet;
  readonly entityType: EdmEntityType;
  readonly entity: Entity;
  readonly selectExpand: SelectExpand;
}

/** A single property value (primitive or complex), or a dynamic one of an open type. */
export interface PropertyResult {
  readonly kind: 'Property';
  readonly name: string;
  /** Undefined for a dynamic property whose type is inferred from the value. */
  readonly type: EdmPropertyTypeRef | undefined;
  readonly value: PropertyValue;
}

/** A collection of primitive or complex values (service operations). */
export interface CollectionResult {
  readonly kind: 'Collection';
  readonly name: string;
  readonly itemType: EdmReturnType & { readonly kind: 'Primitive' | 'Complex' };
  readonly values: readonly PropertyValue[];
}

/** A raw value (`$value` of a property, or a media resource). */
interface RawValueResult {
  readonly kind: 'RawValue';
  readonly contentType: string;
  readonly body: Buffer | string | AsyncIterable<Buffer | string>;
}

interface CountResult {
  readonly kind: 'Count';
  readonly count: number;
}

/** `$links/Nav` of a many-valued navigation property: absolute URIs of the linked entries. */
export interface LinksResult {
  readonly kind: 'Links';
  readonly uris: readonly string[];
  readonly count: number | undefined;
  readonly nextLink: string | undefined;
}

/** `$links/Nav` of a single-valued navigation property, or `$links/Nav(key)`. */
export interface LinkResult {
  readonly kind: 'Link';
  readonly uri: string;
}

interface ServiceDocumentResult {
  readonly kind: 'ServiceDocument';
}

/** `$metadata`: the EDMX document, written once when the service was built (edm/writeEdmx). */
interface MetadataResult {
  readonly kind: 'Metadata';
  readonly document: Buffer;
  /** The model's DataServiceVersion, which the response carries. */
  readonly version: '1.0' | '2.0';
}

/** The multipart answer of a `$batch` request, written by lib/batch. */
interface BatchResult {
  readonly kind: 'Batch';
  /** `multipart/mixed; boundary=...`. */
  readonly contentType: string;
  readonly body: Buffer;
}

/** No body: 204 No Content (writes and deletes), or 304 Not Modified for a conditional read. */
interface NoContentResult {
  readonly kind: 'NoContent';
}

/** Any handler result. */
export type Result =
  | ServiceDocumentResult
  | MetadataResult
  | BatchResult
  | FeedResult
  | EntryResult
  | PropertyResult
  | CollectionResult
  | RawValueResult
  | CountResult
  | LinksResult
  | LinkResult
  | NoContentResult;

/** What a handler returns: the result and, where it is not the default for the result kind, status and headers. */
export interface HandlerOutcome {
  readonly result: Result;
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
}
