/**
 * The repository stands alone: no source, spec, doc or example reads or cites a file outside it
 * (the team's style and design notes live beside the checkout, not in it, and a user's clone does
 * not have them). A rule a spec enforces is stated in that spec.
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { join, relative, resolve } from 'path';

const ROOT = resolve(__dirname, '..');
const SCANNED = ['lib', 'spec', 'docs', 'examples', 'bench', 'README.md', 'package.json'];
const SKIPPED = new Set(['node_modules', 'api', 'results']);
const TEXT = /\.(ts|js|json|md|txt|xml|http)$/;

// Built from pieces so that this file does not match itself.
const OUTSIDE_REFERENCES = [['STYLE', 'md'].join('.'), ['STYLE', '§'].join(' '), ['DESIGN', 'md'].join('.'), ['..', 'shared'].join('/')];

function listFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return TEXT.test(path) ? [path] : [];
  return readdirSync(path).flatMap((name) => (SKIPPED.has(name) ? [] : listFiles(join(path, name))));
}

describe('the repository stands alone', () => {
  it('cites no file outside it', () => {
    const citing: string[] = [];
    for (const file of SCANNED.flatMap((entry) => listFiles(join(ROOT, entry)))) {
      const text = readFileSync(file, 'utf8');
      for (const reference of OUTSIDE_REFERENCES) if (text.includes(reference)) citing.push(`${relative(ROOT, file)}: ${reference}`);
    }
    expect(citing).toEqual([]);
  });
});
