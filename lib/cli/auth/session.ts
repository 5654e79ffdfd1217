/**
 * What the database session of a request applies for its identity, and the one place where the
 * command line hands it to SqlProvider: each request runs as the role the authentication gate
 * admitted it as (identity.ts), with its claims as `request.jwt.claims`; the roles known at start
 * are checked before the port opens.
 */
import type { SqlProvider, SqlProviderOptions, SqlSession } from '../../sql';
import { isInstanceOf } from '../../util';
import type { OpenDatabase } from '../database';
import { CliError, describeDatabaseError } from '../errors';
import { identityOf, type Identity } from './identity';

/**
 * The session of `identity`: its role, and its claims as JSON in `request.jwt.claims`, where
 * PostgREST puts them, so policies written for PostgREST (`current_setting('request.jwt.claims',
 * true)::json ->> 'sub'`) work unchanged.
 */
export function sessionFor(identity: Identity): SqlSession {
  return { role: identity.role, settings: { 'request.jwt.claims': JSON.stringify(identity.claims) } };
}

/**
 * SqlProvider's options that run each request as the role of its identity (`identityOf(context.request)`
 * through `sessionFor`; a request the gate did not admit has none, which SqlProvider refuses with
 * 403); none when requests run as the login role (no --auth, no --anonymous-role). `log` takes
 * the provider's refusals (a line each, for stderr).
 */
export function sessionOptions(runsAsRoles: boolean, log: (line: string) => void): Pick<SqlProviderOptions, 'session' | 'logger'> {
  if (!runsAsRoles) return {};
  return {
    session: (context) => {
      const identity = identityOf(context.request);
      return identity === undefined ? undefined : sessionFor(identity);
    },
    logger: (event) => log(event.message),
  };
}

/** Refuse to start (one line, exit code 1) when requests may not run as a role known in advance, or the roles cannot be looked up. */
export async function checkKnownRoles(provider: SqlProvider, roles: readonly string[], open: OpenDatabase): Promise<void> {
  if (roles.length === 0) return;
  try {
    await provider.checkRoles(roles);
  } catch (error) {
    if (isInstanceOf(error, open.sql.SqlSessionRoleError)) throw new CliError(`serve: ${error.message}`, { cause: error });
    throw new CliError(describeDatabaseError(error, open.where), { cause: error });
  }
}
