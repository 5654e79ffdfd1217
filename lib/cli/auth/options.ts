/**
 * serve's authentication options, checked together: which combinations make sense, the key or
 * users file read and checked at start (a mistake is one line before anything is opened), and the
 * refusal to listen beyond loopback without authentication unless --allow-anonymous says so.
 */
import { createPublicKey, type KeyObject } from 'crypto';
import { readFileSync } from 'fs';
import { isIP } from 'net';
import { resolve } from 'path';
import type { Clock, ExpressLikeRequest } from '../../index';
import { stringOption, type OptionSpec, type ParsedOptions } from '../arguments';
import { CliError, oneLine, UsageError } from '../errors';
import type { CliIO } from '../io';
import { basicVerifier } from './basic';
import { gate, type Credentials, type Handler } from './gate';
import { roleNameProblem } from '../../sql/role-names';
import type { Verdict } from './identity';
import { jwtVerifier, type JwtKeys } from './jwt';
import { readUsersFile } from './users-file';

/** serve's authentication options. */
export const AUTH_OPTIONS: readonly OptionSpec[] = [
  { name: 'auth', kind: 'string', value: '<jwt|basic>', help: 'Require credentials: bearer tokens (JWT) or users and passwords (basic, with --users).' },
  { name: 'users', kind: 'string', value: '<file>', help: 'With --auth basic: the users file (written by express-odata-v2 user add).' },
  {
    name: 'jwt-secret-file',
    kind: 'string',
    value: '<file>',
    help: 'With --auth jwt: the HS256 secret (32 bytes or more). Default: the JWT_SECRET environment variable.',
  },
  {
    name: 'jwt-public-key-file',
    kind: 'string',
    value: '<file>',
    help: 'With --auth jwt: a PEM public key, RSA (RS256, 2048 bits or more) or EC P-256 (ES256).',
  },
  {
    name: 'jwt-jwks-url',
    kind: 'string',
    value: '<url>',
    help: "With --auth jwt: the issuer's JSON Web Key Set (https, or http on loopback); RS256 and ES256 keys.",
  },
  { name: 'jwt-audience', kind: 'string', value: '<aud>', help: 'With --auth jwt: accept only tokens with this audience (aud).' },
  { name: 'jwt-issuer', kind: 'string', value: '<iss>', help: 'With --auth jwt: accept only tokens from this issuer (iss).' },
  {
    name: 'role-claim',
    kind: 'string',
    value: '<path>',
    help: 'With --auth jwt: the claim naming the database role (default role; a dot path such as realm_access.role).',
  },
  { name: 'default-role', kind: 'string', value: '<role>', help: 'With --auth jwt: the role of a valid token without the role claim (else 403).' },
  { name: 'anonymous-role', kind: 'string', value: '<role>', help: 'The role of requests without credentials (else 401).' },
  {
    name: 'allow-anonymous',
    kind: 'boolean',
    help: 'Without --auth: listen beyond loopback anyway (something in front authenticates, or the data is public).',
  },
];

/** What serve needs of its authentication. */
export interface Authentication {
  /** Requests run as database roles (--auth or --anonymous-role): the database session must apply them. */
  readonly runsAsRoles: boolean;
  /** The roles known before any request (--anonymous-role, --default-role, the users file's), checked at start; tokens may name others. */
  readonly knownRoles: readonly string[];
  /** --auth basic: the CSRF handshake is needed (a browser resends basic credentials by itself). */
  readonly csrf: boolean;
  /** `handler` behind the check (unchanged when there is nothing to check). */
  protect<Q extends ExpressLikeRequest>(handler: Handler<Q>): Handler<Q>;
}

/**
 * `localhost`, 127.0.0.0/8, `::1` and `::ffff:127.x.y.z`: the addresses only this machine reaches.
 * Any other name may resolve to a public address, so it counts as public.
 */
export function isLoopback(host: string): boolean {
  const address = host.toLowerCase();
  if (address === 'localhost' || address === '::1') return true;
  const ipv4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return isIP(ipv4) === 4 && ipv4.startsWith('127.');
}

/** The options only one kind of --auth reads. */
const JWT_ONLY = ['jwt-secret-file', 'jwt-public-key-file', 'jwt-jwks-url', 'jwt-audience', 'jwt-issuer', 'role-claim', 'default-role'];
const BASIC_ONLY = ['users'];

