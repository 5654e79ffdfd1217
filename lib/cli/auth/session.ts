/**
 * What the database session of a request applies for its identity, and the one place where the
 * command line hands it to SqlProvider. SqlProvider has no per-request session yet (its `session`
 * option is the other half of this work): until it has, serving with roles is refused here, since
 * every request would otherwise run as the login role whatever its credentials said.
 */
import { CliError } from '../errors';
import type { Identity } from './identity';

/** A request's database session: `set_config('role', role, true)` and each setting with `set_config(name, value, true)`. */
export interface DatabaseSession {
  readonly role: string;
  readonly settings: Readonly<Record<string, string>>;
}

/**
 * The session of `identity`: its role, and its claims as JSON in `request.jwt.claims`, where
 * PostgREST puts them, so policies written for PostgREST (`current_setting('request.jwt.claims',
 * true)::json ->> 'sub'`) work unchanged.
 */
export function sessionFor(identity: Identity): DatabaseSession {
  return { role: identity.role, settings: { 'request.jwt.claims': JSON.stringify(identity.claims) } };
}

/**
 * SqlProvider's options that run each request as the role of its identity (`identityOf(context.request)`
 * through `sessionFor`); none when requests run as the login role (no --auth, no --anonymous-role).
 * Called before the database is opened, so a refusal costs no connection.
 */
export function sessionOptions(runsAsRoles: boolean): Record<string, never> {
  if (!runsAsRoles) return {};
  throw new CliError(
    "serve: authorization by database roles needs SqlProvider's per-request session (its session option), which this version does not have yet; until then serve without --auth and --anonymous-role on a loopback address, or behind a proxy that authenticates.",
  );
}
