/**
 * Every TypeScript block a user may copy from the docs compiles: each ```ts fence of README.md,
 * docs/*.md and examples/*\/README.md is type-checked with `strict`, as one module per block,
 * against what a user's compiler sees: `express-odata-v2` resolves to the declarations in the
 * packed tarball (spec/package/packed.ts), so a declaration the package leaves out fails here. A block that is
 * a fragment names what it assumes in an HTML comment right before its fence, invisible on the
 * rendered page:
 *
 *   <!-- typescript-context
 *   declare const rows: Entity[];
 *   -->
 *
 * The context is compiled in front of the block; the block itself is compiled as written.
 *
 * A page that shows a whole source file in parts (the provider tutorial) marks each part with
 * `<!-- typescript-file examples/x/y.ts -->` right before its fence: those blocks, joined with one
 * blank line, must be that file byte for byte (so the page shows exactly the code a spec runs), and
 * they are compiled together, as the one module they are.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join, resolve } from 'path';
import ts from 'typescript';
import { unpackedPackage } from './packed';

const ROOT = resolve(__dirname, '..', '..');
const CONTEXT_START = '<!-- typescript-context';
const FILE_MARKER = /^<!-- typescript-file (\S+) -->$/;

interface Block {
  /** `docs/writes.md:42`: the file and the line of the opening fence. */
  readonly where: string;
  readonly context: string;
  readonly code: string;
  /** The source file this block is a part of (`typescript-file`), if any. */
  readonly file?: string;
}

function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  const examples = readdirSync(join(ROOT, 'examples')).map((name) => `examples/${name}/README.md`);
  return ['README.md', ...docs, ...examples].filter((file) => {
    try {
      readFileSync(join(ROOT, file));
      return true;
    } catch {
      return false;
    }
  });
}

/** The ```ts / ```typescript fences of a markdown text, each with the context comment just before it. */
function blocksOf(file: string): Block[] {
  const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)/.exec(lines[i]);
    if (fence === null) continue;
    const start = i;
    let end = i + 1;
    while (end < lines.length && !lines[end].startsWith('```')) end++;
    if (fence[1] === 'ts' || fence[1] === 'typescript') {
      let context = '';
      if (start > 0 && lines[start - 1].trim() === '-->') {
        let open = start - 1;
        while (open > 0 && !lines[open].startsWith(CONTEXT_START)) open--;
        if (lines[open].startsWith(CONTEXT_START)) context = lines.slice(open + 1, start - 1).join('\n');
      }
      const part = start > 0 ? FILE_MARKER.exec(lines[start - 1].trim()) : null;
      const code = lines.slice(start + 1, end).join('\n');
      blocks.push({ where: `${file}:${start + 1}`, context, code, ...(part === null ? {} : { file: part[1] }) });
    }
    i = end;
  }
  return blocks;
}

/** The generated SAP Cloud SDK client docs/clients.md imports, typed as the SDK spec types it. */
const GENERATED_CLIENT = `import type { ODataDemoService } from '../../spec/clients/sap-cloud-sdk-demo-client';
export declare function odataDemo(): ODataDemoService;
`;

/** The parts of each `typescript-file`, in page order, by file. */
function partsByFile(blocks: readonly Block[]): Map<string, Block[]> {
  const parts = new Map<string, Block[]>();
  for (const block of blocks) if (block.file !== undefined) parts.set(block.file, [...(parts.get(block.file) ?? []), block]);
  return parts;
}

/** Each standalone block as it is, and the parts of each file as one block (the file). */
function modulesOf(blocks: readonly Block[]): Block[] {
  const files = [...partsByFile(blocks)].map(([file, parts]) => ({
    where: `${parts[0].where} (${file})`,
    context: '',
    code: parts.map((part) => part.code).join('\n\n'),
  }));
  return [...blocks.filter((block) => block.file === undefined), ...files];
}

