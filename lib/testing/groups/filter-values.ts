/**
 * `$filter` over values: comparisons per type, nulls, three-valued logic and arithmetic. Each
 * predicate says in plain code what the rule means for that filter (`Rank ne 3` keeps nulls,
 * `Rank lt 2` does not).
 */
import { base64Hex, compareDecimal, decimalArithmetic, durationTicks, ticks, utcDate } from '../reference';
import type { GroupDefinition } from '../suite';
import { eventCase, filterCase, int64, itemCase, ROWS } from './filter-cases';

const TWO_POW_53 = 9007199254740992n;

/** Decimal `a` compared with `b`, false for null (a comparison with null is false). */
function amount(text: string | null, test: (order: number) => boolean, other: string): boolean {
  return text !== null && test(compareDecimal(text, other));
}

function instant(text: string | null): bigint | null {
  return text === null ? null : ticks(text);
}

const comparisons = [
  itemCase('Big eq 9007199254740993L', 'filter.comparison', (item) => int64(item.Big) === TWO_POW_53 + 1n),
  itemCase('Big eq 9007199254740993', 'filter.comparison', (item) => int64(item.Big) === TWO_POW_53 + 1n),
  itemCase('Big gt 9007199254740992L', 'filter.comparison', (item) => (int64(item.Big) ?? TWO_POW_53) > TWO_POW_53),
  itemCase('Big lt -9007199254740992L', 'filter.comparison', (item) => (int64(item.Big) ?? 0n) < -TWO_POW_53),
  itemCase('Big eq -9223372036854775808L', 'filter.comparison', (item) => item.Big === '-9223372036854775808'),
  itemCase('Big ge 9223372036854775807L', 'filter.comparison', (item) => item.Big === '9223372036854775807'),
  itemCase('Amount eq 12345678901234567890.1234567891M', 'filter.comparison', (item) => amount(item.Amount, (o) => o === 0, '12345678901234567890.1234567891')),
  itemCase('Amount gt 12345678901234567890.123456789M', 'filter.comparison', (item) => amount(item.Amount, (o) => o > 0, '12345678901234567890.123456789')),
  itemCase('Amount lt 0M', 'filter.comparison', (item) => amount(item.Amount, (o) => o < 0, '0')),
  itemCase('Amount ge 100M', 'filter.comparison', (item) => amount(item.Amount, (o) => o >= 0, '100')),
  // An unsuffixed 0.1 met by a Decimal compares as the Decimal 0.1, exactly.
  itemCase('Amount eq 0.1', 'filter.comparison', (item) => item.Amount === '0.1'),
  itemCase('Ratio lt 0', 'filter.comparison', (item) => item.Ratio !== null && item.Ratio < 0),
  itemCase('Ratio eq 0.0000001', 'filter.comparison', (item) => item.Ratio === 1e-7),
  itemCase('Ratio gt 2.4M', 'filter.comparison', (item) => item.Ratio !== null && item.Ratio > 2.4),
  itemCase("Name eq 'Straße'", 'filter.comparison', (item) => item.Name === 'Straße'),
  itemCase("Name eq 'STRASSE'", 'filter.comparison', (item) => item.Name === 'STRASSE'),
  itemCase("Name lt 'a'", 'filter.comparison', (item) => item.Name < 'a'),
  itemCase("Name gt 'zzz'", 'filter.comparison', (item) => item.Name > 'zzz'),
  itemCase("Name ge 'a' and Name lt 'b'", 'filter.comparison', (item) => item.Name >= 'a' && item.Name < 'b'),
  itemCase("Note eq 'red'", 'filter.comparison', (item) => item.Note === 'red'),
  itemCase("Note eq ''", 'filter.comparison', (item) => item.Note === ''),
  itemCase("Name eq 'O''Neil'", 'filter.comparison', (item) => item.Name === "O'Neil"),
  itemCase("Created eq datetime'2024-01-15T10:30:00'", 'filter.comparison', (item) => item.Created === '2024-01-15T10:30:00.000Z'),
  itemCase("Created gt datetime'2024-01-15T10:30:00'", 'filter.comparison', (item) => ticks(item.Created) > ticks('2024-01-15T10:30:00Z')),
  itemCase("Created lt datetime'2000-01-01T00:00:00'", 'filter.comparison', (item) => ticks(item.Created) < ticks('2000-01-01T00:00:00Z')),
  itemCase("Created eq datetime'1999-12-31T23:59:59.999'", 'filter.comparison', (item) => ticks(item.Created) === ticks('1999-12-31T23:59:59.999Z')),
  itemCase("Updated eq datetimeoffset'2024-03-10T08:00:00Z'", 'filter.comparison', (item) => instant(item.Updated) === ticks('2024-03-10T08:00:00Z')),
  itemCase(
    "Updated gt datetimeoffset'2024-03-10T09:00:00+01:00'",
    'filter.comparison',
    (item) => (instant(item.Updated) ?? 0n) > ticks('2024-03-10T08:00:00Z'),
  ),
  itemCase("Code eq guid'0F8FAD5B-D9CB-469F-A165-70867728950E'", 'filter.comparison', (item) => item.Code === '0f8fad5b-d9cb-469f-a165-70867728950e'),
  itemCase('Flag eq false', 'filter.comparison', (item) => item.Flag === false),
  eventCase("Duration gt time'PT1H'", 'filter.comparison', (event) => event.Duration !== null && durationTicks(event.Duration) > durationTicks('PT1H')),
  eventCase("Duration le time'PT0S'", 'filter.comparison', (event) => event.Duration !== null && durationTicks(event.Duration) <= 0n),
  eventCase("Payload eq X'00FF'", 'filter.comparison', (event) => event.Payload !== null && base64Hex(event.Payload) === '00ff'),
  eventCase("At eq datetime'2024-05-01T10:00:00.123'", 'filter.comparison', (event) => ticks(event.At) === ticks('2024-05-01T10:00:00.123Z')),
  filterCase('Tags', "Code eq 'o''k'", 'filter.comparison', ["o'k"]),
  filterCase(
    'Orders',
    'Number gt 1L',
    'filter.comparison',
    ROWS.Orders.filter((order) => BigInt(order.Number) > 1n).map((order) => `${order.Region}/${order.Number}`),
  ),
];

