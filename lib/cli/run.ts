/**
 * The command line without the process: the command table, help and version, and each command's
 * outcome (an exit code, or a running service for the caller to stop). main.ts wires it to the
 * process (argv, stdout/stderr, signals, exit codes); specs call it directly.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { parseArguments, parseOptions, type OptionGroup } from './arguments';
import { USER_HELP, USER_OPTIONS, userCommand } from './auth/user-command';
import { isInstanceOf } from '../util';
import { CliError, InterruptedError, oneLine, UsageError } from './errors';
import { INTROSPECT_HELP, INTROSPECT_OPTIONS, introspectCommand } from './introspect-command';
import type { CliIO } from './io';
import { serve, SERVE_HELP, SERVE_OPTIONS, type RunningService } from './serve';

/** What a command ended with. */
export type CommandOutcome = { readonly kind: 'exit'; readonly code: number } | { readonly kind: 'serving'; readonly service: RunningService };

interface Command {
  readonly help: string;
  readonly options: readonly OptionGroup[];
  /** Takes positional arguments (`user add <file> <name>`); the others take options only. */
  readonly positionals?: true;
  run(options: ReturnType<typeof parseOptions>, io: CliIO, positionals: readonly string[]): Promise<CommandOutcome>;
}

const COMMANDS: Readonly<Record<string, Command>> = {
  serve: {
    help: SERVE_HELP,
    options: SERVE_OPTIONS,
    run: async (options, io) => ({ kind: 'serving', service: await serve(options, io) }),
  },
  introspect: {
    help: INTROSPECT_HELP,
    options: INTROSPECT_OPTIONS,
    run: async (options, io) => ({ kind: 'exit', code: await introspectCommand(options, io) }),
  },
  user: {
    help: USER_HELP,
    options: USER_OPTIONS,
    positionals: true,
    run: async (options, io, positionals) => ({ kind: 'exit', code: await userCommand(options, positionals, io) }),
  },
};

/** The package's version, from its package.json (two folders up from lib/cli and from dist/cli). */
function version(): string {
  const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
  return String(manifest.version);
}

const MAIN_HELP = `Usage: express-odata-v2 <command> [options]

Serve a database (a PostgreSQL server, a SQLite file or a PGlite folder) as an OData V2 service.

Commands:
  serve       Serve a database as an OData V2 service: introspected at start, or from
              metadata.xml and mapping.json.
  introspect  Write a database's model (metadata.xml) and mapping (mapping.json), to edit
              and serve.
  user add    Add a user to the users file of serve --auth basic (the password from
              standard input).
  help [cmd]  Show the help of a command.

Options:
  -h, --help     Show this help.
  -v, --version  Show the version.

Run 'express-odata-v2 <command> --help' for a command's options. Quick start:
  express-odata-v2 serve --db postgres://user:password@localhost:5432/mydb`;

const exit = (code: number): CommandOutcome => ({ kind: 'exit', code });

/** `serve, introspect or user`. */
const COMMAND_NAMES = ((names) => `${names.slice(0, -1).join(', ')} or ${names[names.length - 1]}`)(Object.keys(COMMANDS));

/** Run a command line (`args` without node and the script); failures are one line on `io.err`. */
export async function runCommand(args: readonly string[], io: CliIO): Promise<CommandOutcome> {
  const [name, ...rest] = args;
  if (name === undefined) {
    io.err(MAIN_HELP);
    return exit(2);
  }
  if (name === '--help' || name === '-h') {
    io.out(MAIN_HELP);
    return exit(0);
  }
  if (name === '--version' || name === '-v') {
    io.out(version());
    return exit(0);
  }
  if (name === 'help') {
    const topic = rest[0] === undefined ? undefined : COMMANDS[rest[0]];
    if (rest[0] !== undefined && topic === undefined) return usage(new UsageError(`help: unknown command '${rest[0]}' (expected ${COMMAND_NAMES})`), io);
    io.out(topic?.help ?? MAIN_HELP);
    return exit(0);
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) return usage(new UsageError(`unknown command '${name}' (expected ${COMMAND_NAMES})`), io);
  try {
    const { options, positionals } =
      command.positionals === true ? parseArguments(name, rest, command.options) : { options: parseOptions(name, rest, command.options), positionals: [] };
    if (options.help === true) {
      io.out(command.help);
      return exit(0);
    }
    return await command.run(options, io, positionals);
  } catch (error) {
    if (isInstanceOf(error, UsageError)) return usage(error, io);
    if (isInstanceOf(error, InterruptedError)) {
      io.err(`express-odata-v2: ${error.message}; nothing was written.`);
      return exit(error.exitCode);
    }
    io.err(`express-odata-v2: ${isInstanceOf(error, CliError) ? error.message : oneLine(error)}`);
    return exit(1);
  }
}

function usage(error: UsageError, io: CliIO): CommandOutcome {
  io.err(`express-odata-v2: ${error.message.replace(/\.$/, '')}. See 'express-odata-v2 ${error.command === undefined ? '' : `${error.command} `}--help'.`);
  return exit(2);
}
