/**
 * The command lines the docs show are command lines the executable takes: every
 * `express-odata-v2 ...` line in a ```sh fence of README.md and docs/*.md names a command and
 * options its option table has, with a database (--db or DATABASE_URL) for serve and introspect,
 * and `user add <file> <name>` for user; and docs/command-line.md documents every option of the
 * commands in its tables, and each limit option with the limit it sets and that limit's default;
 * the container of docs/deployment.md runs `serve` on 0.0.0.0.
 */
import { readdirSync, readFileSync } from 'fs';
import { join, resolve } from 'path';
import { parseArguments, parseOptions, type OptionGroup } from '../../lib/cli/arguments';
import { USER_OPTIONS } from '../../lib/cli/auth/user-command';
import { INTROSPECT_OPTIONS } from '../../lib/cli/introspect-command';
import { LIMIT_OPTIONS, serviceBounds } from '../../lib/cli/limits';
import { SERVE_OPTIONS } from '../../lib/cli/serve';
import { DEFAULT_LIMITS } from '../../lib/options';

const ROOT = resolve(__dirname, '..', '..');
const COMMANDS: Readonly<Record<string, readonly OptionGroup[]>> = { serve: SERVE_OPTIONS, introspect: INTROSPECT_OPTIONS, user: USER_OPTIONS };

/** `file:line` and the command line of every `express-odata-v2` line in a sh fence. */
function documentedCommandLines(): { where: string; line: string }[] {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((name) => name.endsWith('.md'))
      .map((name) => `docs/${name}`),
  ];
  const found: { where: string; line: string }[] = [];
  for (const file of files) {
    let inShell = false;
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        if (/^```/.test(text)) inShell = !inShell && /^```(sh|bash|shell)\s*$/.test(text);
        else if (inShell && /(^|\s)npx express-odata-v2 |^express-odata-v2 /.test(text))
          found.push({ where: `${file}:${i + 1}`, line: text.replace(/\s+#.*$/, '').trim() });
      });
  }
  return found;
}

const lines = documentedCommandLines();

it('finds the command lines of the README and docs/command-line.md', () => {
  expect(lines.filter(({ where }) => where.startsWith('README.md')).length).toBeGreaterThanOrEqual(1);
  expect(lines.filter(({ where }) => where.startsWith('docs/command-line.md')).length).toBeGreaterThanOrEqual(4);
});

it.each(lines.map(({ where, line }) => [where, line]))('%s: %s', (_, line) => {
  const words = line.split(/\s+/);
  const environment = words.filter((word) => /^[A-Z_]+=/.test(word));
  const at = words.indexOf('express-odata-v2');
  const [command, ...args] = words.slice(at + 1);
  const groups = COMMANDS[command];
  expect(groups).toBeDefined();
  if (command === 'user') {
    const { options, positionals } = parseArguments(command, args, groups);
    expect([positionals.length, positionals[0], typeof options.role]).toEqual([3, 'add', 'string']);
    return;
  }
  const options = parseOptions(command, args, groups);
  expect(options.db !== undefined || environment.some((word) => word.startsWith('DATABASE_URL='))).toBe(true);
});

it('documents every option of serve, introspect and user in docs/command-line.md', () => {
  const text = readFileSync(join(ROOT, 'docs', 'command-line.md'), 'utf8');
  // The first cell of each table row that starts with an option (`| \`--db <url\|folder>\` |`).
  const firstCells = text.split('\n').flatMap((row) => (row.startsWith('| `-') ? [row.split(' | ')[0]] : []));
  const documented = new Set(firstCells.flatMap((cell) => [...cell.matchAll(/--[\w-]+/g)].map((match) => match[0])));
  for (const [command, groups] of Object.entries(COMMANDS)) {
    for (const spec of groups.flatMap((group) => group.options))
      expect(`${command} --${spec.name}: ${documented.has(`--${spec.name}`)}`).toBe(`${command} --${spec.name}: true`);
  }
});

it("lists each limit option in docs/command-line.md's paging and limits table, with the limit it sets and the library's default", () => {
  const text = readFileSync(join(ROOT, 'docs', 'command-line.md'), 'utf8');
  const start = text.indexOf('### Paging and limits');
  const section = text.slice(start, text.indexOf('\n## ', start));
  const rows = section.split('\n').flatMap((row) => {
    const match = /^\| `--([\w-]+) <\w+>` \| `(\w+)` \| (\w+) \|/.exec(row);
    return match === null ? [] : [{ option: match[1], limit: match[2], documented: match[3] }];
  });
  const options = LIMIT_OPTIONS.map((spec) => spec.name).filter((name) => name !== 'max-page-size');
  expect(rows.map((row) => row.option)).toEqual(options);
  for (const { option, limit, documented } of rows) {
    expect([option, Object.keys(serviceBounds('serve', { [option]: '7' }).limits)]).toEqual([option, [limit]]);
    expect([option, documented]).toEqual([option, String(DEFAULT_LIMITS[limit as keyof typeof DEFAULT_LIMITS] ?? 'none')]);
  }
});

it("runs the documented container's command lines on 0.0.0.0, with each docker run line's options and DATABASE_URL", () => {
  const text = readFileSync(join(ROOT, 'docs', 'deployment.md'), 'utf8');
  const dockerfile = /```dockerfile\n([\s\S]*?)```/.exec(text)?.[1] ?? '';
  const entrypoint = /^ENTRYPOINT (\[.*\])$/m.exec(dockerfile)?.[1];
  const [executable, command, ...args] = JSON.parse(entrypoint ?? '[]') as string[];
  expect([executable, command]).toEqual(['node_modules/.bin/express-odata-v2', 'serve']);
  const image = /^docker build -t (\S+) \.$/m.exec(text)?.[1] ?? '(no image)';
  const runs = text.match(/^docker run .*$/gm) ?? [];
  const served = runs.map((run) => {
    const words = run.split(/\s+/);
    expect(words).toContain(image);
    expect(words.some((word) => word.startsWith('DATABASE_URL='))).toBe(true);
    const options = parseOptions('serve', [...args, ...words.slice(words.indexOf(image) + 1)], SERVE_OPTIONS);
    return [options.host, options['read-only'] ?? false, options['allow-anonymous'] ?? false, options.auth];
  });
  // Beyond loopback: --allow-anonymous behind a proxy that authenticates, or --auth.
  expect(served).toEqual([
    ['0.0.0.0', true, true, undefined],
    ['0.0.0.0', false, false, 'jwt'],
  ]);
});
