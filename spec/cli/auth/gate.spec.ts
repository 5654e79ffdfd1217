/**
 * serve's authentication in this process: the options as serve reads them (authenticationOf),
 * and the gate in front of a handler on 127.0.0.1 that answers with the database session the
 * request would run in (sessionFor(identityOf(request))). Tokens signed with a secret, an RSA and
 * an EC key, and by a key set served on 127.0.0.1; users of a users file; anonymous requests; and
 * the real service behind the gate. Tokens are checked at a fixed instant (the clock option), so
 * exp and nbf are judged without reading a clock.
 */
import crypto from 'crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'http';
import { mkdtempSync, rmSync, writeFileSync } from 'fs';
import { createServer as createNetServer } from 'net';
import { tmpdir } from 'os';
import { join } from 'path';
import { exportJWK, SignJWT, type JWTPayload } from 'jose';
import request from 'supertest';
import { MemoryProvider, odata, type QueryRequest, type QueryResult, type RequestContext } from '../../../lib';
import { parseOptions } from '../../../lib/cli/arguments';
import { authenticationOf, type Authentication } from '../../../lib/cli/auth/options';
import { identityOf, type Identity } from '../../../lib/cli/auth/identity';
import { hashPassword } from '../../../lib/cli/auth/password-hash';
import { sessionFor } from '../../../lib/cli/auth/session';
import { SERVE_OPTIONS } from '../../../lib/cli/serve';
import { DEMO_LINKS, DEMO_MODEL, demoData } from '../../helpers/demo';
import { startServer, type RunningServer } from '../../helpers/server';

/** The instant tokens are checked at: 2026-01-01T00:00:00Z, in seconds. */
const NOW = 1_767_225_600;
const clock = (): Date => new Date(NOW * 1000);

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-auth-gate-'));
const SECRET = 'a-secret-of-forty-bytes-for-hs256-tokens';
const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const otherRsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
const ec = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const rsaPem = rsa.publicKey.export({ type: 'spki', format: 'pem' }).toString();
writeFileSync(join(work, 'secret'), `${SECRET}\n`);
writeFileSync(join(work, 'rsa.pem'), rsaPem);
writeFileSync(join(work, 'ec.pem'), ec.publicKey.export({ type: 'spki', format: 'pem' }));

afterAll(() => rmSync(work, { recursive: true, force: true }));

type SigningKey = crypto.KeyObject | Uint8Array;

/** A token with `claims` (iat NOW, exp an hour later unless given), signed with `key` by `alg`. */
function sign(claims: JWTPayload, alg: string, key: SigningKey, kid?: string): Promise<string> {
  return new SignJWT({ iat: NOW, exp: NOW + 3600, ...claims }).setProtectedHeader({ alg, typ: 'JWT', ...(kid === undefined ? {} : { kid }) }).sign(key);
}

const hs256 = (claims: JWTPayload): Promise<string> => sign(claims, 'HS256', Buffer.from(SECRET));
const rs256 = (claims: JWTPayload, kid?: string): Promise<string> => sign(claims, 'RS256', rsa.privateKey, kid);

