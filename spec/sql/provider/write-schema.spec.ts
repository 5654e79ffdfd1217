/**
 * SqlProvider over an introspected schema of the kinds real databases have (write-schema.ts), on
 * PGlite: a value the database refuses is a 4xx naming the property (enum, array, range, json,
 * inet, domain, varchar, smallint, timestamp), a unique or exclusion violation 409, a role
 * without INSERT 403 (PGlite logs in as superuser: the spec sets the role on its one session);
 * POST works on every set introspection marks creatable (views with INSTEAD OF triggers, an
 * updatable view, partitioned tables keyed on the parent or only on the partitions, tables with
 * rules); a taken key on a set without ON CONFLICT is 409 ENTITY_EXISTS and changes nothing,
 * alone and in a changeset (that request's answer; the changeset rolls back as a whole, the
 * batch goes on), a key only a view's base table holds 409 too; and the one table no create can work on is served not creatable, with a warning that says why (served creatable by hand, a POST that leaves its key to the database is 400 naming the key, and writes nothing). Sets
 * and properties are found by table and column through the mapping, whatever names they get.
 */
import type { PGlite } from '@electric-sql/pglite';
import { loadEdmx } from '../../../lib';
import { pglite, SqlProvider, type IntrospectionResult, type SqlDatabase } from '../../../lib/sql';
import { callInProcess, inProcess } from '../../helpers/in-process';
import { openTestPGlite } from '../../helpers/pglite';
import {
  batchBody,
  changeset,
  jsonOf,
  operation,
  readBatchResponse,
  send as sendHttp,
  single,
  statuses,
  type BatchPart,
  type HttpResult,
} from '../../helpers/batch-http';
import { serveIntrospected, type Answer, type IntrospectedService } from './introspected';
import { WRITE_SCHEMA_KEYS, writeSchemaSql } from './write-schema';

const SCHEMA = 'real';
const ROLE = 'real_no_insert';

let instance: PGlite;
let db: SqlDatabase;
let service: IntrospectedService;
let result: IntrospectionResult;

beforeAll(async () => {
  instance = await openTestPGlite();
  await instance.exec(writeSchemaSql(SCHEMA, ROLE));
  db = pglite(instance);
  service = await serveIntrospected(db, { schemas: [SCHEMA], keys: WRITE_SCHEMA_KEYS });
  result = service.result;
}, 60_000);

afterAll(async () => {
  await service.server.close();
  await db.close();
  await instance.close();
});

const setOf = (table: string): string => service.setOf(table);
const propertyOf = (table: string, column: string): string => service.propertyOf(table, column);
const body = (table: string, columns: Record<string, unknown>): Record<string, unknown> => service.body(table, columns);
const navigationOf = (from: string, to: string): string => service.navigationOf(from, to);
const send = (method: string, path: string, payload?: unknown, headers: Record<string, string> = {}): Promise<Answer> =>
  service.send(method, path, payload, headers);
const sendBatch = (url: string, parts: readonly BatchPart[]): Promise<HttpResult> =>
  sendHttp(`${url}/odata/$batch`, 'POST', { 'content-type': 'multipart/mixed; boundary=batch' }, batchBody(parts, { boundary: 'batch' }));

