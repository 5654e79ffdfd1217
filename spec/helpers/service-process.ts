/**
 * A service under test in a child process of its own, for what only a process shows: that it
 * never exits, whatever its requests, its provider or its database do. It runs with
 * `--unhandled-rejections=strict` (an unhandled rejection ends it, as an uncaught exception does)
 * and with process-probe.js, through which `listeners()` asks it how many process-level
 * 'uncaughtException' and 'unhandledRejection' listeners it has (the rule: none). Its output is
 * collected line by line; `started` waits for the line that names its address.
 */
import { fork, type ChildProcess } from 'child_process';
import { join } from 'path';

const PROBE = join(__dirname, 'process-probe.js');

/** How the process ended. */
export interface ProcessEnd {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** The process-level listeners the child has. */
export interface ProcessListeners {
  readonly uncaughtException: number;
  readonly unhandledRejection: number;
}

export class ServiceProcess {
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  /** Set when the process has ended. */
  ended: ProcessEnd | undefined;
  private readonly child: ChildProcess;
  private readonly exited: Promise<ProcessEnd>;
  private readonly waiting = new Set<() => void>();

  /** Fork `script` with `args` and `env` (added to this process's environment). */
  constructor(script: string, args: readonly string[], env: Readonly<Record<string, string>> = {}) {
    this.child = fork(script, [...args], {
      execArgv: ['--unhandled-rejections=strict', '--require', PROBE],
      env: { ...process.env, NODE_OPTIONS: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const collect = (into: string[]) => {
      let rest = '';
      return (chunk: Buffer): void => {
        const lines = (rest + chunk.toString('utf8')).split('\n');
        rest = lines.pop() ?? '';
        into.push(...lines);
        this.notify();
      };
    };
    this.child.stdout?.on('data', collect(this.stdout));
    this.child.stderr?.on('data', collect(this.stderr));
    this.exited = new Promise((done) => {
      this.child.on('exit', (code, signal) => {
        this.ended = { code, signal };
        this.notify();
        done(this.ended);
      });
    });
  }

  private notify(): void {
    for (const listener of [...this.waiting]) listener();
  }

  /** The first capture of `pattern` in a stdout line; rejects with the output when the process ends first. */
  started(pattern: RegExp): Promise<string> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        for (const line of this.stdout) {
          const match = pattern.exec(line);
          if (match !== null) {
            this.waiting.delete(check);
            resolve(match[1] ?? match[0]);
            return;
          }
        }
        if (this.ended !== undefined) {
          this.waiting.delete(check);
          reject(new Error(`The process ended (${JSON.stringify(this.ended)}) before it started:\n${[...this.stdout, ...this.stderr].join('\n')}`));
        }
      };
      this.waiting.add(check);
      check();
    });
  }

  /** Its process-level listeners, asked over IPC; rejects when it has ended. */
  listeners(): Promise<ProcessListeners> {
    return new Promise((resolve, reject) => {
      if (this.ended !== undefined) {
        reject(new Error(`The process has ended: ${JSON.stringify(this.ended)}\n${this.stderr.join('\n')}`));
        return;
      }
      const answered = (message: unknown): void => {
        this.child.off('message', answered);
        resolve(message as ProcessListeners);
      };
      this.child.on('message', answered);
      this.child.send('listeners');
    });
  }

  /** SIGTERM, and how it ended (a hang is caught by the spec's timeout). */
  stop(): Promise<ProcessEnd> {
    if (this.ended === undefined) this.child.kill('SIGTERM');
    return this.exited;
  }

  /** SIGKILL, for an afterAll after a failure: nothing is waited for. */
  kill(): void {
    if (this.ended === undefined) this.child.kill('SIGKILL');
  }
}

/** The process is up (else its stderr says why) and has no process-level handler. */
export async function expectSurvived(service: ServiceProcess): Promise<void> {
  expect({ ended: service.ended, stderr: service.ended === undefined ? [] : service.stderr }).toEqual({ ended: undefined, stderr: [] });
  expect(await service.listeners()).toEqual({ uncaughtException: 0, unhandledRejection: 0 });
}
