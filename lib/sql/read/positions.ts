/**
 * `QueryResult.positionOf` of a read: where a returned entity stands in the request's order, from
 * the row it was decoded from (ReadStatement.positionOf), so the service writes the next link
 * without another statement. A streamed feed keeps only its last two chunks' rows: the service asks
 * for the last entity of a page, which it read at most one entity before it stopped reading.
 */
import type { Entity } from '../../provider/types';
import type { SkipTokenPosition } from '../../uri/types';
import type { DecodedRow } from './projection';
import type { ReadStatement } from './statement';

/** Rows as read, with the driver's rows they were decoded from (in the same order). */
export interface RowsRead {
  readonly rows: readonly DecodedRow[];
  readonly raws: readonly Readonly<Record<string, unknown>>[];
}

/** The positions of the rows a read returned last (see the module comment). */
export class RowPositions {
  private recent: readonly RowsRead[] = [];

  constructor(private readonly statement: ReadStatement) {}

  /** Rows read now: they and the rows read just before them keep their positions. */
  add(read: RowsRead): void {
    const previous = this.recent[this.recent.length - 1];
    this.recent = previous === undefined ? [read] : [previous, read];
  }

  /** The position of an entity of the recent rows; undefined for any other. */
  readonly of = (entity: Entity): SkipTokenPosition | undefined => {
    for (let chunk = this.recent.length - 1; chunk >= 0; chunk--) {
      const { rows, raws } = this.recent[chunk];
      // From the end: the service asks for the last entity of a page, one of the last read.
      for (let i = rows.length - 1; i >= 0; i--) if (rows[i].entity === entity) return this.statement.positionOf(raws[i], rows[i]);
    }
    return undefined;
  };
}