/** A token that claims `alg: none` and has no signature (RFC 7519 §6.1). */
function unsecured(claims: JWTPayload): string {
  const part = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ iat: NOW, exp: NOW + 3600, ...claims })}.`;
}

interface Gated {
  readonly url: string;
  readonly authentication: Authentication;
  /** Lines written to stderr. */
  readonly err: string[];
}

const servers: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

/** The database session of each admitted request, as JSON: what SqlProvider's session option would apply. */
function sessionEcho(request: IncomingMessage, response: ServerResponse): void {
  const identity = identityOf(request);
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(JSON.stringify(identity === undefined ? null : sessionFor(identity)));
}

/** serve's authentication from its options as given, with stderr's lines. */
function authenticationFor(args: readonly string[]): { authentication: Authentication; err: string[] } {
  const err: string[] = [];
  const io = { out: () => undefined, err: (line: string) => err.push(line), cwd: work, env: {} };
  return { authentication: authenticationOf('serve', parseOptions('serve', args, SERVE_OPTIONS), io, '127.0.0.1', clock), err };
}

/** The gate of serve's options as given, in front of `handler` on 127.0.0.1. */
async function gated(args: readonly string[], handler: (request: IncomingMessage, response: ServerResponse) => void = sessionEcho): Promise<Gated> {
  const { authentication, err } = authenticationFor(args);
  const protectedHandler = authentication.protect(handler);
  const server = await startServer(createServer((request, response) => protectedHandler(request, response, () => response.end())));
  servers.push(server);
  return { url: server.url, authentication, err };
}

/** The session a request with `authorization` runs in, or its refusal: status, code and WWW-Authenticate. */
async function outcome(url: string, authorization?: string): Promise<unknown> {
  const call = request(url).get('/odata/Products?$format=json');
  const response = await (authorization === undefined ? call : call.set('authorization', authorization));
  if (response.status === 200) return JSON.parse(response.text) as unknown;
  const body = JSON.parse(response.text) as { error: { code: string } };
  return [response.status, body.error.code, response.headers['www-authenticate'], response.headers['retry-after']];
}

const session = (role: string, claims: object): unknown => ({ role, settings: { 'request.jwt.claims': JSON.stringify(claims) } });
const INVALID_BEARER = [401, 'AUTH_INVALID', 'Bearer realm="express-odata-v2", error="invalid_token"', undefined];
const NO_ROLE = [403, 'AUTH_NO_ROLE', undefined, undefined];

describe('--auth jwt with an HS256 secret (--jwt-secret-file)', () => {
  let url: string;
  beforeAll(async () => ({ url } = await gated(['--auth', 'jwt', '--jwt-secret-file', 'secret'])));

  it('runs a valid token as its role, with its claims in request.jwt.claims', async () => {
    const claims = { sub: 'ada', role: 'reader', tenant: 7 };
    expect(await outcome(url, `Bearer ${await hs256(claims)}`)).toEqual(session('reader', { iat: NOW, exp: NOW + 3600, ...claims }));
    // The scheme is case-insensitive (RFC 9110 §11.1).
    expect(await outcome(url, `bearer ${await hs256(claims)}`)).toEqual(session('reader', { iat: NOW, exp: NOW + 3600, ...claims }));
  });

  it.each([
    ['expired 31 s ago', { exp: NOW - 31 }, INVALID_BEARER],
    ['expired 29 s ago (within the tolerance)', { exp: NOW - 29 }, 'reader'],
    ['valid only in 31 s', { nbf: NOW + 31 }, INVALID_BEARER],
    ['valid in 29 s (within the tolerance)', { nbf: NOW + 29 }, 'reader'],
  ])('a token %s', async (_when, times, expected) => {
    const result = await outcome(url, `Bearer ${await hs256({ role: 'reader', ...times })}`);
    expect(typeof expected === 'string' ? (result as { role: string }).role : result).toEqual(expected);
  });

  it.each([
    ['signed with another secret', () => sign({ role: 'reader' }, 'HS256', Buffer.from('another-secret-of-forty-bytes-for-hs256!'))],
    ['signed with RS256 (an algorithm the secret does not allow)', () => rs256({ role: 'reader' })],
    ['with alg: none and no signature', () => Promise.resolve(unsecured({ role: 'reader' }))],
    [
      'with a changed payload',
      async () => (await hs256({ role: 'reader' })).replace(/\.[^.]+\./, `.${Buffer.from('{"role":"admin"}').toString('base64url')}.`),
    ],
    ['that is not a JWT', () => Promise.resolve('not-a-token')],
    ['of two parts', () => Promise.resolve('eyJhbGciOiJIUzI1NiJ9.e30')],
  ])('refuses a token %s: 401 with the same body for every fault', async (_what, token) => {
    expect(await outcome(url, `Bearer ${await token()}`)).toEqual(INVALID_BEARER);
  });

  it.each([
    ['no Authorization header', undefined, [401, 'AUTH_REQUIRED', 'Bearer realm="express-odata-v2"', undefined]],
    ['an empty one', '', [401, 'AUTH_REQUIRED', 'Bearer realm="express-odata-v2"', undefined]],
    ['the scheme alone', 'Bearer', INVALID_BEARER],
    ['another scheme', `Basic ${Buffer.from('ada:secret').toString('base64')}`, INVALID_BEARER],
    ['two tokens', 'Bearer a.b.c d.e.f', INVALID_BEARER],
    ['a token with characters token68 does not have', 'Bearer a.b.c;', INVALID_BEARER],
  ])('answers %s with 401 and the challenge', async (_what, header, expected) => {
    expect(await outcome(url, header)).toEqual(expected);
  });

  it.each([
    ['no role claim', {}],
    ['a role that is not a string', { role: ['reader'] }],
    ['the role none (which would switch back to the login role)', { role: 'none' }],
    ["a role of PostgreSQL's own", { role: 'pg_read_all_data' }],
    ['an empty role', { role: '' }],
    ['a role longer than 63 bytes', { role: 'r'.repeat(64) }],
  ])('refuses a valid token with %s: 403', async (_what, claims) => {
    expect(await outcome(url, `Bearer ${await hs256(claims)}`)).toEqual(NO_ROLE);
  });

  it('answers in the format the client asks for, and HEAD without a body', async () => {
    const xml = await request(url).get('/odata/$metadata');
    expect([xml.status, xml.headers['content-type'], xml.text]).toEqual([
      401,
      'application/xml;charset=utf-8',
      expect.stringContaining('<m:code>AUTH_REQUIRED</m:code>') as unknown,
    ]);
    const head = await request(url).head('/odata/');
    expect([head.status, head.headers['www-authenticate'], head.text]).toEqual([401, 'Bearer realm="express-odata-v2"', undefined]);
  });
});

describe('--auth jwt with audience, issuer, a nested role claim and a default role', () => {
  let url: string;
  beforeAll(
    async () =>
      ({ url } = await gated([
        '--auth',
        'jwt',
        '--jwt-secret-file',
        'secret',
        '--jwt-audience',
        'orders-api',
        '--jwt-issuer',
        'https://id.example.com/',
        '--role-claim',
        'realm_access.role',
        '--default-role',
        'web_user',
      ])),
  );
  const valid = { aud: 'orders-api', iss: 'https://id.example.com/' };

  it.each([
    ['the right audience and issuer', valid, 'clerk'],
    ['the audience among several', { ...valid, aud: ['billing', 'orders-api'] }, 'clerk'],
    ['a wrong audience', { ...valid, aud: 'billing' }, INVALID_BEARER],
    ['no audience', { iss: valid.iss }, INVALID_BEARER],
    ['a wrong issuer', { ...valid, iss: 'https://evil.example.com/' }, INVALID_BEARER],
    ['no issuer', { aud: valid.aud }, INVALID_BEARER],
  ])('a token with %s', async (_what, claims, expected) => {
    const result = await outcome(url, `Bearer ${await hs256({ ...claims, realm_access: { role: 'clerk' } })}`);
    expect(typeof expected === 'string' ? (result as { role: string }).role : result).toEqual(expected);
  });

  it('reads the role at the dot path, and gives a token without it the default role', async () => {
    expect(await outcome(url, `Bearer ${await hs256({ ...valid, role: 'admin' })}`)).toEqual(
      session('web_user', { iat: NOW, exp: NOW + 3600, ...valid, role: 'admin' }),
    );
    expect(await outcome(url, `Bearer ${await hs256({ ...valid, realm_access: { role: 'none' } })}`)).toEqual(NO_ROLE);
  });
});

describe('--auth jwt with a public key file', () => {
  it('verifies RS256 with an RSA key and refuses an HS256 token made with the public key as its secret', async () => {
    const { url } = await gated(['--auth', 'jwt', '--jwt-public-key-file', 'rsa.pem']);
    expect(await outcome(url, `Bearer ${await rs256({ role: 'reader' })}`)).toMatchObject({ role: 'reader' });
    // The classic confusion: the public key, known to all, used as an HMAC secret.
    expect(await outcome(url, `Bearer ${await sign({ role: 'reader' }, 'HS256', Buffer.from(rsaPem))}`)).toEqual(INVALID_BEARER);
    expect(await outcome(url, `Bearer ${await sign({ role: 'reader' }, 'RS256', otherRsa.privateKey)}`)).toEqual(INVALID_BEARER);
    expect(await outcome(url, `Bearer ${await sign({ role: 'reader' }, 'PS256', rsa.privateKey)}`)).toEqual(INVALID_BEARER);
    expect(await outcome(url, `Bearer ${unsecured({ role: 'reader' })}`)).toEqual(INVALID_BEARER);
  });

  it('verifies ES256 with an EC P-256 key, and nothing else', async () => {
    const { url } = await gated(['--auth', 'jwt', '--jwt-public-key-file', 'ec.pem']);
    expect(await outcome(url, `Bearer ${await sign({ role: 'reader' }, 'ES256', ec.privateKey)}`)).toMatchObject({ role: 'reader' });
    expect(await outcome(url, `Bearer ${await rs256({ role: 'reader' })}`)).toEqual(INVALID_BEARER);
  });
});

/** A port nothing listens on: bound once by the system's choice, then closed. */
function closedPort(): Promise<number> {
  return new Promise((done) => {
    const probe = createNetServer();
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

describe('--auth jwt with a key set (--jwt-jwks-url) served on 127.0.0.1', () => {
  let keySet: RunningServer;
  let fetches = 0;
  let answer: { status: number; body: string } = { status: 200, body: '' };
  beforeAll(async () => {
    const jwk = { ...(await exportJWK(rsa.publicKey)), kid: 'key-1', alg: 'RS256', use: 'sig' };
    const ecJwk = { ...(await exportJWK(ec.publicKey)), kid: 'key-2', alg: 'ES256', use: 'sig' };
    answer = { status: 200, body: JSON.stringify({ keys: [jwk, ecJwk] }) };
    const server: Server = createServer((_request, response) => {
      fetches += 1;
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(answer.body);
    });
    keySet = await startServer(server);
    servers.push(keySet);
  });

  it('verifies tokens by the key their kid names, fetching the set once', async () => {
    const { url, err } = await gated(['--auth', 'jwt', '--jwt-jwks-url', `${keySet.url}/keys`]);
    const before = fetches;
    expect(await outcome(url, `Bearer ${await rs256({ role: 'reader' }, 'key-1')}`)).toMatchObject({ role: 'reader' });
    expect(await outcome(url, `Bearer ${await sign({ role: 'writer' }, 'ES256', ec.privateKey, 'key-2')}`)).toMatchObject({ role: 'writer' });
    expect(fetches - before).toBe(1);
    expect(await outcome(url, `Bearer ${await sign({ role: 'reader' }, 'RS256', otherRsa.privateKey, 'key-1')}`)).toEqual(INVALID_BEARER);
    expect(await outcome(url, `Bearer ${await sign({ role: 'reader' }, 'HS256', Buffer.from(SECRET), 'key-1')}`)).toEqual(INVALID_BEARER);
    expect(await outcome(url, `Bearer ${unsecured({ role: 'reader' })}`)).toEqual(INVALID_BEARER);
    expect(err).toEqual([]);
  });

  it('answers 503 with Retry-After when the key set does not answer, and logs why without the token', async () => {
    const { url, err } = await gated(['--auth', 'jwt', '--jwt-jwks-url', `http://127.0.0.1:${await closedPort()}/keys`]);
    const token = await rs256({ role: 'reader' }, 'key-1');
    expect(await outcome(url, `Bearer ${token}`)).toEqual([503, 'AUTH_UNAVAILABLE', undefined, '5']);
    expect(err).toEqual([
      expect.stringMatching(
        / error 503 GET \/odata\/Products\?\$format=json: credentials cannot be checked: the key set at http:\/\/127\.0\.0\.1:\d+\/keys cannot be fetched: .*ECONNREFUSED/,
      ),
    ]);
    expect(err.join('\n')).not.toContain(token);
  });

  it('answers 503 when the key set answers with an error or no key set', async () => {
    for (const broken of [
      { status: 500, body: 'down' },
      { status: 200, body: 'not json' },
      { status: 200, body: '{"keys": 1}' },
    ]) {
      answer = broken;
      const { url } = await gated(['--auth', 'jwt', '--jwt-jwks-url', `${keySet.url}/keys`]);
      expect(await outcome(url, `Bearer ${await rs256({ role: 'reader' }, 'key-1')}`)).toEqual([503, 'AUTH_UNAVAILABLE', undefined, '5']);
    }
  });
});

