/**
 * introspect() on an existing SQLite file as an application wrote it (declared types as people
 * write them, an INTEGER PRIMARY KEY, a foreign key, a join table, a unique index, a view): the
 * EDM type of each declared type, the rowid key as store-generated, the associations, and the
 * introspected model served over the same file. Then a model's own schema (createSchema) read
 * back: the type table of docs/sql-provider.md. Last, views written through their INSTEAD OF
 * triggers (the example of docs/sql-provider.md, run as written).
 */
import { sql } from 'kysely';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { writeEdmx } from '../../../lib';
import { defineModel } from '../../../lib/edm';
import { createSchema, introspect, sqlite, type SqlDatabase } from '../../../lib/sql';
import { openSqlite } from '../../../lib/sql/sqlite/connection';
import { getJson, rows, serveModel } from '../introspect/support';

const folder = mkdtempSync(join(tmpdir(), 'odata-sqlite-introspect-'));

/** The fenced block of docs/sql-provider.md that starts with `opening` (its fence line included), without its fences. */
function docsBlock(opening: string): string {
  const markdown = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'sql-provider.md'), 'utf8');
  const start = markdown.indexOf(opening);
  const end = markdown.indexOf('\n```', start + 3);
  if (start < 0 || end < 0) throw new Error(`the block starting ${JSON.stringify(opening)} is missing from docs/sql-provider.md`);
  return markdown.slice(markdown.indexOf('\n', start) + 1, end + 1);
}
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const APP_SQL = `
  create table authors (id integer primary key, name text not null, email varchar(80), born date);
  create unique index authors_email on authors (email);
  create table books (
    id integer primary key, title text not null, price decimal(10,2), rating real, in_print boolean default 1,
    added datetime default current_timestamp, cover blob, author_id integer references authors (id) on delete cascade);
  create table tags (code text primary key, label text);
  create table book_tags (book_id integer not null references books, tag_code text not null references tags, primary key (book_id, tag_code));
  create view cheap_books as select id, title from books where price < 10;
  insert into authors values (1, 'Ann', 'ann@example.org', '1970-01-02');
  insert into books values (1, 'Odata', '9.50', 4.5, 1, '2020-01-02 03:04:05.000', x'0102', 1);
  insert into tags values ('x', 'Ex');
  insert into book_tags values (1, 'x');
`;

describe('an application’s SQLite file', () => {
  let db: SqlDatabase;

  beforeAll(() => {
    const file = join(folder, 'app.sqlite');
    const writer = openSqlite(file);
    writer.pragma('foreign_keys = ON');
    writer.prepare('select 1').all();
    for (const statement of APP_SQL.split(';').filter((text) => text.trim() !== '')) writer.prepare(statement).run();
    writer.close();
    db = sqlite(file);
  });
  afterAll(() => db.close());

  it('reads tables, declared types, keys, foreign keys and the join table as a model', async () => {
    const result = await introspect(db, { annotations: 'none', names: 'sql' });
    const types = Object.fromEntries(
      result.model.defaultContainer.entitySets.map((set) => [
        set.name,
        Object.fromEntries(
          set.entityType.properties.map((property) => [property.name, property.type.kind === 'Primitive' ? property.type.name : property.type.kind]),
        ),
      ]),
    );
    expect(types).toEqual({
      authors: { id: 'Edm.Int64', name: 'Edm.String', email: 'Edm.String', born: 'Edm.DateTime' },
      books: {
        id: 'Edm.Int64',
        title: 'Edm.String',
        price: 'Edm.Decimal',
        rating: 'Edm.Double',
        in_print: 'Edm.Boolean',
        added: 'Edm.DateTime',
        cover: 'Edm.Binary',
        author_id: 'Edm.Int64',
      },
      tags: { code: 'Edm.String', label: 'Edm.String' },
    });
    const xml = writeEdmx(result.model);
    // The join table is a many-to-many association; the foreign key a one-to-many one.
    expect(result.model.defaultContainer.associationSets.map((set) => set.name).sort()).toEqual(['book_tags', 'books_author_id_fkey']);
    expect(xml).toContain('<Property Name="email" Type="Edm.String" Nullable="true" MaxLength="80" />');
    expect(xml).toContain('<Property Name="in_print" Type="Edm.Boolean" Nullable="true" DefaultValue="true" />');
    expect(xml).toContain('<Property Name="price" Type="Edm.Decimal" Nullable="true" Precision="10" Scale="2" />');
    expect(result.mapping.entitySets.books.storeGenerated).toEqual({ id: 'identity', added: 'default' });
    // The view has no key: left out, with the warning that says how to give it one.
    expect(result.warnings.map((warning) => `${warning.code} ${warning.target}`)).toEqual(['TABLE_WITHOUT_KEY main.cheap_books']);
  });

  it('serves the introspected model over the same file', async () => {
    const { model, mapping } = await introspect(db, { annotations: 'none', names: 'sql' });
    const server = await serveModel(model, mapping, db);
    try {
      const answer = await getJson(server, 'books(1L)?$expand=author,tags');
      expect(answer.status).toBe(200);
      const [book] = rows(answer.d);
      expect(book).toMatchObject({ id: '1', title: 'Odata', price: '9.5', rating: 4.5, in_print: true, added: '/Date(1577934245000)/', cover: 'AQI=' });
      const created = await fetch(`${server.url}/odata/books`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ title: 'Next' }),
      });
      expect([created.status, ((await created.json()) as { d: { id: string } }).d.id]).toEqual([201, '2']);
    } finally {
      await server.close();
    }
  });

  it('refuses a schema other than main', async () => {
    await expect(introspect(db, { schemas: ['public'] })).rejects.toThrow("introspect: SQLite has one schema, 'main'.");
  });
});

