/**
 * The suite catches a broken provider and says which rule it breaks: MemoryProvider with nulls
 * sorted last, an unescaped LIKE for startswith and a precondition checked after an await
 * (spec/helpers/broken-provider.ts) fails exactly the cases of those rules (and paging, which
 * nulls sorted last break too), each failure naming its rule.
 */
import { MemoryProvider } from '../../lib';
import { checkDataProvider, CONFORMANCE_RULES } from '../../lib/testing';
import type { ConformanceReport } from '../../lib/testing';
import { BrokenProvider } from '../helpers/broken-provider';

describe('a deliberately broken provider', () => {
  let report: ConformanceReport;

  beforeAll(async () => {
    report = await checkDataProvider(({ model, data }) => ({ provider: new BrokenProvider(new MemoryProvider(model, data)) }));
  }, 60_000);

  function failureOf(name: string): string {
    const outcome = report.outcomes.find((candidate) => candidate.name === name);
    if (outcome === undefined) throw new Error(`no case named ${name}`);
    expect(outcome.passed).toBe(false);
    return outcome.failure?.message ?? '';
  }

  it('fails the suite, and only the cases of the rules it breaks', () => {
    expect(report.ok).toBe(false);
    expect(new Set(report.failures.map((outcome) => outcome.failure?.rule.id))).toEqual(
      new Set(['filter.string-literals', 'orderby.nulls', 'paging.skiptoken', 'precondition.atomic']),
    );
    expect(report.outcomes.length).toBeGreaterThan(300);
    expect(report.failures.length).toBeLessThan(60);
  });

  it('names the broken rule, with its statement, at the start of every failure', () => {
    for (const outcome of report.failures) {
      const rule = outcome.failure?.rule;
      expect(rule?.statement).toBe(CONFORMANCE_RULES[rule?.id ?? 'values.exact']);
      expect(outcome.failure?.message.startsWith(`Conformance rule ${rule?.id} is broken: ${rule?.statement}\n  Case: `)).toBe(true);
    }
  });

  it('reports the unescaped LIKE against the literal rule, with what it kept', () => {
    expect(failureOf("Items?$filter=startswith(Name, '100%')")).toContain("Items?$filter=startswith(Name, '100%') kept: expected [7], got [7,8]");
    expect(failureOf("Items?$filter=startswith(Name, 'a_')")).toMatch(
      /^Conformance rule filter\.string-literals is broken: .*'%', '_' and '\\' are ordinary characters/,
    );
  });

  it('reports nulls sorted last against the nulls rule, not the value order', () => {
    const message = failureOf('Items?$orderby=Rank desc');
    expect(message).toMatch(/^Conformance rule orderby\.nulls is broken: In \$orderby a null sorts before every value/);
    expect(message).toContain('(the nulls are on the wrong end)');
    // Orderings whose only difference is where the nulls go still fail as nulls, descending too.
    expect(failureOf('Customers?$orderby=Address/City desc')).toMatch(/^Conformance rule orderby\.nulls/);
    // Orderings without nulls pass.
    expect(report.outcomes.find((outcome) => outcome.name === 'Items?$orderby=Name')?.passed).toBe(true);
  });

  it('reports the paging walk that loses the nulls: which entries are missing', () => {
    expect(failureOf('Items?$orderby=Rank page by page')).toContain('missing [3,6,10]');
  });

  it('reports the check after an await against the atomic precondition rule: several writers won', () => {
    const message = failureOf('12 concurrent MERGEs with one tag: exactly one wins');
    expect(message).toMatch(/^Conformance rule precondition\.atomic is broken: The If-Match check and the write are one atomic step/);
    expect(message).toMatch(/statuses: expected \{"204":1,"412":11\}, got \{"204":\d+/);
  });
});
