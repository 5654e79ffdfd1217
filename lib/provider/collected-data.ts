/**
 * Data in the MemoryProvider format, checked and held as plain maps: what a store that writes it
 * elsewhere (SQL `seed`) reads. `collectEntityData` loads it exactly as MemoryProvider does
 * (`loadEntityData`), so both report the same problems, without building a MemoryProvider.
 */
import type { EdmAssociationSet, EdmEntitySet, EdmModel } from '../edm/model';
import type { PropertyValue } from '../edm/primitives';
import type { MemoryData } from './entity-data';
import { loadEntityData, type EntityDataTarget, type LoadEntityDataOptions } from './load-entity-data';
import { otherEnd, type EndIndex } from './navigation-bindings';

/** Checked entities by set (key identity to values, in the data's order) and links by association set. */
export class CollectedEntityData implements EntityDataTarget {
  /** Per set: key identity to the entity's values (defaults and concurrency tokens filled). */
  readonly entities = new Map<EdmEntitySet, Map<string, Readonly<Record<string, PropertyValue>>>>();
  /** Per association set and end: key identity to the keys linked at the other end. */
  private readonly links = new Map<EdmAssociationSet, readonly [Map<string, Set<string>>, Map<string, Set<string>>]>();

  stored(entitySet: EdmEntitySet, key: string): string | undefined {
    return this.entities.get(entitySet)?.has(key) === true ? key : undefined;
  }

  store(entitySet: EdmEntitySet, key: string, values: Record<string, PropertyValue>): void {
    let set = this.entities.get(entitySet);
    if (set === undefined) {
      set = new Map();
      this.entities.set(entitySet, set);
    }
    set.set(key, values);
  }

  linked(associationSet: EdmAssociationSet, from: EndIndex, source: string, target: string): boolean {
    return this.links.get(associationSet)?.[from].get(source)?.has(target) === true;
  }

  partnerCount(associationSet: EdmAssociationSet, from: EndIndex, key: string): number {
    return this.links.get(associationSet)?.[from].get(key)?.size ?? 0;
  }

  link(associationSet: EdmAssociationSet, from: EndIndex, source: string, target: string): void {
    let index = this.links.get(associationSet);
    if (index === undefined) {
      index = [new Map(), new Map()];
      this.links.set(associationSet, index);
    }
    const to = otherEnd(from);
    for (const [end, key, partner] of [
      [from, source, target],
      [to, target, source],
    ] as const) {
      const partners = index[end].get(key) ?? new Set<string>();
      partners.add(partner);
      index[end].set(key, partners);
    }
  }

  /** Every link of `associationSet` as the values of its end-0 and end-1 entities, each pair once. */
  *pairs(associationSet: EdmAssociationSet): Iterable<readonly [Readonly<Record<string, PropertyValue>>, Readonly<Record<string, PropertyValue>>]> {
    const [first, second] = associationSet.ends;
    const firsts = this.entities.get(first.entitySet);
    const seconds = this.entities.get(second.entitySet);
    for (const [key, partners] of this.links.get(associationSet)?.[0] ?? []) {
      const values = firsts?.get(key);
      for (const partner of partners) {
        const other = seconds?.get(partner);
        if (values !== undefined && other !== undefined) yield [values, other];
      }
    }
  }
}

/** Load `data` (checked as MemoryProvider checks it: MEMORY_DATA_INVALID listing every problem) into plain maps. */
export function collectEntityData(model: EdmModel, data: MemoryData, options: LoadEntityDataOptions = {}): CollectedEntityData {
  const collected = new CollectedEntityData();
  loadEntityData(model, data, collected, options);
  return collected;
}
