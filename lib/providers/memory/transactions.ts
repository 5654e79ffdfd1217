/**
 * The store's transactions that span awaits: frames opened with `begin()` and closed exactly once,
 * innermost first, and the atomic async transaction (a `$batch` changeset, a single write with its
 * response) that runs under the store's write lock and is abandoned when it outlives its timeout.
 * The undo journal and its commit/rollback of one frame are the store's (store-core.ts).
 */
import type { Journal } from './journal';
import { WriteLock } from './write-lock';

/** A transaction opened with `begin()`; close it exactly once, innermost first. */
export interface StoreTransaction {
  /** Keep the transaction's writes; required links are checked when the outermost one commits. */
  commit(): void;
  /** Undo the transaction's writes, newest first, as if it never ran. */
  rollback(): void;
}

/** What the transactions need of the store: its journal, and how to commit or undo the innermost frame. */
export interface FrameControl {
  readonly journal: Journal;
  /** Commit the innermost frame (the outermost checks required links first). */
  commit(): void;
  /** Undo the innermost frame. */
  undo(): void;
}

/** Exclusive work and transactions of one store. */
export class StoreTransactions {
  /** Serialises exclusive work (writes, changesets). */
  private readonly lock = new WriteLock();
  /** Transactions opened with `begin()` that are still open, innermost last. */
  private readonly frames: { readonly depth: number; open: boolean }[] = [];

  constructor(private readonly control: FrameControl) {}

  /** See Store.begin. */
  begin(): StoreTransaction {
    const { journal } = this.control;
    journal.begin();
    const frame = { depth: journal.depth, open: true };
    this.frames.push(frame);
    const close = (): void => {
      if (!frame.open || journal.depth !== frame.depth) throw new Error('MemoryStore transactions must be closed once, innermost first.');
      frame.open = false;
      this.frames.pop();
    };
    return {
      commit: () => {
        close();
        this.control.commit();
      },
      rollback: () => {
        close();
        this.control.undo();
      },
    };
  }

  /** See Store.exclusive. */
  exclusive<T>(work: () => T | Promise<T>, scope?: object): Promise<T> {
    return this.lock.run(work, scope);
  }

  /** See Store.exclusiveSync. */
  exclusiveSync<T>(work: () => T, scope?: object): Promise<T> {
    return this.lock.runSync(work, scope);
  }

  /** See Store.transactionAsync. */
  runAsync<T>(work: () => Promise<T>, scope: object | undefined, timeout: number): Promise<T> {
    const { journal } = this.control;
    let depth = 0;
    const run = async (): Promise<T> => {
      const transaction = this.begin();
      depth = journal.depth;
      let result: T;
      try {
        result = await work();
      } catch (error) {
        transaction.rollback();
        throw error;
      }
      transaction.commit();
      return result;
    };
    // Abandoned: undo every frame from this transaction's up (a nested one may still be open).
    const abandon = (): void => {
      while (journal.depth >= depth && depth > 0) {
        const frame = this.frames.pop();
        if (frame !== undefined) frame.open = false;
        this.control.undo();
      }
    };
    return this.lock.runTransaction(run, scope, timeout, abandon);
  }
}
