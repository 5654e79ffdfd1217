/**
 * Media link entries (Photos, m:HasStream) and the open type (Notes): a media resource created,
 * read back byte for byte, replaced and deleted with its entry; dynamic properties read, filtered,
 * ordered, added by MERGE, dropped by PUT, kept as null.
 */
import { entryOf, expectEqual, expectStatus, fail, isObject, show } from '../check';
import type { ServiceClient } from '../client';
import { url } from '../client';
import { readIds } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import type { NoteRow } from '../fixture-data';
import { check } from '../suite';
import type { GroupDefinition } from '../suite';
import { filterCase } from './filter-cases';
import { judgeOrder } from './ordering';
import { NOTES_BY_MOOD, NOTES_BY_PINNED } from './orderings';
import { judgeWalk, walk } from './paging';
import { read, send } from './writing';

/** Every byte value, so no text conversion can pass unnoticed. */
const BYTES = Buffer.from(Array.from({ length: 256 }, (_unused, index) => index));

/** POST a media resource; the path of the created entry (from Location). */
async function postPhoto(service: ServiceClient, body: Buffer, contentType: string): Promise<string> {
  const answer = await service.send('POST', 'Photos', { headers: { 'content-type': contentType, slug: 'conformance.bin' }, body });
  expectStatus(answer, 201, 'POST Photos with a media resource');
  const location = answer.headers.location;
  const path = location === undefined ? undefined : /\/(Photos\([^/]*\))$/.exec(location)?.[1];
  if (path === undefined) fail(`POST Photos answered Location ${show(location)}, expected .../Photos(key)`);
  const entry = entryOf(answer, 'POST Photos', 201);
  const metadata = isObject(entry.__metadata) ? entry.__metadata : {};
  expectEqual(
    [metadata.content_type, typeof metadata.media_src === 'string' && metadata.media_src.endsWith(`${path}/$value`)],
    [contentType, true],
    'POST Photos answered [content_type, media_src]',
  );
  return path;
}

async function expectMedia(service: ServiceClient, path: string, body: Buffer, contentType: string): Promise<void> {
  const answer = await service.get(url(`${path}/$value`), { accept: '*/*' });
  expectStatus(answer, 200, `GET ${path}/$value`);
  expectEqual(answer.headers['content-type'], contentType, `GET ${path}/$value: Content-Type`);
  if (!answer.body.equals(body)) fail(`GET ${path}/$value answered ${answer.body.length} bytes that differ from the ${body.length} bytes stored`);
}

const media = [
  check('POST Photos creates a media link entry whose media resource reads back byte for byte', 'media.resources', async ({ service }) => {
    const path = await postPhoto(service, BYTES, 'application/octet-stream');
    await expectMedia(service, path, BYTES, 'application/octet-stream');
  }),
  check('PUT Photos(...)/$value replaces the media resource and its type', 'media.resources', async ({ service }) => {
    const path = await postPhoto(service, Buffer.from('first'), 'image/png');
    const replaced = await service.send('PUT', url(`${path}/$value`), {
      headers: { 'content-type': 'text/plain', 'if-match': '*' },
      body: Buffer.from('second, ünïcode'),
    });
    expectStatus(replaced, 204, `PUT ${path}/$value`);
    await expectMedia(service, path, Buffer.from('second, ünïcode'), 'text/plain');
  }),
  check('MERGE of a media link entry changes its properties, not its media resource', 'media.resources', async ({ service }) => {
    const path = await postPhoto(service, BYTES, 'image/gif');
    await send(service, 'MERGE', path, { Title: 'titled' }, 204, { 'if-match': '*' });
    expectEqual((await read(service, path)).Title, 'titled', `GET ${path}: Title`);
    await expectMedia(service, path, BYTES, 'image/gif');
  }),
  check('DELETE of a media link entry deletes its media resource', 'media.resources', async ({ service }) => {
    const path = await postPhoto(service, BYTES, 'image/gif');
    await send(service, 'DELETE', path, undefined, 204, { 'if-match': '*' });
    expectStatus(await service.get(url(`${path}/$value`), { accept: '*/*' }), 404, `GET ${path}/$value after the DELETE`);
  }),
];