describe('values the database refuses', () => {
  it.each([
    ['mood', 'meh', 'is not one of the values its column allows'],
    ['sizes', '{1,x', "is not an array its column accepts (the form is '{1,2,3}')"],
    ['during', '(x', "is not a range its column accepts (the form is '[1,10)')"],
    ['settings', '{"a":', 'is not valid JSON'],
    ['address', '1.2.3.x', 'is not an IP address or network its column accepts'],
  ])('POST with a bad %s value (%p) is 400 BODY_INVALID naming the property', async (column, value, problem) => {
    const answer = await send('POST', setOf('gadgets'), body('gadgets', { id: 50, [column]: value }));
    expect(answer.status).toBe(400);
    const error = answer.json().error;
    expect(error?.code).toBe('BODY_INVALID');
    expect(error?.message?.value).toBe(`The request body is invalid: '${propertyOf('gadgets', column)}' of '${setOf('gadgets')}' ${problem}.`);
    expect(answer.text).not.toContain(value);
    expect((await send('GET', `${setOf('gadgets')}(50)`)).status).toBe(404);
  });

  it.each([
    ['amount', -1, 'breaks a constraint'],
    ['rank', 500, 'breaks a constraint of its table'],
  ])('MERGE with a bad %s value (%p) is 400 BODY_INVALID', async (column, value, problem) => {
    const answer = await send('MERGE', `${setOf('gadgets')}(1)`, body('gadgets', { [column]: value }));
    expect(answer.status).toBe(400);
    expect(answer.json().error?.code).toBe('BODY_INVALID');
    expect(answer.json().error?.message?.value).toContain(problem);
    expect(answer.text).not.toMatch(/gadgets_|positive_int|violates|character varying/);
  });

  it('answers a taken unique value 409 CONSTRAINT_VIOLATION and an overlapping range (exclusion) 409 too', async () => {
    const unique = await send('POST', setOf('gadgets'), body('gadgets', { id: 51, code: 'A' }));
    expect([unique.status, unique.json().error?.code]).toEqual([409, 'CONSTRAINT_VIOLATION']);
    const overlapping = await send('POST', setOf('bookings'), body('bookings', { id: 2, during: '[5,20)' }));
    expect([overlapping.status, overlapping.json().error?.code]).toEqual([409, 'CONSTRAINT_VIOLATION']);
    expect(overlapping.text).not.toMatch(/bookings_during_excl|conflicting key/);
  });

  it('answers a write the database role may not make 403 FORBIDDEN, naming the set', async () => {
    await instance.exec(`set role "${ROLE}"`);
    try {
      const refused = await send('POST', setOf('gadgets'), body('gadgets', { id: 52 }));
      expect([refused.status, refused.json().error?.code]).toEqual([403, 'FORBIDDEN']);
      expect(refused.json().error?.message?.value).toBe(`The database does not allow this user to create entries in '${setOf('gadgets')}'.`);
      // The same role may update (GRANT UPDATE): the privilege decides, not the set.
      expect((await send('MERGE', `${setOf('gadgets')}(1)`, body('gadgets', { made: '/Date(0)/' }))).status).toBe(204);
    } finally {
      await instance.exec('reset role');
    }
  });
});

