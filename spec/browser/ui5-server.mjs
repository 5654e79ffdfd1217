/**
 * The browser lane's SAPUI5: the exact-pinned @openui5/* and @sapui5/* devDependencies served by
 * SAP's development server (@ui5/server) on 127.0.0.1 and a free port, sources as they are and
 * themes built on first request (and kept for the life of the process). Nothing is bundled or
 * downloaded. Prints `UI5 <url of sap-ui-core.js>` once it listens; stops on SIGTERM or SIGINT.
 *
 * The project graph is made from the packages themselves: each library's `.library` file names
 * the libraries it depends on, so a library SAP marks as internal (sap.fe.navigation) is reached
 * through the library that uses it, as in an app's own graph, not named by the root.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { createServer } from 'net';
import { dirname, join } from 'path';
import { fileURLToPath } from 'url';
import { createRequire } from 'module';
import { graphFromObject } from '@ui5/project/graph';
import { serve } from '@ui5/server';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(ROOT, 'package.json'));

/** Every SAPUI5 package the project pins, by library name (the package name's last part). */
function installedLibraries() {
  const { devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  const libraries = new Map();
  for (const name of Object.keys(devDependencies).filter((dependency) => /^@(openui5|sapui5)\//.test(dependency))) {
    const path = dirname(require.resolve(`${name}/package.json`));
    const { version } = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
    libraries.set(name.slice(name.indexOf('/') + 1), { id: name, version, path, dependencies: [] });
  }
  return libraries;
}

/** The libraries a library's `.library` file names (its sources are in src/, sap.ushell's in src/main/js/). */
function declaredDependencies(library, node) {
  for (const sources of ['src', join('src', 'main', 'js')]) {
    const file = join(node.path, sources, ...library.split('.'), '.library');
    if (existsSync(file)) return [...readFileSync(file, 'utf8').matchAll(/<libraryName>([^<]+)<\/libraryName>/g)].map((match) => match[1]);
  }
  return [];
}

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

const libraries = installedLibraries();
const needed = new Set();
for (const [library, node] of libraries) {
  for (const dependency of declaredDependencies(library, node)) {
    const target = libraries.get(dependency);
    if (target === undefined || target === node) continue;
    node.dependencies.push(target);
    needed.add(target);
  }
}
// The root project is an empty folder: the server serves SAPUI5's resources and nothing of this repository.
const empty = mkdtempSync(join(tmpdir(), 'express-odata-v2-ui5-'));
// A theme library is no library's dependency: the root names it with the libraries nothing else names.
const graph = await graphFromObject({
  dependencyTree: {
    id: 'express-odata-v2-browser-lane',
    version: '1.0.0',
    path: empty,
    dependencies: [...libraries.values()].filter((node) => !needed.has(node)),
  },
  rootConfiguration: {
    specVersion: '4.0',
    type: 'module',
    metadata: { name: 'express-odata-v2-browser-lane' },
  },
  resolveFrameworkDependencies: false,
});
// @ui5/server finds a port by scanning from the one it is given; a free one is found first.
const server = await serve(graph, { port: await freePort(), changePortIfInUse: true });
process.stdout.write(`UI5 http://127.0.0.1:${server.port}/resources/sap-ui-core.js\n`);
const stop = () =>
  server.close(() => {
    rmSync(empty, { recursive: true, force: true });
    process.exit(0);
  });
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
