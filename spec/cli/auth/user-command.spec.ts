/**
 * `express-odata-v2 user add` in this process (runCommand): the password from standard input
 * (piped, or typed at a terminal without echo), never from the command line; the file's line
 * format, its permissions, appending and --force; every refusal leaving the file as it was.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import { PassThrough, Readable } from 'stream';
import { verifyPassword } from '../../../lib/cli/auth/password-hash';
import { readUsersFile } from '../../../lib/cli/auth/users-file';
import { runCommand } from '../../../lib/cli/run';
import type { CliIO } from '../../../lib/cli/io';

let work: string;
beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'express-odata-v2-user-add-'));
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

/** `user ...args` with `stdin` as standard input: exit code, stdout and stderr lines. */
async function user(args: readonly string[], stdin: CliIO['stdin'] = Readable.from([])): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const outcome = await runCommand(['user', ...args], { out: (line) => out.push(line), err: (line) => err.push(line), cwd: work, env: {}, stdin });
  if (outcome.kind !== 'exit') throw new Error('user kept running');
  return { code: outcome.code, out, err };
}

const piped = (text: string): Readable => Readable.from([Buffer.from(text)]);
const usersText = (): string => readFileSync(join(work, 'users.txt'), 'utf8');
/** Whether `password` verifies as the stored password of `name` in users.txt. */
async function verifies(name: string, password: string): Promise<boolean> {
  const stored = readUsersFile(readFileSync(join(work, 'users.txt'), 'utf8'), 'users.txt').get(name);
  if (stored === undefined) throw new Error(`users.txt has no user ${name}`);
  return verifyPassword(password, stored.hash);
}

const LINE = /^ada:reader:\$scrypt\$v=1\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/;

