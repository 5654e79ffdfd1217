/**
 * What every handler receives. Handlers never see HTTP: only the transport-neutral request, the
 * resolved path, the typed query options and the service's frozen configuration.
 */
import type { EdmEntityType } from '../edm/model';
import type { ResolvedOptions } from '../options';
import type { Entity } from '../provider/types';
import type { ODataRequest } from '../protocol/message';
import type { HandlerOutcome } from '../result';
import type { QueryOptions, ResourcePath } from '../uri/types';

/** The service-wide state handlers share; built once. */
export interface ServiceConfig {
  readonly options: ResolvedOptions;
  /** The full ETag header value (`W/"0"`) of an entity, or undefined when its type has none. */
  readonly etagOf: (entity: Entity, entityType: EdmEntityType) => string | undefined;
}

export interface HandlerContext {
  readonly request: ODataRequest;
  readonly path: ResourcePath;
  readonly query: QueryOptions;
  readonly config: ServiceConfig;
}

/** One request kind's implementation. */
export type Handler = (context: HandlerContext) => Promise<HandlerOutcome>;
