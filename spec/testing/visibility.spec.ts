/**
 * The row visibility groups can fail: MemoryProvider shows every row to every request, so a setup
 * that declares two contexts with some rows hidden fails every case of both groups, each naming
 * its rule (visibility.reads, visibility.writes); a setup that declares the capability but no
 * contexts fails every case with what to return. SqlProvider with policies passes them
 * (spec/sql/provider/conformance-session.spec.ts).
 */
import { MemoryProvider } from '../../lib';
import { checkDataProvider } from '../../lib/testing';

const GROUPS = ['row visibility', 'row visibility writes'];

it('fails every case for a provider that shows hidden rows, naming the rule', async () => {
  const report = await checkDataProvider(
    ({ model, data }) => ({
      provider: new MemoryProvider(model, data),
      visibility: {
        contexts: [
          { headers: { 'x-context': 'a' }, items: [1, 3, 5, 7, 9, 11, 13], categories: [1, 2] },
          { headers: { 'x-context': 'b' }, items: [1, 4, 5, 8, 9, 11, 14], categories: [1, 3, 4] },
        ],
      },
    }),
    { capabilities: { rowVisibility: true }, groups: GROUPS },
  );
  expect(report.outcomes).toHaveLength(16);
  expect(report.failures.map((outcome) => [outcome.group, outcome.failure?.rule.id])).toEqual([
    ...Array.from({ length: 12 }, () => ['row visibility', 'visibility.reads']),
    ...Array.from({ length: 4 }, () => ['row visibility writes', 'visibility.writes']),
  ]);
  expect(report.failures[0].failure?.message).toContain('GET Items: the IDs: expected [1,3,5,7,9,11,13], got [1,2,3,4,5,6,7,8,9,10,11,12,13,14]');
}, 60_000);

it('fails every case, saying what to return, for a setup that declares the capability and no contexts', async () => {
  const report = await checkDataProvider(({ model, data }) => ({ provider: new MemoryProvider(model, data) }), {
    capabilities: { rowVisibility: true },
    groups: GROUPS,
  });
  expect(report.failures).toHaveLength(16);
  expect(report.failures.every((outcome) => outcome.failure?.message.includes('the setup declares rowVisibility but returns no visibility'))).toBe(true);
}, 60_000);

it('plans no row visibility cases without the capability', async () => {
  await expect(checkDataProvider(({ model, data }) => ({ provider: new MemoryProvider(model, data) }), { groups: GROUPS })).resolves.toEqual({
    ok: true,
    outcomes: [],
    failures: [],
  });
});
