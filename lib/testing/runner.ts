/**
 * `checkDataProvider` (run every case, report each outcome) and `describeDataProvider` (register
 * the same cases as tests of the host framework). Both plan the same units and run cases with
 * the same code (execute.ts).
 */
import { describeCaught } from '../util';
import { closeUnit, openUnit, runCase } from './execute';
import type { OpenUnit } from './execute';
import { failureOf } from './failure';
import { allGroupNames, planSuite } from './plan';
import { ruleOf } from './rules';
import { resolveCapabilities } from './suite';
import type { Capabilities, UnitDefinition } from './suite';
import type { ConformanceCaseOutcome, ConformanceOptions, ConformanceReport, ProviderSetup, TestHost } from './types';

const DEFAULT_TIMEOUT = 30_000;

interface Resolved {
  readonly capabilities: Capabilities;
  readonly units: UnitDefinition[];
  readonly timeout: number;
}

function resolve(setup: ProviderSetup, options: ConformanceOptions, caller: string): Resolved {
  if (typeof setup !== 'function') throw new TypeError(`${caller}: setup must be a function (fixture) => { provider, close? }`);
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  if (!(Number.isFinite(timeout) && timeout > 0)) throw new TypeError(`${caller}: timeout must be a positive number of milliseconds`);
  if (options.groups !== undefined) {
    const known = allGroupNames();
    const unknown = options.groups.filter((name) => !known.includes(name));
    if (unknown.length > 0)
      throw new TypeError(
        `${caller}: unknown groups ${unknown.map((name) => `'${name}'`).join(', ')}; the groups are ${known.map((name) => `'${name}'`).join(', ')}`,
      );
  }
  const capabilities = resolveCapabilities(options.capabilities);
  return { capabilities, units: planSuite(capabilities, options.groups), timeout };
}

/** The name a case's test and failure carry: `unit › group › case`. */
function caseName(unit: string, group: string, name: string): string {
  return `${unit} › ${group} › ${name}`;
}

/**
 * Run the conformance suite against the provider `setup` builds and report every case's outcome.
 * Never throws for a failing provider (a failed setup fails the cases of its unit); throws a
 * TypeError for bad options.
 */
export async function checkDataProvider(setup: ProviderSetup, options: ConformanceOptions = {}): Promise<ConformanceReport> {
  const { capabilities, units, timeout } = resolve(setup, options, 'checkDataProvider');
  const outcomes: ConformanceCaseOutcome[] = [];
  for (const planned of units) {
    let open: OpenUnit | undefined;
    let setupError: unknown;
    try {
      open = await openUnit(setup, capabilities, timeout, planned.name);
    } catch (error) {
      setupError = error;
    }
    try {
      for (const group of planned.groups) {
        for (const definition of group.cases) {
          const name = caseName(planned.name, group.name, definition.name);
          const started = performance.now();
          let failure;
          if (open === undefined) {
            failure = failureOf(
              new Error(`The provider could not be set up: ${describeCaught(setupError).message ?? describeCaught(setupError).summary}`),
              definition.rule,
              name,
              [],
            );
          } else {
            failure = await runCase(open, definition, name, timeout);
          }
          const outcome = { group: group.name, name: definition.name, rule: ruleOf(definition.rule), durationMs: performance.now() - started };
          outcomes.push(failure === undefined ? { ...outcome, passed: true } : { ...outcome, passed: false, failure });
        }
      }
    } finally {
      await closeUnit(open, timeout, planned.name);
    }
  }
  const failures = outcomes.filter((outcome) => !outcome.passed);
  return { ok: failures.length === 0, outcomes, failures };
}

const HOST_FUNCTIONS = ['describe', 'it', 'beforeAll', 'afterAll'] as const;

type Callable = (...args: unknown[]) => unknown;

function isCallable(value: unknown): value is Callable {
  return typeof value === 'function';
}

/** The host framework's functions: given, or jest's/vitest's globals. */
function hostOf(given: TestHost | undefined): TestHost {
  if (given !== undefined) return given;
  // The host's globals are not in our types (the public declarations must not need @types/jest):
  // read them as unknowns and check each one.
  const globals = globalThis as Record<string, unknown>;
  const [describe, it, beforeAll, afterAll] = HOST_FUNCTIONS.map((name) => globals[name]);
  if (!isCallable(describe) || !isCallable(it) || !isCallable(beforeAll) || !isCallable(afterAll)) {
    const missing = HOST_FUNCTIONS.filter((name) => !isCallable(globals[name]));
    throw new TypeError(`describeDataProvider: no ${missing.join(', ')} global; run it inside jest or vitest (with globals), or pass options.host`);
  }
  return {
    describe: (name, body) => void describe(name, body),
    it: (name, body, timeout) => void it(name, body, timeout),
    beforeAll: (body, timeout) => void beforeAll(body, timeout),
    afterAll: (body, timeout) => void afterAll(body, timeout),
  };
}

/**
 * Register the conformance suite as tests of the host framework (jest, vitest, or `options.host`):
 * a `describe(name)` with one nested describe per unit and group, one test per case. A failing
 * test's message names the broken rule.
 */
export function describeDataProvider(name: string, setup: ProviderSetup, options: ConformanceOptions = {}): void {
  const { capabilities, units, timeout } = resolve(setup, options, 'describeDataProvider');
  const host = hostOf(options.host);
  host.describe(name, () => {
    for (const planned of units) {
      host.describe(planned.name, () => {
        let open: OpenUnit | undefined;
        host.beforeAll(async () => {
          open = await openUnit(setup, capabilities, timeout, planned.name);
        }, timeout);
        host.afterAll(async () => {
          await closeUnit(open, timeout, planned.name);
          open = undefined;
        }, timeout);
        for (const group of planned.groups) {
          host.describe(group.name, () => {
            for (const definition of group.cases) {
              host.it(
                definition.name,
                async () => {
                  if (open === undefined) throw new Error(`The '${planned.name}' provider was not set up (see the error of its beforeAll)`);
                  const failure = await runCase(open, definition, caseName(planned.name, group.name, definition.name), timeout);
                  if (failure !== undefined) throw failure;
                },
                timeout,
              );
            }
          });
        }
      });
    }
  });
}
