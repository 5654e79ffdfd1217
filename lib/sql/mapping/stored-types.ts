/**
 * What a `columnTypes` entry says about a date/time column, read once from its SQL type name:
 * which kind of value the column stores and how many fractional-second digits it keeps. The
 * provider reads this instead of the model's Precision facet, which says what the service serves
 * (milliseconds at most): a `timestamp(6)` column is served as Precision="3" and compared at six
 * digits. SQL-standard type spellings only (`timestamp(6) without time zone`, `timestamptz`,
 * `time(0)`, `interval day to second(3)`, `date`), as PostgreSQL's format_type prints them.
 */

/** The kinds of date/time columns. */
export type StoredTemporalKind = 'date' | 'time' | 'timestamp' | 'timestamptz' | 'interval';

/** A date/time column type: its kind and stored fractional-second digits. */
export interface StoredTemporal {
  readonly kind: StoredTemporalKind;
  /** Fractional-second digits kept (0 for a date; 6, PostgreSQL's default, when the type names none). */
  readonly digits: number;
}

const DEFAULT_DIGITS = 6;

const PATTERNS: readonly (readonly [RegExp, StoredTemporalKind])[] = [
  [/^date$/, 'date'],
  [/^time(?:\s*\((\d)\))?(?:\s+without\s+time\s+zone)?$/, 'time'],
  [/^timestamp(?:\s*\((\d)\))?(?:\s+without\s+time\s+zone)?$/, 'timestamp'],
  [/^timestamp(?:\s*\((\d)\))?\s+with\s+time\s+zone$/, 'timestamptz'],
  [/^timestamptz(?:\s*\((\d)\))?$/, 'timestamptz'],
  [/^interval(?:\s+[a-z ]+?)?(?:\s*\((\d)\))?$/, 'interval'],
];

/** The date/time kind and digits of an SQL type name, or undefined for any other type (`jsonb`, an enum, `time with time zone`). */
export function storedTemporal(storedType: string): StoredTemporal | undefined {
  const name = storedType
    .trim()
    .toLowerCase()
    .replace(/^pg_catalog\./, '');
  for (const [pattern, kind] of PATTERNS) {
    const match = pattern.exec(name);
    if (match !== null) return { kind, digits: kind === 'date' ? 0 : match[1] === undefined ? DEFAULT_DIGITS : Number(match[1]) };
  }
  return undefined;
}
