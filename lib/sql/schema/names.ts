/**
 * Names the DDL invents (constraints, indexes): readable, and shortened with a hash suffix when
 * they would pass PostgreSQL's 63-byte limit, so two long names never collide after cutting.
 */

const MAX_IDENTIFIER_BYTES = 63;

/** FNV-1a over the UTF-16 code units: a short, stable suffix. */
function hash(text: string): string {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193) >>> 0;
  }
  return value.toString(16).padStart(8, '0');
}

/** `parts` joined with `_`, at most 63 bytes: a longer name keeps its start and gets a hash of the whole. */
export function derivedName(...parts: readonly string[]): string {
  const name = parts.join('_');
  if (Buffer.byteLength(name) <= MAX_IDENTIFIER_BYTES) return name;
  let start = name.slice(0, MAX_IDENTIFIER_BYTES - 9);
  // Cut whole characters only (UTF-8 may need more bytes than characters).
  while (Buffer.byteLength(start) > MAX_IDENTIFIER_BYTES - 9) start = start.slice(0, -1);
  return `${start}_${hash(name)}`;
}
