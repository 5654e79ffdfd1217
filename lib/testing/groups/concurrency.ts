/**
 * Preconditions and concurrent writers. Customers carry a ConcurrencyMode="Fixed" version: every
 * successful write changes the entity tag, a stale one is 412, a missing entity 404. Of concurrent
 * writers with one tag exactly one wins, which only holds when the check and the write are one
 * atomic step.
 */
import { sendBatch } from '../batch';
import { entryOf, expectEqual, expectStatus, fail, isObject, show } from '../check';
import type { HttpAnswer, ServiceClient } from '../client';
import { url } from '../client';
import { jsonDate } from '../reference';
import { check } from '../suite';
import type { GroupDefinition } from '../suite';
import { expectMissing, read, send } from './writing';

/** Concurrent writers per race: enough that an unguarded check lets several through. */
const WRITERS = 12;

/** The entity tag of an entry, from the ETag header (equal to `__metadata.etag`). */
async function etagOf(service: ServiceClient, path: string): Promise<string> {
  const target = url(path);
  const answer = await service.get(target);
  const entry = entryOf(answer, `GET ${target}`);
  const tag = answer.headers.etag;
  if (tag === undefined) fail(`GET ${target} answered no ETag header for a type with a ConcurrencyMode="Fixed" property`);
  const metadata = entry.__metadata;
  const inPayload = isObject(metadata) ? metadata.etag : undefined;
  expectEqual(inPayload, tag, `GET ${target}: __metadata.etag equals the ETag header`);
  return tag;
}

