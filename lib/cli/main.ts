#!/usr/bin/env node
/**
 * The `express-odata-v2` executable: runs a command, exits with its code; a running service stops
 * cleanly on SIGINT (Ctrl-C) or SIGTERM (the port released, the database closed, exit code 0), a
 * command stopped before it is done exits with 130 (SIGINT) or 143 (SIGTERM) with the database
 * closed, and a second signal ends the process at once. Started by npm (npx), it also stops when
 * the shell npm ran it in ends (parent.ts).
 */
import { messageOf } from './errors';
import { watchParent } from './parent';
import { runCommand } from './run';
import type { RunningService } from './serve';

async function main(): Promise<void> {
  const interrupt = new AbortController();
  const io = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
    cwd: process.cwd(),
    env: process.env,
    // A getter: process.stdin is made on first use, and only `user add` reads it.
    get stdin() {
      return process.stdin;
    },
    signal: interrupt.signal,
  };
  let service: RunningService | undefined = undefined;
  let stopping = false;
  const stopService = (running: RunningService): void => {
    running.close().then(
      () => process.exit(0),
      (error: unknown) => {
        io.err(`express-odata-v2: stopping failed: ${messageOf(error)}`);
        process.exit(1);
      },
    );
  };
  // Listening from the start: a signal during introspection or start-up ends the command at its
  // next step with the database closed (a PGlite folder is never left half-written), not mid-query.
  const halt = (signal: NodeJS.Signals, why: string): void => {
    if (stopping) process.exit(1);
    stopping = true;
    io.err(`Stopping (${why})...`);
    if (service === undefined) interrupt.abort(signal);
    else stopService(service);
  };
  // A listener gets the signal's number too: only the name is passed on.
  const stop = (signal: NodeJS.Signals): void => halt(signal, signal);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // npx's signal reaches its shell, not this process (parent.ts): the shell's end stands for it.
  const unwatch = watchParent(process.env, () => {
    if (!stopping) halt('SIGTERM', 'the npm process that started it has ended');
  });
  const outcome = await runCommand(process.argv.slice(2), io);
  if (outcome.kind === 'exit') {
    unwatch();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
    process.exitCode = outcome.code;
    return;
  }
  service = outcome.service;
  // The signal came after the last step that checks it: the service is up, stop it as asked.
  if (stopping) stopService(service);
}

main().catch((error: unknown) => {
  // runCommand reports every failure itself; this is a bug's last line, still without a stack.
  process.stderr.write(`express-odata-v2: ${messageOf(error)}\n`);
  process.exitCode = 1;
});
