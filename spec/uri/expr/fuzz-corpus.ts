/**
 * The `$filter`/`$orderby` fuzz corpus over the ODataDemo Product type: random strings from a
 * small alphabet of troublesome characters, and token soups of names, operators, functions and
 * literals (valid and broken). Used by the parser's totality spec and by the SQL provider's
 * differential fuzz spec (spec/sql/provider/fuzz.ts). Seeded generators: `next` returns [0, 1).
 */
const CHARACTERS = "abcdeINFNaNXLMdf0123456789 '()/,-.+:_\t%#@éß\u{1F600}";
const TOKENS = [
  'Price',
  'Name',
  'Rating',
  'ID',
  'ReleaseDate',
  'DiscontinuedDate',
  'Category/Name',
  'Category',
  'Supplier/Address/City',
  'Nope',
  'eq',
  'ne',
  'lt',
  'le',
  'gt',
  'ge',
  'and',
  'or',
  'not',
  'add',
  'sub',
  'mul',
  'div',
  'mod',
  'asc',
  'desc',
  'GT',
  '(',
  ')',
  ',',
  '/',
  '-',
  '- ',
  '0',
  '1',
  '-1',
  '2.5',
  '2.5M',
  '0M',
  '12L',
  '1E400',
  '2147483648',
  'INF',
  '-INF',
  'NaN',
  'null',
  'true',
  'false',
  "'x'",
  "'",
  "''",
  "'O''Neil'",
  "datetime'2000-01-01T00:00'",
  "datetime'bad'",
  "guid'01234567-89ab-cdef-0123-456789abcdef'",
  "X'0A'",
  "time'PT1H'",
  'substringof',
  'startswith',
  'endswith',
  'length',
  'indexof',
  'replace',
  'substring',
  'tolower',
  'toupper',
  'trim',
  'concat',
  'year',
  'month',
  'day',
  'hour',
  'minute',
  'second',
  'round',
  'floor',
  'ceiling',
  'isof',
  'cast',
  'nosuch',
  "'Edm.Int32'",
  "'Edm.Decimal'",
  "'ODataDemo.Product'",
  "'Edm.String'",
  'ODataDemo.Product',
];

/** A string of up to 60 characters of CHARACTERS. */
export function randomString(next: () => number): string {
  const chars = [...CHARACTERS];
  const length = Math.floor(next() * 60);
  let text = '';
  for (let i = 0; i < length; i++) text += chars[Math.floor(next() * chars.length)];
  return text;
}

/** 1 to 25 TOKENS, mostly joined by spaces. */
export function tokenSoup(next: () => number): string {
  const count = 1 + Math.floor(next() * 25);
  const parts: string[] = [];
  for (let i = 0; i < count; i++) parts.push(TOKENS[Math.floor(next() * TOKENS.length)]);
  return parts.join(next() < 0.8 ? ' ' : '');
}