describe('POST on every creatable set', () => {
  it.each([
    ['gadgets', { id: 60, mood: 'happy', sizes: '{1,2}', settings: '{"a":1}', address: '10.0.0.1', during: '[1,3)', amount: 2 }, { id: '60' }],
    ['readings', { id: 2, region: 'us', value: '2.5' }, { id: '2', region: "'us'" }],
    ['events', { id: 1, day: '/Date(1704067200000)/', name: 'new year' }, { id: '1', day: "datetime'2024-01-01T00:00'" }],
    ['person_names', { id: 2, full_name: 'Grace Hopper' }, { id: '2' }],
    ['adults', { id: 101, first_name: 'Barbara', last_name: 'Liskov' }, { id: '101' }],
    ['notes', { id: 1, body: 'logged' }, { id: '1' }],
    ['archive', { id: 1, body: 'routed' }, { id: '1' }],
  ])('POST %s creates the entry and answers it; a second POST of its key is 409 ENTITY_EXISTS', async (table, columns, key) => {
    const created = await send('POST', setOf(table), body(table, columns));
    expect(created.status).toBe(201);
    expect(created.json().d?.[propertyOf(table, 'id')]).toBe(columns.id);
    const parts = Object.entries(key);
    const predicate = parts.length === 1 ? parts[0][1] : parts.map(([column, literal]) => `${propertyOf(table, column)}=${literal}`).join(',');
    expect((await send('GET', `${setOf(table)}(${predicate})`)).status).toBe(200);
    const again = await send('POST', setOf(table), body(table, columns));
    expect([again.status, again.json().error?.code]).toEqual([409, 'ENTITY_EXISTS']);
  });

  it('reads the rows the view trigger and the rules wrote where they went', async () => {
    const people = await instance.query<{ first_name: string }>(`select first_name from ${SCHEMA}.people where id = 2`);
    expect(people.rows).toEqual([{ first_name: 'Grace' }]);
    const logged = await instance.query<{ body: string }>(`select body from ${SCHEMA}.notes_log where id = 1`);
    expect(logged.rows).toEqual([{ body: 'logged' }]);
    const routed = await instance.query<{ body: string }>(`select body from only ${SCHEMA}.archive_recent where id = 1`);
    expect(routed.rows).toEqual([{ body: 'routed' }]);
  });

  it('records how each set inserts in the mapping (mapping.json keeps it)', () => {
    const modes = Object.fromEntries(
      ['gadgets', 'readings', 'events', 'person_names', 'adults', 'notes', 'archive'].map((table) => [table, result.mapping.entitySets[setOf(table)].insert]),
    );
    expect(modes).toEqual({
      gadgets: undefined,
      readings: 'checked',
      events: undefined,
      person_names: 'checked',
      adults: 'checked',
      notes: 'readBack',
      archive: 'readBack',
    });
  });

  it('serves a table whose rule hides rows with a database-made key as not creatable, with a warning saying why', () => {
    const tickets = result.model.defaultContainer.entitySets.find((set) => set.name === setOf('tickets'));
    const attributes = tickets?.annotationAttributes.map((attribute) => `${attribute.name}=${attribute.value}`);
    expect(attributes).toContain('creatable=false');
    const warning = result.warnings.find((each) => each.code === 'TABLE_NOT_CREATABLE');
    expect(warning?.target).toBe(`${SCHEMA}.tickets`);
    expect(warning?.message).toContain('its key column id is made by the database');
  });

  it('answers POST on that set 405 before the database is asked', async () => {
    const refused = await send('POST', setOf('tickets'), body('tickets', { body: 'x' }));
    expect([refused.status, refused.json().error?.code]).toEqual([405, 'METHOD_NOT_ALLOWED']);
    expect((await instance.query(`select * from ${SCHEMA}.tickets_queue`)).rows).toEqual([]);
  });

  it('answers 400 BODY_INVALID naming the key, writing nothing, when such a set is served creatable by hand and a POST leaves the key to the database', async () => {
    // By hand: $metadata without the set's sap:creatable="false", the mapping inserting by rules.
    const tickets = setOf('tickets');
    const metadata = (await send('GET', '$metadata')).text;
    const creatable = metadata.replace(new RegExp(`(<EntitySet Name="${tickets}"[^>]*?) sap:creatable="false"`), '$1');
    expect(creatable).not.toBe(metadata);
    const model = loadEdmx(creatable);
    const mapping = {
      ...result.mapping,
      entitySets: { ...result.mapping.entitySets, [tickets]: { ...result.mapping.entitySets[tickets], insert: 'readBack' as const } },
    };
    const handMade = inProcess({ model, provider: new SqlProvider({ model, db, mapping }), logger: () => undefined });
    const answer = await callInProcess(handMade, 'POST', tickets, {
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body('tickets', { body: 'x' })),
    });
    expect(answer.status).toBe(400);
    const error = JSON.parse(answer.body.toString('utf8')).error;
    expect(error.code).toBe('BODY_INVALID');
    const type = model.defaultContainer.entitySets.find((set) => set.name === tickets)?.entityType.qualifiedName;
    expect(error.message.value).toBe(
      `The request body is invalid: the key property '${propertyOf('tickets', 'id')}' of ${type} is missing; entries of '${tickets}' are found by the key the client gives.`,
    );
    expect((await instance.query(`select * from ${SCHEMA}.tickets_queue`)).rows).toEqual([]);
  });
});

