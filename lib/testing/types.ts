/**
 * The public types of `express-odata-v2/testing`: what a provider author hands the suite (a setup
 * function, capabilities, a test host) and what it hands back (a report). No test framework's
 * types appear here: the host is read through the small TestHost interface.
 */
import type { DataProvider, EdmModel, MemoryData } from '../index';
import type { ConformanceFailure } from './failure';
import type { ConformanceRule } from './rules';

/** What the suite gives a setup: the fixture model and its data in MemoryProvider's data format. */
export interface ConformanceFixture {
  /** The fixture model (namespace `Conformance`); the service under test serves it. */
  readonly model: EdmModel;
  /** A fresh copy of the fixture data: entity set name to entities, links by navigation property. */
  readonly data: MemoryData;
}

/**
 * Values of one fixture entity as exact text, for a store that keeps more than the fixture data
 * carries: the `Moments` timestamps with microseconds (`2024-05-01T10:00:00.123456Z`, a
 * DateTimeOffset with its offset). The entity is already loaded from the data (with the
 * values cut to milliseconds); `storeExact` overwrites these properties.
 */
export interface ExactEntity {
  /** The entity set (`Moments`). */
  readonly entitySet: string;
  /** The entity's key values by property name (`{ ID: 3 }`). */
  readonly key: Readonly<Record<string, number | string>>;
  /** Property name to exact ISO 8601 text (6 fractional digits; a DateTime in UTC with `Z`), or null. */
  readonly values: Readonly<Record<string, string | null>>;
}

/** What a setup returns: the provider under test, serving the fixture, and how to release it. */
export interface ProviderUnderTest {
  /** The provider, loaded with the fixture data. */
  readonly provider: DataProvider;
  /** Called once the cases that used this provider are done (drop a schema, close a pool). */
  close?(): void | Promise<void>;
  /**
   * Optional, for a store that keeps timestamps with microseconds: store these values exactly
   * (`UPDATE moments SET at = $text WHERE id = $key`). Called once after the setup, before any case.
   * Left out, the store keeps the millisecond values of the data (as a JavaScript `Date` does) and
   * the `timestamps` cases check the millisecond rule on those; given, they check that values
   * within one millisecond compare, sort and page as equal (docs/conformance.md "Timestamps").
   */
  storeExact?(entities: readonly ExactEntity[]): void | Promise<void>;
  /**
   * Optional, for a provider whose `transaction` runs its work again after a retryable failure:
   * make its next transaction fail once with such an error just before it commits (PostgreSQL:
   * raise SQLSTATE 40001 in a `beforeCommit` hook), so that it rolls back and runs the work again.
   * The `transaction retry` cases call it, then check that the work ran twice and that the writes
   * and the answer are those of one run. Left out, the suite makes the retry itself: it runs the
   * work inside `provider.transaction`, rolls that back by throwing, and calls `transaction` again.
   */
  retryNextTransaction?(): void | Promise<void>;
  /**
   * For a provider that declares `rowVisibility`: two request contexts, told apart by headers, and
   * the Items and Categories each may see (the `row visibility` groups). Every other row, and every
   * row for a request without those headers, is visible as usual.
   */
  readonly visibility?: RowVisibility;
}

/** Two request contexts and the rows each may see (`ProviderUnderTest.visibility`). */
export interface RowVisibility {
  /** The two contexts, each seeing different rows, so a case can tell one's rows from the other's. */
  readonly contexts: readonly [VisibleRows, VisibleRows];
}

/** One request context of `RowVisibility`. */
export interface VisibleRows {
  /** Headers every request of the context carries; the provider tells the contexts apart by them (`context.request.headers`). */
  readonly headers: Readonly<Record<string, string>>;
  /** The IDs of the Items the context may see: the others do not exist for it. */
  readonly items: readonly number[];
  /** The IDs of the Categories the context may see. */
  readonly categories: readonly number[];
}

/**
 * Builds a provider over a fresh copy of the fixture. Called once for all read cases, and once per
 * group of writing cases (each starts from the fixture data): eight times at most.
 */
export type ProviderSetup = (fixture: ConformanceFixture) => ProviderUnderTest | Promise<ProviderUnderTest>;

/**
 * What the provider can do; everything but `storeDefaults` defaults to true. For what it declares it lacks, the suite
 * checks instead that the service refuses such requests cleanly (405 with `Allow`, or 4xx) and
 * that nothing changes.
 */
export interface ProviderCapabilities {
  /** create, update and delete. False: a read-only provider (which also implies no links, no media writes). */
  readonly writes?: boolean;
  /** `$links` writes (the provider's `link` method). */
  readonly links?: boolean;
  /** Media link entries: `readMedia`, `writeMedia` and creating entries from a media resource. */
  readonly media?: boolean;
  /** Dynamic properties of open types. */
  readonly openTypes?: boolean;
  /**
   * Opt-in, default false: the store fills omitted columns with its own defaults (the provider
   * writes a create's `values` as they are, not `fillDefaults` of them). The setup then gives
   * `Customers.Joined` (store-generated) the default `now()`, and the suite checks that a create
   * without it answers the time of the insert; without it, that Joined stays null.
   */
  readonly storeDefaults?: boolean;
  /**
   * Opt-in, default false: requests see only some rows, by their context (a database's row-level
   * security through SqlProvider's `session`). The setup then returns `visibility`, and the
   * `row visibility` groups check that hidden rows do not exist for a request.
   */
  readonly rowVisibility?: boolean;
}

/**
 * The test-registration functions of the host framework: jest's and vitest's globals fit as they
 * are; for mocha pass `{ describe, it, beforeAll: before, afterAll: after }`.
 */
export interface TestHost {
  /** Group tests under a name. */
  describe(name: string, body: () => void): void;
  /** One test; `timeout` in milliseconds. */
  it(name: string, body: () => Promise<void>, timeout?: number): void;
  /** Runs before the tests of the enclosing group. */
  beforeAll(body: () => Promise<void>, timeout?: number): void;
  /** Runs after the tests of the enclosing group, also when some failed. */
  afterAll(body: () => Promise<void>, timeout?: number): void;
}

/** Options of `checkDataProvider` and `describeDataProvider`. */
export interface ConformanceOptions {
  /** What the provider lacks; omitted capabilities are assumed. */
  readonly capabilities?: ProviderCapabilities;
  /** Only these groups (names as in the report, e.g. `$filter`, `changesets`); default all. */
  readonly groups?: readonly string[];
  /** Milliseconds one case, one setup or one close may take. Default 30,000. */
  readonly timeout?: number;
  /** `describeDataProvider` only: the test framework's functions; default its globals. */
  readonly host?: TestHost;
}

/** The outcome of one case. */
export interface ConformanceCaseOutcome {
  /** The group (`$filter`, `paging`, `links`...). */
  readonly group: string;
  /** The case, as the test is named (`$filter=Rank lt 3`). */
  readonly name: string;
  /** The rule the case checks. */
  readonly rule: ConformanceRule;
  /** True when the provider passed it. */
  readonly passed: boolean;
  /** Why it failed: the broken rule (which may be more specific than `rule`) and what was seen. */
  readonly failure?: ConformanceFailure;
  /** Milliseconds the case took. */
  readonly durationMs: number;
}

/** What `checkDataProvider` returns. */
export interface ConformanceReport {
  /** True when every case passed. */
  readonly ok: boolean;
  /** Every case that ran, in order. */
  readonly outcomes: readonly ConformanceCaseOutcome[];
  /** The failed ones. */
  readonly failures: readonly ConformanceCaseOutcome[];
}