const nulls = [
  itemCase('Rank eq null', 'filter.nulls', (item) => item.Rank === null),
  itemCase('Rank ne null', 'filter.nulls', (item) => item.Rank !== null),
  itemCase('null eq Rank', 'filter.nulls', (item) => item.Rank === null),
  itemCase('Rank ne 3', 'filter.nulls', (item) => item.Rank !== 3),
  itemCase('Rank lt 2', 'filter.nulls', (item) => item.Rank !== null && item.Rank < 2),
  itemCase('Rank ge 2', 'filter.nulls', (item) => item.Rank !== null && item.Rank >= 2),
  itemCase('Rank gt null', 'filter.nulls', () => false),
  itemCase('not (Rank gt 2)', 'filter.nulls', (item) => !(item.Rank !== null && item.Rank > 2)),
  itemCase("not (Note lt 'b')", 'filter.nulls', (item) => !(item.Note !== null && item.Note < 'b')),
  itemCase("Note ne 'red'", 'filter.nulls', (item) => item.Note !== 'red'),
  itemCase('Note eq null', 'filter.nulls', (item) => item.Note === null),
  itemCase('Big eq null', 'filter.nulls', (item) => item.Big === null),
  itemCase('Amount ne null', 'filter.nulls', (item) => item.Amount !== null),
  itemCase('Updated eq null', 'filter.nulls', (item) => item.Updated === null),
  itemCase('Code ne null', 'filter.nulls', (item) => item.Code !== null),
  eventCase('Duration eq null', 'filter.nulls', (event) => event.Duration === null),
  eventCase('Payload ne null', 'filter.nulls', (event) => event.Payload !== null),
  itemCase('Rank add 1 gt 3', 'filter.nulls', (item) => item.Rank !== null && item.Rank + 1 > 3),
  itemCase('Rank add 1 ne 3', 'filter.nulls', (item) => item.Rank === null || item.Rank + 1 !== 3),
  itemCase('length(Note) ne 3', 'filter.nulls', (item) => item.Note === null || item.Note.length !== 3),
  itemCase("concat(Note, 'x') eq 'x'", 'filter.nulls', (item) => item.Note === ''),
  itemCase('year(Updated) ne 2024', 'filter.nulls', (item) => item.Updated === null || utcDate(item.Updated).getUTCFullYear() !== 2024),
];