const basic = (name: string, password: string): string => `Basic ${Buffer.from(`${name}:${password}`).toString('base64')}`;
const INVALID_BASIC = [401, 'AUTH_INVALID', 'Basic realm="express-odata-v2", charset="UTF-8"', undefined];

describe('--auth basic with a users file', () => {
  let gate: Gated;
  beforeAll(async () => {
    writeFileSync(
      join(work, 'users.txt'),
      `# users\nada:reader:${await hashPassword('correct horse battery')}\nzoë:writer:${await hashPassword('pässwörd-ünïcode')}\n`,
    );
    gate = await gated(['--auth', 'basic', '--users', 'users.txt']);
  });

  it('runs a user as their role, with { sub, role } as the claims, and turns the CSRF handshake on', async () => {
    expect(await outcome(gate.url, basic('ada', 'correct horse battery'))).toEqual(session('reader', { sub: 'ada', role: 'reader' }));
    expect(await outcome(gate.url, basic('zoë', 'pässwörd-ünïcode'))).toEqual(session('writer', { sub: 'zoë', role: 'writer' }));
    expect(gate.authentication.csrf).toBe(true);
  });

  it.each([
    ['a wrong password', basic('ada', 'correct horse')],
    ['an unknown user', basic('grace', 'correct horse battery')],
    ['a password with a different case', basic('ada', 'Correct horse battery')],
    ['no colon', `Basic ${Buffer.from('ada').toString('base64')}`],
    ['something other than base64', 'Basic ada:correct horse battery'],
    ['bytes that are not UTF-8', `Basic ${Buffer.from([0x61, 0x3a, 0xff, 0xfe]).toString('base64')}`],
    ['a bearer token', 'Bearer a.b.c'],
  ])('refuses %s: 401 with the same body', async (_what, header) => {
    expect(await outcome(gate.url, header)).toEqual(INVALID_BASIC);
  });

  it('asks for credentials with the Basic challenge', async () => {
    expect(await outcome(gate.url)).toEqual([401, 'AUTH_REQUIRED', 'Basic realm="express-odata-v2", charset="UTF-8"', undefined]);
  });

  it('checks a password once: credentials that verified are remembered (by an HMAC), failures never', async () => {
    const scrypt = jest.spyOn(crypto, 'scrypt');
    try {
      const header = basic('zoë', 'pässwörd-ünïcode');
      await outcome(gate.url, header);
      await outcome(gate.url, header);
      await outcome(gate.url, basic('zoë', 'wrong password'));
      await outcome(gate.url, basic('zoë', 'wrong password'));
      // The first success was remembered by the test above; the two failures cost one run each.
      expect(scrypt).toHaveBeenCalledTimes(2);
    } finally {
      scrypt.mockRestore();
    }
  });
});

