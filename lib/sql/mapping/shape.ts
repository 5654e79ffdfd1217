/**
 * Shape checks for mappings and overrides read from JSON (mapping.json): a plain object of the
 * expected fields, strings where names go. Each problem names where it is; nothing is thrown here.
 */

/** A plain (JSON) object. */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Unknown fields of an object, as problems ("`where`: unknown field 'x'"). */
export function unknownFields(value: Readonly<Record<string, unknown>>, known: readonly string[], where: string, problems: string[]): void {
  for (const name of Object.keys(value))
    if (!known.includes(name)) problems.push(`${where}: unknown field '${name}' (expected ${known.map((field) => `'${field}'`).join(', ')}).`);
}

/** An optional object field; a problem (and undefined) when it is something else. */
export function recordField(
  value: Readonly<Record<string, unknown>>,
  field: string,
  where: string,
  problems: string[],
): Readonly<Record<string, unknown>> | undefined {
  const found = value[field];
  if (found === undefined) return undefined;
  if (isRecord(found)) return found;
  problems.push(`${where}: '${field}' must be an object.`);
  return undefined;
}

/** An optional name field: a non-empty string. */
export function nameField(value: Readonly<Record<string, unknown>>, field: string, where: string, problems: string[]): string | undefined {
  const found = value[field];
  if (found === undefined) return undefined;
  if (typeof found === 'string' && found !== '') return found;
  problems.push(`${where}: '${field}' must be a non-empty string.`);
  return undefined;
}

/** An optional object of names (`{ "Name": "name" }`); entries that are not names are problems and left out. */
export function namesField(
  value: Readonly<Record<string, unknown>>,
  field: string,
  where: string,
  problems: string[],
): Readonly<Record<string, string>> | undefined {
  const record = recordField(value, field, where, problems);
  if (record === undefined) return undefined;
  const names: Record<string, string> = {};
  for (const [key, name] of Object.entries(record)) {
    if (typeof name === 'string' && name !== '') names[key] = name;
    else problems.push(`${where} / ${field} '${key}': must be a non-empty string.`);
  }
  return names;
}

/** An optional field holding one of `choices`; a problem (and undefined) when it is anything else. */
export function choiceField<T extends string>(
  value: Readonly<Record<string, unknown>>,
  field: string,
  where: string,
  problems: string[],
  choices: readonly T[],
): T | undefined {
  const found = value[field];
  if (found === undefined) return undefined;
  const choice = choices.find((candidate) => candidate === found);
  if (choice === undefined) problems.push(`${where}: '${field}' must be ${choices.map((candidate) => `'${candidate}'`).join(' or ')}.`);
  return choice;
}