const checks = [
  check('a write with the current tag succeeds and changes the tag; the old tag is then 412', 'precondition.check', async ({ service }) => {
    const first = await etagOf(service, 'Customers(1)');
    const answer = await send(service, 'MERGE', 'Customers(1)', { Name: 'first write' }, 204, { 'if-match': first });
    const second = await etagOf(service, 'Customers(1)');
    if (second === first) fail(`the entity tag is still ${first} after a successful MERGE`);
    if (answer.headers.etag !== undefined) expectEqual(answer.headers.etag, second, 'the ETag of the MERGE answer is the new tag');
    await send(service, 'MERGE', 'Customers(1)', { Name: 'stale write' }, 412, { 'if-match': first });
    expectEqual((await read(service, 'Customers(1)')).Name, 'first write', 'GET Customers(1) after the stale MERGE: Name');
    await send(service, 'PUT', 'Customers(1)', { ID: 1, Name: 'second write' }, 204, { 'if-match': second });
  }),
  check('a stale tag on DELETE is 412 and deletes nothing; the current one deletes', 'precondition.check', async ({ service }) => {
    const tag = await etagOf(service, 'Customers(3)');
    await send(service, 'PATCH', 'Customers(3)', { Tier: 9 }, 204, { 'if-match': tag });
    await send(service, 'DELETE', 'Customers(3)', undefined, 412, { 'if-match': tag });
    expectEqual((await read(service, 'Customers(3)')).Tier, 9, 'GET Customers(3) after the stale DELETE: Tier');
    await send(service, 'DELETE', 'Customers(3)', undefined, 204, { 'if-match': await etagOf(service, 'Customers(3)') });
  }),
  check('a property write changes the tag', 'precondition.check', async ({ service }) => {
    const tag = await etagOf(service, 'Customers(2)');
    await send(service, 'PUT', 'Customers(2)/Name', { Name: 'renamed' }, 204, { 'if-match': tag });
    if ((await etagOf(service, 'Customers(2)')) === tag) fail(`the entity tag is still ${tag} after PUT Customers(2)/Name`);
    await send(service, 'PUT', 'Customers(2)/Name', { Name: 'stale' }, 412, { 'if-match': tag });
  }),
  check('If-Match: * writes any existing entity', 'precondition.check', async ({ service }) => {
    await send(service, 'MERGE', 'Customers(4)', { Status: 'star' }, 204, { 'if-match': '*' });
    expectEqual((await read(service, 'Customers(4)')).Status, 'star', 'GET Customers(4): Status');
  }),
  check('a write to a missing entity is 404, never 412, whatever its If-Match', 'precondition.check', async ({ service }) => {
    const tag = await etagOf(service, 'Customers(4)');
    await send(service, 'MERGE', 'Customers(999)', { Name: 'nobody' }, 404, { 'if-match': tag });
    await send(service, 'MERGE', 'Customers(999)', { Name: 'nobody' }, 404, { 'if-match': '*' });
    await send(service, 'DELETE', 'Customers(999)', undefined, 404, { 'if-match': tag });
  }),
  check('If-Match with a list of tags passes when one is current, and is 412 when none is', 'precondition.check', async ({ service }) => {
    await send(service, 'POST', 'Customers', { ID: 310, Name: 'listed' }, 201);
    const first = await etagOf(service, 'Customers(310)');
    await send(service, 'MERGE', 'Customers(310)', { Name: 'second' }, 204, { 'if-match': first });
    const second = await etagOf(service, 'Customers(310)');
    await send(service, 'MERGE', 'Customers(310)', { Name: 'third' }, 204, { 'if-match': `${first}, ${second}` });
    await send(service, 'MERGE', 'Customers(310)', { Name: 'stale list' }, 412, { 'if-match': `${first}, ${second}` });
    expectEqual((await read(service, 'Customers(310)')).Name, 'third', 'GET Customers(310) after the stale list: Name');
  }),
  check('a tag that is not one the service wrote for the type matches nothing: 412, nothing changes', 'precondition.check', async ({ service }) => {
    await send(service, 'POST', 'Customers', { ID: 311, Name: 'shapes' }, 201);
    const current = await etagOf(service, 'Customers(311)');
    // Not an Int32, two values for one token, a spelling of the value the service never writes (W/"01"), no quotes.
    const padded = current.replace(/"(\d+)"$/, '"0$1"');
    if (padded === current) fail(`the entity tag of Customers(311) is ${current}, expected W/"n" for its Int32 Version`);
    for (const tag of ['W/"abc"', 'W/"1,2"', padded, current.replace(/^W\/"|"$/g, '')]) {
      await send(service, 'MERGE', 'Customers(311)', { Name: `tag ${tag}` }, 412, { 'if-match': tag });
      await send(service, 'DELETE', 'Customers(311)', undefined, 412, { 'if-match': tag });
    }
    expectEqual((await read(service, 'Customers(311)')).Name, 'shapes', 'GET Customers(311) after the writes with tags of another shape: Name');
    if ((await etagOf(service, 'Customers(311)')) !== current) fail('the entity tag of Customers(311) changed although every write was refused');
  }),
  check('a specific tag for a type without a concurrency token is 400 and changes nothing', 'precondition.check', async ({ service }) => {
    const answer = await service.sendJson('MERGE', url('Items(5)'), { Note: 'tagged' }, { 'if-match': 'W/"1"' });
    expectStatus(answer, 400, 'MERGE Items(5) with If-Match W/"1" (Items have no ConcurrencyMode="Fixed" property)');
    const note = (await read(service, 'Items(5)')).Note;
    if (note === 'tagged') fail('GET Items(5): the refused MERGE wrote Note');
  }),
  check('a write with the tag of an entity deleted since is 404, never 412', 'precondition.check', async ({ service }) => {
    await send(service, 'POST', 'Customers', { ID: 312, Name: 'vanishing' }, 201);
    const tag = await etagOf(service, 'Customers(312)');
    await send(service, 'DELETE', 'Customers(312)', undefined, 204, { 'if-match': tag });
    await send(service, 'MERGE', 'Customers(312)', { Name: 'gone' }, 404, { 'if-match': tag });
    await send(service, 'PUT', 'Customers(312)', { ID: 312, Name: 'gone' }, 404, { 'if-match': tag });
    await send(service, 'PUT', 'Customers(312)/Name', { Name: 'gone' }, 404, { 'if-match': tag });
    await send(service, 'DELETE', 'Customers(312)', undefined, 404, { 'if-match': tag });
    await expectMissing(service, 'Customers(312)', 'no write may bring it back');
  }),
  check('If-None-Match with the current tag on a read is 304', 'precondition.check', async ({ service }) => {
    const tag = await etagOf(service, 'Customers(4)');
    expectStatus(await service.get(url('Customers(4)'), { 'if-none-match': tag }), 304, 'GET Customers(4) with If-None-Match: the current tag');
  }),
];

/** Send `count` requests at once. */
function race(count: number, start: (index: number) => Promise<HttpAnswer>): Promise<HttpAnswer[]> {
  return Promise.all(Array.from({ length: count }, (_unused, index) => start(index)));
}

function statuses(answers: readonly HttpAnswer[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const answer of answers) out[answer.status] = (out[answer.status] ?? 0) + 1;
  return out;
}

