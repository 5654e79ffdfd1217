/**
 * Links between entities, one table per association set. A pair is stored once and indexed from
 * both ends, so `Categories(1)/Products` and `Products(3)/Category` always agree. The table knows
 * nothing of cardinality or undo: the store enforces both around these primitives.
 */
import type { EdmAssociationSet, EdmEntitySet, EdmModel } from '../../edm/model';
import { navigationBindings, otherEnd, type EndIndex, type NavigationBinding } from '../../provider/navigation-bindings';

const EMPTY: ReadonlySet<string> = new Set<string>();

/**
 * The partners of one key at one end: a key string while there is one partner (most links: every
 * entity on the many side of a `*`-to-`0..1` association has exactly one), a Set from the second
 * on. A Set per entity would cost about 250 bytes more for each of a million Products.
 */
type Partners = string | Set<string>;

/** One partner as a read-only set (made per read; the table itself stores the bare key). */
class OnePartner implements ReadonlySet<string> {
  constructor(private readonly key: string) {}

  get size(): number {
    return 1;
  }

  has(key: string): boolean {
    return key === this.key;
  }

  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    callback.call(thisArg, this.key, this.key, this);
  }

  *entries(): IterableIterator<[string, string]> {
    yield [this.key, this.key];
  }

  *keys(): IterableIterator<string> {
    yield this.key;
  }

  values(): IterableIterator<string> {
    return this.keys();
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.keys();
  }
}

/** The links of one association set: pairs of canonical keys (end 0 key, end 1 key). */
export class LinkTable {
  readonly associationSet: EdmAssociationSet;
  private readonly index: readonly [Map<string, Partners>, Map<string, Partners>] = [new Map(), new Map()];

  constructor(associationSet: EdmAssociationSet) {
    this.associationSet = associationSet;
  }

  /** Keys at the other end linked to `key` at end `from`, in the order they were linked (copy before changing links). */
  targets(from: EndIndex, key: string): ReadonlySet<string> {
    const partners = this.index[from].get(key);
    if (partners === undefined) return EMPTY;
    return typeof partners === 'string' ? new OnePartner(partners) : partners;
  }

  /** How many keys at the other end are linked to `key` at end `from` (`targets(...).size` without a view). */
  partnerCount(from: EndIndex, key: string): number {
    const partners = this.index[from].get(key);
    return partners === undefined ? 0 : typeof partners === 'string' ? 1 : partners.size;
  }

  /** Whether `key` at end `from` is linked to `target` at the other end. */
  has(from: EndIndex, key: string, target: string): boolean {
    const partners = this.index[from].get(key);
    return partners !== undefined && (typeof partners === 'string' ? partners === target : partners.has(target));
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
    for (const partners of this.index[0].values()) total += typeof partners === 'string' ? 1 : partners.size;
    return total;
  }
}

/** Add a partner the caller checked is not there yet. */
function addTo(index: Map<string, Partners>, key: string, target: string): void {
  const partners = index.get(key);
  if (partners === undefined) index.set(key, target);
  else if (typeof partners === 'string') index.set(key, new Set([partners, target]));
  else partners.add(target);
}

/** Remove a partner the caller checked is there. */
function removeFrom(index: Map<string, Partners>, key: string, target: string): void {
  const partners = index.get(key);
  // Dropped when empty so that a churning set does not leave a Map entry per deleted entity.
  if (typeof partners === 'string') index.delete(key);
  else if (partners !== undefined) {
    partners.delete(target);
    if (partners.size === 1) {
      const [last] = partners;
      index.set(key, last);
    }
  }
}

/** Where a navigation property's links live: the association set's table, and the source's end in it. */
export interface LinkTableBinding extends NavigationBinding {
  readonly table: LinkTable;
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
  readonly bindings: ReadonlyMap<EdmEntitySet, ReadonlyMap<string, LinkTableBinding>>;
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
  const bindings = new Map<EdmEntitySet, Map<string, LinkTableBinding>>();
  for (const [set, byName] of navigationBindings(model)) {
    const withTables = new Map<string, LinkTableBinding>();
    for (const [name, binding] of byName) {
      const table = tables.get(binding.associationSet);
      if (table !== undefined) withTables.set(name, { ...binding, table });
    }
    bindings.set(set, withTables);
  }
  return { tables, bindings, participations };
}
