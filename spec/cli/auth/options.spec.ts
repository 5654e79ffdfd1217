/**
 * serve's authentication options as the command line takes them (runCommand in this process):
 * combinations that make no sense are one line and exit code 2, unusable key and users files one
 * line and exit code 1, listening beyond loopback without --auth is refused unless
 * --allow-anonymous, and every check comes before a database is opened (`--db missing` names a
 * folder that does not exist, so getting past the checks shows as "no such file or folder").
 */
import { generateKeyPairSync } from 'crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { isLoopback } from '../../../lib/cli/auth/options';
import { runCommand } from '../../../lib/cli/run';

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-auth-options-'));
const pem = (key: { export(options: { type: 'spki'; format: 'pem' }): string | Buffer }): string => key.export({ type: 'spki', format: 'pem' }).toString();
writeFileSync(join(work, 'secret'), 'a-secret-of-forty-bytes-for-hs256-tokens\n');
writeFileSync(join(work, 'short-secret'), 'thirty-one-bytes-is-too-short!!\n');
writeFileSync(join(work, 'rsa-1024.pem'), pem(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey));
writeFileSync(join(work, 'p384.pem'), pem(generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).publicKey));
writeFileSync(join(work, 'ed25519.pem'), pem(generateKeyPairSync('ed25519').publicKey));
writeFileSync(join(work, 'private.pem'), generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ type: 'pkcs8', format: 'pem' }));
writeFileSync(join(work, 'not-a-key.pem'), '-----BEGIN PUBLIC KEY-----\nbm9wZQ==\n-----END PUBLIC KEY-----\n');
writeFileSync(join(work, 'no-users.txt'), '# nobody yet\n\n');
const HASH = '$scrypt$v=1$ln=15,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
writeFileSync(join(work, 'users.txt'), `ada:reader:${HASH}\n`);
writeFileSync(
  join(work, 'hostile.txt'),
  `ada:reader:${HASH}\nmallory:reader:$scrypt$v=1$ln=30,r=8,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n`,
);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** serve's exit code and stderr, with `args` after `--db missing`. */
async function serve(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<{ code: number; err: string[] }> {
  const err: string[] = [];
  const outcome = await runCommand(['serve', '--db', 'missing', ...args], { out: () => undefined, err: (line) => err.push(line), cwd: work, env });
  if (outcome.kind !== 'exit') {
    await outcome.service.close();
    throw new Error(`serve ${args.join(' ')} kept serving`);
  }
  return { code: outcome.code, err };
}

const usage = (message: string): { code: number; err: string[] } => ({
  code: 2,
  err: [`express-odata-v2: serve: ${message}. See 'express-odata-v2 serve --help'.`],
});
const failure = (message: string): { code: number; err: string[] } => ({ code: 1, err: [`express-odata-v2: ${message}`] });
const PAST_THE_CHECKS = failure(
  '--db missing: no such file or folder (give a postgres:// URL, a SQLite database file, or the data folder of a PGlite database).',
);

describe('which addresses are loopback', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['::ffff:10.0.0.1', false],
    ['127.0.0.1.example.com', false],
    ['localhost.example.com', false],
    ['my-host', false],
  ])('%s: %s', (host, loopback) => {
    expect(isLoopback(host)).toBe(loopback);
  });
});

describe('listening beyond loopback', () => {
  it.each([['0.0.0.0'], ['::'], ['192.168.1.10'], ['my-host']])('without --auth on %s is refused (exit code 1), with --anonymous-role too', async (host) => {
    const refusal = failure(
      `serve: refusing to listen on ${host} without authentication: anyone who reaches the port could read and change every table. Give --auth jwt or --auth basic, or --allow-anonymous when something in front authenticates.`,
    );
    expect(await serve(['--host', host])).toEqual(refusal);
    expect(await serve(['--host', host, '--anonymous-role', 'web_anon'])).toEqual(refusal);
  });

  it.each([['127.0.0.1'], ['localhost'], ['::1'], ['::ffff:127.0.0.1']])('without --auth on %s goes on', async (host) => {
    expect(await serve(['--host', host])).toEqual(PAST_THE_CHECKS);
  });

  it('with --allow-anonymous goes on (something in front authenticates)', async () => {
    expect(await serve(['--host', '0.0.0.0', '--allow-anonymous'])).toEqual(PAST_THE_CHECKS);
  });
});

