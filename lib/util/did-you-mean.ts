/** Suggest the closest names to a misspelled one (edit distance), formatted for an error message. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const threshold = Math.max(1, Math.floor(input.length * 0.4));
  const scored: { name: string; distance: number }[] = [];
  for (const name of candidates) {
    const distance = lexicalDistance(input.toLowerCase(), name.toLowerCase());
    if (distance <= threshold) scored.push({ name, distance });
  }
  scored.sort((a, b) => a.distance - b.distance || a.name.localeCompare(b.name));
  const names = scored.slice(0, 3).map((s) => `'${s.name}'`);
  if (names.length === 0) return '';
  return ` Did you mean ${names.length === 1 ? names[0] : names.slice(0, -1).join(', ') + ' or ' + names[names.length - 1]}?`;
}

/** Levenshtein distance with a single row of memory. */
function lexicalDistance(a: string, b: string): number {
  if (a === b) return 0;
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let previousDiagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const saved = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, previousDiagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      previousDiagonal = saved;
    }
  }
  return row[b.length];
}
