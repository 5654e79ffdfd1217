/**
 * Which names a request may run as: the rules every role from a session, a token, a users file or
 * the command line meets before anything is sent to the database. No imports: the command line
 * checks its options with it before `express-odata-v2/sql` and its drivers are loaded.
 */

/** PostgreSQL keeps the first 63 bytes of a name (NAMEDATALEN - 1): a longer one would name a different role. */
const MAX_ROLE_BYTES = 63;

/**
 * Names `set_config('role', name, true)` does not take as a role: `none` switches back to the
 * login role (which may be a superuser), the others are keywords or predefined roles
 * (`pg_read_all_data`, `pg_write_all_data`...) that no request should run as.
 */
const RESERVED_ROLES: ReadonlySet<string> = new Set(['none', 'public', 'current_role', 'current_user', 'session_user', 'default']);

/**
 * Why `name` cannot be a role requests run as (a phrase for a message), or undefined when it can.
 * The database decides the rest: the role must exist, must not be a superuser or bypass row-level
 * security, and the login role must be allowed to switch to it (SqlProvider checks that once per role).
 */
export function roleNameProblem(name: string): string | undefined {
  if (name === '') return 'it is empty';
  if (Buffer.byteLength(name) > MAX_ROLE_BYTES) return `it is longer than ${MAX_ROLE_BYTES} bytes`;
  // White space and a colon never: the users file separates its fields with them.
  if (/[\s:\u0000-\u001f\u007f]/.test(name)) return 'it holds white space, a colon or a control character';
  if (RESERVED_ROLES.has(name.toLowerCase())) return `'${name}' is not a role requests may run as`;
  if (/^pg_/i.test(name)) return "roles starting with pg_ are PostgreSQL's own";
  return undefined;
}
