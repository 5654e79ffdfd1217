/**
 * SqlProvider's links beyond the conformance suite, over HTTP on PGlite:
 * - a link kept as a foreign-key column on a row with a `ConcurrencyMode="Fixed"` version is part
 *   of that row: `$links` writes and bindings that set or clear it bump the version in the same
 *   statement (the old ETag then gets 412); a join-table link moves no token, and neither does the
 *   row the foreign key points to;
 * - a required end (`1`) kept in a join table is counted before COMMIT: a create without it, the
 *   removal of its last link and the delete of the partner it needs are 409 CONSTRAINT_VIOLATION
 *   with nothing written, while replacing the link, or adding it later in the same changeset, is fine.
 */
import express from 'express';
import { defineModel, odata } from '../../../lib';
import { SqlProvider, createSchema, pglite, seed, type SqlMappingOverrides, type SqlDatabase } from '../../../lib/sql';
import { batchBody, changeset, operation, readBatchResponse, send as sendRaw, statuses } from '../../helpers/batch-http';
import { startServer, type RunningServer } from '../../helpers/server';
import type { PGlite } from '@electric-sql/pglite';
import { openTestPGlite } from '../../helpers/pglite';

const nonNull = { nullable: false } as const;

const model = defineModel({
  namespace: 'Links',
  entityTypes: [
    {
      name: 'Team',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Name', type: 'Edm.String' },
        { name: 'Version', type: 'Edm.Int32', ...nonNull, concurrencyMode: 'Fixed' },
      ],
      navigationProperties: [{ name: 'Members', relationship: 'Links.Team_Members', fromRole: 'Team', toRole: 'Members' }],
    },
    {
      name: 'Member',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Name', type: 'Edm.String' },
        { name: 'Version', type: 'Edm.Int32', ...nonNull, concurrencyMode: 'Fixed' },
      ],
      navigationProperties: [
        { name: 'Team', relationship: 'Links.Team_Members', fromRole: 'Members', toRole: 'Team' },
        { name: 'Department', relationship: 'Links.Member_Department', fromRole: 'Members', toRole: 'Department' },
      ],
    },
    {
      name: 'Department',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Name', type: 'Edm.String' },
      ],
      navigationProperties: [{ name: 'Members', relationship: 'Links.Member_Department', fromRole: 'Department', toRole: 'Members' }],
    },
  ],
  associations: [
    {
      name: 'Team_Members',
      ends: [
        { role: 'Team', type: 'Links.Team', multiplicity: '0..1' },
        { role: 'Members', type: 'Links.Member', multiplicity: '*' },
      ],
    },
    {
      name: 'Member_Department',
      ends: [
        { role: 'Department', type: 'Links.Department', multiplicity: '1' },
        { role: 'Members', type: 'Links.Member', multiplicity: '*' },
      ],
    },
  ],
  entityContainers: [
    {
      name: 'LinksService',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Teams', entityType: 'Links.Team' },
        { name: 'Members', entityType: 'Links.Member' },
        { name: 'Departments', entityType: 'Links.Department' },
      ],
      associationSets: [
        {
          name: 'Team_Members',
          association: 'Links.Team_Members',
          ends: [
            { role: 'Team', entitySet: 'Teams' },
            { role: 'Members', entitySet: 'Members' },
          ],
        },
        {
          name: 'Member_Department',
          association: 'Links.Member_Department',
          ends: [
            { role: 'Department', entitySet: 'Departments' },
            { role: 'Members', entitySet: 'Members' },
          ],
        },
      ],
    },
  ],
});

let instance: PGlite;
let db: SqlDatabase;

beforeAll(async () => {
  instance = await openTestPGlite();
  db = pglite(instance);
});
let schemas = 0;
let server: RunningServer;

afterAll(() => instance.close());

beforeEach(async () => {
  // Team_Members by convention (a foreign key on Members); the required Department end in a join table.
  const mapping: SqlMappingOverrides = { schema: `links${++schemas}`, associationSets: { Member_Department: { kind: 'joinTable' } } };
  await createSchema(db, model, mapping);
  await seed(db, model, mapping, {
    Teams: [
      { ID: 1, Name: 'red', Version: 0 },
      { ID: 2, Name: 'blue', Version: 0 },
    ],
    Members: [
      { ID: 1, Name: 'Ada', Version: 0, Team: 1, Department: 1 },
      { ID: 2, Name: 'Bob', Version: 0, Team: 1, Department: 1 },
    ],
    Departments: [
      { ID: 1, Name: 'R&D' },
      { ID: 2, Name: 'Sales' },
    ],
  });
  const app = express();
  app.use('/odata', odata({ model, provider: new SqlProvider({ model, db, mapping }), logger: () => undefined }));
  server = await startServer(app);
});

afterEach(() => server.close());

interface Answer {
  readonly status: number;
  readonly etag: string | null;
  readonly body: unknown;
}

