/**
 * The suite catches a broken provider and says which rule it breaks: MemoryProvider with nulls
 * sorted last, an unescaped LIKE for startswith, a precondition checked after an await outside a
 * transaction, a microsecond seek behind a millisecond sort and a search with case (spec/helpers/broken-provider.ts),
 * declaring store defaults it does not keep, fails exactly the cases of those rules (and paging,
 * which nulls sorted last break too, and retried writes, which no transaction rolls back), each
 * failure naming its rule.
 */
import { MemoryProvider } from '../../lib';
import { checkDataProvider, CONFORMANCE_RULES } from '../../lib/testing';
import type { ConformanceReport } from '../../lib/testing';
import { BrokenProvider } from '../helpers/broken-provider';

describe('a deliberately broken provider', () => {
  let report: ConformanceReport;

  beforeAll(async () => {
    report = await checkDataProvider(
      ({ model, data }) => {
        const provider = new BrokenProvider(new MemoryProvider(model, data));
        return { provider, storeExact: (entities) => provider.storeExact(entities) };
      },
      { capabilities: { storeDefaults: true } },
    );
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
      new Set([
        'filter.string-literals',
        'orderby.nulls',
        'paging.skiptoken',
        'precondition.atomic',
        'timestamps.precision',
        'create.store-defaults',
        'transaction.retry',
        'query.search',
      ]),
    );
    expect(report.outcomes.length).toBeGreaterThan(300);
    expect(report.failures.length).toBeLessThan(80);
  });

  it('names the broken rule, with its statement, at the start of every failure', () => {
    for (const outcome of report.failures) {
      const rule = outcome.failure?.rule;
      expect(rule?.statement).toBe(CONFORMANCE_RULES[rule?.id ?? 'values.exact']);
      expect(outcome.failure?.message.startsWith(`Conformance rule ${rule?.id} is broken: ${rule?.statement}\n  Case: `)).toBe(true);
    }
  });

  it('reports a search with case against the search rule, with what it kept', () => {
    expect(failureOf('Items?search=APPLE')).toContain('Items?search=APPLE kept: expected [1,2], got []');
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

  it('reports the millisecond token behind a microsecond sort against the timestamp rule: entries repeated and lost', () => {
    const message = failureOf('Moments?$orderby=At in one response and page by page');
    expect(message).toMatch(
      /^Conformance rule timestamps\.precision is broken: Edm\.DateTime and Edm\.DateTimeOffset values read back, and compare in \$filter, at milliseconds/,
    );
    expect(message).toContain('walking Moments?$orderby=At (the setup stored the values with microseconds (storeExact))');
    expect(message).toMatch(/the next links never end: \d+ pages for 13 entries \(repeated \[[\d,]+\]\)/);
    expect(failureOf('Moments?$orderby=At desc in one response and page by page')).toMatch(/missing \[[\d,]+\]/);
    // A millisecond token (an earlier release's) must stand for its whole millisecond: taken as exact, it repeats entries.
    expect(failureOf("Moments?$orderby=At&$skiptoken=datetime'2024-05-01T10:00:00.123',6 (a millisecond token, as earlier releases wrote it)")).toContain(
      'gave (the setup stored the values with microseconds (storeExact)): expected [12,10,13,4,11]',
    );
    // Filters, and the order of one response (by the stored microseconds), pass; so does a microsecond token.
    expect(report.outcomes.find((outcome) => outcome.name === "Moments?$filter=At eq datetime'2024-05-01T10:00:00.123'")?.passed).toBe(true);
    expect(
      report.outcomes.find(
        (outcome) => outcome.name === "Moments?$orderby=At&$skiptoken=datetime'2024-05-01T10:00:00.123456',1 (a microsecond token: the exact value)",
      )?.passed,
    ).toBe(true);
  });

  it('reports store defaults it declares but does not keep, and single writes run again without a rollback', () => {
    expect(failureOf('POST Customers without the store-generated Joined: the store fills it, the answer says what it stored')).toMatch(
      /^Conformance rule create\.store-defaults is broken: [^]*Joined is null, expected the time of the insert/,
    );
    expect(failureOf('a single POST run twice creates one entry, with the key the answer gives')).toMatch(
      /^Conformance rule transaction\.retry is broken: [^]*Items named 'retried single': \[\d+,\d+\], expected exactly one/,
    );
    expect(failureOf('a single MERGE with If-Match run twice succeeds: the rolled-back run does not make it 412')).toContain('answered 412');
    // Changesets run in the inner provider's transaction: the retried changeset passes.
    expect(report.outcomes.find((outcome) => outcome.name.startsWith('a changeset run twice'))?.passed).toBe(true);
  });

  it('reports the check after an await against the atomic precondition rule: several writers won', () => {
    const message = failureOf('12 concurrent MERGEs with one tag: exactly one wins');
    expect(message).toMatch(/^Conformance rule precondition\.atomic is broken: The If-Match check and the write are one atomic step/);
    expect(message).toMatch(/statuses: expected \{"204":1,"412":11\}, got \{"204":\d+/);
  });
});