describe('authorization by database roles', () => {
  it.each([
    [['--auth', 'jwt', '--jwt-secret-file', 'secret']],
    [['--auth', 'basic', '--users', 'users.txt', '--host', '0.0.0.0']],
    [['--anonymous-role', 'web_anon']],
    [['--auth', 'jwt', '--jwt-secret-file', 'secret', '--anonymous-role', 'web_anon', '--default-role', 'web_user', '--host', '::']],
  ])('goes on to the database: %j', async (args) => {
    expect(await serve(args)).toEqual(PAST_THE_CHECKS);
  });
});

describe('combinations that make no sense: one line, exit code 2', () => {
  it.each([
    [['--auth', 'oauth'], "--auth must be jwt or basic, got 'oauth'"],
    [['--auth', 'jwt'], '--auth jwt needs a key: --jwt-secret-file, --jwt-public-key-file, --jwt-jwks-url or the JWT_SECRET environment variable'],
    [
      ['--auth', 'jwt', '--jwt-secret-file', 'secret', '--jwt-jwks-url', 'https://id.example.com/keys'],
      '--auth jwt takes one key source, got --jwt-secret-file and --jwt-jwks-url',
    ],
    [['--auth', 'jwt', '--jwt-secret-file', 'secret', '--users', 'users.txt'], '--users needs --auth basic'],
    [['--auth', 'basic', '--users', 'users.txt', '--jwt-audience', 'api'], '--jwt-audience needs --auth jwt'],
    [['--auth', 'basic', '--users', 'users.txt', '--default-role', 'web_user'], '--default-role needs --auth jwt'],
    [['--jwt-secret-file', 'secret'], '--jwt-secret-file needs --auth jwt'],
    [['--role-claim', 'role'], '--role-claim needs --auth jwt'],
    [['--users', 'users.txt'], '--users needs --auth basic'],
    [['--auth', 'basic'], '--auth basic needs --users <file> (write it with express-odata-v2 user add)'],
    [
      ['--auth', 'jwt', '--jwt-secret-file', 'secret', '--allow-anonymous'],
      '--allow-anonymous is for serving without --auth; with --auth, --anonymous-role <role> lets requests without credentials in',
    ],
    [['--anonymous-role', 'none'], "--anonymous-role cannot be a role requests run as: 'none' is not a role requests may run as"],
    [['--anonymous-role', 'pg_read_all_data'], "--anonymous-role cannot be a role requests run as: roles starting with pg_ are PostgreSQL's own"],
    [['--anonymous-role', 'web anon'], '--anonymous-role cannot be a role requests run as: it holds white space, a colon or a control character'],
    [
      ['--auth', 'jwt', '--jwt-secret-file', 'secret', '--default-role', 'PUBLIC'],
      "--default-role cannot be a role requests run as: 'PUBLIC' is not a role requests may run as",
    ],
    [
      ['--auth', 'jwt', '--jwt-secret-file', 'secret', '--role-claim', 'realm_access..role'],
      "--role-claim must be a claim name or a dot path such as realm_access.role, got 'realm_access..role'",
    ],
    [['--auth', 'jwt', '--jwt-jwks-url', 'keys.json'], "--jwt-jwks-url must be an absolute URL, got 'keys.json'"],
    [
      ['--auth', 'jwt', '--jwt-jwks-url', 'http://id.example.com/keys'],
      "--jwt-jwks-url must be https (http only on a loopback address), got 'http://id.example.com/keys'",
    ],
    [
      ['--auth', 'jwt', '--jwt-jwks-url', 'file:///etc/keys.json'],
      "--jwt-jwks-url must be https (http only on a loopback address), got 'file:///etc/keys.json'",
    ],
  ])('%j', async (args, message) => {
    expect(await serve(args)).toEqual(usage(message));
  });

  it('takes a key set over http on loopback, and the flags before JWT_SECRET', async () => {
    expect(await serve(['--auth', 'jwt', '--jwt-jwks-url', 'http://127.0.0.1:9/keys'])).toEqual(PAST_THE_CHECKS);
    expect(await serve(['--auth', 'jwt', '--jwt-jwks-url', 'http://[::1]:9/keys'])).toEqual(PAST_THE_CHECKS);
    expect(await serve(['--auth', 'jwt', '--jwt-secret-file', 'secret'], { JWT_SECRET: 'short' })).toEqual(PAST_THE_CHECKS);
    expect(await serve(['--auth', 'jwt'], { JWT_SECRET: 'a-secret-of-forty-bytes-for-hs256-tokens' })).toEqual(PAST_THE_CHECKS);
  });
});

