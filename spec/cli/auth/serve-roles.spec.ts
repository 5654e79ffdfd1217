/**
 * `serve` with authentication over a PGlite folder whose table has row-level security (the roles
 * and policies of docs/command-line.md "The database side", run as written), end to end in this
 * process (runCommand): users of a users file (`--auth basic`), tokens (`--auth jwt`) and
 * requests without credentials (`--anonymous-role`) each see and change exactly the
 * rows the policies give their role and claims; a token naming a superuser is 403 with one line on
 * stderr; a known role requests may not run as stops serve at start (one line, exit code 1).
 * Tokens carry no `exp`, so nothing here depends on the time.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { SignJWT, type JWTPayload } from 'jose';
import { hashPassword } from '../../../lib/cli/auth/password-hash';
import { runCommand } from '../../../lib/cli/run';
import { createTestPGliteFolder } from '../../helpers/pglite';

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-serve-roles-'));
const folder = join(work, 'shop');
const SECRET = 'a-secret-of-forty-bytes-for-hs256-tokens';

/** The roles and policies of docs/command-line.md: web_user sees and writes its own orders (by the claims' sub), web_anon reads the public ones. */
function documentedSql(): string {
  const markdown = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'command-line.md'), 'utf8');
  const start = markdown.indexOf('```sql\ncreate role authenticator login');
  if (start < 0) throw new Error('the roles and policies are missing from docs/command-line.md');
  return markdown.slice(start + '```sql\n'.length, markdown.indexOf('```', start + 6));
}

beforeAll(async () => {
  await createTestPGliteFolder(
    folder,
    `create table orders (id integer primary key, owner text not null, public boolean not null default false, body text not null);
     insert into orders values (1, 'ada', false, 'ada''s secret'), (2, 'ada', true, 'ada''s news'), (3, 'bob', false, 'bob''s secret'), (4, 'bob', true, 'bob''s news');
     ${documentedSql()}
     create role web_super superuser;`,
  );
  writeFileSync(join(work, 'secret'), SECRET);
  writeFileSync(
    join(work, 'users.txt'),
    `ada:web_user:${await hashPassword('ada-password')}\nbob:web_user:${await hashPassword('bob-password')}\nreader:web_anon:${await hashPassword('reader-password')}\n`,
  );
}, 60_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A running serve with the auth options `args`, its stderr lines, stopped after `use`. */
async function serving(args: readonly string[], use: (url: string, err: readonly string[]) => Promise<void>): Promise<void> {
  const err: string[] = [];
  const outcome = await runCommand(['serve', '--db', folder, '--port', '0', ...args], {
    out: () => undefined,
    err: (line) => err.push(line),
    cwd: work,
    env: {},
  });
  if (outcome.kind !== 'serving') throw new Error(`serve did not start: ${err.join('\n')}`);
  try {
    await use(outcome.service.url, err);
  } finally {
    await outcome.service.close();
  }
}

/** The ids of the orders a request with `headers` reads, or its status when it is refused. */
async function ordersSeen(url: string, headers: Record<string, string> = {}): Promise<number[] | number> {
  const response = await fetch(`${url}Orders?$select=ID&$orderby=ID`, { headers: { accept: 'application/json', ...headers } });
  if (response.status !== 200) return response.status;
  return ((await response.json()) as { d: { results: { ID: number }[] } }).d.results.map((order) => order.ID);
}

const basic = (user: string, password: string): Record<string, string> => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });
const bearer = async (claims: JWTPayload): Promise<Record<string, string>> => ({
  authorization: `Bearer ${await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(Buffer.from(SECRET))}`,
});

it('--auth basic: each user of the users file sees the rows of its role and name', async () => {
  await serving(['--auth', 'basic', '--users', 'users.txt'], async (url) => {
    expect(await ordersSeen(url, basic('ada', 'ada-password'))).toEqual([1, 2]);
    expect(await ordersSeen(url, basic('bob', 'bob-password'))).toEqual([3, 4]);
    expect(await ordersSeen(url, basic('reader', 'reader-password'))).toEqual([2, 4]);
    expect(await ordersSeen(url)).toBe(401);
  });
});

