#!/usr/bin/env node
/**
 * The `express-odata-v2` executable: runs a command, exits with its code; a running service stops
 * cleanly on SIGINT (Ctrl-C) or SIGTERM (the port released, the database closed, exit code 0), and
 * a second signal ends the process at once.
 */
import { messageOf } from './errors';
import { runCommand } from './run';

async function main(): Promise<void> {
  const io = {
    out: (line: string) => process.stdout.write(`${line}\n`),
    err: (line: string) => process.stderr.write(`${line}\n`),
    cwd: process.cwd(),
    env: process.env,
  };
  const outcome = await runCommand(process.argv.slice(2), io);
  if (outcome.kind === 'exit') {
    process.exitCode = outcome.code;
    return;
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(1);
    stopping = true;
    io.err(`Stopping (${signal})...`);
    outcome.service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        io.err(`express-odata-v2: stopping failed: ${messageOf(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error: unknown) => {
  // runCommand reports every failure itself; this is a bug's last line, still without a stack.
  process.stderr.write(`express-odata-v2: ${messageOf(error)}\n`);
  process.exitCode = 1;
});
