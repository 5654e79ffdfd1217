/**
 * serve's paging and limit options as one table: each row names a limit of `odata({ limits })`
 * (DEFAULT_LIMITS gives its default, which the help shows) and the range the command line takes.
 * A limit the library leaves unset by default (`maxTop`, `providerTimeout`) takes 0 for "none".
 */
import { DEFAULT_LIMITS, type ServiceLimits } from '../index';
import { integerOption, type OptionSpec, type ParsedOptions } from './arguments';

/**
 * serve's page size unless told otherwise: server-driven paging keeps every feed (and the
 * `$expand` of a page, which `maxExpandedEntities` bounds) to a size a client and the service can
 * hold, and clients that follow next links (SAPUI5, the SAP Cloud SDK) read the rest page by page.
 */
const DEFAULT_PAGE_SIZE = 1000;

/** setTimeout's longest delay (a 32-bit count of milliseconds). */
const MAX_MILLISECONDS = 2_147_483_647;

/** One limit option: the option, the limit it sets, what it counts, and its largest value. */
interface LimitRow {
  readonly option: string;
  readonly limit: keyof ServiceLimits;
  readonly value: '<n>' | '<bytes>' | '<ms>';
  readonly help: string;
  readonly max: number;
}

const LIMITS: readonly LimitRow[] = [
  { option: 'max-top', limit: 'maxTop', value: '<n>', help: 'The largest $top a client may ask for', max: 1_000_000_000 },
  { option: 'max-expand-depth', limit: 'maxExpandDepth', value: '<n>', help: 'The most segments of one $expand path', max: 1000 },
  { option: 'max-expand-breadth', limit: 'maxExpandBreadth', value: '<n>', help: 'The most $expand paths in one request', max: 1000 },
  {
    option: 'max-expanded-entities',
    limit: 'maxExpandedEntities',
    value: '<n>',
    help: 'The most entries one response writes inside expanded navigation properties',
    max: 1_000_000_000,
  },
  { option: 'max-filter-length', limit: 'maxFilterLength', value: '<n>', help: 'The longest $filter, in characters', max: 1_000_000 },
  { option: 'max-filter-depth', limit: 'maxFilterDepth', value: '<n>', help: 'The deepest nesting of a $filter expression', max: 1000 },
  { option: 'max-search-terms', limit: 'maxSearchTerms', value: '<n>', help: "The most terms in SAP's search option", max: 10_000 },
  { option: 'max-body-size', limit: 'maxBodyBytes', value: '<bytes>', help: 'The largest request body or $batch, in bytes', max: 1_000_000_000_000 },
  { option: 'max-batch-parts', limit: 'maxBatchParts', value: '<n>', help: 'The most parts (requests and changesets) in a $batch', max: 100_000 },
  { option: 'max-changeset-operations', limit: 'maxChangesetOperations', value: '<n>', help: 'The most operations in one changeset', max: 100_000 },
  {
    option: 'provider-timeout',
    limit: 'providerTimeout',
    value: '<ms>',
    help: "How long the service waits for one request's database work before it answers 503",
    max: MAX_MILLISECONDS,
  },
  {
    option: 'body-timeout',
    limit: 'bodyTimeout',
    value: '<ms>',
    help: 'How long a request body may take to arrive before the answer is 408',
    max: MAX_MILLISECONDS,
  },
];

/** `default 100`, `none by default, or with 0`. */
function defaultOf(row: LimitRow): string {
  const value = DEFAULT_LIMITS[row.limit];
  return value === undefined ? 'none by default, or with 0' : `default ${value}`;
}

/** serve's paging and limit options, in the order of the help. */
export const LIMIT_OPTIONS: readonly OptionSpec[] = [
  {
    name: 'max-page-size',
    kind: 'string',
    value: '<n>',
    help: `Server-driven paging: at most n entries per feed page, with a next link to the rest (default ${DEFAULT_PAGE_SIZE}; 0 turns paging off).`,
  },
  ...LIMITS.map((row): OptionSpec => ({ name: row.option, kind: 'string', value: row.value, help: `${row.help} (${defaultOf(row)}).` })),
];

/** What the paging and limit options give `odata(...)`. */
export interface ServiceBounds {
  /** undefined: no paging (--max-page-size 0). */
  readonly maxPageSize: number | undefined;
  /** The limits given; the others keep the library's defaults. */
  readonly limits: Partial<ServiceLimits>;
}

/** The paging and limit options, checked (a value out of range is a UsageError naming the option). */
export function serviceBounds(command: string, options: ParsedOptions): ServiceBounds {
  const pageSize = integerOption(command, options, 'max-page-size', 0, 1_000_000, DEFAULT_PAGE_SIZE);
  const limits: Partial<Record<keyof ServiceLimits, number>> = {};
  for (const row of LIMITS) {
    const optional = DEFAULT_LIMITS[row.limit] === undefined;
    const value = integerOption(command, options, row.option, optional ? 0 : 1, row.max);
    // 0 for a limit that is unset by default: unset, as by default.
    if (value !== undefined && value !== 0) limits[row.limit] = value;
  }
  return { maxPageSize: pageSize === 0 ? undefined : pageSize, limits };
}
