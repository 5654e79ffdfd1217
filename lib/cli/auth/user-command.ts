/**
 * `express-odata-v2 user add <file> <name> --role <role>`: a user of `serve --auth basic`, its
 * password read from standard input and stored as a salted scrypt hash. The file is created
 * (readable by its owner only) or rewritten whole through a temporary file, so a failure never
 * leaves half a line; an existing user's line is replaced only with --force.
 */
import { randomBytes } from 'crypto';
import { existsSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import { optionsHelp, stringOption, type OptionGroup, type ParsedOptions } from '../arguments';
import { CliError, oneLine, UsageError } from '../errors';
import type { CliIO } from '../io';
import { roleNameProblem } from '../../sql/role-names';
import { readPassword } from './password-input';
import { hashPassword } from './password-hash';
import { lineUserName, readUsersFile, userNameProblem } from './users-file';

/** user's options. */
export const USER_OPTIONS: readonly OptionGroup[] = [
  {
    title: 'Options',
    options: [
      { name: 'role', kind: 'string', value: '<role>', help: 'The database role requests of this user run as (required).' },
      { name: 'force', kind: 'boolean', help: "Replace the user's line if the file has one." },
      {
        name: 'password',
        kind: 'string',
        value: '<password>',
        help: 'Refused: a password on the command line shows in ps and the shell history. It is read from standard input.',
      },
    ],
  },
];

/** user's help text. */
export const USER_HELP = `Usage: express-odata-v2 user add <file> <name> --role <role>

Add a user to the users file of serve --auth basic (the file is created if missing). The
password is read from standard input: typed twice at a terminal (not shown), or piped (one
line); never from the command line. The file holds one user per line:
  <name>:<role>:$scrypt$v=1$ln=15,r=8,p=1$<salt>$<hash>

${optionsHelp(USER_OPTIONS)}

Examples:
  express-odata-v2 user add users.txt ada --role reader
  printf '%s\\n' "$PASSWORD" | express-odata-v2 user add users.txt build --role writer --force`;

const HEADER = '# express-odata-v2 users: <name>:<role>:<scrypt hash>, one per line (express-odata-v2 user add <file> <name> --role <role>)';

/** The file's text and its permissions, or none for a file still to create. */
function readExisting(path: string, file: string): { text: string; mode: number } | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return { text: readFileSync(path, 'utf8'), mode: statSync(path).mode & 0o777 };
  } catch (error) {
    throw new CliError(`Cannot read ${file}: ${oneLine(error)}.`, { cause: error });
  }
}

/** Write `text` to `path` whole: a temporary file beside it, renamed over it. */
function writeWhole(path: string, file: string, text: string, mode: number): void {
  const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    writeFileSync(temporary, text, { mode, flag: 'wx' });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new CliError(`Cannot write ${file}: ${oneLine(error)}.`, { cause: error });
  }
}

/** Run `user add`; resolves with the exit code. */
export async function userCommand(options: ParsedOptions, positionals: readonly string[], io: CliIO): Promise<number> {
  if (options.password !== undefined)
    throw new UsageError('user: a password is never taken from the command line (ps and the shell history show it); it is read from standard input', 'user');
  const [action, file, name, ...rest] = positionals;
  if (action !== 'add')
    throw new UsageError(
      action === undefined ? 'user: expected user add <file> <name> --role <role>' : `user: unknown action '${action}' (expected add)`,
      'user',
    );
  if (file === undefined || name === undefined) throw new UsageError('user add: expected <file> <name> --role <role>', 'user');
  if (rest.length > 0) throw new UsageError('user add: too many arguments; the password is read from standard input, never from the command line', 'user');
  const nameProblem = userNameProblem(name.normalize('NFC'));
  if (nameProblem !== undefined) throw new UsageError(`user add: the user name cannot be used: ${nameProblem}`, 'user');
  const role = stringOption(options, 'role');
  if (role === undefined) throw new UsageError('user add: --role <role> is required (the database role requests of this user run as)', 'user');
  const roleProblem = roleNameProblem(role);
  if (roleProblem !== undefined) throw new UsageError(`user add: --role cannot be a role requests run as: ${roleProblem}`, 'user');

  const path = resolve(io.cwd, file);
  const existing = readExisting(path, file);
  // The file is checked before the password is asked for: a broken file is never rewritten.
  const users = existing === undefined ? new Map() : readUsersFile(existing.text, file);
  const user = name.normalize('NFC');
  const replacing = users.has(user);
  if (replacing && options.force !== true) throw new CliError(`${file} already has the user ${user}; give --force to replace that line.`);
  const line = `${user}:${role}:${await hashPassword(await readPassword(io, user))}`;

  const kept = existing === undefined ? [HEADER] : existing.text.replace(/\r?\n$/, '').split(/\r?\n/);
  const lines = replacing ? kept.map((text) => (lineUserName(text) === user ? line : text)) : [...kept, line];
  writeWhole(path, file, `${lines.join('\n')}\n`, existing?.mode ?? 0o600);
  io.out(`${replacing ? 'Replaced' : 'Added'} ${user} (role ${role}) in ${file}.`);
  return 0;
}
