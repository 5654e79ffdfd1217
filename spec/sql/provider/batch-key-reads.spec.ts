/**
 * Key reads of one `$batch` share a statement: the batch executor starts consecutive GET parts at
 * once and SqlProvider reads the keys that arrive together with one `= any($1)` per entity set and
 * `$select`. Each part keeps exactly the answer it gets alone: the bytes MemoryProvider's service
 * writes, its own 404, its own answer when the shared statement fails.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { SqlDatabase } from '../../../lib/sql/database';
import { pglite } from '../../../lib/sql/postgres/pglite';
import { DEMO_LINKS, DEMO_MODEL } from '../../helpers/demo';
import { batchBody, changeset, operation, readBatchResponse, statuses, type BatchPart, type ResponsePart } from '../../helpers/batch-http';
import { callInProcess, type InProcessService } from '../../helpers/in-process';
import { openTestPGlite } from '../../helpers/pglite';
import { largerDemoData } from './demo-data';
import { StatementLog, get, loadDatabase, servePair, type ServicePair } from './support';

const log = new StatementLog();
let instance: PGlite;
let pair: ServicePair;

beforeAll(async () => {
  instance = await openTestPGlite();
  const plain = pglite(instance);
  const data = largerDemoData();
  await loadDatabase(plain, DEMO_MODEL, data, DEMO_LINKS);
  const counted: SqlDatabase = { ...plain, kysely: plain.kysely.withPlugin(log) };
  pair = await servePair(DEMO_MODEL, data, counted, { links: DEMO_LINKS });
}, 60_000);

afterAll(async () => {
  await pair?.close();
  await instance?.close();
});

const JSON_ACCEPT = { Accept: 'application/json' };

function getPart(target: string): BatchPart {
  return operation('GET', target, { headers: JSON_ACCEPT });
}

async function batch(service: InProcessService, parts: readonly BatchPart[]): Promise<ResponsePart[]> {
  const result = await callInProcess(service, 'POST', '$batch', { headers: { 'content-type': 'multipart/mixed; boundary=batch_1' }, body: batchBody(parts) });
  return readBatchResponse(result);
}

/** Status and body of every single part, origins made neutral. */
function answers(parts: readonly ResponsePart[], server: InProcessService): { status: number; body: string }[] {
  return parts.map((part) => {
    if ('changeset' in part) throw new Error('expected single responses');
    return { status: part.status, body: part.body.toString('utf8').split(server.url).join('ORIGIN') };
  });
}

/** The batch's answers from SqlProvider, the statements it ran, and MemoryProvider's answers to the same batch. */
async function compare(parts: readonly BatchPart[]) {
  log.statements = [];
  const sql = answers(await batch(pair.sql, parts), pair.sql);
  const statements = log.statements;
  const memory = answers(await batch(pair.memory, parts), pair.memory);
  return { sql, memory, statements };
}

describe('key reads of a $batch share a statement', () => {
  const TEN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((id) => getPart(`Products(${id})`));

  it('10 GETs by key: one statement, in order, the bytes of the same GETs alone and of MemoryProvider', async () => {
    const { sql, memory, statements } = await compare(TEN);
    expect(statements).toHaveLength(1);
    expect(sql.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(sql.map((answer) => (JSON.parse(answer.body) as { d: { ID: number } }).d.ID)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(sql).toEqual(memory);
    for (let id = 1; id <= 10; id++) {
      const alone = await get(pair.sql, `Products(${id})`, 'application/json');
      expect(sql[id - 1].body).toBe(alone.body);
    }
  });

  it('one statement per entity set and $select; a repeated key is read once and answered twice', async () => {
    const parts = [
      getPart('Products(1)'),
      getPart('Categories(1)'),
      getPart('Products(2)?$select=Name,Price'),
      getPart('Products(3)'),
      getPart('Suppliers(0)'),
      getPart('Categories(0)'),
      getPart('Products(4)?$select=Price,Name'),
      getPart('Products(1)'),
    ];
    const { sql, memory, statements } = await compare(parts);
    // Products, Products with $select=Name,Price, Categories, Suppliers.
    expect(statements).toHaveLength(4);
    expect(sql).toEqual(memory);
    expect(sql[7]).toEqual(sql[0]);
  });

  it('a missing key is a 404 for its own part only; the others are still read together', async () => {
    const parts = [getPart('Products(1)'), getPart('Products(99999)'), getPart('Products(3)'), getPart('Categories(77)')];
    const { sql, memory, statements } = await compare(parts);
    expect(sql.map((answer) => answer.status)).toEqual([200, 404, 200, 404]);
    expect(sql).toEqual(memory);
    // The shared statement, then the missing Product read alone (its read and the check that names the 404), and the Category alone (read and check).
    expect(statements).toHaveLength(5);
  });

  it('when the shared statement fails, each part is read alone and answered as if alone', async () => {
    log.refuse = '= any(';
    try {
      const { sql, memory, statements } = await compare([getPart('Products(1)'), getPart('Products(99999)'), getPart('Products(2)')]);
      expect(sql.map((answer) => answer.status)).toEqual([200, 404, 200]);
      expect(sql).toEqual(memory);
      expect(statements).toHaveLength(4);
    } finally {
      log.refuse = undefined;
    }
  });

  it('reads around a changeset see the batch in order: before it, the old row; after it, the new one', async () => {
    const parts = [
      getPart('Suppliers(1)'),
      getPart('Products(5)'),
      changeset('cs_1', operation('MERGE', 'Products(5)', { headers: { 'Content-Type': 'application/json' }, body: '{"Name":"Renamed"}' })),
      getPart('Products(5)'),
      getPart('Products(6)'),
    ];
    const before = (JSON.parse((await get(pair.sql, 'Products(5)', 'application/json')).body) as { d: { Name: string } }).d.Name;
    const result = await batch(pair.sql, parts);
    expect(statuses(result)).toEqual([200, 200, [204], 200, 200]);
    const names = answers([result[1], result[3]], pair.sql).map((answer) => (JSON.parse(answer.body) as { d: { Name: string } }).d.Name);
    expect(names).toEqual([before, 'Renamed']);
    // Put it back for the other specs of this file.
    await batch(pair.sql, [
      changeset('cs_2', operation('MERGE', 'Products(5)', { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ Name: before }) })),
    ]);
  });

  it('a single GET by key is still one statement', async () => {
    log.statements = [];
    expect((await get(pair.sql, 'Products(7)', 'application/json')).status).toBe(200);
    expect(log.statements).toHaveLength(1);
  });
});
