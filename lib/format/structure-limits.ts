/**
 * Structural bounds of request bodies, derived from the model once: a JSON object or an
 * `m:properties` element with more members than any type of the model can hold is refused as soon
 * as the reader sees the member past the bound, before the expensive part (building an object
 * with hundreds of thousands of keys) happens. Bodies within the bound are read as before.
 */
import type { EdmModel } from '../edm/model';
import type { ReadContext } from './entry-body';
import { DATA_NS, METADATA_NS } from './names';
import type { XmlLimits } from './xml/safe-sax';

/**
 * Dynamic properties one entry of an open type may carry: the model sets no bound for them, so
 * this is the documented one (docs/deployment.md).
 */
export const MAX_DYNAMIC_PROPERTIES = 1000;

// `__metadata` has at most eight members (uri, type, etag, id, media_src, content_type,
// edit_media, media_etag); link and wrapper objects have one or two.
const MIN_MEMBERS = 8;

const MEMBER_LIMITS = new WeakMap<EdmModel, number>();

/**
 * The most members one object of a body can legitimately have for this model: the largest entity
 * type (structural and navigation properties, plus `__metadata`) or complex type, plus
 * MAX_DYNAMIC_PROPERTIES when the model has an open type. Computed once per model.
 */
export function modelMemberLimit(model: EdmModel): number {
  let limit = MEMBER_LIMITS.get(model);
  if (limit === undefined) {
    let largest = MIN_MEMBERS;
    let open = false;
    for (const type of model.entityTypes.values()) {
      largest = Math.max(largest, type.properties.length + type.navigationProperties.length + 1);
      open ||= type.openType;
    }
    for (const type of model.complexTypes.values()) largest = Math.max(largest, type.properties.length + 1);
    limit = largest + (open ? MAX_DYNAMIC_PROPERTIES : 0);
    MEMBER_LIMITS.set(model, limit);
  }
  return limit;
}

/** The member bound of a read: the context's own, else the model's. */
export function memberLimitOf(context: Pick<ReadContext, 'model' | 'limits'>): number {
  return context.limits?.maxMembers ?? modelMemberLimit(context.model);
}

/**
 * The limits of parsing an XML body for the model: nesting, attributes per element, and the
 * member bound for `m:properties` and data-namespace elements (a property element's members).
 */
export function xmlLimitsOf(context: Pick<ReadContext, 'model' | 'limits'>): XmlLimits {
  const members = memberLimitOf(context);
  return {
    maxDepth: context.limits?.maxNesting,
    maxAttributes: context.limits?.maxAttributes,
    maxChildren: (uri, local) => ((uri === METADATA_NS && local === 'properties') || uri === DATA_NS ? members : undefined),
  };
}
