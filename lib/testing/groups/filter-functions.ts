/**
 * `$filter` built-in functions: string functions on non-ASCII and supplementary characters (JS
 * strings are UTF-16, as the rule counts), literals with LIKE wildcards, date parts in UTC, rounding,
 * type functions, and member paths through complex and navigation properties.
 */
import { compareDecimal, durationTicks, utcDate } from '../reference';
import type { ItemRow } from '../fixture-data';
import type { GroupDefinition } from '../suite';
import { categoryName, eventCase, filterCase, int64, itemCase, ROWS } from './filter-cases';

function created(item: ItemRow): Date {
  return utcDate(item.Created);
}

function updated(item: ItemRow): Date | undefined {
  return item.Updated === null ? undefined : utcDate(item.Updated);
}

/** Round half away from zero, the rule for Double and Decimal (JS Math.round takes -2.5 to -2). */
function roundAway(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value));
}

const strings = [
  itemCase('length(Name) eq 7', 'filter.string-functions', (item) => item.Name.length === 7),
  itemCase('length(Name) eq 6', 'filter.string-functions', (item) => item.Name.length === 6),
  itemCase('length(Note) eq 3', 'filter.string-functions', (item) => item.Note?.length === 3),
  itemCase("indexof(Name, 'p') eq 1", 'filter.string-functions', (item) => item.Name.indexOf('p') === 1),
  itemCase("indexof(Name, 'clef') eq 3", 'filter.string-functions', (item) => item.Name.indexOf('clef') === 3),
  itemCase("indexof(Name, 'e') eq -1", 'filter.string-functions', (item) => item.Name.indexOf('e') === -1),
  itemCase("substring(Name, 1) eq 'pple'", 'filter.string-functions', (item) => item.Name.substring(1) === 'pple'),
  itemCase("substring(Name, 3, 4) eq 'clef'", 'filter.string-functions', (item) => item.Name.substring(3, 7) === 'clef'),
  itemCase("substring(Name, 0, 2) eq '𝄞'", 'filter.string-functions', (item) => item.Name.substring(0, 2) === '𝄞'),
  itemCase("substring(Note, 1) eq 'ed'", 'filter.string-functions', (item) => item.Note?.substring(1) === 'ed'),
  itemCase("tolower(Name) eq 'apple'", 'filter.string-functions', (item) => item.Name.toLowerCase() === 'apple'),
  itemCase("tolower(Name) eq 'äpfel'", 'filter.string-functions', (item) => item.Name.toLowerCase() === 'äpfel'),
  itemCase("toupper(Name) eq 'NAÏVE CAFÉ'", 'filter.string-functions', (item) => item.Name.toUpperCase() === 'NAÏVE CAFÉ'),
  itemCase("toupper(Note) eq 'GRÜN'", 'filter.string-functions', (item) => item.Note?.toUpperCase() === 'GRÜN'),
  itemCase("trim(Name) eq 'padded\\'", 'filter.string-functions', (item) => item.Name.trim() === 'padded\\'),
  itemCase("concat(Name, Note) eq 'Applered'", 'filter.string-functions', (item) => item.Note !== null && item.Name + item.Note === 'Applered'),
  itemCase("concat(concat(Name, ' '), 'x') eq '日本語 x'", 'filter.string-functions', (item) => `${item.Name} x` === '日本語 x'),
  itemCase("replace(Name, 'p', 'b') eq 'Abble'", 'filter.string-functions', (item) => item.Name.split('p').join('b') === 'Abble'),
  itemCase("replace(Note, 'e', '') eq 'rd'", 'filter.string-functions', (item) => item.Note?.split('e').join('') === 'rd'),
  itemCase("substringof('ß', Name)", 'filter.string-functions', (item) => item.Name.includes('ß')),
  itemCase("substringof('e', Note)", 'filter.string-functions', (item) => item.Note?.includes('e') === true),
  itemCase("substringof('', Note)", 'filter.string-functions', (item) => item.Note !== null),
  itemCase("startswith(Name, 'Ä')", 'filter.string-functions', (item) => item.Name.startsWith('Ä')),
  itemCase("startswith(Name, 'a')", 'filter.string-functions', (item) => item.Name.startsWith('a')),
  itemCase("endswith(Name, 'é')", 'filter.string-functions', (item) => item.Name.endsWith('é')),
  itemCase("endswith(Name, 'clef')", 'filter.string-functions', (item) => item.Name.endsWith('clef')),
];

