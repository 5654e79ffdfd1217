/**
 * What every handler receives. Handlers never see HTTP: only the transport-neutral request, the
 * resolved path, the typed query options and the service's frozen configuration.
 */
import type { EdmEntityType } from '../edm/model';
import type { ResolvedOptions } from '../options';
import type { DataProvider, Entity } from '../provider/types';
import type { ODataRequest } from '../protocol/message';
import type { HandlerOutcome } from '../result';
import type { QueryOptions, ResourcePath } from '../uri/types';

/** The service-wide state handlers share; built once. */
export interface ServiceConfig {
  readonly options: ResolvedOptions;
  /** The full ETag header value (`W/"0"`) of an entity, or undefined when its type has none. */
  readonly etagOf: (entity: Entity, entityType: EdmEntityType) => string | undefined;
  /** `$metadata`: the EDMX bytes written once, their entity tag and the model's DataServiceVersion. */
  readonly metadata: { readonly document: Buffer; readonly etag: string; readonly version: '1.0' | '2.0' };
}

/** A request as a handler sees it, its path narrowed to the kinds the handler serves. */
export interface HandlerContext<P extends ResourcePath = ResourcePath> {
  readonly request: ODataRequest;
  readonly path: P;
  readonly query: QueryOptions;
  readonly config: ServiceConfig;
}

/** The implementation of one method on the resource paths `P` (`ResourcePathOf<'Entity' | 'NavigationEntity'>`). */
export type Handler<P extends ResourcePath = ResourcePath> = (context: HandlerContext<P>) => Promise<HandlerOutcome>;

/** The optional provider methods a dispatch row may need; a row whose method is missing answers 405. */
export type WriteMethodName = 'create' | 'update' | 'delete' | 'link' | 'readMedia' | 'writeMedia';

/** A provider known to implement the optional methods `N` (checked once, when the rows are built). */
export type ProviderWith<N extends WriteMethodName> = DataProvider & { readonly [P in N]-?: NonNullable<DataProvider[P]> };