const atomic = [
  check(`${WRITERS} concurrent MERGEs with one tag: exactly one wins`, 'precondition.atomic', async ({ service }) => {
    const tag = await etagOf(service, 'Customers(4)');
    const answers = await race(WRITERS, (index) => service.sendJson('MERGE', url('Customers(4)'), { Name: `writer ${index}` }, { 'if-match': tag }));
    expectEqual(statuses(answers), { 204: 1, 412: WRITERS - 1 }, `${WRITERS} MERGE Customers(4) with If-Match ${tag}: statuses`);
    const winner = answers.findIndex((answer) => answer.status === 204);
    expectEqual((await read(service, 'Customers(4)')).Name, `writer ${winner}`, 'GET Customers(4) after the race: the winner wrote Name');
  }),
  check(`${WRITERS} concurrent DELETEs with one tag: one deletes, the others find nothing`, 'precondition.atomic', async ({ service }) => {
    await send(service, 'POST', 'Customers', { ID: 300, Name: 'doomed' }, 201);
    const tag = await etagOf(service, 'Customers(300)');
    const answers = await race(WRITERS, () => service.send('DELETE', url('Customers(300)'), { headers: { 'if-match': tag } }));
    expectEqual(statuses(answers), { 204: 1, 404: WRITERS - 1 }, `${WRITERS} DELETE Customers(300) with If-Match ${tag}: statuses`);
  }),
  check(`${WRITERS} concurrent PUTs of a property with one tag: exactly one wins`, 'precondition.atomic', async ({ service }) => {
    await send(service, 'POST', 'Customers', { ID: 301, Name: 'contested' }, 201);
    const tag = await etagOf(service, 'Customers(301)');
    const answers = await race(WRITERS, (index) => service.sendJson('PUT', url('Customers(301)/Status'), { Status: `status ${index}` }, { 'if-match': tag }));
    expectEqual(statuses(answers), { 204: 1, 412: WRITERS - 1 }, `${WRITERS} PUT Customers(301)/Status with If-Match ${tag}: statuses`);
    const winner = answers.findIndex((answer) => answer.status === 204);
    expectEqual((await read(service, 'Customers(301)')).Status, `status ${winner}`, 'GET Customers(301) after the race: the winner wrote Status');
  }),
  check(`${WRITERS} concurrent MERGEs and DELETEs with one tag: exactly one wins`, 'precondition.atomic', async ({ service }) => {
    await send(service, 'POST', 'Customers', { ID: 302, Name: 'merge or delete' }, 201);
    const tag = await etagOf(service, 'Customers(302)');
    const answers = await race(WRITERS, (index) =>
      index % 2 === 0
        ? service.sendJson('MERGE', url('Customers(302)'), { Name: `writer ${index}` }, { 'if-match': tag })
        : service.send('DELETE', url('Customers(302)'), { headers: { 'if-match': tag } }),
    );
    const winner = answers.findIndex((answer) => answer.status === 204);
    const deleted = winner % 2 === 1;
    // After a MERGE won every other writer meets a new tag (412); after a DELETE won, no entity (404).
    expectEqual(
      statuses(answers),
      { 204: 1, [deleted ? 404 : 412]: WRITERS - 1 },
      `${WRITERS} MERGE and DELETE Customers(302) with If-Match ${tag}: statuses (the winner was ${winner < 0 ? 'none' : deleted ? 'a DELETE' : 'a MERGE'})`,
    );
    if (deleted) await expectMissing(service, 'Customers(302)', 'a DELETE won the race');
    else expectEqual((await read(service, 'Customers(302)')).Name, `writer ${winner}`, 'GET Customers(302) after the race: the winner wrote Name');
  }),
  check('8 concurrent changesets with one tag: exactly one commits, the others leave nothing', 'precondition.atomic', async ({ service }) => {
    const changesets = 8;
    await send(service, 'POST', 'Customers', { ID: 303, Name: 'contested in batches' }, 201);
    const tag = await etagOf(service, 'Customers(303)');
    const created = jsonDate('2022-03-03T00:00:00.000Z', false);
    const answers = await Promise.all(
      Array.from({ length: changesets }, (_unused, index) =>
        sendBatch(service, [
          {
            changeset: [
              { method: 'MERGE', path: 'Customers(303)', body: { Name: `batch ${index}` }, headers: { 'If-Match': tag } },
              { method: 'POST', path: 'Items', body: { ID: 140 + index, Name: `batch ${index}`, Created: created } },
            ],
          },
        ]),
      ),
    );
    const outcomes = answers.map(({ parts }) => parts[0].statuses);
    const winners = outcomes.flatMap((outcome, index) => (outcome.length === 2 && outcome[0] === 204 && outcome[1] === 201 ? [index] : []));
    const refused = outcomes.filter((outcome) => outcome.length === 1 && outcome[0] === 412).length;
    if (winners.length !== 1 || refused !== changesets - 1)
      fail(`${changesets} changesets with If-Match ${tag} answered ${show(outcomes)}: expected one [204,201] and ${changesets - 1} times [412]`);
    expectEqual((await read(service, 'Customers(303)')).Name, `batch ${winners[0]}`, 'GET Customers(303) after the race: the winning changeset wrote Name');
    for (let index = 0; index < changesets; index++) {
      if (index === winners[0]) expectEqual((await read(service, `Items(${140 + index})`)).Name, `batch ${index}`, `GET Items(${140 + index})`);
      else await expectMissing(service, `Items(${140 + index})`, `the changeset ${index} lost the race, so its POST must not persist`);
    }
  }),
];

/** Preconditions and concurrent writers. */
export const concurrencyGroups: readonly GroupDefinition[] = [
  { name: 'preconditions', cases: checks },
  { name: 'concurrent writers', cases: atomic },
];
