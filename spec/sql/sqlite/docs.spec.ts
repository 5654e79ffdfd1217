/**
 * docs/sql-provider.md, "SQLite": its example run as written (transpiled from the markdown) on a
 * SQLite file in a temporary folder, twice (the second start finds the tables and the rows), then
 * read and written over HTTP.
 */
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import express from 'express';
import request from 'supertest';
import { transpileModule, ModuleKind, ScriptTarget } from 'typescript';
import * as library from '../../../lib';
import * as sqlModule from '../../../lib/sql';

const folder = mkdtempSync(join(tmpdir(), 'odata-sqlite-docs-'));
const opened: sqlModule.SqlDatabase[] = [];

afterAll(async () => {
  await Promise.all(opened.map((db) => db.close()));
  rmSync(folder, { recursive: true, force: true });
});

/** The example, run as an async module body; `./shop.sqlite` is a file in the spec's folder. */
async function runExample(): Promise<{ app: Parameters<typeof request>[0] }> {
  const markdown = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'sql-provider.md'), 'utf8');
  const start = markdown.indexOf(
    "```ts\nimport express from 'express';\nimport { defineModel, odata } from 'express-odata-v2';\nimport { SqlProvider, createSchema, seed, sqlite }",
  );
  const end = markdown.indexOf('```', start + 5);
  if (start < 0 || end < 0) throw new Error('the SQLite example is missing from docs/sql-provider.md');
  const { outputText } = transpileModule(markdown.slice(start + 5, end), { compilerOptions: { module: ModuleKind.CommonJS, target: ScriptTarget.ES2022 } });
  const sqlPackage = {
    ...sqlModule,
    sqlite: (file: string) => {
      const db = sqlModule.sqlite(join(folder, file));
      opened.push(db);
      return db;
    },
  };
  const modules: Record<string, unknown> = { express: { default: express }, 'express-odata-v2': library, 'express-odata-v2/sql': sqlPackage };
  const exports: Record<string, unknown> = {};
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...names: string[]) => (...args: unknown[]) => Promise<void>;
  await new AsyncFunction('require', 'exports', outputText)((name: string) => modules[name], exports);
  return exports as { app: Parameters<typeof request>[0] };
}

describe('docs/sql-provider.md, "SQLite"', () => {
  it('creates and fills the file once, and serves it', async () => {
    await runExample();
    const { app } = await runExample();
    const feed = await request(app).get("/odata/Products?$format=json&$filter=Price lt 2M or startswith(Name, 'Br')&$orderby=Name desc&$select=Name,Price");
    expect(feed.status).toBe(200);
    expect((feed.body as { d: { results: { Name: string; Price: string }[] } }).d.results.map((row) => [row.Name, row.Price])).toEqual([
      ['Butter', '1.99'],
      ['Bread', '2.5'],
    ]);
    const created = await request(app).post('/odata/Products').set('accept', 'application/json').send({ Name: 'Jam', Price: '3.20' });
    expect([created.status, (created.body as { d: { ID: number } }).d.ID]).toEqual([201, 3]);
  });
});