// Each literal below holds a LIKE wildcard or escape; a store that passes it to LIKE unescaped
// keeps the trap rows too ('100 stars' for '100%', 'abc' for 'a_', nothing for 'd\').
const literals = [
  itemCase("startswith(Name, '100%')", 'filter.string-literals', (item) => item.Name.startsWith('100%')),
  itemCase("startswith(Name, 'a_')", 'filter.string-literals', (item) => item.Name.startsWith('a_')),
  itemCase("startswith(Name, '%')", 'filter.string-literals', (item) => item.Name.startsWith('%')),
  itemCase("endswith(Name, '_c')", 'filter.string-literals', (item) => item.Name.endsWith('_c')),
  itemCase("substringof('0%', Name)", 'filter.string-literals', (item) => item.Name.includes('0%')),
  itemCase("substringof('_', Name)", 'filter.string-literals', (item) => item.Name.includes('_')),
  itemCase("substringof('d\\', Name)", 'filter.string-literals', (item) => item.Name.includes('d\\')),
  itemCase("replace(Name, '%', 'x') eq '100x pure'", 'filter.string-literals', (item) => item.Name.split('%').join('x') === '100x pure'),
];

const dates = [
  itemCase('year(Created) eq 2024', 'filter.date-functions', (item) => created(item).getUTCFullYear() === 2024),
  itemCase('month(Created) eq 6', 'filter.date-functions', (item) => created(item).getUTCMonth() === 5),
  itemCase('day(Created) eq 29', 'filter.date-functions', (item) => created(item).getUTCDate() === 29),
  itemCase('hour(Created) eq 10', 'filter.date-functions', (item) => created(item).getUTCHours() === 10),
  itemCase('minute(Created) eq 17', 'filter.date-functions', (item) => created(item).getUTCMinutes() === 17),
  itemCase('second(Created) eq 59', 'filter.date-functions', (item) => created(item).getUTCSeconds() === 59),
  itemCase('year(Updated) eq 2024', 'filter.date-functions', (item) => updated(item)?.getUTCFullYear() === 2024),
  itemCase('month(Updated) eq 3', 'filter.date-functions', (item) => updated(item)?.getUTCMonth() === 2),
  itemCase('day(Updated) eq 1', 'filter.date-functions', (item) => updated(item)?.getUTCDate() === 1),
  itemCase('hour(Updated) eq 8', 'filter.date-functions', (item) => updated(item)?.getUTCHours() === 8),
  // A Time's hours, minutes and seconds components (an Edm.Time is a time of day: PT2H15M has 2 hours).
  eventCase('hour(Duration) eq 2', 'filter.date-functions', (event) => event.Duration !== null && timePart(event.Duration, 3600n, 24n) === 2n),
  eventCase('minute(Duration) eq 30', 'filter.date-functions', (event) => event.Duration !== null && timePart(event.Duration, 60n, 60n) === 30n),
  eventCase('second(Duration) eq 59', 'filter.date-functions', (event) => event.Duration !== null && timePart(event.Duration, 1n, 60n) === 59n),
];

/** The component of a duration in `unit` seconds, modulo `range`. */
function timePart(duration: string, unit: bigint, range: bigint): bigint {
  return (durationTicks(duration) / 10_000_000n / unit) % range;
}

