/**
 * What the provider declares it lacks is refused cleanly. A request the service can route by the
 * provider's methods (a write without `create`/`update`/`delete`, a `$links` write without `link`,
 * a media resource without `readMedia`/`writeMedia`) is 405 with an `Allow` header that lists what
 * the resource takes and not the refused method (RFC 9110 §15.5.6); one only the provider can judge
 * (a media body or a dynamic property sent to a provider without them) is a 4xx. Either way,
 * nothing changes.
 */
import { expectEqual, fail, show } from '../check';
import type { HttpAnswer, ServiceClient } from '../client';
import { url } from '../client';
import { sendBatch } from '../batch';
import { FIXTURE_ROWS } from '../fixture-data';
import { jsonDate } from '../reference';
import { check } from '../suite';
import type { CaseDefinition, Capabilities, GroupDefinition } from '../suite';
import { expectLinks, expectMissing, read } from './writing';

/** The answer is 405 with an Allow header that does not list `method` (and lists GET where reads remain). */
function expectRefused(answer: HttpAnswer, method: string, path: string, reads: boolean): void {
  if (answer.status !== 405) fail(`${method} ${path} answered ${answer.status}, expected 405 Method Not Allowed: ${answer.text.slice(0, 200)}`);
  const allow = answer.headers.allow;
  if (allow === undefined) fail(`${method} ${path} answered 405 without an Allow header (RFC 9110 §15.5.6 requires one)`);
  const methods = allow
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (methods.includes(method)) fail(`${method} ${path} answered 405 with Allow: ${allow}, which lists the refused method`);
  if (reads && !methods.includes('GET'))
    fail(`${method} ${path} answered 405 with Allow: ${show(allow)}, which leaves out GET (the resource can still be read)`);
}

/** A 4xx with an OData error: what a provider answers for a part of a request it cannot store. */
function expectClientError(answer: HttpAnswer, request: string): void {
  if (answer.status < 400 || answer.status >= 500) fail(`${request} answered ${answer.status}, expected a 4xx refusal: ${answer.text.slice(0, 200)}`);
}

function refusal(method: string, path: string, body: unknown, reads = true): CaseDefinition {
  return check(`${method} ${path} is 405 with Allow`, 'capability.refused', async ({ service }) => {
    const answer =
      body === undefined
        ? await service.send(method, url(path), { headers: { 'if-match': '*' } })
        : await service.sendJson(method, url(path), body, { 'if-match': '*' });
    expectRefused(answer, method, path, reads);
  });
}

const created = jsonDate('2020-01-01T00:00:00.000Z', false);
const first = FIXTURE_ROWS.Items[0];

async function expectItemUnchanged(service: ServiceClient): Promise<void> {
  const entry = await read(service, 'Items(1)');
  expectEqual([entry.Name, entry.Note], [first.Name, first.Note], 'GET Items(1) after the refused writes: [Name, Note]');
  await expectLinks(service, 'Items(1)/Tags', 'Tags', first.Tags, 'the refused writes change no link');
  await expectLinks(service, 'Items(1)/Category', 'Categories', first.Category === null ? [] : [first.Category], 'the refused writes change no link');
}

const readOnly = [
  refusal('POST', 'Items', { ID: 500, Name: 'x', Created: created }),
  refusal('POST', 'Categories(1)/Items', { ID: 501, Name: 'x', Created: created }),
  refusal('PUT', 'Items(1)', { ID: 1, Name: 'x', Created: created }),
  refusal('MERGE', 'Items(1)', { Name: 'x' }),
  refusal('PATCH', 'Items(1)', { Name: 'x' }),
  refusal('DELETE', 'Items(1)', undefined),
  refusal('PUT', 'Items(1)/Name', { Name: 'x' }),
  refusal('DELETE', 'Items(1)/Note/$value', undefined),
  refusal('POST', 'Items(1)/$links/Tags', { uri: "Tags('z z')" }),
  check('a changeset with a write is refused and creates nothing', 'capability.refused', async ({ service }) => {
    const { parts } = await sendBatch(service, [{ changeset: [{ method: 'POST', path: 'Items', body: { ID: 502, Name: 'x', Created: created } }] }]);
    if (parts[0].statuses.length !== 1 || parts[0].statuses[0] !== 405) fail(`the changeset answered ${show(parts[0].statuses)}, expected one 405`);
    await expectMissing(service, 'Items(502)', 'the refused changeset must not create it');
  }),
  check('after the refused writes nothing has changed', 'capability.refused', async ({ service }) => {
    await expectItemUnchanged(service);
    await expectMissing(service, 'Items(500)', 'the refused POST must not create it');
  }),
];

const withoutLinks = [
  refusal('POST', 'Items(1)/$links/Tags', { uri: "Tags('z z')" }),
  refusal('DELETE', "Items(1)/$links/Tags('b')", undefined),
  refusal('PUT', 'Items(1)/$links/Category', { uri: 'Categories(2)' }),
  refusal('DELETE', 'Items(1)/$links/Category', undefined),
  check('after the refused link writes every link is as it was', 'capability.refused', async ({ service }) => expectItemUnchanged(service)),
];

const withoutMedia = (writes: boolean): CaseDefinition[] => [
  refusal('GET', 'Photos(1)/$value', undefined, false),
  refusal('PUT', 'Photos(1)/$value', undefined, false),
  ...(writes
    ? [
        check('POST Photos with a media resource is refused and creates nothing', 'capability.refused', async ({ service }) => {
          const answer = await service.send('POST', 'Photos', { headers: { 'content-type': 'image/png' }, body: Buffer.from('media') });
          expectClientError(answer, 'POST Photos with a media resource');
          const count = await service.get(url('Photos/$count'), { accept: 'text/plain' });
          expectEqual(count.text, '0', 'GET Photos/$count after the refused POST');
        }),
      ]
    : []),
];

const withoutOpenTypes = [
  check('POST Notes with a dynamic property is refused and creates nothing', 'capability.refused', async ({ service }) => {
    expectClientError(await service.sendJson('POST', url('Notes'), { ID: 50, Text: 'x', Mood: 'dynamic' }), 'POST Notes with a dynamic property');
    await expectMissing(service, 'Notes(50)', 'the refused POST must not create it');
  }),
  check('MERGE Notes(1) with a dynamic property is refused and changes nothing', 'capability.refused', async ({ service }) => {
    expectClientError(await service.sendJson('MERGE', url('Notes(1)'), { Text: 'changed', Mood: 'dynamic' }), 'MERGE Notes(1) with a dynamic property');
    expectEqual((await read(service, 'Notes(1)')).Text, FIXTURE_ROWS.Notes[0].Text, 'GET Notes(1) after the refused MERGE: Text');
  }),
];

/** The refusals to check for what `capabilities` lacks; empty when it lacks nothing. */
export function capabilityGroups(capabilities: Capabilities): GroupDefinition[] {
  const groups: GroupDefinition[] = [];
  if (!capabilities.writes) groups.push({ name: 'read-only', cases: readOnly });
  else if (!capabilities.links) groups.push({ name: 'without $links', cases: withoutLinks });
  if (!capabilities.media) groups.push({ name: 'without media', cases: withoutMedia(capabilities.writes) });
  if (!capabilities.openTypes && capabilities.writes) groups.push({ name: 'without open types', cases: withoutOpenTypes });
  return groups;
}
