/**
 * What a writer needs to know about the request besides the result itself. The service builds one
 * per response; writers read the clock only through `now` and never the request, so their output
 * is a pure function of (result, format, context) and golden files stay stable.
 */
import type { EdmEntityType, EdmModel } from '../edm/model';
import type { Entity } from '../provider/types';
import type { Clock } from '../util';
import type { ExpansionBudget } from './stream';

/** The media resource of a media link entry (`HasStream`): its content type and entity tag. */
export interface MediaInfo {
  readonly contentType: string;
  /** Full entity tag (`W/"1"`) of the media resource, when it has one. */
  readonly etag?: string;
}

/** Per-response inputs of every writer. */
export interface WriterContext {
  /** Absolute service root, ending with `/` (`http://host/odata/`): `xml:base` and absolute URIs. */
  readonly serviceRoot: string;
  readonly model: EdmModel;
  /**
   * The response's DataServiceVersion; decides the verbose JSON shape of collections
   * (1.0: `{"d":[...]}`, 2.0: `{"d":{"results":[...],"__count":"9","__next":"..."}}`).
   */
  readonly version: '1.0' | '2.0';
  /**
   * The clock for Atom `<updated>` (injected so output is reproducible). Read once per Atom
   * document, by `atomScope`; JSON and XML writers never call it.
   */
  readonly now: Clock;
  /** The full entity tag of an entity (`W/"0"`), or undefined when its type has none. */
  readonly etagOf: (entity: Entity, type: EdmEntityType) => string | undefined;
  /** The media resource of an entity whose type has a stream; undefined means `application/octet-stream`, no tag. */
  readonly mediaOf?: (entity: Entity, type: EdmEntityType) => MediaInfo | undefined;
  /**
   * The expanded entries this response may still write (`limits.maxExpandedEntities`); writers
   * count down as they write. Undefined: no limit (responses without `$expand`).
   */
  readonly expansionBudget?: ExpansionBudget;
}