const { Notes } = FIXTURE_ROWS;
const notes = (keep: (note: NoteRow) => boolean): number[] => Notes.filter(keep).map((note) => note.ID);
const dynamic = (note: NoteRow, name: string) => (name in note ? note[name] : null);

const openReads = [
  check('Notes read back with their dynamic properties', 'open-types.dynamic', async ({ service }) => {
    for (const note of Notes) {
      const entry = await read(service, `Notes(${note.ID})`);
      const names = Object.keys(note);
      expectEqual(Object.fromEntries(names.map((name) => [name, entry[name]])), { ...note }, `GET Notes(${note.ID})`);
    }
  }),
  filterCase(
    'Notes',
    "Mood eq 'happy'",
    'open-types.dynamic',
    notes((note) => dynamic(note, 'Mood') === 'happy'),
  ),
  filterCase(
    'Notes',
    'Stars gt 2',
    'open-types.dynamic',
    notes((note) => {
      const stars = dynamic(note, 'Stars');
      return typeof stars === 'number' && stars > 2;
    }),
  ),
  filterCase(
    'Notes',
    'Pinned eq null',
    'open-types.dynamic',
    notes((note) => dynamic(note, 'Pinned') === null),
  ),
  filterCase(
    'Notes',
    'Colour eq null',
    'open-types.dynamic',
    notes(() => true),
  ),
  check('Notes?$orderby=Mood,ID desc sorts a dynamic property (absent is null, first)', 'open-types.dynamic', async ({ service }) => {
    judgeOrder(NOTES_BY_MOOD, await readIds(service, 'Notes', 'Notes', { $orderby: NOTES_BY_MOOD.orderby }), 'GET Notes?$orderby=Mood,ID desc gave the order');
  }),
  check('Notes?$orderby=Pinned,Stars desc (dynamic properties) page by page', 'paging.skiptoken', async ({ paged }) => {
    const { ids } = await walk(paged, 'Notes', 'Notes', { $orderby: NOTES_BY_PINNED.orderby }, NOTES_BY_PINNED.expected.length);
    judgeWalk(ids, NOTES_BY_PINNED.expected, 'walking Notes?$orderby=Pinned,Stars desc');
  }),
];

const openWrites = [
  check('MERGE adds dynamic properties; PUT drops those it does not send and keeps a sent null', 'open-types.dynamic', async ({ service }) => {
    await send(service, 'MERGE', 'Notes(3)', { Colour: 'blue', Count: 7 }, 204);
    const merged = await read(service, 'Notes(3)');
    expectEqual([merged.Text, merged.Colour, merged.Count], [Notes[2].Text, 'blue', 7], 'GET Notes(3) after the MERGE: [Text, Colour, Count]');
    await send(service, 'PUT', 'Notes(4)', { ID: 4, Text: 'rewritten', Mood: null }, 204);
    const replaced = await read(service, 'Notes(4)');
    expectEqual(
      [replaced.Text, 'Mood' in replaced, replaced.Mood, 'Pinned' in replaced],
      ['rewritten', true, null, false],
      'GET Notes(4) after the PUT: [Text, has Mood, Mood, has Pinned]',
    );
  }),
  check('POST Notes with dynamic properties stores them', 'open-types.dynamic', async ({ service }) => {
    await send(service, 'POST', 'Notes', { ID: 10, Text: 'new', Extra: 'x ü', Level: 3, On: true }, 201);
    const entry = await read(service, 'Notes(10)');
    expectEqual([entry.Extra, entry.Level, entry.On], ['x ü', 3, true], 'GET Notes(10): [Extra, Level, On]');
  }),
];

/** Media resources and open types. */
export const mediaGroups: readonly GroupDefinition[] = [{ name: 'media resources', cases: media }];
/** Reading, filtering and ordering dynamic properties of the open type. */
export const openReadGroups: readonly GroupDefinition[] = [{ name: 'open types', cases: openReads }];
/** Writing dynamic properties of the open type. */
export const openWriteGroups: readonly GroupDefinition[] = [{ name: 'open type writes', cases: openWrites }];
