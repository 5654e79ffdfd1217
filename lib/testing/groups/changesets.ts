/**
 * `$batch` changesets are atomic: three writes of different kinds, with the failing one first,
 * in the middle or last (a taken key, a stale If-Match, a violated required link, which a store
 * may only see at commit), leave nothing behind; a changeset that succeeds persists every write,
 * Content-ID references included, and a retrieve after it sees them.
 */
import { expectEqual, fail, show } from '../check';
import { sendBatch } from '../batch';
import type { BatchRequest } from '../batch';
import { FIXTURE_ROWS } from '../fixture-data';
import { jsonDate } from '../reference';
import { check } from '../suite';
import type { CaseDefinition, GroupDefinition } from '../suite';
import { bind, expectLinks, expectMissing, linked, read } from './writing';

const created = jsonDate('2022-02-02T00:00:00.000Z', false);

/** The three good writes of the k-th case: a create, an update and a link (as a binding, which needs no `$links` support). */
function goodWrites(k: number): BatchRequest[] {
  return [
    { method: 'POST', path: 'Items', body: { ID: 200 + k, Name: `changeset ${k}`, Created: created } },
    { method: 'MERGE', path: 'Items(9)', body: { Note: `changeset ${k}` } },
    { method: 'MERGE', path: 'Items(8)', body: { Tags: [bind("Tags('α')")] } },
  ];
}

const FAILURES: readonly { readonly kind: string; readonly request: BatchRequest; readonly statuses: readonly number[] }[] = [
  { kind: 'a taken key', request: { method: 'POST', path: 'Items', body: { ID: 1, Name: 'taken', Created: created } }, statuses: [409] },
  {
    kind: 'a stale If-Match',
    request: { method: 'MERGE', path: 'Customers(1)', body: { Name: 'stale' }, headers: { 'If-Match': 'W/"stale"' } },
    statuses: [412],
  },
  { kind: 'a missing required link', request: { method: 'POST', path: 'Orders', body: { Region: 'CS', Number: '1' } }, statuses: [400, 409] },
];

function atomicCase(position: number, failure: (typeof FAILURES)[number]): CaseDefinition {
  const k = position + 1;
  return check(`a changeset whose operation ${k} of 4 fails (${failure.kind}) persists none of them`, 'changeset.atomic', async ({ service }) => {
    const operations = goodWrites(k);
    operations.splice(position, 0, failure.request);
    const { parts } = await sendBatch(service, [{ changeset: operations }]);
    const statuses = parts[0].statuses;
    if (statuses.length !== 1 || !failure.statuses.includes(statuses[0])) {
      fail(
        `the changeset answered ${show(statuses)}, expected one response with ${failure.statuses.join(' or ')} for the whole changeset: ${parts[0].text.slice(0, 300)}`,
      );
    }
    await expectMissing(service, `Items(${200 + k})`, `operation of a failed changeset`);
    expectEqual(
      (await read(service, 'Items(9)')).Note,
      FIXTURE_ROWS.Items.find((item) => item.ID === 9)?.Note,
      'GET Items(9) after the failed changeset: Note',
    );
    const tags = await linked(service, 'Items(8)/Tags', 'Tags');
    if (tags.includes('α')) fail(`GET Items(8)/Tags lists 'α': the link of the failed changeset persisted`);
    await expectMissing(service, "Orders(Region='CS',Number=1L)", 'operation of a failed changeset');
  });
}

const atomic = FAILURES.map((failure, index) => atomicCase(index === 0 ? 0 : index === 1 ? 2 : 3, failure));

const committed = check('a changeset that succeeds persists every operation, $1 references included', 'changeset.atomic', async ({ service }) => {
  const { parts } = await sendBatch(service, [
    {
      changeset: [
        { method: 'POST', path: 'Customers', body: { ID: 400, Name: 'batched' }, contentId: '1' },
        { method: 'POST', path: '$1/Orders', body: { Region: 'BATCH', Number: '1' } },
        { method: 'MERGE', path: 'Items(10)', body: { Note: 'batched' } },
        { method: 'DELETE', path: 'Items(14)' },
        { method: 'MERGE', path: 'Items(12)', body: { Tags: [bind("Tags('b')")] } },
      ],
    },
    { get: 'Customers(400)/Orders' },
  ]);
  expectEqual(parts[0].statuses, [201, 201, 204, 204, 204], 'the statuses of the changeset');
  expectEqual(parts[1].statuses, [200], 'the status of the retrieve after it');
  if (!parts[1].text.includes('BATCH')) fail(`the retrieve after the changeset does not see its order: ${parts[1].text.slice(0, 300)}`);
  await expectLinks(service, 'Customers(400)/Orders', 'Orders', ['BATCH/1'], 'the order created through $1');
  expectEqual((await read(service, 'Items(10)')).Note, 'batched', 'GET Items(10): Note');
  await expectMissing(service, 'Items(14)', 'deleted in the changeset');
  await expectLinks(
    service,
    'Items(12)/Tags',
    'Tags',
    ['b', ...(FIXTURE_ROWS.Items.find((item) => item.ID === 12)?.Tags ?? [])],
    'the link added in the changeset',
  );
});

/** Changeset atomicity. */
export const changesetGroups: readonly GroupDefinition[] = [{ name: 'changesets', cases: [...atomic, committed] }];
