/**
 * Which column names a row for people: the title of its object page, the text shown beside a
 * foreign key, the column a value help shows beside the key. A rule table over property names
 * (compared in lower case without separators, so `company_name` and `CompanyName` are one), tried
 * in order, the first column in column order winning within a rule. Only string columns that are
 * neither key nor foreign-key columns are candidates. There is deliberately no fallback to the
 * first string column: a status or a street is no name, and the key stands in where no rule
 * matches (docs/sql-provider.md "Fiori annotations").
 */
import type { EdmEntityType, EdmProperty } from '../../edm/model';

/** A rule: does a normalised property name (lower case, letters and digits only) name a row of a type with this normalised name? */
interface NameRule {
  readonly rule: string;
  readonly matches: (name: string, typeName: string) => boolean;
}

const NAMES: ReadonlySet<string> = new Set(['name', 'title', 'label', 'caption', 'displayname', 'fullname']);
const DESCRIPTIONS: ReadonlySet<string> = new Set(['description', 'summary', 'subject']);

/** The rules, strongest first (the table docs/sql-provider.md shows). */
export const NAME_RULES: readonly NameRule[] = [
  { rule: 'name, title, label, caption, display name, full name', matches: (name) => NAMES.has(name) },
  {
    rule: "the type's name followed by name or title (category_name in categories)",
    matches: (name, type) => name === `${type}name` || name === `${type}title`,
  },
  { rule: 'ends in name or title (company_name, last_name)', matches: (name) => name.endsWith('name') || name.endsWith('title') },
  { rule: 'description, summary, subject', matches: (name) => DESCRIPTIONS.has(name) },
];

const normalised = (name: string): string => name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');

/**
 * The name-like property of an entity type, or undefined. `foreignKeys` are the dependent
 * properties of its referential constraints (not names: they hold another row's key).
 */
export function nameProperty(type: EdmEntityType, foreignKeys: ReadonlySet<EdmProperty>): EdmProperty | undefined {
  const candidates = type.properties.filter(
    (property) => !property.isKey && !foreignKeys.has(property) && property.type.kind === 'Primitive' && property.type.name === 'Edm.String',
  );
  const typeName = normalised(type.name);
  for (const { matches } of NAME_RULES) {
    const found = candidates.find((property) => matches(normalised(property.name), typeName));
    if (found !== undefined) return found;
  }
  return undefined;
}
