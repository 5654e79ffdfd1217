/**
 * The store's undo log. Every change to a record or a link pushes its inverse; a rollback runs
 * them newest first, so the store ends exactly as it was. Frames nest: an inner frame is a
 * savepoint whose commit hands its entries to the outer frame.
 */

/** Undoes one change. Must not throw: it only restores references and link pairs. */
type UndoStep = () => void;

/** An undo log with nested frames. */
export class Journal {
  private readonly frames: UndoStep[][] = [];

  /** Open frames; 0 when no write or transaction is running. */
  get depth(): number {
    return this.frames.length;
  }

  /** Open a frame (a transaction, or a savepoint inside one). */
  begin(): void {
    this.frames.push([]);
  }

  /** Remember how to undo a change just made; a change made with no frame open is permanent. */
  record(step: UndoStep): void {
    const frame = this.frames[this.frames.length - 1];
    if (frame !== undefined) frame.push(step);
  }

  /** Close the innermost frame keeping its changes (they become the outer frame's to undo). */
  commit(): void {
    const frame = this.frames.pop();
    const outer = this.frames[this.frames.length - 1];
    if (frame !== undefined && outer !== undefined) {
      for (const step of frame) outer.push(step);
    }
  }

  /** Close the innermost frame undoing its changes, newest first. */
  rollback(): void {
    const frame = this.frames.pop();
    if (frame === undefined) return;
    for (let i = frame.length - 1; i >= 0; i--) frame[i]();
  }
}
