/**
 * English word forms for OData-style names, by a committed rule table and nothing else (no
 * dictionary, no external inflector), so a name never changes between versions: SQL names split
 * into words, words in PascalCase (`id` as `ID`), and the singular and plural of a name's last
 * word by -s/-es/-ies with a short list of irregular and uncountable words. A word the rules do
 * not know is only capitalised: `orderdetails` is `Orderdetails`, never guessed apart.
 */

/** Irregular singular -> plural pairs (lower case), and words the suffix rules would get wrong. */
const IRREGULAR: readonly (readonly [string, string])[] = [
  ['person', 'people'],
  ['man', 'men'],
  ['woman', 'women'],
  ['child', 'children'],
  ['mouse', 'mice'],
  ['goose', 'geese'],
  ['foot', 'feet'],
  ['tooth', 'teeth'],
  ['ox', 'oxen'],
  ['leaf', 'leaves'],
  ['half', 'halves'],
  ['knife', 'knives'],
  ['life', 'lives'],
  ['wife', 'wives'],
  ['shelf', 'shelves'],
  ['wolf', 'wolves'],
  ['thief', 'thieves'],
  ['analysis', 'analyses'],
  ['crisis', 'crises'],
  ['thesis', 'theses'],
  ['diagnosis', 'diagnoses'],
  ['criterion', 'criteria'],
  ['phenomenon', 'phenomena'],
  ['matrix', 'matrices'],
  ['vertex', 'vertices'],
  ['appendix', 'appendices'],
  ['quiz', 'quizzes'],
  ['status', 'statuses'],
  ['bus', 'buses'],
  ['campus', 'campuses'],
  ['bonus', 'bonuses'],
  ['virus', 'viruses'],
  ['census', 'censuses'],
  ['alias', 'aliases'],
  ['movie', 'movies'],
  ['cookie', 'cookies'],
  ['pie', 'pies'],
  ['tie', 'ties'],
  ['calorie', 'calories'],
  ['zombie', 'zombies'],
  ['hero', 'heroes'],
  ['potato', 'potatoes'],
  ['tomato', 'tomatoes'],
  ['echo', 'echoes'],
  ['cache', 'caches'],
  ['niche', 'niches'],
];

/** Words whose singular and plural are one form. */
const UNCOUNTABLE: ReadonlySet<string> = new Set([
  'data',
  'metadata',
  'information',
  'equipment',
  'news',
  'series',
  'species',
  'staff',
  'sheep',
  'fish',
  'deer',
  'media',
  'software',
  'hardware',
  'feedback',
  'personnel',
  'music',
]);

const PLURAL_OF: ReadonlyMap<string, string> = new Map(IRREGULAR);
const SINGULAR_OF: ReadonlyMap<string, string> = new Map(IRREGULAR.map(([singular, plural]) => [plural, singular]));

/** The plural of a lower-case singular word. */
export function pluralWord(word: string): string {
  if (UNCOUNTABLE.has(word)) return word;
  const irregular = PLURAL_OF.get(word) ?? (SINGULAR_OF.has(word) ? word : undefined);
  if (irregular !== undefined) return irregular;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(?:s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/** The singular of a lower-case word (a singular word is returned as it is). */
export function singularWord(word: string): string {
  if (UNCOUNTABLE.has(word) || PLURAL_OF.has(word)) return word;
  const irregular = SINGULAR_OF.get(word);
  if (irregular !== undefined) return irregular;
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(?:sses|xes|zzes|ches|shes)$/.test(word)) return word.slice(0, -2);
  if (/(?:ss|us|is)$/.test(word) || !word.endsWith('s') || word.length < 3) return word;
  return word.slice(0, -1);
}

/**
 * The words of an SQL name: split at anything but letters and digits, and where case changes
 * (`customerId`, `CustomerID`, `HTMLParser` -> `HTML`, `Parser`).
 */
export function words(name: string): string[] {
  return name
    .split(/[^\p{L}\p{N}]+/u)
    .filter((part) => part !== '')
    .flatMap((part) => part.split(/(?<=[\p{Ll}\p{N}])(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u));
}

/** True when the name has letters and all of them are upper-case (`ORDER_ID`): its words are only capitalised. */
function isUpperCase(name: string): boolean {
  return /\p{L}/u.test(name) && name === name.toUpperCase();
}

/** One word in PascalCase: `id` is `ID`, an upper-case word of an upper-case name is capitalised, others get an upper-case first letter. */
function pascalWord(word: string, upperName: boolean): string {
  if (word.toLowerCase() === 'id') return 'ID';
  const rest = upperName ? word.slice(1).toLowerCase() : word.slice(1);
  return word.charAt(0).toUpperCase() + rest;
}

/** The PascalCase words of a name (`order_id` -> `Order`, `ID`; `ORDER_DETAILS` -> `Order`, `Details`). */
function pascalWords(name: string): string[] {
  const upperName = isUpperCase(name);
  return words(name).map((word) => pascalWord(word, upperName));
}

/** Change the last of PascalCase words with `change` (lower case in, lower case out), keeping its capital. */
function inflectLast(parts: readonly string[], change: (word: string) => string): string[] {
  if (parts.length === 0) return [];
  const last = parts[parts.length - 1];
  // Acronyms (`ID`, `URL`) and words with digits are left alone: the rules are for lower-case words.
  if (!/^\p{Lu}\p{Ll}*$/u.test(last)) return [...parts];
  const changed = change(last.toLowerCase());
  return [...parts.slice(0, -1), changed.charAt(0).toUpperCase() + changed.slice(1)];
}

/** A name in PascalCase with its last word singular: `order_details` -> `OrderDetail`, `people` -> `Person`. */
export function singularName(name: string): string {
  return inflectLast(pascalWords(name), singularWord).join('');
}

/** A name in PascalCase with its last word plural: `order_detail` -> `OrderDetails`, `category` -> `Categories`. */
export function pluralName(name: string): string {
  return inflectLast(inflectLast(pascalWords(name), singularWord), pluralWord).join('');
}

/** A name in PascalCase, words kept as they are: `ship_via` -> `ShipVia`, `order_id` -> `OrderID`. */
export function pascalName(name: string): string {
  return pascalWords(name).join('');
}

/** A readable label of an SQL name: `unit_price` -> `Unit Price`, `customer_id` -> `Customer ID`. */
export function readableName(name: string): string {
  return pascalWords(name).join(' ');
}

/** Prepositions that end a role without naming what is on the other side (`reports_to`). */
const TRAILING_PREPOSITIONS: ReadonlySet<string> = new Set(['To', 'Of', 'For', 'By', 'From']);

/** A PascalCase role without a trailing preposition (`ReportsTo` -> `Reports`), or undefined when there is none or nothing is left. */
export function withoutPreposition(role: string): string | undefined {
  const parts = words(role);
  if (parts.length < 2 || !TRAILING_PREPOSITIONS.has(parts[parts.length - 1])) return undefined;
  return parts.slice(0, -1).join('');
}