describe('user add', () => {
  it('creates the file (owner only) with a header and the user line, whose hash verifies the piped password', async () => {
    expect(await user(['add', 'users.txt', 'ada', '--role', 'reader'], piped('correct horse battery\n'))).toEqual({
      code: 0,
      out: ['Added ada (role reader) in users.txt.'],
      err: [],
    });
    const [header, line, end] = usersText().split('\n');
    expect([header.startsWith('# express-odata-v2 users: '), line, end]).toEqual([true, expect.stringMatching(LINE), '']);
    expect(statSync(join(work, 'users.txt')).mode & 0o777).toBe(0o600);
    const ada = readUsersFile(usersText(), 'users.txt').get('ada');
    expect([ada?.name, ada?.role]).toEqual(['ada', 'reader']);
    expect([await verifies('ada', 'correct horse battery'), await verifies('ada', 'correct horse batterY')]).toEqual([true, false]);
  });

  it('appends users, keeps comments, and replaces a line only with --force', async () => {
    await user(['add', 'users.txt', 'ada', '--role', 'reader'], piped('first password\r\n'));
    writeFileSync(join(work, 'users.txt'), `${usersText()}# the build user\n`);
    expect((await user(['add', 'users.txt', 'build', '--role', 'writer'], piped('second password'))).code).toBe(0);
    const before = usersText();
    expect(await user(['add', 'users.txt', 'ada', '--role', 'writer'], piped('third password\n'))).toEqual({
      code: 1,
      out: [],
      err: ['express-odata-v2: users.txt already has the user ada; give --force to replace that line.'],
    });
    expect(usersText()).toBe(before);
    expect(await user(['add', 'users.txt', 'ada', '--role', 'writer', '--force'], piped('third password\n'))).toEqual({
      code: 0,
      out: ['Replaced ada (role writer) in users.txt.'],
      err: [],
    });
    const lines = usersText().split('\n');
    expect(lines.map((line) => line.replace(/:\$scrypt\$.*$/, ''))).toEqual([lines[0], 'ada:writer', '# the build user', 'build:writer', '']);
    expect([await verifies('ada', 'third password'), await verifies('build', 'second password')]).toEqual([true, true]);
  });

  it('reads a password typed at a terminal twice, without echo', async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true, setRawMode: jest.fn() });
    const running = user(['add', 'users.txt', 'ada', '--role', 'reader'], terminal);
    // Typed with a correction (backspace), then Enter; then again.
    terminal.write('correct horsX\u007fe battery\r');
    await new Promise((done) => setImmediate(done));
    terminal.write('correct horse battery\r');
    const { code, out, err } = await running;
    expect([code, out, err]).toEqual([0, ['Added ada (role reader) in users.txt.'], ['Password for ada (not shown):', 'Again:']]);
    expect(terminal.setRawMode.mock.calls).toEqual([[true], [false], [true], [false]]);
    expect(await verifies('ada', 'correct horse battery')).toBe(true);
  });

  it('refuses two different passwords typed at a terminal, and Ctrl-C', async () => {
    const terminal = Object.assign(new PassThrough(), { isTTY: true, setRawMode: jest.fn() });
    const running = user(['add', 'users.txt', 'ada', '--role', 'reader'], terminal);
    terminal.write('correct horse battery\r');
    await new Promise((done) => setImmediate(done));
    terminal.write('correct horse batery\r');
    expect((await running).err.at(-1)).toBe('express-odata-v2: The two passwords differ; nothing was written.');
    const stopped = Object.assign(new PassThrough(), { isTTY: true, setRawMode: jest.fn() });
    const interrupted = user(['add', 'users.txt', 'ada', '--role', 'reader'], stopped);
    stopped.write('correct\u0003');
    expect((await interrupted).err.at(-1)).toBe('express-odata-v2: No password given; nothing was written.');
    expect(existsSync(join(work, 'users.txt'))).toBe(false);
  });

  it.each([
    ['empty input', '', 'The password is shorter than 8 characters; nothing was written.'],
    ['a short password', 'short\n', 'The password is shorter than 8 characters; nothing was written.'],
    ['two lines', 'correct horse\nbattery staple\n', 'Standard input holds more than one line: pipe the password alone.'],
    ['more than 4 KiB', 'x'.repeat(5000), 'The password on standard input is longer than 4096 bytes.'],
  ])('refuses %s on standard input, writing nothing', async (_what, input, message) => {
    expect(await user(['add', 'users.txt', 'ada', '--role', 'reader'], piped(input))).toEqual({ code: 1, out: [], err: [`express-odata-v2: ${message}`] });
    expect(existsSync(join(work, 'users.txt'))).toBe(false);
  });

  it('refuses bytes that are not UTF-8 on standard input', async () => {
    const { code, err } = await user(
      ['add', 'users.txt', 'ada', '--role', 'reader'],
      Readable.from([Buffer.from([0x70, 0xff, 0xfe, 0x70, 0x70, 0x70, 0x70, 0x70])]),
    );
    expect([code, err]).toEqual([1, ['express-odata-v2: The password on standard input is not UTF-8 text.']]);
  });

  it('never rewrites a users file it cannot read', async () => {
    writeFileSync(join(work, 'users.txt'), 'ada:reader:plain-text-password\n');
    expect(await user(['add', 'users.txt', 'bob', '--role', 'reader'], piped('correct horse battery\n'))).toEqual({
      code: 1,
      out: [],
      err: ['express-odata-v2: users.txt line 1: the hash is not $scrypt$v=1$ln=<n>,r=<n>,p=<n>$<salt>$<hash>.'],
    });
    expect(usersText()).toBe('ada:reader:plain-text-password\n');
  });

  it.each([
    [
      ['add', 'users.txt', 'ada', '--role', 'reader', '--password', 'secret'],
      'user: a password is never taken from the command line (ps and the shell history show it); it is read from standard input',
    ],
    [
      ['add', 'users.txt', 'ada', '--role', 'reader', '--password=secret'],
      'user: a password is never taken from the command line (ps and the shell history show it); it is read from standard input',
    ],
    [
      ['add', 'users.txt', 'ada', 'secret', '--role', 'reader'],
      'user add: too many arguments; the password is read from standard input, never from the command line',
    ],
    [['add', 'users.txt', 'ada'], 'user add: --role <role> is required (the database role requests of this user run as)'],
    [['add', 'users.txt'], 'user add: expected <file> <name> --role <role>'],
    [[], 'user: expected user add <file> <name> --role <role>'],
    [['remove', 'users.txt', 'ada'], "user: unknown action 'remove' (expected add)"],
    [['add', 'users.txt', 'ada:min', '--role', 'reader'], 'user add: the user name cannot be used: it holds white space, a colon or a control character'],
    [['add', 'users.txt', 'ada', '--role', 'none'], "user add: --role cannot be a role requests run as: 'none' is not a role requests may run as"],
    [
      ['add', 'users.txt', 'ada', '--role', 'pg_write_all_data'],
      "user add: --role cannot be a role requests run as: roles starting with pg_ are PostgreSQL's own",
    ],
  ])('refuses %j (exit code 2, nothing read or written)', async (args, message) => {
    const stdin = piped('correct horse battery\n');
    expect(await user(args, stdin)).toEqual({ code: 2, out: [], err: [`express-odata-v2: ${message}. See 'express-odata-v2 user --help'.`] });
    expect([existsSync(join(work, 'users.txt')), stdin.readableEnded]).toEqual([false, false]);
  });

  it('has a help that shows the line format, and is in the main help', async () => {
    const help = await user(['--help']);
    expect(help.code).toBe(0);
    expect(help.out[0]).toContain('Usage: express-odata-v2 user add <file> <name> --role <role>\n');
    expect(help.out[0]).toContain('<name>:<role>:$scrypt$v=1$ln=15,r=8,p=1$<salt>$<hash>');
    for (const line of help.out[0].split('\n')) expect(line.length).toBeLessThanOrEqual(96);
    const main = await runCommand(['--help'], { out: (line) => help.out.push(line), err: () => undefined, cwd: work, env: {} });
    expect(main).toEqual({ kind: 'exit', code: 0 });
    expect(help.out[1]).toContain('\n  user add    Add a user to the users file of serve --auth basic');
  });
});
