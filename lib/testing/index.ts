/**
 * `express-odata-v2/testing`: the conformance suite every data provider runs against itself.
 * `describeDataProvider(name, setup)` registers it in jest or vitest; `checkDataProvider(setup)`
 * runs it and reports each case. It serves the provider through `odata()` on 127.0.0.1 and checks
 * the protocol's semantics over HTTP, never the provider's internals. See docs/conformance.md.
 */
export { checkDataProvider, describeDataProvider } from './runner';
export { ConformanceFailure } from './failure';
export { CONFORMANCE_RULES } from './rules';
export type { ConformanceRule, ConformanceRuleId } from './rules';
export { fixtureModel as conformanceModel } from './fixture-model';
export { fixtureData as conformanceData } from './fixture-data';
export type { FixtureDataOptions as ConformanceDataOptions } from './fixture-data';
export type {
  ConformanceCaseOutcome,
  ConformanceFixture,
  ConformanceOptions,
  ConformanceReport,
  ExactEntity,
  ProviderCapabilities,
  ProviderSetup,
  ProviderUnderTest,
  RowVisibility,
  TestHost,
  VisibleRows,
} from './types';