describe('a schema createSchema made, read back', () => {
  it('gives each EDM type back, but for the ones SQLite declares alike (documented)', async () => {
    const model = defineModel({
      namespace: 'T',
      entityTypes: [
        {
          name: 'Row',
          key: ['ID'],
          properties: [
            { name: 'ID', type: 'Edm.Int32', nullable: false },
            { name: 'Binary', type: 'Edm.Binary' },
            { name: 'Boolean', type: 'Edm.Boolean' },
            { name: 'Byte', type: 'Edm.Byte' },
            { name: 'SByte', type: 'Edm.SByte' },
            { name: 'Int16', type: 'Edm.Int16' },
            { name: 'Int32', type: 'Edm.Int32' },
            { name: 'Int64', type: 'Edm.Int64' },
            { name: 'Decimal', type: 'Edm.Decimal', precision: 12, scale: 3 },
            { name: 'Single', type: 'Edm.Single' },
            { name: 'Double', type: 'Edm.Double' },
            { name: 'DateTime', type: 'Edm.DateTime' },
            { name: 'DateTimeOffset', type: 'Edm.DateTimeOffset' },
            { name: 'Time', type: 'Edm.Time' },
            { name: 'Guid', type: 'Edm.Guid' },
            { name: 'String', type: 'Edm.String' },
          ],
        },
      ],
      entityContainers: [{ name: 'C', isDefaultEntityContainer: true, entitySets: [{ name: 'Rows', entityType: 'T.Row' }] }],
    });
    const db = sqlite(':memory:');
    try {
      await createSchema(db, model);
      const result = await introspect(db, { annotations: 'none', names: 'sql' });
      const set = result.model.defaultContainer.entitySets[0];
      const back = Object.fromEntries(
        set.entityType.properties.map((property) => [property.name, property.type.kind === 'Primitive' ? property.type.name : '']),
      );
      expect(back).toEqual({
        // A generated integer key is SQLite's rowid, a 64-bit INTEGER.
        ID: 'Edm.Int64',
        Binary: 'Edm.Binary',
        Boolean: 'Edm.Boolean',
        // No one-byte types in the table: the smallest integer type.
        Byte: 'Edm.Int16',
        SByte: 'Edm.Int16',
        Int16: 'Edm.Int16',
        Int32: 'Edm.Int32',
        Int64: 'Edm.Int64',
        Decimal: 'Edm.Decimal',
        Single: 'Edm.Single',
        Double: 'Edm.Double',
        DateTime: 'Edm.DateTime',
        DateTimeOffset: 'Edm.DateTimeOffset',
        Time: 'Edm.Time',
        Guid: 'Edm.Guid',
        String: 'Edm.String',
      });
    } finally {
      await db.close();
    }
  });
});

/**
 * SQLite refuses every write to a view, but for what its INSTEAD OF triggers do: each trigger
 * makes its operation served (a POST, a PUT or MERGE, a DELETE through the trigger), and every
 * other write is sap:creatable/updatable/deletable="false" and answered 405 with `Allow`.
 */
