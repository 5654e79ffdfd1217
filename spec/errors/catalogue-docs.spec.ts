/** The catalogue and docs/errors.md list the same codes with the same statuses (fastify's errors test). */
import { readFileSync } from 'fs';
import { join } from 'path';
import { ERROR_CODES } from '../../lib/errors';

const DOCS = readFileSync(join(__dirname, '..', '..', 'docs', 'errors.md'), 'utf8');

function documentedCodes(): Map<string, number> {
  const rows = new Map<string, number>();
  for (const match of DOCS.matchAll(/^\| ([A-Z][A-Z0-9_]+) \| (\d{3}) \|/gm)) rows.set(match[1], Number(match[2]));
  return rows;
}

describe('error catalogue', () => {
  it('is documented in docs/errors.md, code for code and status for status', () => {
    const catalogue = new Map(Object.entries(ERROR_CODES).map(([code, definition]) => [code, definition.status]));
    expect(documentedCodes()).toEqual(catalogue);
  });

  it('has a pinned size, so a new code is a deliberate change', () => {
    expect(Object.keys(ERROR_CODES)).toHaveLength(72);
  });
});
