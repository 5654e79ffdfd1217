/**
 * The mechanics under MemoryStore: record tables, link tables, the undo journal and the deferred
 * check of required links. Every change made here records its inverse, so `atomic` can undo a
 * failed step exactly. The public write API (and its argument checking) is in `store.ts`.
 */
import type { EdmEntitySet, EdmModel } from '../../edm/model';
import { ODataError } from '../../errors';
import type { EntityKey } from '../../uri/types';
import type { StoredValues } from '../../provider/entry-values';
import { Journal } from './journal';
import { KeyOrder } from './key-order';
import { requiredLinkLabel, requiredLinkProblem } from '../../provider/required-links';
import { entityNotFound } from '../../provider/not-found';
import { otherEnd, type EndIndex } from '../../provider/navigation-bindings';
import { createLinkTables } from './link-table';
import type { LinkTable, LinkTableBinding, LinkTables, Participation } from './link-table';

/**
 * One stored entity: its values (never mutated; a write stores a new object), its insertion rank,
 * and where it lives, so that one object per entity serves both the set's Map and `locate`.
 */
export interface StoredRecord {
  readonly seq: number;
  readonly values: StoredValues;
  /** The canonical key: the same string object as the Map's key (and the link tables' entries after loading). */
  readonly key: string;
  readonly table: SetTable;
}

/** The media resource of a media link entry (`m:HasStream`): bytes and content type, never mutated. */
export interface StoredMedia {
  /** Sent back as the media resource's Content-Type. */
  readonly contentType: string;
  /** The bytes as uploaded; GET `$value` answers them unchanged. */
  readonly body: Buffer;
}

/** The records of one entity set, in insertion order, and the media resources of its entries. */
export interface SetTable {
  readonly entitySet: EdmEntitySet;
  readonly records: Map<string, StoredRecord>;
  readonly media: Map<string, StoredMedia>;
  /** Whether the Map iterates in key order, kept up to date by every add, removal and move of a record. */
  readonly keyOrder: KeyOrder;
}

/** @internal The state and change primitives of the store; see store.ts for the API. */
export class StoreCore {
  /** The model the store holds entities of. */
  readonly model: EdmModel;
  protected readonly sets = new Map<EdmEntitySet, SetTable>();
  protected readonly links: LinkTables;
  /** The record of each values object the store holds (or held: `locate` checks it is still current). */
  protected readonly locations = new WeakMap<object, StoredRecord>();
  protected readonly journal = new Journal();
  /** Entities whose required links (a `1` end) must be checked when the outermost frame commits. */
  protected readonly pending = new Map<EdmEntitySet, Set<string>>();
  /** Per set: whether it fills an association end whose other end has multiplicity `1` (see hasRequiredLinks). */
  private readonly requiredLinks = new Map<EdmEntitySet, boolean>();
  /** Sets whose Map order a rollback disturbed (a deleted record comes back at the end). */
  private readonly reorder = new Set<SetTable>();
  private seq = 0;

  constructor(model: EdmModel) {
    this.model = model;
    for (const entitySet of model.defaultContainer.entitySets)
      this.sets.set(entitySet, { entitySet, records: new Map(), media: new Map(), keyOrder: new KeyOrder(entitySet.entityType) });
    this.links = createLinkTables(model);
  }

