/**
 * Jest global setup of `npm run test:package`: pack the built package once for every spec of the
 * lane (`npm run test:package` builds first), and unpack it for the specs that read its files.
 * The workers inherit both paths through process.env (spec/package/packed.ts reads them).
 */
import { mkdtempSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import { packedTarball, unpack } from './packed';

/** Where the teardown finds the folders this setup made (same process, same global). */
export const FOLDERS_KEY = Symbol.for('express-odata-v2.package-lane-folders');

export default function globalSetup(): void {
  const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-pack-'));
  const tarball = packedTarball(work);
  const unpacked = unpack(tarball);
  (globalThis as Record<symbol, unknown>)[FOLDERS_KEY] = [work, dirname(unpacked)];
  process.env.PACKED_TARBALL = tarball;
  process.env.PACKED_PACKAGE = unpacked;
}