describe.each([
  ['in memory', (): SqlDatabase => sqlite(':memory:')],
  ['on a file', (): SqlDatabase => sqlite(join(folder, 'views.sqlite'))],
])('views (%s)', (_where, open) => {
  // The example of docs/sql-provider.md ("Views and their triggers"), then views with fewer triggers.
  const VIEWS_SQL = `${docsBlock('```sql\ncreate table notes ')}
    create view plain_notes as select id, body from notes where hidden = 0;
    create view insert_notes as select id, body from notes where hidden = 0;
    create trigger "insert notes insert" instead of insert on insert_notes
      begin insert into notes (id, body) values (new.id, new.body); /* instead of delete */ end;
    -- a trigger on the table, and one whose body only mentions another operation, give a view nothing more
    create trigger notes_delete after delete on notes begin select 1; /* instead of delete */ end;
    insert into notes (id, body) values (1, 'one'), (2, 'two'), (3, 'three'), (4, 'gone')`;
  let db: SqlDatabase;

  beforeAll(async () => {
    db = open();
    for (const statement of VIEWS_SQL.split(';\n')) await sql.raw(statement).execute(db.kysely);
  });
  afterAll(() => db.close());

  const introspected = () => introspect(db, { annotations: 'none', names: 'sql', keys: { plain_notes: ['id'], insert_notes: ['id'], open_notes: ['id'] } });
  const stored = async (): Promise<[number, string, number][]> => {
    const result = await sql<{ id: number; body: string; version: number }>`select id, body, version from notes order by id`.execute(db.kysely);
    return result.rows.map((row) => [Number(row.id), row.body, Number(row.version)]);
  };

  it('marks the writes a view has an INSTEAD OF trigger for as allowed, and every other write as not', async () => {
    const xml = writeEdmx((await introspected()).model);
    const setLine = (name: string): string | undefined => xml.split('\n').find((line) => line.includes(`<EntitySet Name="${name}"`));
    expect(setLine('plain_notes')).toContain('sap:creatable="false" sap:updatable="false" sap:deletable="false"');
    expect(setLine('insert_notes')).toContain('sap:updatable="false" sap:deletable="false"');
    expect(setLine('insert_notes')).not.toContain('sap:creatable=');
    expect(setLine('open_notes')).not.toMatch(/sap:(creatable|updatable|deletable)=/);
    expect(setLine('notes')).not.toMatch(/sap:(creatable|updatable|deletable)=/);
    // The view's version column is its concurrency token, as a table's is (SQLite declares a view's columns nullable).
    expect(xml).toContain('<Property Name="version" Type="Edm.Int64" Nullable="true" ConcurrencyMode="Fixed" />');
  });

  it('writes through the triggers, answers 404 for a missing key and 412 for a stale ETag, and 405 with Allow for the other writes', async () => {
    const { model, mapping } = await introspected();
    const server = await serveModel(model, mapping, db);
    const send = async (method: string, path: string, body?: unknown, ifMatch?: string) => {
      const response = await fetch(`${server.url}/odata/${path}`, {
        method,
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(ifMatch === undefined ? {} : { 'if-match': ifMatch }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      const json = text === '' ? undefined : (JSON.parse(text) as { d?: Record<string, unknown>; error?: { code: string } });
      return { status: response.status, allow: response.headers.get('allow'), etag: response.headers.get('etag'), d: json?.d, code: json?.error?.code };
    };
    try {
      expect(await send('POST', 'plain_notes', { id: '5', body: 'five' })).toMatchObject({ status: 405, allow: 'GET' });
      expect(await send('PUT', 'plain_notes(1L)', { body: 'uno' })).toMatchObject({ status: 405, allow: 'GET' });
      expect(await send('DELETE', 'plain_notes(1L)')).toMatchObject({ status: 405, allow: 'GET' });
      expect(await send('PUT', 'insert_notes(1L)', { body: 'uno' })).toMatchObject({ status: 405, allow: 'GET' });
      expect(await send('MERGE', 'insert_notes(1L)', { body: 'uno' })).toMatchObject({ status: 405, allow: 'GET' });
      expect(await send('DELETE', 'insert_notes(1L)')).toMatchObject({ status: 405, allow: 'GET' });
      expect(await send('POST', 'insert_notes', { id: '5', body: 'five' })).toMatchObject({ status: 201, allow: null });

      // PUT and MERGE change the table through the UPDATE trigger; the version moves with each write.
      expect(await send('PUT', 'open_notes(1L)', { body: 'uno' }, 'W/"0L"')).toMatchObject({ status: 204, etag: 'W/"1L"' });
      expect(await send('MERGE', 'open_notes(2L)', { body: 'deux' }, 'W/"0L"')).toMatchObject({ status: 204, etag: 'W/"1L"' });
      // A stale tag changes nothing: 412; a key the view does not show: 404.
      expect(await send('PUT', 'open_notes(1L)', { body: 'eins' }, 'W/"0L"')).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      expect(await send('MERGE', 'open_notes(99L)', { body: 'x' }, 'W/"0L"')).toMatchObject({ status: 404, code: 'ENTITY_NOT_FOUND' });
      expect(await send('DELETE', 'open_notes(3L)', undefined, 'W/"7L"')).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
      expect(await send('DELETE', 'open_notes(99L)', undefined, '*')).toMatchObject({ status: 404, code: 'ENTITY_NOT_FOUND' });
      // DELETE removes the row through the DELETE trigger (SQLite counts no row a trigger deletes).
      expect(await send('DELETE', 'open_notes(4L)', undefined, 'W/"0L"')).toMatchObject({ status: 204 });
      expect(await send('GET', 'open_notes(1L)')).toMatchObject({ status: 200, etag: 'W/"1L"', d: { id: '1', body: 'uno', version: '1' } });
      expect(await stored()).toEqual([
        [1, 'uno', 1],
        [2, 'deux', 1],
        [3, 'three', 0],
        [5, 'five', 0],
      ]);
    } finally {
      await server.close();
    }
  });
});
