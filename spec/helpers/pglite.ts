/**
 * PGlite for specs: one instance per spec file, started from a data directory dumped once per
 * PGlite version into the temp folder (a fresh `initdb` costs ~3 s, loading the dump ~0.6 s).
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import type * as PGliteModule from '@electric-sql/pglite';
import type { PGlite as PGliteInstance } from '@electric-sql/pglite';

// Node's own loader, as lib/sql/pglite.ts does: PGlite's dynamic import() fails inside Jest's sandbox.
const nodeModule = process.getBuiltinModule('module');
const { PGlite } = nodeModule.createRequire(__filename)('@electric-sql/pglite') as typeof PGliteModule;

// The package exports no package.json: read it next to its dist/ folder.
const MANIFEST = join(dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
const VERSION = (JSON.parse(readFileSync(MANIFEST, 'utf8')) as { version: string }).version;
const CACHE = join(tmpdir(), `express-odata-v2-pglite-${VERSION}.tar`);

/** A fresh, empty in-memory PGlite (close it in afterAll). */
export async function openTestPGlite(): Promise<PGliteInstance> {
  await ensureCachedDump();
  const instance = new PGlite({ loadDataDir: new Blob([readFileSync(CACHE)]) });
  await instance.waitReady;
  return instance;
}

/**
 * A PGlite database in `folder` (which must not exist), made from the cached dump, with `sql` run
 * in it; closed again, for a process to open (the command line's `--db <folder>`).
 */
export async function createTestPGliteFolder(folder: string, sql: string): Promise<void> {
  await ensureCachedDump();
  const instance = new PGlite(folder, { loadDataDir: new Blob([readFileSync(CACHE)]) });
  await instance.waitReady;
  try {
    await instance.exec(sql);
  } finally {
    await instance.close();
  }
}

/** Make the cached dump once per PGlite version. */
async function ensureCachedDump(): Promise<void> {
  if (existsSync(CACHE)) return;
  const instance = new PGlite();
  await instance.waitReady;
  const dump = await instance.dumpDataDir('none');
  await instance.close();
  const partial = `${CACHE}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, CACHE); // atomic: a concurrent worker sees the whole file or none
}

/** Fill `dataDir` with a fresh, empty database (from the same dump), for a PGlite another process opens there. */
export async function prepareTestDataDir(dataDir: string): Promise<void> {
  const empty = await openTestPGlite();
  await empty.close();
  const instance = new PGlite(dataDir, { loadDataDir: new Blob([readFileSync(CACHE)]) });
  await instance.waitReady;
  await instance.close();
}
