/**
 * The suite's own machinery: which units and groups run for which capabilities, how setups are
 * called and released, how failures of a setup, a hung provider or a provider error are
 * reported, bad options, and registration through an injected test host.
 */
import { MemoryProvider } from '../../lib';
import type { DataProvider } from '../../lib';
import { checkDataProvider, conformanceData, conformanceModel, describeDataProvider } from '../../lib/testing';
import type { ConformanceFixture, ProviderSetup, TestHost } from '../../lib/testing';

const memory: ProviderSetup = ({ model, data }) => ({ provider: new MemoryProvider(model, data) });

describe('checkDataProvider', () => {
  it('sets up one provider per unit, over a fresh copy of the fixture, and closes each one', async () => {
    const fixtures: ConformanceFixture[] = [];
    let closed = 0;
    const report = await checkDataProvider(
      (fixture) => {
        fixtures.push(fixture);
        return { provider: new MemoryProvider(fixture.model, fixture.data), close: () => void closed++ };
      },
      { groups: ['keys', 'create', '$links', 'preconditions', 'changesets', 'media resources'] },
    );
    expect(report.ok).toBe(true);
    expect(new Set(report.outcomes.map((outcome) => outcome.group))).toEqual(
      new Set(['keys', 'create', '$links', 'preconditions', 'changesets', 'media resources']),
    );
    expect([fixtures.length, closed]).toEqual([6, 6]);
    expect(fixtures[0].data).not.toBe(fixtures[1].data);
    expect(fixtures[0].model).toBe(conformanceModel());
    expect(fixtures[0].data).toEqual(conformanceData());
  });

  it('runs no writing unit for a read-only provider, and checks its refusals instead', async () => {
    const report = await checkDataProvider(memory, { capabilities: { writes: false } });
    const groups = new Set(report.outcomes.map((outcome) => outcome.group));
    expect(groups.has('$filter nulls') && groups.has('paging') && groups.has('read-only')).toBe(true);
    expect(['create', '$links', 'preconditions', 'changesets', 'media resources', 'open type writes'].filter((group) => groups.has(group))).toEqual([]);
    // MemoryProvider writes what it is told it cannot: the refusal cases catch it.
    expect(report.failures.map((outcome) => outcome.group)).toContain('read-only');
    expect(report.failures.every((outcome) => outcome.failure?.rule.id === 'capability.refused')).toBe(true);
    expect(report.failures.find((outcome) => outcome.name === 'POST Items is 405 with Allow')?.failure?.message).toContain(
      'POST Items answered 201, expected 405 Method Not Allowed',
    );
    // Every read group in one test: the hang guard of a whole suite (as spec/testing/visibility.spec.ts), not the default 20 s.
  }, 120_000);

  it('gives the setup data without dynamic properties when open types are lacking', async () => {
    let data: ConformanceFixture['data'] | undefined;
    await checkDataProvider(
      (fixture) => {
        data = fixture.data;
        return { provider: new MemoryProvider(fixture.model, fixture.data) };
      },
      { capabilities: { openTypes: false }, groups: ['keys'] },
    );
    expect(data?.Notes).toEqual(conformanceData().Notes.map((note) => ({ ID: note.ID, Text: note.Text })));
  });

  it('fails every case of a unit whose setup fails, naming the setup error, and goes on with the others', async () => {
    let calls = 0;
    const report = await checkDataProvider(
      (fixture) => {
        calls++;
        if (calls === 1) throw new Error('no database');
        return { provider: new MemoryProvider(fixture.model, fixture.data) };
      },
      { groups: ['keys', 'create'] },
    );
    const reads = report.outcomes.filter((outcome) => outcome.group === 'keys');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((outcome) => !outcome.passed && outcome.failure?.message.includes('The provider could not be set up: no database'))).toBe(true);
    expect(report.outcomes.filter((outcome) => outcome.group === 'create').every((outcome) => outcome.passed)).toBe(true);
  });

  it('refuses a setup result without a provider', async () => {
    const report = await checkDataProvider(() => ({ provider: {} as DataProvider }), { groups: ['keys'] });
    expect(report.failures[0].failure?.message).toContain('must return { provider, close? } with a DataProvider');
  });

  it('reports what the service logged when the provider throws', async () => {
    const report = await checkDataProvider(
      ({ model, data }) => {
        const inner = new MemoryProvider(model, data);
        return { provider: { query: () => Promise.reject(new Error('connection reset')), count: (request, context) => inner.count(request, context) } };
      },
      { groups: ['keys'], capabilities: { writes: false, media: false } },
    );
    const message = report.failures.find((outcome) => outcome.name === 'GET Items(7)')?.failure?.message ?? '';
    expect(message).toContain('GET Items(7) answered 500');
    expect(message).toContain('The service logged: 500 GET Items(7): Error: connection reset');
  });

  it('fails a case whose provider never answers after the timeout', async () => {
    const report = await checkDataProvider(() => ({ provider: { query: () => new Promise(() => undefined) } }), {
      groups: ['$filter type functions'],
      capabilities: { writes: false, media: false },
      timeout: 100,
    });
    expect(report.failures.length).toBe(report.outcomes.length);
    expect(report.failures[0].failure?.message).toContain('The case did not finish within 100 ms');
  });

  it.each([
    [{ groups: ['$filtre'] }, "unknown groups '$filtre'; the groups are 'values', 'keys'"],
    [{ timeout: 0 }, 'timeout must be a positive number of milliseconds'],
  ])('refuses bad options %j', async (options, message) => {
    await expect(checkDataProvider(memory, options)).rejects.toThrow(message);
  });

  it('refuses a setup that is not a function', async () => {
    await expect(checkDataProvider(undefined as unknown as ProviderSetup)).rejects.toThrow('setup must be a function');
  });
});

describe('describeDataProvider', () => {
  it('registers units, groups and cases through the given host, and runs them', async () => {
    const names: string[] = [];
    const tests: { name: string; body: () => Promise<void> }[] = [];
    const hooks: { before: (() => Promise<void>)[]; after: (() => Promise<void>)[] } = { before: [], after: [] };
    const path: string[] = [];
    const host: TestHost = {
      describe: (name, body) => {
        path.push(name);
        names.push(path.join(' › '));
        body();
        path.pop();
      },
      it: (name, body) => void tests.push({ name: [...path, name].join(' › '), body }),
      beforeAll: (body) => void hooks.before.push(body),
      afterAll: (body) => void hooks.after.push(body),
    };
    describeDataProvider('memory', memory, { host, groups: ['keys', 'counts'] });
    expect(names).toEqual(['memory', 'memory › reads', 'memory › reads › keys', 'memory › reads › counts']);
    expect(tests.map((test) => test.name)).toContain('memory › reads › keys › GET Items(7)');
    await hooks.before[0]();
    try {
      for (const test of tests) await test.body();
    } finally {
      await hooks.after[0]();
    }
  });

  it('throws a TypeError that says what to do when there is no test host', () => {
    const globals = globalThis as Record<string, unknown>;
    const saved = globals.beforeAll;
    delete globals.beforeAll;
    try {
      expect(() => describeDataProvider('memory', memory)).toThrow(
        'describeDataProvider: no beforeAll global; run it inside jest or vitest (with globals), or pass options.host',
      );
    } finally {
      globals.beforeAll = saved;
    }
  });
});
