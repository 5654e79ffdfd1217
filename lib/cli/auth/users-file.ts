/**
 * The users file of `serve --auth basic`: one user per line, `<name>:<role>:<hash>` (the hash as
 * password-hash.ts writes it); lines starting with `#` and blank lines are ignored. Read once at
 * start: a mistake in any line stops the service with that line's number, never its hash.
 */
import { CliError } from '../errors';
import { roleNameProblem } from '../../sql/role-names';
import { holdsSeparator } from './identity';
import { decodePasswordHash, type PasswordHash } from './password-hash';

/** A user of the file. */
export interface StoredUser {
  readonly name: string;
  readonly role: string;
  readonly hash: PasswordHash;
}

/** A user name's longest form (characters). */
const MAX_NAME_LENGTH = 128;

/**
 * Why `name` cannot be a user name (a phrase), or undefined. RFC 7617 §2: the user-id of Basic
 * credentials cannot contain a colon; white space and control characters are refused to keep the
 * file readable and names unambiguous.
 */
export function userNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (name.length > MAX_NAME_LENGTH) return `it is longer than ${MAX_NAME_LENGTH} characters`;

  if (holdsSeparator(name)) return 'it holds white space, a colon or a control character';
  return undefined;
}

/** A file's lines with their numbers, blank lines and comments left out. */
function meaningfulLines(text: string): { readonly number: number; readonly text: string }[] {
  return text.split(/\r?\n/).flatMap((line, i) => (line.trim() === '' || line.startsWith('#') ? [] : [{ number: i + 1, text: line }]));
}

/** The name a line is about (its text up to the first colon), for `user add` to find a user's line. */
export function lineUserName(line: string): string | undefined {
  if (line.trim() === '' || line.startsWith('#')) return undefined;
  return line.slice(0, Math.max(0, line.indexOf(':'))).normalize('NFC');
}

/** The users of a users file (`file` names it in messages), by NFC-normalised name; a mistake in any line is a CliError naming it. */
export function readUsersFile(text: string, file: string): ReadonlyMap<string, StoredUser> {
  const users = new Map<string, StoredUser>();
  for (const line of meaningfulLines(text)) {
    const problem = (what: string): CliError => new CliError(`${file} line ${line.number}: ${what}.`);
    const fields = line.text.split(':');
    if (fields.length !== 3) throw problem('expected <name>:<role>:<hash> (write it with express-odata-v2 user add)');
    const [rawName, role, hashText] = fields;
    const name = rawName.normalize('NFC');
    const nameProblem = userNameProblem(name);
    if (nameProblem !== undefined) throw problem(`the user name cannot be used: ${nameProblem}`);
    const roleProblem = roleNameProblem(role);
    if (roleProblem !== undefined) throw problem(`the role cannot be used: ${roleProblem}`);
    const hash = decodePasswordHash(hashText);
    if (typeof hash === 'string') throw problem(hash);
    if (users.has(name)) throw problem(`the user ${name} is there twice`);
    users.set(name, { name, role, hash });
  }
  return users;
}