function checkRole(command: string, option: string, role: string | undefined): string | undefined {
  const problem = role === undefined ? undefined : roleNameProblem(role);
  if (problem !== undefined) throw new UsageError(`${command}: --${option} cannot be a role requests run as: ${problem}`, command);
  return role;
}

function readFile(file: string, cwd: string): Buffer {
  try {
    return readFileSync(resolve(cwd, file));
  } catch (error) {
    const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    throw new CliError(`Cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a folder' : oneLine(error)}.`, { cause: error });
  }
}

/** HMAC keys shorter than the hash are weak (RFC 7518 §3.2: HS256 needs 256 bits or more). */
const MIN_SECRET_BYTES = 32;

function secretKeys(secret: Buffer, from: string): JwtKeys {
  // A file written by `echo` ends with a newline that is not part of the secret.
  const text = secret.toString('latin1').replace(/\r?\n$/, '');
  if (Buffer.byteLength(text, 'latin1') < MIN_SECRET_BYTES)
    throw new CliError(`${from} is shorter than ${MIN_SECRET_BYTES} bytes: an HS256 secret that short can be guessed; use 32 random bytes or more.`);
  return { kind: 'secret', secret: Buffer.from(text, 'latin1') };
}

function publicKeyKeys(pem: Buffer, file: string): JwtKeys {
  if (pem.includes('PRIVATE KEY')) throw new CliError(`${file} holds a private key: give the public key (the private key stays with the issuer).`);
  let key: KeyObject;
  try {
    key = createPublicKey(pem);
  } catch (error) {
    throw new CliError(`${file} is not a PEM public key: ${oneLine(error)}.`, { cause: error });
  }
  const details = key.asymmetricKeyDetails ?? {};
  if (key.asymmetricKeyType === 'rsa' && (details.modulusLength ?? 0) >= 2048) return { kind: 'public-key', key, algorithm: 'RS256' };
  if (key.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1') return { kind: 'public-key', key, algorithm: 'ES256' };
  throw new CliError(`${file} is not an RSA key of 2048 bits or more (RS256) nor an EC P-256 key (ES256).`);
}

function keySetKeys(command: string, text: string): JwtKeys {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`${command}: --jwt-jwks-url must be an absolute URL, got '${text}'`, command);
  }
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  // Keys fetched in the clear could be replaced on the way: plain http only on this machine.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(host)))
    throw new UsageError(`${command}: --jwt-jwks-url must be https (http only on a loopback address), got '${text}'`, command);
  return { kind: 'key-set', url };
}

/** The keys of --auth jwt: exactly one source, the flags before JWT_SECRET. */
function jwtKeys(command: string, options: ParsedOptions, io: CliIO): JwtKeys {
  const sources = ['jwt-secret-file', 'jwt-public-key-file', 'jwt-jwks-url'].filter((name) => stringOption(options, name) !== undefined);
  if (sources.length > 1) throw new UsageError(`${command}: --auth jwt takes one key source, got ${sources.map((name) => `--${name}`).join(' and ')}`, command);
  const secretFile = stringOption(options, 'jwt-secret-file');
  if (secretFile !== undefined) return secretKeys(readFile(secretFile, io.cwd), secretFile);
  const publicKeyFile = stringOption(options, 'jwt-public-key-file');
  if (publicKeyFile !== undefined) return publicKeyKeys(readFile(publicKeyFile, io.cwd), publicKeyFile);
  const keySetUrl = stringOption(options, 'jwt-jwks-url');
  if (keySetUrl !== undefined) return keySetKeys(command, keySetUrl);
  const secret = io.env.JWT_SECRET;
  if (secret !== undefined && secret !== '') return secretKeys(Buffer.from(secret, 'latin1'), 'JWT_SECRET');
  throw new UsageError(
    `${command}: --auth jwt needs a key: --jwt-secret-file, --jwt-public-key-file, --jwt-jwks-url or the JWT_SECRET environment variable`,
    command,
  );
}

/** The dot path of --role-claim (`realm_access.role`). */
function roleClaimPath(command: string, options: ParsedOptions): string[] {
  const text = stringOption(options, 'role-claim') ?? 'role';
  const path = text.split('.');
  if (path.some((name) => name === ''))
    throw new UsageError(`${command}: --role-claim must be a claim name or a dot path such as realm_access.role, got '${text}'`, command);
  return path;
}

