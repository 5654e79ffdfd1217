/**
 * The `express-odata-v2` executable as a user runs it: `node dist/cli/main.js` in a child process
 * (dist/ is built by the lanes that run it, `npm run test:package` and `npm run test:postgres`; a
 * stale build is refused with a pointer to `npm run build`), its output collected line by line,
 * and a running `serve` found by the address it prints.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'child_process';
import { readdirSync, statSync } from 'fs';
import { join, resolve } from 'path';

const ROOT = resolve(__dirname, '..', '..');

/** The built executable. */
export const CLI = join(ROOT, 'dist', 'cli', 'main.js');

function newestSource(folder: string): number {
  return Math.max(
    ...readdirSync(folder).map((name) => {
      const path = join(folder, name);
      const stat = statSync(path);
      return stat.isDirectory() ? newestSource(path) : name.endsWith('.ts') ? stat.mtimeMs : 0;
    }),
  );
}

/**
 * Throw unless dist/ is built from lib/ as it is: `tsc -b` rewrites only the outputs whose sources
 * changed, but its build info (dist/.tsbuildinfo) on every build, so that is the build's time.
 */
export function assertBuilt(): void {
  let built: number;
  try {
    statSync(CLI);
    built = statSync(join(ROOT, 'dist', '.tsbuildinfo')).mtimeMs;
  } catch {
    throw new Error(`${CLI} is missing: run npm run build (the package and postgres lanes do it first).`);
  }
  if (newestSource(join(ROOT, 'lib')) > built) throw new Error('dist/ is older than lib/: run npm run build (the package and postgres lanes do it first).');
}

/** A finished command: its exit code and output lines. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
}

/** A child process with its output collected line by line. */
export class CliProcess {
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  readonly exited: Promise<CliResult>;
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly listeners: (() => void)[] = [];

  /** `input`: what the process reads on standard input (nothing by default). */
  constructor(args: readonly string[], cwd: string, input?: string) {
    assertBuilt();
    this.child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
    this.child.stdin.end(input);
    const collect = (into: string[]) => {
      let rest = '';
      return (chunk: Buffer): void => {
        const lines = (rest + chunk.toString('utf8')).split('\n');
        rest = lines.pop() ?? '';
        into.push(...lines);
        for (const listener of this.listeners) listener();
      };
    };
    this.child.stdout.on('data', collect(this.stdout));
    this.child.stderr.on('data', collect(this.stderr));
    this.exited = new Promise((done) => {
      this.child.on('close', (code, signal) => {
        for (const listener of this.listeners) listener();
        done({ code, signal, stdout: this.stdout, stderr: this.stderr });
      });
    });
  }

  /** The first stdout line matching `pattern`, waiting up to `timeoutMs`; fails with the output if the process ends first. */
  async waitFor(pattern: RegExp, timeoutMs: number): Promise<RegExpExecArray> {
    let ended = false;
    void this.exited.then(() => (ended = true));
    return new Promise((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`no line matching ${pattern} within ${timeoutMs} ms:\n${this.describe()}`)), timeoutMs);
      const check = (): void => {
        for (const line of this.stdout) {
          const match = pattern.exec(line);
          if (match !== null) {
            clearTimeout(timer);
            done(match);
            return;
          }
        }
        if (ended) {
          clearTimeout(timer);
          fail(new Error(`the process ended before a line matching ${pattern}:\n${this.describe()}`));
        }
      };
      this.listeners.push(check);
      void this.exited.then(check);
      check();
    });
  }

  /** Send a signal. */
  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Output so far, for failure messages. */
  describe(): string {
    return `stdout:\n${this.stdout.join('\n')}\nstderr:\n${this.stderr.join('\n')}`;
  }
}

/** Run a command to its end, with `input` on its standard input. */
export function runCli(args: readonly string[], cwd: string, input?: string): Promise<CliResult> {
  return new CliProcess(args, cwd, input).exited;
}

/** `serve` started: the process and the service root it printed. */
export async function startServe(args: readonly string[], cwd: string, timeoutMs = 30_000): Promise<{ process: CliProcess; url: string; port: number }> {
  const cli = new CliProcess(['serve', ...args], cwd);
  try {
    const match = await cli.waitFor(/ at (http:\/\/127\.0\.0\.1:(\d+)\/\S*)$/, timeoutMs);
    return { process: cli, url: match[1], port: Number(match[2]) };
  } catch (error) {
    cli.kill('SIGKILL');
    throw error;
  }
}