const logic = [
  itemCase('Flag', 'filter.logic', (item) => item.Flag === true),
  itemCase('not Flag', 'filter.logic', (item) => item.Flag === false),
  itemCase('Flag ne true', 'filter.logic', (item) => item.Flag !== true),
  itemCase('Flag eq null', 'filter.logic', (item) => item.Flag === null),
  itemCase('Flag or Rank eq 0', 'filter.logic', (item) => item.Flag === true || item.Rank === 0),
  itemCase('Flag and Rank eq 3', 'filter.logic', (item) => item.Flag === true && item.Rank === 3),
  itemCase('not (Flag and Rank gt 100)', 'filter.logic', () => true),
  itemCase('not (Flag or false)', 'filter.logic', (item) => item.Flag === false),
  itemCase('not (Flag or Rank eq 0)', 'filter.logic', (item) => item.Flag === false && item.Rank !== 0),
  itemCase('Flag eq true and not (Rank eq 3)', 'filter.logic', (item) => item.Flag === true && item.Rank !== 3),
  itemCase('Rank eq 3 or Rank eq null', 'filter.logic', (item) => item.Rank === 3 || item.Rank === null),
  itemCase('(Rank eq 1 or Rank eq 5) and Note ne null', 'filter.logic', (item) => (item.Rank === 1 || item.Rank === 5) && item.Note !== null),
  itemCase("not substringof('e', Note)", 'filter.logic', (item) => item.Note !== null && !item.Note.includes('e')),
];

const arithmetic = [
  itemCase('Big add 1L eq 9007199254740994L', 'filter.arithmetic', (item) => int64(item.Big) === TWO_POW_53 + 1n),
  itemCase('Big sub 1L eq 9007199254740992L', 'filter.arithmetic', (item) => int64(item.Big) === TWO_POW_53 + 1n),
  itemCase('Big mul 2L eq 84L', 'filter.arithmetic', (item) => int64(item.Big) === 42n),
  itemCase('Big div 2L eq -4503599627370496L', 'filter.arithmetic', (item) => item.Big !== null && BigInt(item.Big) / 2n === -4503599627370496n),
  itemCase('Amount add 0.1M eq 0.2M', 'filter.arithmetic', (item) => item.Amount !== null && decimalArithmetic(item.Amount, 'add', '0.1') === '0.2'),
  itemCase('Amount eq 0.1M add 0.2M', 'filter.arithmetic', (item) => item.Amount === decimalArithmetic('0.1', 'add', '0.2')),
  itemCase('Amount sub 0.1M eq 0.2M', 'filter.arithmetic', (item) => item.Amount !== null && decimalArithmetic(item.Amount, 'sub', '0.1') === '0.2'),
  itemCase('Amount mul 2M eq 0.6M', 'filter.arithmetic', (item) => item.Amount !== null && decimalArithmetic(item.Amount, 'mul', '2') === '0.6'),
  itemCase(
    'Amount add 0.0000000001M eq 0M',
    'filter.arithmetic',
    (item) => item.Amount !== null && decimalArithmetic(item.Amount, 'add', '0.0000000001') === '0',
  ),
  itemCase('Amount add 1M gt 12345678901234567891.123456789M', 'filter.arithmetic', (item) =>
    amount(item.Amount === null ? null : decimalArithmetic(item.Amount, 'add', '1'), (o) => o > 0, '12345678901234567891.123456789'),
  ),
  itemCase('Rank div 2 eq 1', 'filter.arithmetic', (item) => item.Rank !== null && Math.trunc(item.Rank / 2) === 1),
  itemCase('Rank div 3 eq -1', 'filter.arithmetic', (item) => item.Rank !== null && Math.trunc(item.Rank / 3) === -1),
  itemCase('Rank mod 3 eq -1', 'filter.arithmetic', (item) => item.Rank !== null && item.Rank % 3 === -1),
  itemCase('Rank mod 2 eq 1', 'filter.arithmetic', (item) => item.Rank !== null && item.Rank % 2 === 1),
  itemCase('-Rank eq 4', 'filter.arithmetic', (item) => item.Rank === -4),
  itemCase('Rank mul 2 gt 5', 'filter.arithmetic', (item) => item.Rank !== null && item.Rank * 2 > 5),
  itemCase('Rank sub 10 lt -12', 'filter.arithmetic', (item) => item.Rank !== null && item.Rank - 10 < -12),
  itemCase('Ratio add 0.5 eq 3', 'filter.arithmetic', (item) => item.Ratio !== null && item.Ratio + 0.5 === 3),
  itemCase('Ratio div 2 lt -1', 'filter.arithmetic', (item) => item.Ratio !== null && item.Ratio / 2 < -1),
  itemCase('Ratio mul 10 eq 1', 'filter.arithmetic', (item) => item.Ratio !== null && item.Ratio * 10 === 1),
  itemCase('Rank add Ratio eq 3.5', 'filter.arithmetic', (item) => item.Rank !== null && item.Ratio !== null && item.Rank + item.Ratio === 3.5),
];

/** Comparisons, nulls, logic and arithmetic in `$filter`. */
export const filterValueGroups: readonly GroupDefinition[] = [
  { name: '$filter comparisons', cases: comparisons },
  { name: '$filter nulls', cases: nulls },
  { name: '$filter logic', cases: logic },
  { name: '$filter arithmetic', cases: arithmetic },
];