describe('--anonymous-role', () => {
  it('without --auth: every request runs as the anonymous role, whatever it sends', async () => {
    const { url } = await gated(['--anonymous-role', 'web_anon']);
    expect(await outcome(url)).toEqual(session('web_anon', { role: 'web_anon' }));
    expect(await outcome(url, 'Bearer whatever')).toEqual(session('web_anon', { role: 'web_anon' }));
  });

  it('with --auth: requests without credentials run as it; bad credentials are still 401, never anonymous', async () => {
    const { url } = await gated(['--auth', 'jwt', '--jwt-secret-file', 'secret', '--anonymous-role', 'web_anon']);
    expect(await outcome(url)).toEqual(session('web_anon', { role: 'web_anon' }));
    expect(await outcome(url, `Bearer ${await hs256({ role: 'reader' })}`)).toMatchObject({ role: 'reader' });
    expect(await outcome(url, `Bearer ${await hs256({ role: 'reader', exp: NOW - 60 })}`)).toEqual(INVALID_BEARER);
  });

  it('without --auth and --anonymous-role nothing is checked and no identity is recorded', async () => {
    const { url, authentication } = await gated([]);
    expect([authentication.runsAsRoles, authentication.csrf, await outcome(url)]).toEqual([false, false, null]);
  });
});