it('--auth jwt: each token runs as its role with its claims, writes included; a superuser role is 403 and logged', async () => {
  await serving(['--auth', 'jwt', '--jwt-secret-file', 'secret', '--anonymous-role', 'web_anon'], async (url, err) => {
    const ada = await bearer({ sub: 'ada', role: 'web_user' });
    const bob = await bearer({ sub: 'bob', role: 'web_user' });
    expect(await ordersSeen(url, ada)).toEqual([1, 2]);
    expect(await ordersSeen(url, bob)).toEqual([3, 4]);
    expect(await ordersSeen(url)).toEqual([2, 4]);
    const post = (headers: Record<string, string>, body: object) =>
      fetch(`${url}Orders`, {
        method: 'POST',
        headers: { ...headers, accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post(ada, { ID: 5, Owner: 'ada', Public: false, Body: 'ada again' })).status).toBe(201);
    // bob may not write an order as ada (the policy's check), and cannot change or see ada's.
    expect((await post(bob, { ID: 6, Owner: 'ada', Public: false, Body: 'forged' })).status).toBe(403);
    expect((await fetch(`${url}Orders(1)`, { method: 'DELETE', headers: bob })).status).toBe(404);
    expect(await ordersSeen(url, ada)).toEqual([1, 2, 5]);
    expect(await ordersSeen(url, bob)).toEqual([3, 4]);
    expect(await ordersSeen(url, await bearer({ sub: 'ada', role: 'web_super' }))).toBe(403);
    expect(err.filter((line) => line.includes('SqlProvider'))).toEqual([
      expect.stringMatching(
        / warn SqlProvider: requests may not run as the role 'web_super': it is a superuser \(row-level security does not apply to it\); the request was refused \(403\)\.$/,
      ),
    ]);
    expect(err.join('\n')).not.toContain(ada.authorization.slice('Bearer '.length));
  });
});

it('--anonymous-role alone: every request runs as that role', async () => {
  await serving(['--anonymous-role', 'web_anon'], async (url) => {
    expect(await ordersSeen(url)).toEqual([2, 4]);
    expect(await ordersSeen(url, basic('ada', 'ada-password'))).toEqual([2, 4]);
  });
});

it('--ui behind --auth basic and --anonymous-role: the preview asks for the same credentials as the service', async () => {
  const launch = async (url: string, headers: Record<string, string> = {}): Promise<[number, string | null, boolean]> => {
    const response = await fetch(url.replace(/\/odata\/$/, '/'), { headers });
    return [response.status, response.headers.get('www-authenticate'), (await response.text()).includes('data-entity-set="Orders"')];
  };
  await serving(['--auth', 'basic', '--users', 'users.txt', '--ui'], async (url) => {
    expect(await launch(url)).toEqual([401, expect.stringMatching(/^Basic realm=/), false]);
    expect(await launch(url, basic('ada', 'wrong-password'))).toEqual([401, expect.stringMatching(/^Basic realm=/), false]);
    expect(await launch(url, basic('ada', 'ada-password'))).toEqual([200, null, true]);
  });
  await serving(['--anonymous-role', 'web_anon', '--ui'], async (url) => {
    expect(await launch(url)).toEqual([200, null, true]);
  });
});

it.each([
  [['--anonymous-role', 'web_super'], "serve: Requests may not run as this role: 'web_super': it is a superuser (row-level security does not apply to it)."],
  [
    ['--auth', 'jwt', '--jwt-secret-file', 'secret', '--default-role', 'no_such_role'],
    "serve: Requests may not run as this role: 'no_such_role': no such role exists.",
  ],
])('refuses to start when a role known at start may not be used: %j', async (args, message) => {
  const err: string[] = [];
  const outcome = await runCommand(['serve', '--db', folder, '--port', '0', ...args], {
    out: () => undefined,
    err: (line) => err.push(line),
    cwd: work,
    env: {},
  });
  if (outcome.kind !== 'exit') {
    await outcome.service.close();
    throw new Error('serve started');
  }
  expect([outcome.code, err]).toEqual([1, [`express-odata-v2: ${message}`]]);
});