describe('a taken key on a set without ON CONFLICT (checked inserts)', () => {
  /** The rows of the tables the checked sets write (a view's rows live in its base table). */
  const stored = async (): Promise<unknown[]> =>
    Promise.all(['readings', 'people'].map(async (table) => (await instance.query(`select * from ${SCHEMA}.${table} order by 1, 2`)).rows));
  const exists = (table: string, key: string): unknown => ({
    error: { code: 'ENTITY_EXISTS', message: { lang: 'en-US', value: `An entity with the key ${key} already exists in '${setOf(table)}'.` } },
  });
  const keyOf = (table: string, columns: Readonly<Record<string, unknown>>): string =>
    table === 'readings'
      ? `(${propertyOf(table, 'id')}=${String(columns.id)},${propertyOf(table, 'region')}='${String(columns.region)}')`
      : `(${String(columns.id)})`;
  const json = { 'content-type': 'application/json', accept: 'application/json' };

  // readings: partitioned, keyed only on its partitions; person_names: a view with INSTEAD OF triggers; adults: an updatable view.
  const CASES = [
    ['readings', { id: 1, region: 'eu', value: '9' }, { id: 20, region: 'eu', value: '3' }, { value: '1.5' }],
    ['person_names', { id: 1, full_name: 'Ada Byron' }, { id: 20, full_name: 'Edsger Dijkstra' }, { full_name: 'Ada Lovelace' }],
    ['adults', { id: 100, first_name: 'Alonzo', last_name: 'Church' }, { id: 120, first_name: 'Edsger', last_name: 'Dijkstra' }, { first_name: 'Alan' }],
  ] as const;

  it.each(CASES)('a single POST of a taken key in %s is 409 ENTITY_EXISTS and changes nothing', async (table, taken) => {
    expect(service.result.mapping.entitySets[setOf(table)].insert).toBe('checked');
    const before = await stored();
    const answer = await send('POST', setOf(table), body(table, taken));
    expect(answer.status).toBe(409);
    expect(answer.json()).toEqual(exists(table, keyOf(table, taken)));
    expect(await stored()).toEqual(before);
  });

  it.each(CASES)(
    'in a changeset, a POST of a taken key in %s answers that request 409 ENTITY_EXISTS, rolls the changeset back, and the batch goes on',
    async (table, taken, fresh, kept) => {
      const before = await stored();
      const post = (columns: Readonly<Record<string, unknown>>, contentId: string) =>
        operation('POST', setOf(table), { headers: json, body: JSON.stringify(body(table, columns)), contentId });
      const result = await sendBatch(service.server.url, [
        changeset('cs', post(fresh, '1'), post(taken, '2'), post({ ...fresh, id: fresh.id + 1 }, '3')),
        operation('GET', `${setOf(table)}${keyOf(table, taken)}`, { headers: json }),
        operation('GET', `${setOf(table)}${keyOf(table, fresh)}`, { headers: json }),
      ]);
      const parts = readBatchResponse(result);
      expect(statuses(parts)).toEqual([409, 200, 404]);
      const failed = single(parts, 0);
      expect([failed.statusLine, failed.mime['Content-ID']]).toEqual(['HTTP/1.1 409 Conflict', '2']);
      expect(jsonOf(failed)).toEqual(exists(table, keyOf(table, taken)));
      expect((jsonOf(single(parts, 1)) as { d: unknown }).d).toMatchObject(body(table, kept));
      expect(await stored()).toEqual(before);
    },
  );

  it('answers a key the view hides but its base table holds 409 too, in a changeset whose transaction the unique violation aborted', async () => {
    // people(1) is not an adult: the check through the view passes, the base table's primary key
    // refuses the row (named by the set that serves that table).
    const before = await stored();
    const result = await sendBatch(service.server.url, [
      changeset(
        'cs',
        operation('POST', setOf('adults'), { headers: json, body: JSON.stringify(body('adults', { id: 130, first_name: 'Kristen', last_name: 'Nygaard' })) }),
        operation('POST', setOf('adults'), { headers: json, body: JSON.stringify(body('adults', { id: 1, first_name: 'Ada', last_name: 'King' })) }),
      ),
      operation('GET', `${setOf('adults')}(100)`, { headers: json }),
    ]);
    const parts = readBatchResponse(result);
    expect(statuses(parts)).toEqual([409, 200]);
    expect(jsonOf(single(parts, 0))).toEqual({
      error: { code: 'CONSTRAINT_VIOLATION', message: { lang: 'en-US', value: `The write would repeat a value that must be unique in '${setOf('people')}'.` } },
    });
    expect(await stored()).toEqual(before);
  });
});