describe('the service behind the gate', () => {
  /** The identity each provider call saw through its RequestContext. */
  const seen: (Identity | undefined)[] = [];
  class Recording extends MemoryProvider {
    override async query(request: QueryRequest, context: RequestContext): Promise<QueryResult> {
      seen.push(identityOf(context.request));
      return super.query(request, context);
    }
  }
  let url: string;
  beforeAll(async () => {
    const { authentication } = authenticationFor(['--auth', 'basic', '--users', 'users.txt']);
    const service = authentication.protect(
      odata({ model: DEMO_MODEL, provider: new Recording(DEMO_MODEL, demoData(), { links: DEMO_LINKS }), csrf: authentication.csrf }),
    );
    const server = await startServer(
      createServer((request: IncomingMessage & { baseUrl?: string }, response) => {
        request.baseUrl = '/odata';
        // What Express gives a middleware mounted at /odata (serve does the same).
        const within = (request.url ?? '/').slice('/odata'.length);
        request.url = within.startsWith('/') ? within : `/${within}`;
        service(request, response, () => response.end());
      }),
    );
    servers.push(server);
    url = server.url;
  });

  it.each(['/odata/', '/odata/$metadata', '/odata/Products'])('%s needs credentials like everything else', async (path) => {
    expect((await request(url).get(path)).status).toBe(401);
    expect((await request(url).get(path).set('authorization', basic('ada', 'correct horse battery'))).status).toBe(200);
  });

  it("hands the identity to the provider in the request's context, in $batch parts too", async () => {
    seen.length = 0;
    const ada = basic('ada', 'correct horse battery');
    await request(url).get('/odata/Products').set('authorization', ada).expect(200);
    const boundary = 'batch_1';
    const body = `--${boundary}\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\nGET Categories HTTP/1.1\r\n\r\n\r\n--${boundary}--\r\n`;
    // A POST: with basic auth the CSRF handshake is on, so the token is fetched first.
    const fetched = await request(url).get('/odata/').set('authorization', ada).set('x-csrf-token', 'Fetch');
    const token = String(fetched.headers['x-csrf-token']);
    const cookie = fetched.headers['set-cookie'] as unknown as string[];
    expect(
      (await request(url).post('/odata/$batch').set('authorization', ada).set('content-type', `multipart/mixed; boundary=${boundary}`).send(body)).status,
    ).toBe(403);
    const batch = await request(url)
      .post('/odata/$batch')
      .set('authorization', ada)
      .set('x-csrf-token', token)
      .set('Cookie', cookie)
      .set('content-type', `multipart/mixed; boundary=${boundary}`)
      .send(body);
    expect(batch.status).toBe(202);
    expect(seen).toEqual([
      { role: 'reader', claims: { sub: 'ada', role: 'reader' } },
      { role: 'reader', claims: { sub: 'ada', role: 'reader' } },
    ]);
  });
});
