/**
 * Totality (no input makes a parser crash, hang or answer 5xx): any batch body ends in a 202
 * multipart response or a 4xx ODataError (a hang fails on jest's timeout; how long the pathological
 * bodies take is `npm run bench:bounds`). Random bytes and mutations of the client bodies (byte
 * flips, inserted line breaks and delimiters, deletions, duplications, truncations) run through
 * processBatch.
 */
import { processBatch, splitMultipart } from '../../lib/batch';
import { isODataError } from '../../lib/errors';
import { fakeService, fixture, outer, random } from './helpers';

const SEEDS = [
  ['sapui5-v2.txt', 'batch_d0dc-21c0-39f6'],
  ['sap-cloud-sdk.txt', 'batch_fixed_boundary_for_testing'],
  ['datajs.txt', 'batch_5d2a-93c1-0f7e'],
  ['olingo-atom.txt', 'batch_8194-cf13-1f56'],
  ['curl-example.txt', 'batch_1'],
] as const;

const INSERTS = [
  '\r\n',
  '\n',
  '\r',
  '--',
  ':',
  ' ',
  '\u0000',
  '--changeset_',
  'Content-Length: 99999\r\n',
  'Content-Type: multipart/mixed; boundary=x\r\n',
  '$1/',
  '\u00ff',
];

function mutate(seed: Buffer, boundary: string, next: () => number): Buffer {
  let bytes = Buffer.from(seed);
  const pick = (n: number): number => Math.floor(next() * n);
  const rounds = 1 + pick(4);
  for (let round = 0; round < rounds; round++) {
    const at = pick(bytes.length + 1);
    switch (pick(7)) {
      case 0: // flip a byte
        if (bytes.length > 0) bytes[Math.min(at, bytes.length - 1)] = pick(256);
        break;
      case 1: // insert structure-looking text
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(INSERTS[pick(INSERTS.length)], 'latin1'), bytes.subarray(at)]);
        break;
      case 2: // insert a delimiter or close delimiter of the batch
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(`\r\n--${boundary}${pick(2) ? '--' : ''}\r\n`), bytes.subarray(at)]);
        break;
      case 3: // delete a range
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(Math.min(bytes.length, at + pick(40)))]);
        break;
      case 4: // duplicate a range
        bytes = Buffer.concat([bytes.subarray(0, at), bytes.subarray(at, at + pick(200)), bytes.subarray(at)]);
        break;
      case 5: // truncate
        bytes = bytes.subarray(0, at);
        break;
      default: // random bytes
        bytes = Buffer.concat([bytes.subarray(0, at), Buffer.from(Array.from({ length: pick(16) }, () => pick(256))), bytes.subarray(at)]);
    }
  }
  return bytes;
}

async function total(body: Buffer, contentType: string): Promise<string> {
  const service = fakeService();
  try {
    const response = await processBatch({
      body,
      contentType,
      outer: outer(),
      handle: service.handle,
      transaction: service.transaction,
      limits: { maxBatchParts: 50 },
    });
    // The answer is itself a well-formed multipart body, and no part of it is a 5xx of the batch layer.
    const boundary = response.headers['content-type'].split('boundary=')[1];
    splitMultipart(response.body, boundary, 1000, 'parts', 'the response');
    expect(response.body.includes('HTTP/1.1 500')).toBe(false);
    return 'ok';
  } catch (error) {
    if (isODataError(error) && error.status >= 400 && error.status < 500) return error.code;
    throw error;
  }
}

describe('batch totality', () => {
  it('ends every mutation of the client bodies in a 202 or a 4xx ODataError', async () => {
    const next = random(20240601);
    const outcomes = new Map<string, number>();
    for (const lineEnds of ['crlf', 'lf'] as const) {
      for (const [name, boundary] of SEEDS) {
        const seed = fixture(name, lineEnds);
        for (let i = 0; i < 250; i++) {
          const outcome = await total(mutate(seed, boundary, next), `multipart/mixed; boundary=${boundary}`);
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
        }
      }
    }
    // Both kinds of outcome occur: the mutations reach the parsers' error paths and their success paths.
    expect(outcomes.get('ok')).toBeGreaterThan(100);
    expect(outcomes.get('BATCH_SYNTAX')).toBeGreaterThan(10);
  });

  it('ends random bytes in a 202 or a 4xx ODataError', async () => {
    const next = random(7);
    for (let i = 0; i < 300; i++) {
      const length = Math.floor(next() * 300);
      const body = Buffer.from(Array.from({ length }, () => (next() < 0.2 ? [0x0d, 0x0a, 0x2d, 0x62][Math.floor(next() * 4)] : Math.floor(next() * 256))));
      expect(['ok', 'BATCH_SYNTAX']).toContain(await total(body, 'multipart/mixed; boundary=b'));
    }
  });

  it.each([
    [
      '20,000 header lines in one part',
      `--b\r\nContent-Type: application/http\r\n\r\nGET A HTTP/1.1\r\n${'X: y\r\n'.repeat(20000)}\r\n--b--`,
      'BATCH_PART_LIMIT',
    ],
    ['200,000 empty lines', `--b\r\n${'\r\n'.repeat(200000)}--b--`, 'ok'],
    ['300,000 dashes', '-'.repeat(300000), 'BATCH_SYNTAX'],
    ['5,000 empty parts of a changeset', `--b\r\nContent-Type: multipart/mixed; boundary=c\r\n\r\n${'--c\r\n'.repeat(5000)}--c--\r\n--b--`, 'BATCH_PART_LIMIT'],
  ])('ends a pathological body in a 202 or a 4xx: %s', async (_name, body, outcome) => {
    expect(await total(Buffer.from(body), 'multipart/mixed; boundary=b')).toBe(outcome);
  });
});