describe('keys from the parent', () => {
  it('POST through the navigation from an order to its lines takes the order’s key into each line’s', async () => {
    const lines = navigationOf('orders', 'order_lines');
    const created = await send('POST', `${setOf('orders')}(10248)/${lines}`, body('order_lines', { line_no: 1, quantity: 2 }));
    expect(created.status).toBe(201);
    expect(created.json().d).toMatchObject(body('order_lines', { order_id: 10248, line_no: 1, quantity: 2 }));
    const contradicting = await send('POST', `${setOf('orders')}(10248)/${lines}`, body('order_lines', { order_id: 1, line_no: 2, quantity: 2 }));
    expect([contradicting.status, contradicting.json().error?.code]).toEqual([400, 'BODY_INVALID']);
  });

  it('a deep insert of an order with its lines keys every line by the new order', async () => {
    const lines = navigationOf('orders', 'order_lines');
    const order = {
      ...body('orders', { id: 10249 }),
      [lines]: [body('order_lines', { line_no: 1, quantity: 1 }), body('order_lines', { line_no: 2, quantity: 3 })],
    };
    expect((await send('POST', setOf('orders'), order)).status).toBe(201);
    const stored = await instance.query<{ line_no: number; quantity: number }>(
      `select line_no, quantity from ${SCHEMA}.order_lines where order_id = 10249 order by line_no`,
    );
    expect(stored.rows).toEqual([
      { line_no: 1, quantity: 1 },
      { line_no: 2, quantity: 3 },
    ]);
  });
});

describe('ETags from the row version (xmin)', () => {
  it('gives every table and partitioned table the row version as its ETag, and warns for each view that it has none', () => {
    const etags = Object.fromEntries(
      ['gadgets', 'readings', 'events', 'person_names', 'adults'].map((table) => [table, result.mapping.entitySets[setOf(table)].etag]),
    );
    expect(etags).toEqual({ gadgets: 'xmin', readings: 'xmin', events: 'xmin', person_names: undefined, adults: undefined });
    expect(result.warnings.filter((warning) => warning.code === 'NO_ETAG').map((warning) => warning.target)).toEqual([
      `${SCHEMA}.adults`,
      `${SCHEMA}.person_names`,
    ]);
    const gadget = result.model.defaultContainer.entitySets.find((set) => set.name === setOf('gadgets'));
    expect(gadget?.entityType.concurrencyProperties).toEqual([]);
  });

  it('answers the row version as a weak ETag, changes it on every write, refuses a stale one with 412 and changes nothing', async () => {
    const path = `${setOf('bookings')}(1)`;
    const read = await send('GET', path);
    expect(read.etag).toMatch(/^W\/"\d+"$/);
    expect((await send('GET', path, undefined, { 'if-none-match': read.etag ?? '' })).status).toBe(304);
    const written = await send('MERGE', path, body('bookings', { during: '[100,110)' }), { 'if-match': read.etag ?? '' });
    expect(written.status).toBe(204);
    expect(written.etag).toMatch(/^W\/"\d+"$/);
    expect(written.etag).not.toBe(read.etag);
    expect((await send('GET', path)).etag).toBe(written.etag);
    const stale = await send('MERGE', path, body('bookings', { during: '[200,210)' }), { 'if-match': read.etag ?? '' });
    expect([stale.status, stale.json().error?.code]).toEqual([412, 'PRECONDITION_FAILED']);
    expect((await send('DELETE', path, undefined, { 'if-match': read.etag ?? '' })).status).toBe(412);
    expect((await send('DELETE', path, undefined, { 'if-match': 'W/"not a row version"' })).status).toBe(412);
    expect((await send('GET', path)).json().d).toMatchObject(body('bookings', { during: '[100,110)' }));
  });

  it('answers a new entry’s ETag as a read gives it, also on a partitioned table and through a rule', async () => {
    const cases = [
      ['readings', { id: 10, region: 'eu', value: '1' }, `${propertyOf('readings', 'id')}=10,${propertyOf('readings', 'region')}='eu'`],
      ['gadgets', { id: 70 }, '70'],
      ['archive', { id: 2, body: 'routed' }, '2'],
    ] as const;
    for (const [table, columns, key] of cases) {
      const created = await send('POST', setOf(table), body(table, columns));
      expect(created.status).toBe(201);
      expect(created.etag).toMatch(/^W\/"\d+"$/);
      expect((await send('GET', `${setOf(table)}(${key})`)).etag).toBe(created.etag);
    }
  });

  it('does not require If-Match (a row version is no property $metadata could declare), and accepts *', async () => {
    expect((await send('MERGE', `${setOf('gadgets')}(1)`, body('gadgets', { made: '/Date(1000)/' }))).status).toBe(204);
    expect((await send('MERGE', `${setOf('gadgets')}(1)`, body('gadgets', { made: '/Date(2000)/' }), { 'if-match': '*' })).status).toBe(204);
  });
});
