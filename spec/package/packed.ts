/**
 * The package as npm ships it, for the specs of spec/package/ that install it: the tarball the
 * package lane's global setup packed (its path in PACKED_TARBALL), else one packed here from the
 * built dist/; its contents unpacked (PACKED_PACKAGE, likewise); and a fresh app folder with the
 * tarball and the packages a spec names installed, at the versions this repository uses, from
 * npm's cache where it can.
 */
import { execFileSync } from 'child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'fs';
import { join, resolve } from 'path';

const ROOT = resolve(__dirname, '..', '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function npm(args: readonly string[], cwd: string): string {
  return execFileSync(NPM, [...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, npm_config_loglevel: 'error' } });
}

/** The packed tarball: the lane's (PACKED_TARBALL), or packed into `work` (dist/ must be built). */
export function packedTarball(work: string): string {
  const packed = process.env.PACKED_TARBALL;
  if (packed !== undefined && packed !== '') return packed;
  const [info] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT)) as { filename: string }[];
  return join(work, info.filename);
}

/**
 * Unpack `tarball` inside the project (node_modules/.cache), so that the declarations' own imports
 * (kysely, express's types) resolve from the project's node_modules, as from a user's; the
 * package's folder.
 */
export function unpack(tarball: string): string {
  const folder = join(ROOT, 'node_modules', '.cache', 'express-odata-v2', 'packed', String(process.pid));
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', folder]);
  return join(folder, 'package');
}

/** The packed package's folder: the lane's (PACKED_PACKAGE), or the tarball unpacked here. */
export function unpackedPackage(work: string): string {
  const unpacked = process.env.PACKED_PACKAGE;
  return unpacked !== undefined && unpacked !== '' ? unpacked : unpack(packedTarball(work));
}

/** The files in a tarball, without npm's `package/` prefix. */
export function tarballFiles(tarball: string): string[] {
  return execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''));
}

/** The version of a package this repository has installed. */
function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** A new app in `folder` with the tarball and `packages` (at this repository's versions) installed, nothing else asked for. */
export function installApp(folder: string, tarball: string, packages: readonly string[]): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  npm(['install', '--no-audit', '--no-fund', '--prefer-offline', tarball, ...packages.map((name) => `${name}@${installedVersion(name)}`)], folder);
}