/** The check of the credentials --auth asks for, and the roles it knows of in advance. */
function credentialsOf(
  command: string,
  auth: string,
  options: ParsedOptions,
  io: CliIO,
  clock: Clock | undefined,
): { credentials: Credentials; knownRoles: string[] } {
  const defaultRole = checkRole(command, 'default-role', stringOption(options, 'default-role'));
  const users = auth === 'basic' ? usersOf(command, options, io) : undefined;
  const verify: (credentials: string) => Promise<Verdict> =
    users === undefined
      ? jwtVerifier({
          keys: jwtKeys(command, options, io),
          roleClaim: roleClaimPath(command, options),
          ...(defaultRole === undefined ? {} : { defaultRole }),
          ...(stringOption(options, 'jwt-audience') === undefined ? {} : { audience: stringOption(options, 'jwt-audience') }),
          ...(stringOption(options, 'jwt-issuer') === undefined ? {} : { issuer: stringOption(options, 'jwt-issuer') }),
          ...(clock === undefined ? {} : { clock }),
        })
      : basicVerifier(users);
  const knownRoles = users !== undefined ? [...users.values()].map((user) => user.role) : defaultRole === undefined ? [] : [defaultRole];
  return { credentials: { scheme: auth === 'jwt' ? 'Bearer' : 'Basic', verify }, knownRoles };
}

function usersOf(command: string, options: ParsedOptions, io: CliIO): ReturnType<typeof readUsersFile> {
  const file = stringOption(options, 'users');
  if (file === undefined) throw new UsageError(`${command}: --auth basic needs --users <file> (write it with express-odata-v2 user add)`, command);
  const users = readUsersFile(readFile(file, io.cwd).toString('utf8'), file);
  if (users.size === 0) throw new CliError(`${file} holds no users (add one with express-odata-v2 user add ${file} <name> --role <role>).`);
  return users;
}

/**
 * serve's authentication from its options, for a service listening on `host`. `clock` is the
 * time tokens are checked against (a spec's fixed instant); default the system's.
 */
export function authenticationOf(command: string, options: ParsedOptions, io: CliIO, host: string, clock?: Clock): Authentication {
  const auth = stringOption(options, 'auth');
  if (auth !== undefined && auth !== 'jwt' && auth !== 'basic') throw new UsageError(`${command}: --auth must be jwt or basic, got '${auth}'`, command);
  for (const name of auth === 'jwt' ? BASIC_ONLY : auth === 'basic' ? JWT_ONLY : [...JWT_ONLY, ...BASIC_ONLY])
    if (options[name] !== undefined) throw new UsageError(`${command}: --${name} needs --auth ${BASIC_ONLY.includes(name) ? 'basic' : 'jwt'}`, command);
  const allowAnonymous = options['allow-anonymous'] === true;
  if (auth !== undefined && allowAnonymous)
    throw new UsageError(
      `${command}: --allow-anonymous is for serving without --auth; with --auth, --anonymous-role <role> lets requests without credentials in`,
      command,
    );
  const anonymousRole = checkRole(command, 'anonymous-role', stringOption(options, 'anonymous-role'));
  if (auth === undefined && !allowAnonymous && !isLoopback(host))
    throw new CliError(
      `${command}: refusing to listen on ${host} without authentication: anyone who reaches the port could read and change every table. Give --auth jwt or --auth basic, or --allow-anonymous when something in front authenticates.`,
    );
  const runsAsRoles = auth !== undefined || anonymousRole !== undefined;
  if (!runsAsRoles) return { runsAsRoles, knownRoles: [], csrf: false, protect: (handler) => handler };
  const checked = auth === undefined ? undefined : credentialsOf(command, auth, options, io, clock);
  const credentials = checked?.credentials;
  const knownRoles = [...new Set([...(anonymousRole === undefined ? [] : [anonymousRole]), ...(checked?.knownRoles ?? [])])];
  const protect = gate({
    ...(credentials === undefined ? {} : { credentials }),
    ...(anonymousRole === undefined ? {} : { anonymousRole }),
    log: (line) => io.err(`${new Date().toISOString()} error ${line}`),
  });
  return { runsAsRoles, knownRoles, csrf: auth === 'basic', protect };
}
