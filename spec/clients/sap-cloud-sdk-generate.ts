/**
 * Generate a typed SAP Cloud SDK OData V2 client at test time from a running service's served
 * `$metadata`, into a temporary folder, and load it. Nothing is cached in the repository.
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
import { promises as fs } from 'fs';
import { tmpdir } from 'os';
import { dirname, join } from 'path';
import * as ts from 'typescript';

/** A generated client on disk and its loaded entry module. */
export interface GeneratedClient {
  /** The folder with the generated sources (`*.ts`) and their transpiled `*.js`. */
  readonly directory: string;
  /** The loaded `index.js` of the generated client; narrow it with a guard. */
  readonly module: unknown;
  /** The served `$metadata` the client was generated from. */
  readonly metadata: string;
  /** Milliseconds spent fetching, generating, transpiling and loading. */
  readonly milliseconds: number;
  /** Remove every temporary file. */
  remove(): Promise<void>;
}

/** How to generate: the service's name (folder and function name) and the SDK base path. */
export interface GenerateOptions {
  /** Directory name of the generated client; the service function is its camel-cased form. */
  readonly name: string;
  /** The service path every generated request builder puts after the destination URL. */
  readonly basePath: string;
}

/** The project's node_modules, linked into the temporary folder so generated code resolves the SDK. */
function nodeModulesDirectory(): string {
  return dirname(dirname(dirname(require.resolve('@sap-cloud-sdk/odata-v2/package.json'))));
}

function run(file: string, args: readonly string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [file, ...args], { cwd, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`SAP Cloud SDK generator failed: ${error.message}\n${stdout}\n${stderr}`));
      else resolve();
    });
  });
}

/** Transpile every generated `.ts` file to CommonJS beside it. */
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
    }),
  );
}

/** Fetch `<serviceRoot>/$metadata`, generate the client into a temporary folder and load it. */
export async function generateClient(serviceRoot: string, options: GenerateOptions): Promise<GeneratedClient> {
  const started = Date.now();
  const root = await fs.mkdtemp(join(tmpdir(), 'express-odata-v2-sdk-'));
  const remove = () => fs.rm(root, { recursive: true, force: true });
  try {
    const response = await fetch(`${serviceRoot}/$metadata`);
    const metadata = await response.text();
    if (response.status !== 200) throw new Error(`GET $metadata answered ${response.status}: ${metadata}`);
    await fs.mkdir(join(root, 'input'));
    await fs.writeFile(join(root, 'input', `${options.name}.edmx`), metadata);
    // Keys are input paths relative to the generator's working directory (here: root).
    const perService = { [`input/${options.name}.edmx`]: { directoryName: options.name, packageName: options.name, basePath: options.basePath } };
    await fs.writeFile(join(root, 'options-per-service.json'), JSON.stringify(perService));
    await fs.symlink(nodeModulesDirectory(), join(root, 'node_modules'), 'junction');
    const cli = join(dirname(require.resolve('@sap-cloud-sdk/generator/package.json')), 'dist', 'cli.js');
    await run(cli, ['--input', 'input', '--outputDir', 'output', '--optionsPerService', 'options-per-service.json'], root);
    const directory = join(root, 'output', options.name);
    await transpileDirectory(directory);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const loaded: unknown = require(join(directory, 'index.js'));
    return { directory, module: loaded, metadata, milliseconds: Date.now() - started, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