  protected table(entitySet: EdmEntitySet): SetTable {
    const table = this.sets.get(entitySet);
    if (table === undefined) throw ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: entitySet.name });
    return table;
  }

  protected existing(entitySet: EdmEntitySet, canonical: string, key: EntityKey): StoredValues {
    const record = this.table(entitySet).records.get(canonical);
    if (record === undefined) throw entityNotFound(entitySet, key);
    return record.values;
  }

  /** Store a record; a replaced record keeps its place, and the undo step restores the old one. */
  protected put(table: SetTable, key: string, values: StoredValues): void {
    const before = table.records.get(key);
    // Frozen so that no caller can change a stored entity in place: writes always store a new object.
    const record: StoredRecord = { seq: before?.seq ?? ++this.seq, values: Object.freeze(values), key: before?.key ?? key, table };
    table.records.set(key, record);
    if (before === undefined) table.keyOrder.appended(table, key, values);
    this.locations.set(values, record);
    this.journal.record(() => {
      if (before === undefined) {
        table.records.delete(key);
        table.keyOrder.removed(table, key, values);
      } else {
        table.records.set(key, before);
      }
    });
  }

  protected remove(entitySet: EdmEntitySet, key: string): void {
    const table = this.table(entitySet);
    const before = table.records.get(key);
    if (before === undefined) return;
    table.records.delete(key);
    table.keyOrder.removed(table, key, before.values);
    this.journal.record(() => {
      table.records.set(key, before);
      table.keyOrder.forget();
      this.reorder.add(table);
    });
    // The media resource goes with its entry (MS-ODATA §2.2.7.4.1: deleting a Media Link Entry SHOULD delete its Media Resource).
    this.putMedia(table, key, undefined);
    for (const { table: links, end } of this.links.participations.get(entitySet) ?? []) {
      const partnerSet = links.associationSet.ends[otherEnd(end)].entitySet;
      const cascade = links.associationSet.ends[end].end.onDelete === 'Cascade';
      for (const partner of [...links.targets(end, key)]) {
        this.unlinkKeys(links, end, key, partner);
        // OnDelete on this end: deleting it deletes the entities at the other end (CSDL 1.0 §2.1.15).
        if (cascade) this.remove(partnerSet, partner);
        else this.touch(partnerSet, partner);
      }
    }
  }

  /** Set (or with undefined, drop) the media resource of an entry; the undo step restores the old one. */
  protected putMedia(table: SetTable, key: string, media: StoredMedia | undefined): void {
    const before = table.media.get(key);
    if (before === media) return;
    if (media === undefined) table.media.delete(key);
    else table.media.set(key, media);
    this.journal.record(() => {
      if (before === undefined) table.media.delete(key);
      else table.media.set(key, before);
    });
  }

  protected linkKeys(binding: LinkTableBinding, source: string, target: string): void {
    const { table, from } = binding;
    const to = otherEnd(from);
    const ends = table.associationSet.ends;
    if (table.has(from, source, target)) return;
    // A `0..1`/`1` end holds one partner: linking replaces the previous link on that side.
    if (ends[to].end.multiplicity !== '*') {
      for (const old of [...table.targets(from, source)]) {
        this.unlinkKeys(table, from, source, old);
        this.touch(binding.target, old);
      }
    }
    if (ends[from].end.multiplicity !== '*') {
      for (const old of [...table.targets(to, target)]) {
        this.unlinkKeys(table, from, old, target);
        this.touch(binding.source, old);
      }
    }
    table.add(from, source, target);
    this.journal.record(() => table.remove(from, source, target));
    this.touch(binding.source, source);
    this.touch(binding.target, target);
  }

  protected unlinkKeys(table: LinkTable, from: EndIndex, source: string, target: string): void {
    if (table.remove(from, source, target)) this.journal.record(() => table.add(from, source, target));
  }

  /** Remember an entity whose required links must be checked at commit; only sets that have such links keep it. */
  protected touch(entitySet: EdmEntitySet, key: string): void {
    if (!this.hasRequiredLinks(entitySet)) return;
    const keys = this.pending.get(entitySet) ?? new Set<string>();
    keys.add(key);
    this.pending.set(entitySet, keys);
  }

  /**
   * Whether an entity of the set must be linked to exactly one partner somewhere (a far end of
   * multiplicity `1`). Most sets have none; they skip the bookkeeping (a million-entity load would
   * otherwise keep a Set of a million keys until the check).
   */
  private hasRequiredLinks(entitySet: EdmEntitySet): boolean {
    let required = this.requiredLinks.get(entitySet);
    if (required === undefined) {
      const participations = this.links.participations.get(entitySet) ?? [];
      required = participations.some(({ table, end }) => table.associationSet.ends[otherEnd(end)].end.multiplicity === '1');
      this.requiredLinks.set(entitySet, required);
    }
    return required;
  }

  /** Required links (the far end's multiplicity is `1`) of every pending entity that still exists. */
  protected violations(): string[] {
    const problems: string[] = [];
    for (const [entitySet, keys] of this.pending) {
      const table = this.table(entitySet);
      const participations = this.links.participations.get(entitySet) ?? [];
      for (const key of keys) {
        const record = table.records.get(key);
        if (record === undefined) continue;
        for (const participation of participations) {
          const problem = this.requiredLinkProblem(entitySet, record.values, key, participation);
          if (problem !== undefined) problems.push(problem);
        }
      }
    }
    return problems;
  }

  protected requiredLinkProblem(entitySet: EdmEntitySet, values: StoredValues, key: string, { table, end }: Participation): string | undefined {
    const far = table.associationSet.ends[otherEnd(end)];
    if (far.end.multiplicity !== '1') return undefined;
    const count = table.partnerCount(end, key);
    if (count === 1) return undefined;
    return requiredLinkProblem(entitySet, values, far.entitySet, requiredLinkLabel(table.associationSet, end), count);
  }

  /** Run one write or transaction in its own frame (a savepoint when one is already open). */
  protected atomic<T>(fn: () => T): T {
    this.journal.begin();
    let result: T;
    try {
      result = fn();
    } catch (error) {
      this.undo();
      throw error;
    }
    this.finish();
    return result;
  }

  /** Commit the innermost frame; the outermost one checks required links first, rolling back on failure. */
  protected finish(): void {
    if (this.journal.depth === 1) {
      const problems = this.violations();
      if (problems.length > 0) {
        this.undo();
        throw ODataError.fromCode('CONSTRAINT_VIOLATION', { detail: problems.join(' ') });
      }
      this.pending.clear();
    }
    this.journal.commit();
  }

  protected undo(): void {
    this.journal.rollback();
    if (this.journal.depth === 0) this.pending.clear();
    for (const table of this.reorder) {
      const records = [...table.records].sort((a, b) => a[1].seq - b[1].seq);
      table.records.clear();
      for (const [key, record] of records) table.records.set(key, record);
      table.keyOrder.forget();
    }
    this.reorder.clear();
  }
}