describe('key and users files that cannot be used: one line, exit code 1', () => {
  it.each([
    [['--auth', 'jwt', '--jwt-secret-file', 'nope'], {}, 'Cannot read nope: no such file.'],
    [['--auth', 'jwt', '--jwt-secret-file', '.'], {}, 'Cannot read .: it is a folder.'],
    [
      ['--auth', 'jwt', '--jwt-secret-file', 'short-secret'],
      {},
      'short-secret is shorter than 32 bytes: an HS256 secret that short can be guessed; use 32 random bytes or more.',
    ],
    [
      ['--auth', 'jwt'],
      { JWT_SECRET: 'secret' },
      'JWT_SECRET is shorter than 32 bytes: an HS256 secret that short can be guessed; use 32 random bytes or more.',
    ],
    [
      ['--auth', 'jwt', '--jwt-public-key-file', 'private.pem'],
      {},
      'private.pem holds a private key: give the public key (the private key stays with the issuer).',
    ],
    [
      ['--auth', 'jwt', '--jwt-public-key-file', 'rsa-1024.pem'],
      {},
      'rsa-1024.pem is not an RSA key of 2048 bits or more (RS256) nor an EC P-256 key (ES256).',
    ],
    [['--auth', 'jwt', '--jwt-public-key-file', 'p384.pem'], {}, 'p384.pem is not an RSA key of 2048 bits or more (RS256) nor an EC P-256 key (ES256).'],
    [['--auth', 'jwt', '--jwt-public-key-file', 'ed25519.pem'], {}, 'ed25519.pem is not an RSA key of 2048 bits or more (RS256) nor an EC P-256 key (ES256).'],
    [['--auth', 'jwt', '--jwt-public-key-file', 'secret'], {}, /^secret is not a PEM public key: .+\.$/],
    [['--auth', 'jwt', '--jwt-public-key-file', 'not-a-key.pem'], {}, /^not-a-key\.pem is not a PEM public key: .+\.$/],
    [['--auth', 'basic', '--users', 'nope.txt'], {}, 'Cannot read nope.txt: no such file.'],
    [
      ['--auth', 'basic', '--users', 'no-users.txt'],
      {},
      'no-users.txt holds no users (add one with express-odata-v2 user add no-users.txt <name> --role <role>).',
    ],
    [
      ['--auth', 'basic', '--users', 'hostile.txt'],
      {},
      'hostile.txt line 2: the scrypt parameters ln=30,r=8,p=1 are out of bounds (128·N·r from 16 to 128 MiB, N·r·p at most 2097152).',
    ],
  ])('%j %j', async (args, env, message) => {
    const { code, err } = await serve(args, env);
    expect([code, err.length, err[0].startsWith('express-odata-v2: ')]).toEqual([1, 1, true]);
    if (typeof message === 'string') expect(err[0]).toBe(`express-odata-v2: ${message}`);
    else expect(err[0].slice('express-odata-v2: '.length)).toMatch(message);
  });
});
