/**
 * Names of the introspected model: SQL names kept as they are when they are CSDL identifiers,
 * otherwise made into one (the mapping keeps the SQL name); each taken at most once per scope,
 * the first free of a list of candidates, then numbered. Every rule depends only on the names
 * involved, never on catalog order or OIDs, so a schema introspects to the same names every run.
 */
import { isSimpleIdentifier } from '../../edm/definition-index';

/** A CSDL SimpleIdentifier for an SQL name: each character an identifier cannot hold becomes `_`; a leading digit gets a `_` before it. */
export function toIdentifier(name: string): string {
  if (isSimpleIdentifier(name)) return name;
  const replaced = [...name].map((char) => (isSimpleIdentifier(`a${char}`) ? char : '_')).join('');
  return isSimpleIdentifier(replaced) ? replaced : `_${replaced}`;
}

/** Names taken in one scope (a type's members, a schema's types, a container's sets). */
export class NameScope {
  private readonly taken = new Set<string>();

  constructor(reserved: Iterable<string> = []) {
    for (const name of reserved) this.taken.add(name);
  }

  /** True when `name` is taken. */
  has(name: string): boolean {
    return this.taken.has(name);
  }

  /** The first free candidate (made identifiers), else the first numbered `_2`, `_3`...; taken from now on. */
  claim(...candidates: readonly string[]): string {
    const identifiers = candidates.map(toIdentifier);
    let name = identifiers.find((candidate) => !this.taken.has(candidate));
    for (let n = 2; name === undefined; n++) {
      const numbered = `${identifiers[0]}_${n}`;
      if (!this.taken.has(numbered)) name = numbered;
    }
    this.taken.add(name);
    return name;
  }
}

/**
 * A foreign-key column's name without its key suffix (`_id`, `_code`, `_key`, `_fk`, `_ref`, or
 * `Id`, `ID`, `Code`, `Key` after a lower-case letter or digit), for the navigation property it
 * gives: `customer_id` -> `customer`, `CustomerID` -> `Customer`, `regionCode` -> `region`.
 * Undefined when there is no such suffix (`paid`, `id`, `manager`).
 */
export function withoutKeySuffix(column: string): string | undefined {
  const snake = /^(.*[^_])_+(?:id|code|key|fk|ref)$/i.exec(column);
  if (snake !== null) return snake[1];
  const camel = /^(.*[\p{Ll}\p{Nd}])(?:Id|ID|Code|Key)$/u.exec(column);
  return camel === null ? undefined : camel[1];
}
