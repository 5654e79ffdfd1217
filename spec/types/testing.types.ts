/** express-odata-v2/testing: the conformance suite as a provider author calls it. */
import { MemoryProvider } from 'express-odata-v2';
import {
  checkDataProvider,
  conformanceData,
  conformanceModel,
  describeDataProvider,
  type ConformanceReport,
  type ExactEntity,
  type ProviderSetup,
} from 'express-odata-v2/testing';
import { expectType } from './expect.types';

const setup: ProviderSetup = (fixture) => ({ provider: new MemoryProvider(fixture.model, fixture.data) });
describeDataProvider('MemoryProvider', setup, { capabilities: { writes: true } });
describeDataProvider('async setup', async () => ({ provider: new MemoryProvider(conformanceModel(), conformanceData()), close: () => Promise.resolve() }));

// The optional hooks: exact microsecond values to store, a retry to inject; store defaults opted into.
describeDataProvider(
  'hooks',
  (fixture) => ({
    provider: new MemoryProvider(fixture.model, fixture.data),
    storeExact: (entities) => {
      expectType<readonly ExactEntity[]>()(entities);
      expectType<string | null | undefined>()(entities[0]?.values.At);
    },
    retryNextTransaction: () => undefined,
  }),
  { capabilities: { storeDefaults: true } },
);
// @ts-expect-error: storeExact is given entities, not text
describeDataProvider('bad hook', (fixture) => ({ provider: new MemoryProvider(fixture.model), storeExact: (text: string) => void text }));

async function report(): Promise<void> {
  expectType<ConformanceReport>()(await checkDataProvider(setup));
}

// @ts-expect-error: the setup returns { provider }, not the provider itself
describeDataProvider('bare', () => new MemoryProvider(conformanceModel()));
// @ts-expect-error: unknown capability
describeDataProvider('caps', setup, { capabilities: { teleport: false } });

void report;
