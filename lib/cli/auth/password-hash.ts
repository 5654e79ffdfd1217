/**
 * Salted scrypt password hashes in the PHC string format, version 1 of this tool's encoding:
 *   $scrypt$v=1$ln=<log2 N>,r=<r>,p=<p>$<salt>$<hash>
 * with a 16-byte salt and a 32-byte hash in base64 without padding. Parameters are read within
 * bounds, so a hostile users file cannot make one check take minutes or gigabytes.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'crypto';

/** scrypt's cost parameters: N = 2^ln, block size r, parallelism p. */
interface ScryptParameters {
  readonly ln: number;
  readonly r: number;
  readonly p: number;
}

/** A decoded hash. */
export interface PasswordHash extends ScryptParameters {
  readonly salt: Buffer;
  readonly hash: Buffer;
}

/** What `user add` writes: 32 MiB and about 0.1 s per check. */
const DEFAULT_PARAMETERS: ScryptParameters = { ln: 15, r: 8, p: 1 };
const SALT_BYTES = 16;
const HASH_BYTES = 32;

/**
 * Bounds of what a users file may ask for. Memory (128·N·r bytes) from 16 MiB, below which the
 * hash is cheap to attack, to 128 MiB; work (N·r·p) at most 8 times the default, under a second.
 */
const MIN_MEMORY = 16 * 1024 * 1024;
const MAX_MEMORY = 128 * 1024 * 1024;
const MAX_WORK = 2 ** DEFAULT_PARAMETERS.ln * DEFAULT_PARAMETERS.r * DEFAULT_PARAMETERS.p * 8;

const memoryOf = ({ ln, r }: ScryptParameters): number => 128 * 2 ** ln * r;

function derive(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const { ln, r, p } = parameters;
  return new Promise((done, fail) => {
    // maxmem: scrypt needs 128·N·r bytes and a little more; Node's default (32 MiB) is below ours.
    scrypt(password.normalize('NFC'), salt, HASH_BYTES, { N: 2 ** ln, r, p, maxmem: 2 * memoryOf(parameters) }, (error, key) =>
      error === null ? done(key) : fail(error),
    );
  });
}

const B64 = /^[A-Za-z0-9+/]+$/;

/** `bytes` bytes of PHC base64 (no padding), or undefined. */
function decodeB64(text: string, bytes: number): Buffer | undefined {
  if (!B64.test(text)) return undefined;
  const decoded = Buffer.from(text, 'base64');
  return decoded.length === bytes && decoded.toString('base64').replace(/=+$/, '') === text ? decoded : undefined;
}

const encodeB64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

const FORMAT = /^\$scrypt\$v=(\d+)\$ln=(\d{1,2}),r=(\d{1,3}),p=(\d{1,3})\$([^$]*)\$([^$]*)$/;

/** The hash `text` encodes, or why it cannot be used (a phrase for a message naming the line). */
export function decodePasswordHash(text: string): PasswordHash | string {
  const match = FORMAT.exec(text);
  if (match === null) return 'the hash is not $scrypt$v=1$ln=<n>,r=<n>,p=<n>$<salt>$<hash>';
  if (match[1] !== '1') return `the hash is of version ${match[1]}; this version reads version 1`;
  const [ln, r, p] = [Number(match[2]), Number(match[3]), Number(match[4])];
  if (ln < 1 || r < 1 || p < 1) return 'the scrypt parameters must be positive';
  const memory = memoryOf({ ln, r, p });
  if (memory < MIN_MEMORY || memory > MAX_MEMORY || 2 ** ln * r * p > MAX_WORK)
    return `the scrypt parameters ln=${ln},r=${r},p=${p} are out of bounds (128·N·r from 16 to 128 MiB, N·r·p at most ${MAX_WORK})`;
  const salt = decodeB64(match[5], SALT_BYTES);
  const hash = decodeB64(match[6], HASH_BYTES);
  if (salt === undefined || hash === undefined) return `the salt and hash must be ${SALT_BYTES} and ${HASH_BYTES} bytes of base64 without padding`;
  return { ln, r, p, salt, hash };
}

/** A new hash of `password` with a random salt and the default parameters. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const { ln, r, p } = DEFAULT_PARAMETERS;
  const hash = await derive(password, salt, DEFAULT_PARAMETERS);
  return `$scrypt$v=1$ln=${ln},r=${r},p=${p}$${encodeB64(salt)}$${encodeB64(hash)}`;
}

/** Whether `password` is the one `stored` was made from; the comparison takes the same time whatever differs. */
export async function verifyPassword(password: string, stored: PasswordHash): Promise<boolean> {
  return timingSafeEqual(await derive(password, stored.salt, stored), stored.hash);
}
