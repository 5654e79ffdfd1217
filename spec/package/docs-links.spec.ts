/**
 * The docs ship in the package and their links work there, offline in
 * node_modules/express-odata-v2: the tarball holds README.md and every docs/*.md page, and every
 * relative link of those pages (outside code) names a file of the tarball, and a heading of it
 * when it has a `#fragment` (GitHub's and npm's heading ids). Links to the repository's other
 * files (examples/) are absolute, and name files the repository has.
 */
import { execFileSync } from 'child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { dirname, join, posix, resolve } from 'path';
import { packedTarball, tarballFiles } from './packed';

const ROOT = resolve(__dirname, '..', '..');
/** Where the docs link to files the package does not ship (package.json's repository). */
const REPOSITORY_FILES = 'https://github.com/express-odata-v2/express-odata-v2/blob/main/';

const work = mkdtempSync(join(tmpdir(), 'express-odata-v2-docs-links-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let tarball: string;
let files: string[];
beforeAll(() => {
  tarball = packedTarball(work);
  files = tarballFiles(tarball);
}, 120_000);

/** A packed file's text. */
function packed(file: string): string {
  return execFileSync('tar', ['-xzOf', tarball, `package/${file}`], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
}

/** Markdown without fenced code blocks and code spans (their brackets are not links). */
function prose(markdown: string): string[] {
  let fenced = false;
  return markdown.split('\n').map((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line.replace(/`[^`]*`/g, '');
  });
}

/** The id GitHub (and npm) give a heading: lower case, punctuation dropped, spaces as hyphens. */
function headingId(heading: string): string {
  return heading
    .replace(/`/g, '')
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The ids of a page's headings (a repeated heading gets -1, -2, ...). */
function headingIds(markdown: string): Set<string> {
  const ids = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading === null) continue;
    const id = headingId(heading[1]);
    let unique = id;
    for (let n = 1; ids.has(unique); n++) unique = `${id}-${n}`;
    ids.add(unique);
  }
  return ids;
}

/** Every link of a page, with its line. */
function links(markdown: string): { line: number; target: string }[] {
  return prose(markdown).flatMap((text, i) => [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => ({ line: i + 1, target: match[1] })));
}

/** A link that names a file or heading relative to its page (no scheme). */
const isRelative = (target: string): boolean => !/^[a-z][a-z0-9+.-]*:/i.test(target);

it('holds README.md and every page of docs/', () => {
  const pages = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  expect(pages.length).toBeGreaterThan(10);
  expect(files).toEqual(expect.arrayContaining(['README.md', ...pages]));
});

it('resolves every relative link of README.md and docs/*.md inside the package, headings included', () => {
  const pages = files.filter((file) => file === 'README.md' || /^docs\/[^/]+\.md$/.test(file));
  const texts = new Map(pages.map((page) => [page, packed(page)]));
  const broken: string[] = [];
  let checked = 0;
  for (const [page, markdown] of texts) {
    for (const { line, target } of links(markdown).filter((link) => isRelative(link.target))) {
      checked++;
      const [path, fragment] = target.split('#') as [string, string | undefined];
      const file = path === '' ? page : posix.normalize(posix.join(dirname(page), decodeURIComponent(path)));
      const where = `${page}:${line} ${target}`;
      if (file.startsWith('../') || !(files.includes(file) || files.some((packedFile) => packedFile.startsWith(`${file.replace(/\/$/, '')}/`)))) {
        broken.push(`${where}: ${file} is not in the package`);
        continue;
      }
      const text = texts.get(file);
      if (fragment !== undefined && text !== undefined && !headingIds(text).has(fragment)) broken.push(`${where}: no heading #${fragment} in ${file}`);
    }
  }
  expect(broken).toEqual([]);
  expect(checked).toBeGreaterThan(100);
}, 60_000);

it("names files the repository has in the absolute links to the repository's files", () => {
  const pages = files.filter((file) => file === 'README.md' || /^docs\/[^/]+\.md$/.test(file));
  const targets = pages.flatMap((page) =>
    links(packed(page))
      .filter((link) => link.target.startsWith(REPOSITORY_FILES))
      .map((link) => `${page}:${link.line} ${link.target.slice(REPOSITORY_FILES.length).split('#')[0]}`),
  );
  expect(targets.length).toBeGreaterThanOrEqual(8);
  expect(targets.filter((target) => !existsSync(join(ROOT, target.split(' ')[1])))).toEqual([]);
});
