/**
 * The command line as users install it: the packed tarball with kysely and PGlite and without
 * Express (an optional peer the command line never loads), run from node_modules/.bin and through
 * `npx`. A SIGTERM sent to the npx process stops the server: npm passes the signal to the shell
 * it ran the command in, which dies without passing it on, and the server stops when it sees its
 * parent gone (lib/cli/parent.ts) instead of running on as an orphan.
 */
import { spawn, execFileSync, type ChildProcessWithoutNullStreams } from 'child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { createTestPGliteFolder } from '../helpers/pglite';
import { installApp, packedTarball } from './packed';

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-cli-install-'));
const app = join(work, 'app');

beforeAll(async () => {
  installApp(app, packedTarball(work), ['kysely', '@electric-sql/pglite']);
  await createTestPGliteFolder(join(app, 'data'), "create table items (id integer primary key, name text not null); insert into items values (1, 'Pen');");
}, 180_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The environment of a user's shell: no npm_* variables of the npm that runs these specs. */
function userEnvironment(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('npm_') && name !== 'NODE_OPTIONS'));
}

/** A started command and the service root it printed. */
interface Started {
  readonly child: ChildProcessWithoutNullStreams;
  readonly url: string;
  readonly stderr: string[];
  readonly exited: Promise<number | null>;
}

function start(command: string, args: readonly string[]): Promise<Started> {
  const child = spawn(command, [...args], { cwd: app, env: userEnvironment(), stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end();
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) =>
    stderr.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((line) => line !== ''),
    ),
  );
  const exited = new Promise<number | null>((done) => child.on('close', (code) => done(code)));
  return new Promise((done, fail) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString('utf8');
      const match = / at (http:\/\/127\.0\.0\.1:\d+\/odata\/)\n/.exec(output);
      if (match !== null) done({ child, url: match[1], stderr, exited });
    });
    void exited.then((code) => fail(new Error(`${command} exited with ${code}: ${output}\n${stderr.join('\n')}`)));
  });
}

/** The process ids below `root` (its children, theirs, ...), from `ps`. */
function descendants(root: number): number[] {
  const rows = execFileSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' })
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((row) => row.length === 2);
  const found: number[] = [];
  for (let frontier = [root]; frontier.length > 0;) {
    frontier = rows.filter(([, parent]) => frontier.includes(parent)).map(([pid]) => pid);
    found.push(...frontier);
  }
  return found;
}

/** Whether process `pid` still runs (a zombie has ended). */
function running(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .startsWith('Z');
  } catch {
    return false;
  }
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((done) => {
    const probe = createServer();
    probe.once('error', () => done(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => done(true)));
  });
}

/** Check `condition` every 100 ms until it holds (the spec's timeout bounds the wait). */
async function until(condition: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((done) => setTimeout(done, 100));
}

it('installs without Express, an optional peer, and serves from node_modules/.bin', async () => {
  expect(existsSync(join(app, 'node_modules', 'express'))).toBe(false);
  const manifest = JSON.parse(readFileSync(join(app, 'node_modules', 'express-odata-v2', 'package.json'), 'utf8')) as {
    peerDependenciesMeta: Record<string, { optional?: boolean }>;
  };
  expect(manifest.peerDependenciesMeta.express).toEqual({ optional: true });

  const service = await start(join(app, 'node_modules', '.bin', 'express-odata-v2'), ['serve', '--db', 'data', '--port', '0']);
  try {
    const response = await fetch(`${service.url}Items(1)?$format=json`);
    expect([response.status, ((await response.json()) as { d: { Name: string } }).d.Name]).toEqual([200, 'Pen']);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    expect(service.stderr).toEqual(['Stopping (SIGTERM)...']);
  } finally {
    service.child.kill('SIGKILL');
  }
}, 60_000);

it('stops the server started through npx when the npx process gets SIGTERM, and frees the port', async () => {
  const npx = await start(process.platform === 'win32' ? 'npx.cmd' : 'npx', ['express-odata-v2', 'serve', '--db', 'data', '--port', '0']);
  const port = Number(new URL(npx.url).port);
  const below = descendants(npx.child.pid ?? -1);
  try {
    // npx runs a shell, which runs the server: the signal below reaches the shell only.
    expect(below.length).toBeGreaterThanOrEqual(1);
    expect((await fetch(`${npx.url}$metadata`)).status).toBe(200);
    npx.child.kill('SIGTERM');
    await npx.exited;
    await until(() => below.every((pid) => !running(pid)));
    await until(() => portIsFree(port));
    expect(npx.stderr).toContain('Stopping (the npm process that started it has ended)...');
  } finally {
    for (const pid of below.filter(running)) process.kill(pid, 'SIGKILL');
  }
}, 60_000);