function compile(blocks: readonly Block[], packed: string): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    moduleDetection: ts.ModuleDetectionKind.Force,
    lib: ['lib.es2022.d.ts'],
    types: ['node', 'jest'],
    strict: true,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    baseUrl: ROOT,
    paths: {
      'express-odata-v2': [join(packed, 'dist', 'index.d.ts')],
      'express-odata-v2/sql': [join(packed, 'dist', 'sql', 'index.d.ts')],
      'express-odata-v2/testing': [join(packed, 'dist', 'testing', 'index.d.ts')],
      'express-odata-v2/fiori': [join(packed, 'dist', 'fiori', 'index.d.ts')],
    },
  };
  // Virtual files live in docs/ so that relative imports in contexts resolve from there.
  const virtual = new Map<string, { text: string; block?: Block; contextLines: number }>();
  blocks.forEach((block, index) => {
    const text = block.context === '' ? block.code : `${block.context}\n${block.code}`;
    virtual.set(join(ROOT, 'docs', `__block_${index}.ts`), { text, block, contextLines: block.context === '' ? 0 : block.context.split('\n').length });
  });
  virtual.set(join(ROOT, 'docs', 'generated', 'odata-demo.ts'), { text: GENERATED_CLIENT, contextLines: 0 });

  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  const virtualDirectories = new Set([...virtual.keys()].map((name) => name.slice(0, name.lastIndexOf('/'))));
  host.fileExists = (name) => virtual.has(name) || fileExists.call(host, name);
  host.directoryExists = (name) => virtualDirectories.has(name) || directoryExists?.call(host, name) !== false;
  host.readFile = (name) => virtual.get(name)?.text ?? readFile.call(host, name);
  host.getSourceFile = (name, language, onError, create) => {
    const file = virtual.get(name);
    return file === undefined ? getSourceFile.call(host, name, language, onError, create) : ts.createSourceFile(name, file.text, language, true);
  };
  const roots = [...virtual.keys()].filter((name) => name.includes('__block_'));
  const program = ts.createProgram(roots, options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    const file = diagnostic.file === undefined ? undefined : virtual.get(diagnostic.file.fileName);
    if (diagnostic.file === undefined || file?.block === undefined || diagnostic.start === undefined) return message;
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
    const inBlock = line - file.contextLines;
    return `${file.block.where} ${inBlock < 0 ? `(context line ${line + 1})` : `(block line ${inBlock + 1})`}: ${message}`;
  });
}

describe('TypeScript blocks in the docs', () => {
  const blocks = markdownFiles().flatMap(blocksOf);

  it('finds the blocks of README.md and docs/', () => {
    const files = new Set(blocks.map((block) => block.where.split(':')[0]));
    expect(files).toEqual(expect.objectContaining({ size: expect.any(Number) }));
    for (const file of ['README.md', 'docs/getting-started.md', 'docs/provider-tutorial.md', 'docs/deployment.md', 'docs/query-options.md'])
      expect(files.has(file)).toBe(true);
    expect(blocks.length).toBeGreaterThanOrEqual(20);
  });

  it('compile with strict type checking, each as written, against the packed declarations', () => {
    const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-blocks-'));
    try {
      expect(compile(modulesOf(blocks), unpackedPackage(work))).toEqual([]);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 120_000);

  it('show each file they name whole and in order (typescript-file)', () => {
    const parts = partsByFile(blocks);
    expect([...parts.keys()]).toContain('examples/sql-tutorial/provider.ts');
    for (const [file, blocksOfFile] of parts) {
      expect({ file, text: `${blocksOfFile.map((block) => block.code).join('\n\n')}\n` }).toEqual({ file, text: readFileSync(join(ROOT, file), 'utf8') });
    }
  });
});

describe('package.json', () => {
  it('names the repository, so relative links in README.md resolve on the registry page', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.repository).toEqual({ type: 'git', url: 'git+https://github.com/express-odata-v2/express-odata-v2.git' });
    expect(manifest.homepage).toBe('https://github.com/express-odata-v2/express-odata-v2#readme');
    expect(manifest.bugs).toEqual({ url: 'https://github.com/express-odata-v2/express-odata-v2/issues' });
  });
});
