/**
 * Table-name patterns of `include` and `exclude`: `*` any characters, `?` one; a pattern with a
 * dot is matched against `schema.table`, one without against the table name.
 */

function compile(pattern: string): RegExp {
  const source = [...pattern].map((char) => (char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[\\^$.|+()[\]{}]/g, '\\$&'))).join('');
  return new RegExp(`^${source}$`, 'su');
}

/** A test of `schema.table` names against patterns. */
export function nameMatcher(patterns: readonly string[]): (schema: string, table: string) => boolean {
  const compiled = patterns.map((pattern) => ({ qualified: pattern.includes('.'), test: compile(pattern) }));
  return (schema, table) => compiled.some(({ qualified, test }) => test.test(qualified ? `${schema}.${table}` : table));
}
