/**
 * docs/conformance.md lists every rule of the suite and every group, and nothing else: the rules
 * table against CONFORMANCE_RULES, the groups table against the groups the suite plans.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { CONFORMANCE_RULES } from '../../lib/testing';
import { allGroupNames } from '../../lib/testing/plan';

const DOCS = readFileSync(join(__dirname, '..', '..', 'docs', 'conformance.md'), 'utf8');

/** The first cells of the table rows after `heading`, up to the next heading. */
function section(heading: string): string {
  const start = DOCS.indexOf(`## ${heading}`);
  const end = DOCS.indexOf('\n## ', start + 1);
  return DOCS.slice(start, end === -1 ? undefined : end);
}

describe('docs/conformance.md', () => {
  it('lists every rule, and only the rules, in its rules table', () => {
    const documented = [...section('Reading a failure').matchAll(/^\| `([a-z.-]+)` \|/gm)].map((match) => match[1]);
    expect(documented.sort()).toEqual(Object.keys(CONFORMANCE_RULES).sort());
  });

  it('names every group, and only real groups, in its groups table', () => {
    const rows = [...section('What each group checks').matchAll(/^\| [^|]+ \| ([^|]+) \|/gm)].slice(2).map((match) => match[1]);
    const documented = rows.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].map((match) => match[1]));
    expect(documented.sort()).toEqual(allGroupNames().sort());
  });
});