const math = [
  itemCase('round(Amount) eq 3M', 'filter.math-functions', (item) => item.Amount === '2.5'),
  itemCase('round(Amount) eq -3M', 'filter.math-functions', (item) => item.Amount === '-2.5'),
  itemCase('round(Amount) eq 2M', 'filter.math-functions', (item) => item.Amount === '1.5'),
  itemCase(
    'floor(Amount) eq -1M',
    'filter.math-functions',
    (item) => item.Amount !== null && compareDecimal(item.Amount, '-1') >= 0 && compareDecimal(item.Amount, '0') < 0,
  ),
  itemCase(
    'ceiling(Amount) eq 1M',
    'filter.math-functions',
    (item) => item.Amount !== null && compareDecimal(item.Amount, '0') > 0 && compareDecimal(item.Amount, '1') <= 0,
  ),
  itemCase(
    'floor(Amount) eq 12345678901234567890M',
    'filter.math-functions',
    (item) => item.Amount !== null && item.Amount.startsWith('12345678901234567890.'),
  ),
  itemCase('round(Ratio) eq 3', 'filter.math-functions', (item) => item.Ratio !== null && roundAway(item.Ratio) === 3),
  itemCase('round(Ratio) eq -3', 'filter.math-functions', (item) => item.Ratio !== null && roundAway(item.Ratio) === -3),
  itemCase('floor(Ratio) eq -1', 'filter.math-functions', (item) => item.Ratio !== null && Math.floor(item.Ratio) === -1),
  itemCase('ceiling(Ratio) eq 1', 'filter.math-functions', (item) => item.Ratio !== null && Math.ceil(item.Ratio) === 1),
];

const types = [
  itemCase("isof('Conformance.Item')", 'filter.type-functions', () => true),
  itemCase("isof(Rank, 'Edm.Int32')", 'filter.type-functions', (item) => item.Rank !== null),
  itemCase("cast(Ratio, 'Edm.Int32') eq 2", 'filter.type-functions', (item) => item.Ratio !== null && Math.trunc(item.Ratio) === 2),
  itemCase("cast(Ratio, 'Edm.Int32') eq -2", 'filter.type-functions', (item) => item.Ratio !== null && Math.trunc(item.Ratio) === -2),
  itemCase("cast(Big, 'Edm.Decimal') eq 9007199254740993M", 'filter.type-functions', (item) => int64(item.Big) === 9007199254740993n),
];

const paths = [
  itemCase("Category/Name eq 'Fruit'", 'filter.paths', (item) => categoryName(item) === 'Fruit'),
  itemCase('Category/Name eq null', 'filter.paths', (item) => categoryName(item) === null),
  itemCase("Category/Name ne 'Fruit'", 'filter.paths', (item) => categoryName(item) !== 'Fruit'),
  itemCase("startswith(Category/Name, 'É')", 'filter.paths', (item) => categoryName(item)?.startsWith('É') === true),
  itemCase('Category/ID gt 1', 'filter.paths', (item) => item.Category !== null && item.Category > 1),
  filterCase(
    'Customers',
    "Address/City eq 'Paris'",
    'filter.paths',
    ROWS.Customers.filter((c) => c.Address.City === 'Paris').map((c) => c.ID),
  ),
  filterCase(
    'Customers',
    'Address/City eq null',
    'filter.paths',
    ROWS.Customers.filter((c) => c.Address.City === null).map((c) => c.ID),
  ),
  filterCase(
    'Customers',
    "Address/City lt 'Z'",
    'filter.paths',
    ROWS.Customers.filter((c) => c.Address.City !== null && c.Address.City < 'Z').map((c) => c.ID),
  ),
  filterCase('OrderLines', "Order/Customer/Name eq 'Ada'", 'filter.paths', ordersLinesOf('Ada')),
  filterCase('Orders', "Customer/Address/City eq 'Zürich'", 'filter.paths', ordersOf('Zürich')),
];

function customerId(name: string): number | undefined {
  return ROWS.Customers.find((customer) => customer.Name === name)?.ID;
}

function ordersLinesOf(customerName: string): number[] {
  const customer = customerId(customerName);
  const orders = ROWS.Orders.filter((order) => order.Customer === customer);
  return ROWS.OrderLines.filter((line) => orders.some((order) => order.Region === line.Order.Region && order.Number === line.Order.Number)).map(
    (line) => line.ID,
  );
}

function ordersOf(city: string): string[] {
  const customers = ROWS.Customers.filter((customer) => customer.Address.City === city).map((customer) => customer.ID);
  return ROWS.Orders.filter((order) => customers.includes(order.Customer)).map((order) => `${order.Region}/${order.Number}`);
}

/** Built-in functions and member paths in `$filter`. */
export const filterFunctionGroups: readonly GroupDefinition[] = [
  { name: '$filter string functions', cases: strings },
  { name: '$filter string literals', cases: literals },
  { name: '$filter date functions', cases: dates },
  { name: '$filter math functions', cases: math },
  { name: '$filter type functions', cases: types },
  { name: '$filter paths', cases: paths },
];
