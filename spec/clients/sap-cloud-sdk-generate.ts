/**
 * Generate a typed SAP Cloud SDK OData V2 client at test time from a running service's served
 * `$metadata`, and load it. The generated client is cached per `$metadata` (with the generator's
 * options and versions) in node_modules/.cache/express-odata-v2/sap-cloud-sdk/<hash>/, so a run
 * generates only for metadata it has not seen; nothing is cached in the repository, and a clean
 * clone (as in CI) generates once.
 *
 * Why the generator's CLI runs in a child process: it loads prettier, ts-morph and the TypeScript
 * compiler; in a separate Node process they load natively (no jest module registry, no VM limits on
 * dynamic `import()`), and generation stays as fast as on a developer's shell (~5 s).
 *
 * Why we transpile the generated TypeScript ourselves instead of the generator's `--transpile`:
 * that option type-checks the sources against whatever SDK and `bignumber.js` typings are installed.
 * The registry this project installs from holds @sap-cloud-sdk/generator 4.8.0 without its
 * @sap-cloud-sdk/generator-common 4.8.0, so the generator is pinned to 4.5.1 while the runtime is
 * odata-v2 4.8.0 with bignumber.js 11, whose `export =` typings reject the generated
 * `import { BigNumber }` used as a type (TS2749). That is a type-only mismatch between two SDK
 * releases; emitted JavaScript is identical, so `ts.transpileModule` (no type check) is exact.
 */
import { execFile } from 'child_process';
import { createHash } from 'crypto';
import { existsSync, promises as fs } from 'fs';
import { dirname, join, resolve } from 'path';
import * as ts from 'typescript';

/** A generated client on disk and its loaded entry module. */
export interface GeneratedClient {
  /** The folder with the generated client, transpiled (`*.js`). */
  readonly directory: string;
  /** The loaded `index.js` of the generated client; narrow it with a guard. */
  readonly module: unknown;
  /** The served `$metadata` the client was generated from. */
  readonly metadata: string;
}

/** The cache of generated clients, one folder per hash. */
const CACHE = resolve(__dirname, '..', '..', 'node_modules', '.cache', 'express-odata-v2', 'sap-cloud-sdk');

/** How to generate: the service's name (folder and function name) and the SDK base path. */
export interface GenerateOptions {
  /** Directory name of the generated client; the service function is its camel-cased form. */
  readonly name: string;
  /** The service path every generated request builder puts after the destination URL. */
  readonly basePath: string;
}

/** The version of an installed package. */
function versionOf(name: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(`${name}/package.json`) as { version: string }).version;
}

/** What decides the generated code: the metadata, the options and the tools' versions. */
function cacheKey(metadata: string, options: GenerateOptions): string {
  const tools = ['@sap-cloud-sdk/generator', '@sap-cloud-sdk/odata-v2', 'typescript'].map((name) => `${name}@${versionOf(name)}`);
  return createHash('sha256')
    .update(JSON.stringify([metadata, options, tools]))
    .digest('hex')
    .slice(0, 32);
}

function run(file: string, args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file, ...args], { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`SAP Cloud SDK generator failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve();
    });
  });
}

/**
 * Transpile every generated `.ts` file to CommonJS beside it, and remove the `.ts` (a loader that
 * prefers `.ts`, as jest here does, would find the untranspiled source first).
 */
async function transpileDirectory(directory: string): Promise<void> {
  const files = (await fs.readdir(directory)).filter((name) => name.endsWith('.ts') && !name.endsWith('.d.ts'));
  await Promise.all(
    files.map(async (name) => {
      const source = await fs.readFile(join(directory, name), 'utf8');
      const output = ts.transpileModule(source, {
        fileName: name,
        compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true },
      });
      await fs.writeFile(join(directory, name.replace(/\.ts$/, '.js')), output.outputText);
      await fs.rm(join(directory, name));
    }),
  );
}

/** Generate the client of `metadata` into `folder`, transpiled. */
async function generate(metadata: string, options: GenerateOptions, folder: string): Promise<void> {
  await fs.mkdir(join(folder, 'input'), { recursive: true });
  await fs.writeFile(join(folder, 'input', `${options.name}.edmx`), metadata);
  // Keys are input paths relative to the generator's working directory (here: folder).
  const perService = { [`input/${options.name}.edmx`]: { directoryName: options.name, packageName: options.name, basePath: options.basePath } };
  await fs.writeFile(join(folder, 'options-per-service.json'), JSON.stringify(perService));
  const cli = join(dirname(require.resolve('@sap-cloud-sdk/generator/package.json')), 'dist', 'cli.js');
  await run(cli, ['--input', 'input', '--outputDir', 'output', '--optionsPerService', 'options-per-service.json'], folder);
  await transpileDirectory(join(folder, 'output', options.name));
}

/**
 * Fetch `<serviceRoot>/$metadata`, and load the client generated from it: from the cache, or
 * generated now and cached. The cache lies inside node_modules, so the generated code resolves
 * the SDK from the project's node_modules.
 */
export async function generateClient(serviceRoot: string, options: GenerateOptions): Promise<GeneratedClient> {
  const response = await fetch(`${serviceRoot}/$metadata`);
  const metadata = await response.text();
  if (response.status !== 200) throw new Error(`GET $metadata answered ${response.status}: ${metadata}`);
  const cached = join(CACHE, cacheKey(metadata, options));
  if (!existsSync(cached)) {
    // Generated beside the cache and renamed into place: a concurrent run sees the whole client or none.
    await fs.mkdir(CACHE, { recursive: true });
    const partial = await fs.mkdtemp(join(CACHE, 'partial-'));
    try {
      await generate(metadata, options, partial);
      await fs.rename(partial, cached).catch((error: NodeJS.ErrnoException) => {
        // Another run cached the same client first: use theirs.
        if (!existsSync(cached)) throw error;
      });
    } finally {
      await fs.rm(partial, { recursive: true, force: true });
    }
  }
  const directory = join(cached, 'output', options.name);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded: unknown = require(join(directory, 'index.js'));
  return { directory, module: loaded, metadata };
}
