/**
 * What the request-body readers produce (MS-ODATA §2.2.6, the write path): typed, validated
 * structures that the write handlers turn into provider calls. Nothing here touches storage.
 */
import type { EdmEntitySet, EdmEntityType, EdmModel, EdmNavigationProperty, EdmPropertyTypeRef } from '../edm/model';
import type { PropertyValue } from '../edm/primitives';
import type { EntityKey, PropertyStep } from '../uri/types';

/** A reference to an existing entry, resolved from a link URI. */
export interface EntryReference {
  readonly entitySet: EdmEntitySet;
  readonly key: EntityKey;
}

/** Links from the entry to existing entries over one navigation property. */
interface EntryBinding {
  readonly property: EdmNavigationProperty;
  readonly targets: readonly EntryReference[];
}

/** New entries to create and link (deep insert) over one navigation property. */
interface InlineEntries {
  readonly property: EdmNavigationProperty;
  /** The entity set the new entries go to (the navigation target of the parent's set). */
  readonly entitySet: EdmEntitySet;
  /** For a single-valued navigation: one entry, or none for an explicit null (unlink). */
  readonly entries: readonly EntryBody[];
}

/** An entry read from an Atom or verbose JSON request body. */
export interface EntryBody {
  /** The type named by the body (category term / `__metadata.type`): the target type or a derived one. */
  readonly entityType: EdmEntityType;
  /** Declared and (open types) dynamic properties, typed per `edm/primitives`; only those present in the body. */
  readonly properties: ReadonlyMap<string, PropertyValue>;
  /** Links to existing entries, one item per navigation property. */
  readonly bindings: readonly EntryBinding[];
  /** Deep inserts, one item per navigation property. */
  readonly inline: readonly InlineEntries[];
  /** True when the body is shaped as a media link entry (Atom `content/@src` or properties outside content; JSON media metadata). */
  readonly mediaLinkEntry: boolean;
  /** Types of the dynamic properties (open types) as the body stated or implied them. */
  readonly dynamicTypes?: ReadonlyMap<string, EdmPropertyTypeRef>;
  /** The entry's own URI as sent (`atom:id`, `__metadata.uri`); informational only. */
  readonly id?: string;
}

/** A property body (`PUT Products(1)/Name`, `PUT Products(1)/Name/$value`). */
export interface PropertyBody {
  readonly value: PropertyValue;
  /** For a dynamic property: the type the body stated or implied. */
  readonly type?: EdmPropertyTypeRef;
}

/** A link body (`$links/Nav`): the entry it points to. */
export type LinkBody = EntryReference;

/** Where an entry body goes. */
export interface EntryTarget {
  readonly entitySet: EdmEntitySet;
  /** The declared type: the set's type, or the navigation property's target type. */
  readonly entityType: EdmEntityType;
  /** The key from the URL (PUT/MERGE): key properties in the body must equal it, else 400 KEY_MISMATCH. */
  readonly expectedKey?: EntityKey;
}

/** Where a property body goes: a declared property (maybe complex) or an open type's dynamic one. */
export type PropertyTarget = PropertyStep;

/** Where a link body goes: the source entry's set and the navigation property of `$links/Nav`. */
export interface LinkTarget {
  readonly entitySet: EdmEntitySet;
  readonly navigationProperty: EdmNavigationProperty;
}

/** Limits of the body readers; each has a safe default. */
interface ReadLimits {
  /** Deepest nesting of inline entries (deep insert) below the top entry (default 8). */
  readonly maxInlineDepth?: number;
  /** Deepest JSON array/object or XML element nesting (default 100). */
  readonly maxNesting?: number;
  /**
   * Most members of one JSON object, or child elements of one `m:properties` or complex value
   * (default: what the model can hold, see `structure-limits.ts`).
   */
  readonly maxMembers?: number;
  /** Most attributes of one XML element, namespace declarations included (default 64). */
  readonly maxAttributes?: number;
}

/** What every reader needs besides the bytes. */
export interface ReadContext {
  readonly model: EdmModel;
  /** The absolute service root (`http://host/odata/`); link URIs under it are resolved. */
  readonly serviceRoot: string;
  /** `$batch` Content-ID to the relative path of the entity it created (`1` -> `Products(7)`). */
  readonly contentIds?: ReadonlyMap<string, string>;
  /** The request's Content-Type, for its charset parameter (UTF-8 or none). */
  readonly contentType?: string;
  readonly limits?: ReadLimits;
}

/** Default of `ReadLimits.maxInlineDepth`. */
export const DEFAULT_MAX_INLINE_DEPTH = 8;
/** Default of `ReadLimits.maxNesting`. */
export const DEFAULT_MAX_NESTING = 100;
