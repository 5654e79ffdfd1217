/**
 * The users file and its hashes: the line format read exactly, scrypt parameters within bounds
 * (a hostile file is refused when read, before any hash is computed), and each refusal naming
 * its line but never showing a hash.
 */
import crypto from 'crypto';
import { readFileSync } from 'fs';
import { join } from 'path';
import { decodePasswordHash, hashPassword, verifyPassword } from '../../../lib/cli/auth/password-hash';
import { readUsersFile } from '../../../lib/cli/auth/users-file';

const SALT = 'c2FsdHNhbHRzYWx0c2FsdA'; // 16 bytes
const HASH = 'aGFzaGhhc2hoYXNoaGFzaGhhc2hoYXNoaGFzaGhhc2g'; // 32 bytes
const hash = (parameters: string, salt = SALT, value = HASH): string => `$scrypt$v=1$${parameters}$${salt}$${value}`;
const BOUNDS = 'are out of bounds (128·N·r from 16 to 128 MiB, N·r·p at most 2097152)';

describe('decodePasswordHash', () => {
  it.each([
    ['the default', 'ln=15,r=8,p=1'],
    ['the least memory', 'ln=14,r=8,p=1'],
    ['the most memory', 'ln=17,r=8,p=1'],
    ['the most work', 'ln=17,r=8,p=2'],
    ['a small block size with more rounds', 'ln=20,r=1,p=2'],
  ])('reads %s (%s)', (_what, parameters) => {
    const decoded = decodePasswordHash(hash(parameters));
    expect(typeof decoded === 'string' ? decoded : [decoded.salt.length, decoded.hash.length]).toEqual([16, 32]);
  });

  it.each([
    ['N = 2^30 (16 GiB, hours)', 'ln=30,r=8,p=1', `the scrypt parameters ln=30,r=8,p=1 ${BOUNDS}`],
    ['N = 2^18 at r = 8 (256 MiB)', 'ln=18,r=8,p=1', `the scrypt parameters ln=18,r=8,p=1 ${BOUNDS}`],
    ['a block size of 999', 'ln=15,r=999,p=1', `the scrypt parameters ln=15,r=999,p=1 ${BOUNDS}`],
    ['a parallelism of 999 (minutes of work in little memory)', 'ln=15,r=8,p=999', `the scrypt parameters ln=15,r=8,p=999 ${BOUNDS}`],
    ['work just over the bound', 'ln=17,r=8,p=3', `the scrypt parameters ln=17,r=8,p=3 ${BOUNDS}`],
    ['too little memory to resist attacks', 'ln=13,r=8,p=1', `the scrypt parameters ln=13,r=8,p=1 ${BOUNDS}`],
    ['r = 0', 'ln=15,r=0,p=1', 'the scrypt parameters must be positive'],
    ['p = 0', 'ln=15,r=8,p=0', 'the scrypt parameters must be positive'],
    ['three-digit ln', 'ln=100,r=8,p=1', 'the hash is not $scrypt$v=1$ln=<n>,r=<n>,p=<n>$<salt>$<hash>'],
    ['parameters out of order', 'r=8,ln=15,p=1', 'the hash is not $scrypt$v=1$ln=<n>,r=<n>,p=<n>$<salt>$<hash>'],
  ])('refuses %s', (_what, parameters, problem) => {
    expect(decodePasswordHash(hash(parameters))).toBe(problem);
  });

  it.each([
    ['another algorithm', '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA', 'the hash is not $scrypt$v=1$ln=<n>,r=<n>,p=<n>$<salt>$<hash>'],
    ['a later version', `$scrypt$v=2$ln=15,r=8,p=1$${SALT}$${HASH}`, 'the hash is of version 2; this version reads version 1'],
    ['a short salt', hash('ln=15,r=8,p=1', 'c2FsdA'), 'the salt and hash must be 16 and 32 bytes of base64 without padding'],
    ['a long hash', hash('ln=15,r=8,p=1', SALT, `${HASH}AAAA`), 'the salt and hash must be 16 and 32 bytes of base64 without padding'],
    ['padding', hash('ln=15,r=8,p=1', `${SALT}==`), 'the salt and hash must be 16 and 32 bytes of base64 without padding'],
    ['base64url', hash('ln=15,r=8,p=1', SALT, HASH.replace(/.$/, '_')), 'the salt and hash must be 16 and 32 bytes of base64 without padding'],
    ['a plain-text password', 'correct horse battery', 'the hash is not $scrypt$v=1$ln=<n>,r=<n>,p=<n>$<salt>$<hash>'],
  ])('refuses %s', (_what, text, problem) => {
    expect(decodePasswordHash(text)).toBe(problem);
  });

  it('computes no hash while reading, whatever the parameters', () => {
    const scrypt = jest.spyOn(crypto, 'scrypt');
    try {
      for (const parameters of ['ln=30,r=8,p=1', 'ln=15,r=8,p=999', 'ln=15,r=8,p=1']) decodePasswordHash(hash(parameters));
      expect(scrypt).not.toHaveBeenCalled();
    } finally {
      scrypt.mockRestore();
    }
  });

  it('hashes with a fresh salt each time, and verifies the NFC form of a password', async () => {
    const [first, second] = [await hashPassword('Åsa password'), await hashPassword('Åsa password')];
    expect(first).not.toBe(second);
    const decoded = decodePasswordHash(first);
    if (typeof decoded === 'string') throw new Error(decoded);
    // 'Å' typed as A + combining ring (NFD) is the same password.
    expect([await verifyPassword('A\u030asa password', decoded), await verifyPassword('Asa password', decoded)]).toEqual([true, false]);
  });
});

