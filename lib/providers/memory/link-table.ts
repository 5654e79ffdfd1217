/**
 * Links between entities, one table per association set. A pair is stored once and indexed from
 * both ends, so `Categories(1)/Products` and `Products(3)/Category` always agree. The table knows
 * nothing of cardinality or undo: the store enforces both around these primitives.
 */
import type { EdmAssociationSet, EdmEntitySet, EdmModel, EdmNavigationProperty } from '../../edm/model';

/** An end of an association set: 0 or 1, as in `EdmAssociationSet.ends`. */
export type EndIndex = 0 | 1;

/** The index of the association set's other end. */
export function otherEnd(end: EndIndex): EndIndex {
  return end === 0 ? 1 : 0;
}

const EMPTY: ReadonlySet<string> = new Set<string>();

/** The links of one association set: pairs of canonical keys (end 0 key, end 1 key). */
export class LinkTable {
  readonly associationSet: EdmAssociationSet;
  private readonly index: readonly [Map<string, Set<string>>, Map<string, Set<string>>] = [new Map(), new Map()];

  constructor(associationSet: EdmAssociationSet) {
    this.associationSet = associationSet;
  }

  /** Keys at the other end linked to `key` at end `from` (a live view: copy before changing links). */
  targets(from: EndIndex, key: string): ReadonlySet<string> {
    return this.index[from].get(key) ?? EMPTY;
  }

  /** Whether `key` at end `from` is linked to `target` at the other end. */
  has(from: EndIndex, key: string, target: string): boolean {
    return this.index[from].get(key)?.has(target) ?? false;
  }

  /** Add a pair; false when it was already there. */
  add(from: EndIndex, key: string, target: string): boolean {
    if (this.has(from, key, target)) return false;
    addTo(this.index[from], key, target);
    addTo(this.index[otherEnd(from)], target, key);
    return true;
  }

  /** Remove a pair; false when it was not there. */
  remove(from: EndIndex, key: string, target: string): boolean {
    if (!this.has(from, key, target)) return false;
    removeFrom(this.index[from], key, target);
    removeFrom(this.index[otherEnd(from)], target, key);
    return true;
  }

  /** Number of pairs (for tests and diagnostics). */
  get size(): number {
    let total = 0;
    for (const targets of this.index[0].values()) total += targets.size;
    return total;
  }
}

function addTo(index: Map<string, Set<string>>, key: string, target: string): void {
  const targets = index.get(key);
  if (targets === undefined) index.set(key, new Set([target]));
  else targets.add(target);
}

function removeFrom(index: Map<string, Set<string>>, key: string, target: string): void {
  const targets = index.get(key);
  if (targets === undefined) return;
  targets.delete(target);
  // Dropped when empty so that a churning set does not leave a Map entry per deleted entity.
  if (targets.size === 0) index.delete(key);
}

/** Where a navigation property's links live: the table, and the source's end in it. */
export interface NavigationBinding {
  readonly property: EdmNavigationProperty;
  readonly table: LinkTable;
  readonly from: EndIndex;
  readonly source: EdmEntitySet;
  readonly target: EdmEntitySet;
}

/** An entity set's place in an association set (whether or not its type declares a navigation property). */
export interface Participation {
  readonly table: LinkTable;
  readonly end: EndIndex;
}

/** The link tables of a model's default container, with lookups by set and navigation property. */
export interface LinkTables {
  readonly tables: ReadonlyMap<EdmAssociationSet, LinkTable>;
  /** Per entity set: navigation property name to binding. */
  readonly bindings: ReadonlyMap<EdmEntitySet, ReadonlyMap<string, NavigationBinding>>;
  /** Per entity set: every association-set end it fills. */
  readonly participations: ReadonlyMap<EdmEntitySet, readonly Participation[]>;
}

/** Build empty link tables for every association set of the default container. */
export function createLinkTables(model: EdmModel): LinkTables {
  const container = model.defaultContainer;
  const tables = new Map<EdmAssociationSet, LinkTable>();
  const participations = new Map<EdmEntitySet, Participation[]>();
  for (const associationSet of container.associationSets) {
    const table = new LinkTable(associationSet);
    tables.set(associationSet, table);
    for (const end of [0, 1] as const) {
      const set = associationSet.ends[end].entitySet;
      const list = participations.get(set) ?? [];
      list.push({ table, end });
      participations.set(set, list);
    }
  }
  const bindings = new Map<EdmEntitySet, Map<string, NavigationBinding>>();
  for (const set of container.entitySets) {
    const byName = new Map<string, NavigationBinding>();
    for (const property of set.entityType.navigationProperties) {
      const binding = bind(set, property, participations.get(set) ?? []);
      if (binding !== undefined) byName.set(property.name, binding);
    }
    bindings.set(set, byName);
  }
  return { tables, bindings, participations };
}

/** The association-set end that a navigation property leaves from, matched by association and role. */
function bind(source: EdmEntitySet, property: EdmNavigationProperty, candidates: readonly Participation[]): NavigationBinding | undefined {
  for (const { table, end } of candidates) {
    const associationSet = table.associationSet;
    if (associationSet.association !== property.relationship) continue;
    // Roles, not sets, pick the end: a self-association (Employee/Manager) has the set on both ends.
    if (associationSet.ends[end].role !== property.fromEnd.role) continue;
    return { property, table, from: end, source, target: associationSet.ends[otherEnd(end)].entitySet };
  }
  return undefined;
}
