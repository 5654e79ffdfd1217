/**
 * The Moments of the conformance fixture: Edm.DateTime and Edm.DateTimeOffset values with
 * microseconds (Precision 6), many within one millisecond, so that paging over them breaks when a
 * store sorts by the full value while the `$skiptoken` carries milliseconds. The rows keep
 * the exact text; the fixture data carries each value cut to milliseconds toward the past (what a
 * JavaScript `Date` holds), and a store that keeps microseconds gets the exact text through the
 * setup's `storeExact`.
 */
import { milliseconds } from './reference';
import type { ExactEntity } from './types';

/** A Moment: ISO 8601 text with six fractional digits (DateTime in UTC, DateTimeOffset with its offset). */
export interface MomentRow {
  readonly ID: number;
  readonly At: string;
  readonly AtOffset: string | null;
}

// At: seven values within 10:00:00.123 (two equal to the microsecond), one on each side, two
// before 1970 whose millisecond is the one before (toward the past, not toward zero), one just
// after 1970 and one at the end of the range. AtOffset: six within 10:00:00.500 UTC written with
// three offsets, two within .499, nulls.
export const MOMENTS: readonly MomentRow[] = [
  { ID: 1, At: '2024-05-01T10:00:00.123456Z', AtOffset: '2024-05-01T12:00:00.500250+02:00' },
  { ID: 2, At: '2024-05-01T10:00:00.123000Z', AtOffset: null },
  { ID: 3, At: '2024-05-01T10:00:00.123999Z', AtOffset: '2024-05-01T10:00:00.500999Z' },
  { ID: 4, At: '2024-05-01T10:00:00.124001Z', AtOffset: '2024-05-01T10:00:00.500000Z' },
  { ID: 5, At: '2024-05-01T10:00:00.122999Z', AtOffset: null },
  { ID: 6, At: '2024-05-01T10:00:00.123456Z', AtOffset: '2024-05-01T05:00:00.499999-05:00' },
  { ID: 7, At: '1969-12-31T23:59:59.999500Z', AtOffset: '1969-12-31T23:59:59.999999Z' },
  { ID: 8, At: '1969-12-31T23:59:59.999999Z', AtOffset: '2024-05-01T10:00:00.501001Z' },
  { ID: 9, At: '1970-01-01T00:00:00.000001Z', AtOffset: '2024-05-01T10:00:00.500001Z' },
  { ID: 10, At: '2024-05-01T10:00:00.123457Z', AtOffset: null },
  { ID: 11, At: '9999-12-31T23:59:59.999999Z', AtOffset: '2024-05-01T10:00:00.500500Z' },
  { ID: 12, At: '2024-05-01T10:00:00.123001Z', AtOffset: '2024-05-01T11:00:00.500100+01:00' },
  { ID: 13, At: '2024-05-01T10:00:00.123998Z', AtOffset: '2024-05-01T10:00:00.499000Z' },
];

/** ISO 8601 text cut to milliseconds toward the past, in UTC (`…T10:00:00.123Z`). */
function toMilliseconds(iso: string): string {
  return new Date(milliseconds(iso)).toISOString();
}

/** The Moments in the fixture data's format: values cut to milliseconds. */
export function momentData(): Record<string, unknown>[] {
  return MOMENTS.map((moment) => ({
    ID: moment.ID,
    At: toMilliseconds(moment.At),
    AtOffset: moment.AtOffset === null ? null : toMilliseconds(moment.AtOffset),
  }));
}

/** The exact values `storeExact` is given. */
export function exactEntities(): ExactEntity[] {
  return MOMENTS.map((moment) => ({ entitySet: 'Moments', key: { ID: moment.ID }, values: { At: moment.At, AtOffset: moment.AtOffset } }));
}
