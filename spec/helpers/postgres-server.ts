/**
 * A throwaway PostgreSQL server for `npm run test:postgres` (and benchmarks): `initdb` into a temp
 * folder, start on a free 127.0.0.1 port, stop and delete it afterwards, also when the run fails
 * or is interrupted. The server binaries come from POSTGRES_BIN, Debian's versioned folder
 * (/usr/lib/postgresql/<version>/bin, the newest) or PATH. PostgreSQL refuses to run as root, so
 * as root every command runs as the `postgres` user (`runuser`), which then owns the temp folder.
 * A running server can start a streaming replica of itself (pg_basebackup -R), and be shut down
 * and started again on the same port and data (the outage specs).
 */
import { execFile, execFileSync } from 'child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { createServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { promisify } from 'util';

const run = promisify(execFile);

/** A server started by startPostgres. */
export interface PostgresServer {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` (trust authentication). */
  readonly url: string;
  readonly port: number;
  /** The cluster's data folder. */
  readonly dataDir: string;
  /** Start a hot-standby replica streaming from this server, on its own port and folder. */
  startReplica(): Promise<PostgresServer>;
  /** Shut the server down (fast: every session ends with SQLSTATE 57P01), keeping its data and port for `start`. */
  shutdown(): Promise<void>;
  /** Start the server again after `shutdown`: same port, same data. */
  start(): Promise<void>;
  /** `shutdown`, then `start`. */
  restart(): Promise<void>;
  /** Stop the server and delete its folder (idempotent). */
  stop(): Promise<void>;
}

/** Options of startPostgres. */
export interface PostgresServerOptions {
  /** The server's TimeZone (default Pacific/Chatham, +12:45/+13:45: far from UTC on purpose). */
  readonly timezone?: string;
  /** More `-c name=value` settings. */
  readonly settings?: Readonly<Record<string, string>>;
}

/** The folder with initdb, pg_ctl and pg_basebackup. */
function findPostgresBin(): string {
  const fromEnvironment = process.env.POSTGRES_BIN;
  if (fromEnvironment !== undefined && fromEnvironment !== '') return fromEnvironment;
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => /^\d+$/.test(name) && existsSync(join(debian, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions.length > 0) return join(debian, versions[0], 'bin');
  }
  try {
    const initdb = execFileSync('sh', ['-c', 'command -v initdb'], { encoding: 'utf8' }).trim();
    if (initdb !== '') return join(initdb, '..');
  } catch {
    // fall through to the error below
  }
  throw new Error('No PostgreSQL server binaries (initdb, pg_ctl): install them, set POSTGRES_BIN, or set DATABASE_URL to a running server.');
}

const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/** Run a server binary, as `postgres` when we are root. */
function command(bin: string, program: string, args: readonly string[]): [string, string[]] {
  const path = join(bin, program);
  return asRoot ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, [...args]];
}

async function execute(bin: string, program: string, args: readonly string[]): Promise<void> {
  const [file, argv] = command(bin, program, args);
  try {
    await run(file, argv, { encoding: 'utf8' });
  } catch (error) {
    const output = error instanceof Error && 'stderr' in error ? String(error.stderr) : '';
    throw new Error(`${program} failed: ${output || String(error)}`, { cause: error });
  }
}

/** A temp folder the server's user owns. */
function serverFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'express-odata-v2-pg-'));
  if (asRoot) {
    const id = (flag: string): number => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(folder, id('-u'), id('-g'));
  }
  return folder;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Servers still running: stopped at exit, whatever ends the process. */
const running = new Map<string, { bin: string; folder: string }>();

function stopNow(dataDir: string): void {
  const entry = running.get(dataDir);
  if (entry === undefined) return;
  running.delete(dataDir);
  const [file, argv] = command(entry.bin, 'pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop']);
  try {
    execFileSync(file, argv, { stdio: 'ignore' });
  } catch {
    // already down
  }
  rmSync(entry.folder, { recursive: true, force: true });
}

let hooked = false;
function stopAllOnExit(): void {
  if (hooked) return;
  hooked = true;
  process.on('exit', () => [...running.keys()].forEach(stopNow));
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      [...running.keys()].forEach(stopNow);
      process.kill(process.pid, signal);
    });
  }
}

async function startCluster(bin: string, folder: string, dataDir: string, options: PostgresServerOptions): Promise<PostgresServer> {
  const port = await freePort();
  const settings: Record<string, string> = {
    port: String(port),
    listen_addresses: '127.0.0.1',
    unix_socket_directories: folder,
    // A throwaway server: durability buys nothing here.
    fsync: 'off',
    synchronous_commit: 'off',
    full_page_writes: 'off',
    max_connections: '60',
    timezone: options.timezone ?? 'Pacific/Chatham',
    ...options.settings,
  };
  const serverOptions = Object.entries(settings)
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  running.set(dataDir, { bin, folder });
  stopAllOnExit();
  const start = (): Promise<void> => execute(bin, 'pg_ctl', ['-D', dataDir, '-l', join(folder, 'server.log'), '-w', '-t', '60', '-o', serverOptions, 'start']);
  const shutdown = (): Promise<void> => execute(bin, 'pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', '-t', '60', 'stop']);
  try {
    await start();
  } catch (error) {
    const log = existsSync(join(folder, 'server.log')) ? readFileSync(join(folder, 'server.log'), 'utf8').slice(-2000) : '';
    stopNow(dataDir);
    throw new Error(`${(error as Error).message}\n${log}`, { cause: error });
  }
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    dataDir,
    async startReplica() {
      const replicaFolder = serverFolder();
      const replicaData = join(replicaFolder, 'data');
      try {
        await execute(bin, 'pg_basebackup', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-D', replicaData, '-R', '-X', 'stream', '--no-sync']);
      } catch (error) {
        rmSync(replicaFolder, { recursive: true, force: true });
        throw error;
      }
      return startCluster(bin, replicaFolder, replicaData, options);
    },
    shutdown,
    start,
    async restart() {
      await shutdown();
      await start();
    },
    async stop() {
      if (!running.has(dataDir)) return;
      running.delete(dataDir);
      try {
        await execute(bin, 'pg_ctl', ['-D', dataDir, '-m', 'fast', '-w', 'stop']);
      } catch (error) {
        // A server left shut down (by `shutdown`) is stopped already: only a running one is a failure to stop.
        if (existsSync(join(dataDir, 'postmaster.pid'))) throw error;
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}

/** initdb and start a server (ICU en-US as the default collation, so ordinal ordering must be asked for). */
export async function startPostgres(options: PostgresServerOptions = {}): Promise<PostgresServer> {
  const bin = findPostgresBin();
  const folder = serverFolder();
  const dataDir = join(folder, 'data');
  const base = ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync'];
  try {
    await execute(bin, 'initdb', [...base, '--locale=C.UTF-8', '--locale-provider=icu', '--icu-locale=en-US']);
  } catch {
    // Servers before 15 (or without ICU) have no ICU default collation: a libc one will do.
    rmSync(dataDir, { recursive: true, force: true });
    try {
      await execute(bin, 'initdb', [...base, '--locale=C.UTF-8']);
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
  }
  return startCluster(bin, folder, dataDir, options);
}