async function send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${server.url}/odata/${path}`, {
    method,
    headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, etag: response.headers.get('etag'), body: text === '' ? undefined : JSON.parse(text) };
}

const uri = (path: string): { uri: string } => ({ uri: `${server.url}/odata/${path}` });
const etagOf = async (path: string): Promise<string | null> => (await send('GET', path)).etag;
const errorOf = (answer: Answer): unknown => (answer.body as { error: { code: string; message: { value: string } } }).error;

describe('a link kept as a foreign key on a row with a version', () => {
  it('$links PUT from the row that holds the key bumps its version: the old ETag gets 412, the new one writes', async () => {
    const before = await etagOf('Members(1)');
    const team = await etagOf('Teams(2)');
    expect(before).toBe('W/"0"');
    expect((await send('PUT', 'Members(1)/$links/Team', uri('Teams(2)'))).status).toBe(204);
    expect(await etagOf('Members(1)')).toBe('W/"1"');
    expect(await etagOf('Teams(2)')).toBe(team);
    expect((await send('MERGE', 'Members(1)', { Name: 'stale' }, { 'if-match': 'W/"0"' })).status).toBe(412);
    expect((await send('MERGE', 'Members(1)', { Name: 'fresh' }, { 'if-match': 'W/"1"' })).status).toBe(204);
    expect(await etagOf('Members(1)')).toBe('W/"2"');
  });

  it('$links DELETE of the key bumps the version of the row that held it', async () => {
    expect((await send('DELETE', 'Members(1)/$links/Team')).status).toBe(204);
    expect(await etagOf('Members(1)')).toBe('W/"1"');
    expect(await etagOf('Members(2)')).toBe('W/"0"');
  });

  it('$links from the other end (the key on the target row): adding and removing bump the target, not the source', async () => {
    expect((await send('POST', 'Teams(2)/$links/Members', uri('Members(2)'))).status).toBe(204);
    expect([await etagOf('Members(2)'), await etagOf('Members(1)'), await etagOf('Teams(2)')]).toEqual(['W/"1"', 'W/"0"', 'W/"0"']);
    expect((await send('DELETE', 'Teams(2)/$links/Members(2)')).status).toBe(204);
    expect(await etagOf('Members(2)')).toBe('W/"2"');
  });

  it('a binding in a POST through the other end bumps the entry it links (its row changes)', async () => {
    const created = await send('POST', 'Teams', { ID: 3, Name: 'green', Members: [{ __metadata: uri('Members(2)') }] });
    expect(created.status).toBe(201);
    expect(await etagOf('Members(2)')).toBe('W/"1"');
    expect(await etagOf('Teams(3)')).toBe('W/"0"');
  });

  it('a join-table link moves no token', async () => {
    expect((await send('PUT', 'Members(1)/$links/Department', uri('Departments(2)'))).status).toBe(204);
    expect(await etagOf('Members(1)')).toBe('W/"0"');
  });
});

describe('a required end (multiplicity 1) kept in a join table', () => {
  const required = (key: number, count: number): string =>
    `Members(${key}) must be linked to exactly one entity of 'Departments' over 'Department' (multiplicity 1), but has ${count}.`;

  it('POST without it is 409 CONSTRAINT_VIOLATION and creates nothing; with it, 201', async () => {
    const refused = await send('POST', 'Members', { ID: 9, Name: 'Cy', Version: 0 });
    expect([refused.status, errorOf(refused)]).toEqual([409, { code: 'CONSTRAINT_VIOLATION', message: { lang: 'en-US', value: required(9, 0) } }]);
    expect((await send('GET', 'Members(9)')).status).toBe(404);
    expect((await send('POST', 'Members', { ID: 9, Name: 'Cy', Version: 0, Department: { __metadata: uri('Departments(2)') } })).status).toBe(201);
    expect(((await send('GET', 'Members(9)/Department')).body as { d: { ID: number } }).d.ID).toBe(2);
  });

  it('removing its last link is 409 and changes nothing; replacing it is fine', async () => {
    const refused = await send('DELETE', 'Members(1)/$links/Department');
    expect([refused.status, errorOf(refused)]).toEqual([409, { code: 'CONSTRAINT_VIOLATION', message: { lang: 'en-US', value: required(1, 0) } }]);
    expect((await send('DELETE', 'Departments(1)/$links/Members(1)')).status).toBe(409);
    expect(((await send('GET', 'Members(1)/Department')).body as { d: { ID: number } }).d.ID).toBe(1);
    expect((await send('PUT', 'Members(1)/$links/Department', uri('Departments(2)'))).status).toBe(204);
    expect(((await send('GET', 'Members(1)/Department')).body as { d: { ID: number } }).d.ID).toBe(2);
  });

  it('deleting the partner members need is 409 naming each, and deletes nothing', async () => {
    const refused = await send('DELETE', 'Departments(1)');
    expect([refused.status, errorOf(refused)]).toEqual([
      409,
      { code: 'CONSTRAINT_VIOLATION', message: { lang: 'en-US', value: `${required(1, 0)} ${required(2, 0)}` } },
    ]);
    expect((await send('GET', 'Departments(1)/Members/$count')).body).toBe(2);
    expect((await send('DELETE', 'Departments(2)')).status).toBe(204);
  });

  it('a changeset may create the member and link it in a later operation: counted at commit', async () => {
    const json = { 'Content-Type': 'application/json', Accept: 'application/json' };
    const body = batchBody([
      changeset(
        'changeset_1',
        operation('POST', 'Members', { headers: json, body: JSON.stringify({ ID: 7, Name: 'Di', Version: 0 }) }),
        operation('PUT', 'Members(7)/$links/Department', { headers: json, body: JSON.stringify(uri('Departments(2)')) }),
      ),
      changeset('changeset_2', operation('POST', 'Members', { headers: json, body: JSON.stringify({ ID: 8, Name: 'Ed', Version: 0 }) })),
    ]);
    const answer = readBatchResponse(await sendRaw(`${server.url}/odata/$batch`, 'POST', { 'content-type': 'multipart/mixed; boundary=batch_1' }, body));
    expect(statuses(answer)).toEqual([[201, 204], 409]);
    expect((await send('GET', 'Members(7)')).status).toBe(200);
    expect((await send('GET', 'Members(8)')).status).toBe(404);
  });
});
