/**
 * examples/postgres/server.js as `npm run start:postgres` runs it: in its own process, PGlite in a
 * data folder; it listens on 127.0.0.1, keeps its data across restarts and stops cleanly on
 * SIGTERM. (spec/e2e/postgres-example.spec.ts checks its answers in process.)
 */
import { type ChildProcess, spawn } from 'child_process';
import { mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import { prepareTestDataDir } from '../helpers/pglite';

const SERVER = join(resolve(__dirname, '..', '..'), 'examples', 'postgres', 'server.js');

interface Started {
  readonly child: ChildProcess;
  readonly line: string;
  readonly root: string;
}

function start(env: Record<string, string>): Promise<Started> {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, DATABASE_URL: '', ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((done, fail) => {
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const line = output.split('\n')[0];
      const match = /^ODataDemo service over PGlite: (\S+)/.exec(line);
      if (output.includes('\n') && match !== null) done({ child, line, root: match[1] });
    });
    child.on('exit', (code) => fail(new Error(`the example exited with ${code}: ${output}`)));
  });
}

/** SIGTERM, as Ctrl-C or a process manager stops it; resolves with the exit code. */
function stop(child: ChildProcess): Promise<number | null> {
  return new Promise((done) => {
    child.removeAllListeners('exit');
    child.once('exit', (code) => done(code));
    child.kill('SIGTERM');
  });
}

describe('examples/postgres/server.js (npm run start:postgres)', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(join(tmpdir(), 'express-odata-v2-example-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('listens on 127.0.0.1, keeps its data in DATA_DIR across restarts, and stops cleanly on SIGTERM', async () => {
    const dataDir = join(folder, 'data');
    // An empty database already in the folder saves the child PGlite's initdb (seconds on a busy machine).
    await prepareTestDataDir(dataDir);
    const first = await start({ PORT: '0', HOST: '', DATA_DIR: dataDir });
    try {
      expect(first.root).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/odata\/$/);
      expect(first.line).toContain('listening on 127.0.0.1; HOST and PORT change that');
      const response = await fetch(`${first.root}Products(1)?$format=json`);
      expect(((await response.json()) as { d: { Name: string } }).d.Name).toBe('Milk');
    } finally {
      expect(await stop(first.child)).toBe(0);
    }
    expect(readFileSync(join(dataDir, 'PG_VERSION'), 'utf8').trim()).toMatch(/^\d+$/);
    const second = await start({ PORT: '0', HOST: '', DATA_DIR: dataDir });
    try {
      expect(await (await fetch(`${second.root}Products/$count`)).text()).toBe('9');
    } finally {
      expect(await stop(second.child)).toBe(0);
    }
  }, 90_000);
});
