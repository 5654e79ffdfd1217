/**
 * What an entry writer writes at one level of the response tree, decided once per (entity set,
 * $select/$expand) and shared by the Atom and JSON writers: the selected structural properties,
 * whether dynamic properties are written, and the navigation properties with their expansion.
 */
import type { EdmEntitySet, EdmEntityType, EdmNavigationProperty, EdmProperty } from '../edm/model';
import type { ExpandItem, SelectExpand } from '../uri/types';

/** One navigation link to write: deferred, or inline when `expand` is set. */
export interface NavigationPlan {
  readonly property: EdmNavigationProperty;
  readonly expand: ExpandItem | undefined;
}

/** The resolved shape of an entry at one level. */
export interface EntryPlan {
  readonly entitySet: EdmEntitySet;
  readonly entityType: EdmEntityType;
  /** Declared structural properties to write, in declaration order. */
  readonly properties: readonly EdmProperty[];
  /** Open type only: write every dynamic property (no $select, or `*`). */
  readonly allDynamic: boolean;
  /** Open type only: dynamic properties named in $select. */
  readonly selectedDynamic: ReadonlySet<string>;
  readonly navigation: readonly NavigationPlan[];
}

const NO_NAMES: ReadonlySet<string> = new Set();

/**
 * Resolve $select/$expand against a type (MS-ODATA §2.2.3.6.1.11): without $select every
 * property and navigation link is written; with it, only the named properties and the navigation
 * links that are selected or expanded. `*` (also `Nav/*` at an expanded level) selects "all
 * properties" of the level, navigation properties included, so it writes the same deferred links
 * (JSON `__deferred`, Atom related `link`) as the response without $select.
 */
function planEntry(entitySet: EdmEntitySet, entityType: EdmEntityType, selectExpand: SelectExpand): EntryPlan {
  const { select, expand } = selectExpand;
  const expanded = new Map<EdmNavigationProperty, ExpandItem>();
  for (const item of expand) expanded.set(item.property, item);
  const properties = select === undefined || select.allProperties ? entityType.properties : entityType.properties.filter((p) => select.properties.has(p.name));
  const navigation: NavigationPlan[] = [];
  for (const property of entityType.navigationProperties) {
    const item = expanded.get(property);
    if (select === undefined || select.allProperties || item !== undefined || select.navigationProperties.has(property.name)) {
      navigation.push({ property, expand: item });
    }
  }
  let selectedDynamic = NO_NAMES;
  if (entityType.openType && select !== undefined && !select.allProperties) {
    selectedDynamic = new Set([...select.properties].filter((name) => !entityType.propertiesByName.has(name)));
  }
  return {
    entitySet,
    entityType,
    properties,
    allDynamic: entityType.openType && (select === undefined || select.allProperties),
    selectedDynamic,
    navigation,
  };
}

/** True when a key of an entity object is a dynamic property of its (open) type at this level. */
export function isDynamicKey(plan: EntryPlan, key: string): boolean {
  // `__metadata`, `__deferred`...: names of the verbose JSON format, never data.
  if (key.startsWith('__')) return false;
  const type = plan.entityType;
  if (type.propertiesByName.has(key) || type.navigationPropertiesByName.has(key)) return false;
  return plan.allDynamic || plan.selectedDynamic.has(key);
}

/**
 * Compiled writers, cached: one per (entity set, entity type) for the common "no $select, no
 * $expand" case, for the life of the model; and one per parsed SelectExpand (one request's
 * options) otherwise. Writers compile their expanded children eagerly, so a lookup happens once
 * per result, never per entity.
 */
export class WriterCache<W> {
  private readonly plain = new WeakMap<EdmEntitySet, WeakMap<EdmEntityType, W>>();
  private readonly shaped = new WeakMap<SelectExpand, WeakMap<EdmEntitySet, WeakMap<EdmEntityType, W>>>();

  constructor(private readonly compile: (plan: EntryPlan) => W) {}

  /** The writer for entries of `entitySet` (of `entityType`) shaped by `selectExpand`. */
  get(entitySet: EdmEntitySet, entityType: EdmEntityType, selectExpand: SelectExpand): W {
    const plain = selectExpand.select === undefined && selectExpand.expand.length === 0;
    let bySet = plain ? this.plain : this.shaped.get(selectExpand);
    if (bySet === undefined) {
      bySet = new WeakMap();
      this.shaped.set(selectExpand, bySet);
    }
    let byType = bySet.get(entitySet);
    if (byType === undefined) {
      byType = new WeakMap();
      bySet.set(entitySet, byType);
    }
    let writer = byType.get(entityType);
    if (writer === undefined) {
      writer = this.compile(planEntry(entitySet, entityType, selectExpand));
      byType.set(entityType, writer);
    }
    return writer;
  }
}