describe('readUsersFile', () => {
  const line = (name: string, role: string): string => `${name}:${role}:${hash('ln=15,r=8,p=1')}`;

  it('reads users by NFC name, skipping comments and blank lines, with CRLF too', () => {
    const users = readUsersFile(`# users\r\n\r\n${line('ada', 'reader')}\r\n  \n${line('Zoe\u0308', 'writer')}\n`, 'users.txt');
    expect([...users.values()].map(({ name, role }) => [name, role])).toEqual([
      ['ada', 'reader'],
      ['Zoë', 'writer'],
    ]);
  });

  it.each([
    ['two fields', 'ada:reader', 'expected <name>:<role>:<hash> (write it with express-odata-v2 user add)'],
    ['four fields', `${line('ada', 'reader')}:extra`, 'expected <name>:<role>:<hash> (write it with express-odata-v2 user add)'],
    ['an empty name', line('', 'reader'), 'the user name cannot be used: it is empty'],
    ['a name with a space', line('ada lovelace', 'reader'), 'the user name cannot be used: it holds white space, a colon or a control character'],
    ['a name of 129 characters', line('a'.repeat(129), 'reader'), 'the user name cannot be used: it is longer than 128 characters'],
    ['the role none', line('ada', 'none'), "the role cannot be used: 'none' is not a role requests may run as"],
    ['a pg_ role', line('ada', 'pg_read_all_data'), "the role cannot be used: roles starting with pg_ are PostgreSQL's own"],
    ['hostile parameters', `ada:reader:${hash('ln=25,r=8,p=1')}`, `the scrypt parameters ln=25,r=8,p=1 ${BOUNDS}`],
  ])('refuses %s, naming the line', (_what, text, problem) => {
    expect(() => readUsersFile(`# users\n${line('bob', 'reader')}\n${text}\n`, 'users.txt')).toThrow(`users.txt line 3: ${problem}.`);
  });

  it('refuses a user twice (also when the two differ only in normalisation)', () => {
    expect(() => readUsersFile(`${line('Zoë', 'reader')}\n${line('Zoe\u0308', 'writer')}\n`, 'users.txt')).toThrow(
      'users.txt line 2: the user Zoë is there twice.',
    );
  });
});

it('reads the users file docs/command-line.md shows, whose password it names', async () => {
  const docs = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'command-line.md'), 'utf8');
  const example = /```text\n(# express-odata-v2 users: [^\n]*\nada:[^\n]*\n)```/.exec(docs);
  expect(example).not.toBeNull();
  const ada = readUsersFile(example?.[1] ?? '', 'users.txt').get('ada');
  expect([ada?.role, ada === undefined ? false : await verifyPassword('correct horse battery staple', ada.hash)]).toEqual(['reader', true]);
});
