/**
 * Running the suite's pieces, shared by the programmatic runner and the test registration: open
 * a unit (setup over a fresh fixture, then the service), run one case (a failure becomes a
 * ConformanceFailure naming the rule), close the unit.
 */
import { fixtureData } from './fixture-data';
import { exactEntities } from './fixture-moments';
import { fixtureModel } from './fixture-model';
import { failureOf } from './failure';
import type { ConformanceFailure } from './failure';
import { startService } from './harness';
import type { ServiceUnderTest } from './harness';
import { withRetryControl } from './retry';
import type { RetryControl } from './retry';
import type { CaseDefinition, Capabilities } from './suite';
import type { ProviderSetup, ProviderUnderTest } from './types';

/** A unit's provider and the service over it. */
export interface OpenUnit {
  readonly underTest: ProviderUnderTest;
  readonly service: ServiceUnderTest;
  readonly capabilities: Capabilities;
  /** True when the setup stored the exact timestamps (`storeExact`). */
  readonly exactTimestamps: boolean;
  readonly retry: RetryControl;
}

/** `work`, or a rejection after `timeout` ms saying what did not finish. */
async function withTimeout<T>(work: () => T | Promise<T>, timeout: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${timeout} ms`)), timeout);
  });
  try {
    return await Promise.race([Promise.resolve().then(work), expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** Set up a provider over a fresh copy of the fixture and serve it. */
export async function openUnit(setup: ProviderSetup, capabilities: Capabilities, timeout: number, unit: string): Promise<OpenUnit> {
  const model = fixtureModel();
  const data = fixtureData({ openTypes: capabilities.openTypes });
  const underTest = await withTimeout(() => setup({ model, data }), timeout, `The setup of the '${unit}' provider`);
  if (underTest === null || typeof underTest !== 'object' || typeof underTest.provider?.query !== 'function') {
    throw new TypeError(`The setup of the '${unit}' provider must return { provider, close? } with a DataProvider (one with query) as provider`);
  }
  try {
    const exactTimestamps = underTest.storeExact !== undefined;
    if (underTest.storeExact !== undefined) {
      const entities = exactEntities();
      await withTimeout(() => underTest.storeExact?.(entities), timeout, `Storing the exact values of the '${unit}' provider (storeExact)`);
    }
    const { provider, retry } = withRetryControl(underTest);
    return { underTest, service: await startService(model, provider), capabilities, exactTimestamps, retry };
  } catch (error) {
    await underTest.close?.();
    throw error;
  }
}

/** Stop the service, then let the provider go. */
export async function closeUnit(unit: OpenUnit | undefined, timeout: number, name: string): Promise<void> {
  if (unit === undefined) return;
  try {
    await unit.service.close();
  } finally {
    if (unit.underTest.close !== undefined) await withTimeout(() => unit.underTest.close?.(), timeout, `Closing the '${name}' provider`);
  }
}

/** Run one case: undefined when it passed, else the failure naming the broken rule. */
export async function runCase(unit: OpenUnit, definition: CaseDefinition, caseName: string, timeout: number): Promise<ConformanceFailure | undefined> {
  unit.service.takeLogged();
  try {
    await withTimeout(
      () =>
        definition.run({
          service: unit.service.service,
          paged: unit.service.paged,
          capabilities: unit.capabilities,
          exactTimestamps: unit.exactTimestamps,
          retry: unit.retry,
          visibility: unit.underTest.visibility,
        }),
      timeout,
      'The case',
    );
    return undefined;
  } catch (error) {
    return failureOf(error, definition.rule, caseName, unit.service.takeLogged());
  }
}
