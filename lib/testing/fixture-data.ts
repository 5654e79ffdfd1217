/**
 * The conformance fixture's data, in MemoryProvider's data format (entity set name to plain
 * objects; Int64 and Decimal as exact strings, dates as ISO 8601 text in UTC, links by navigation
 * property name holding the target's key). The cases compute their expectations from these rows
 * with plain code, so rows may be added without touching a case; the typed row interfaces below
 * are what that code reads.
 */
import type { MemoryData } from '../index';
import { MOMENTS, momentData } from './fixture-moments';
import type { MomentRow } from './fixture-moments';

/** An Item: one nullable property of each primitive type the query cases need. */
export interface ItemRow {
  readonly ID: number;
  readonly Name: string;
  readonly Note: string | null;
  readonly Rank: number | null;
  /** Edm.Int64 as exact text. */
  readonly Big: string | null;
  /** Edm.Decimal (Precision 30, Scale 10) as exact canonical text. */
  readonly Amount: string | null;
  readonly Ratio: number | null;
  readonly Flag: boolean | null;
  /** Edm.DateTime as ISO 8601 text in UTC. */
  readonly Created: string;
  /** Edm.DateTimeOffset as ISO 8601 text with its offset. */
  readonly Updated: string | null;
  /** Edm.Guid in lower case. */
  readonly Code: string | null;
  /** The key of the item's category, or null. */
  readonly Category: number | null;
  /** The codes of the item's tags. */
  readonly Tags: readonly string[];
}

interface CategoryRow {
  readonly ID: number;
  readonly Name: string;
}

export interface TagRow {
  readonly Code: string;
  readonly Label: string | null;
}

interface AddressValue {
  readonly Street: string | null;
  readonly City: string | null;
}

export interface CustomerRow {
  readonly ID: number;
  readonly Name: string;
  readonly Address: AddressValue;
  readonly Status: string;
  readonly Tier: number;
  readonly Credit: string | null;
  readonly Version: number;
  /** Edm.DateTimeOffset, store-generated on create. */
  readonly Joined: string | null;
}

export interface OrderKey {
  readonly Region: string;
  /** Edm.Int64 as exact text. */
  readonly Number: string;
}

export interface OrderRow extends OrderKey {
  readonly Placed: string | null;
  readonly Total: string;
  readonly Customer: number;
}

interface OrderLineRow {
  readonly ID: number;
  readonly Product: string;
  readonly Quantity: number;
  readonly Order: OrderKey;
}

export interface EventRow {
  readonly ID: number;
  readonly Label: string;
  /** Edm.DateTime as ISO 8601 text in UTC (room for more fractional digits than milliseconds). */
  readonly At: string;
  readonly AtOffset: string | null;
  /** Edm.Time as an xs:duration in canonical form. */
  readonly Duration: string | null;
  /** Edm.Binary as base64. */
  readonly Payload: string | null;
}

/** A Note (an open type): declared properties plus dynamic ones of JSON types. */
export interface NoteRow {
  readonly ID: number;
  readonly Text: string | null;
  readonly [dynamic: string]: string | number | boolean | null;
}

/** The fixture, typed for the reference code of the cases. */
export interface FixtureRows {
  readonly Items: readonly ItemRow[];
  readonly Categories: readonly CategoryRow[];
  readonly Tags: readonly TagRow[];
  readonly Customers: readonly CustomerRow[];
  readonly Orders: readonly OrderRow[];
  readonly OrderLines: readonly OrderLineRow[];
  readonly Events: readonly EventRow[];
  /** Exact text with microseconds; the data carries milliseconds (fixture-moments.ts). */
  readonly Moments: readonly MomentRow[];
  readonly Notes: readonly NoteRow[];
}

// Names: ASCII case pairs ('Apple' < 'Zebra' < 'apple' ordinally), Latin-1 (Ä, ß, é, ï) that sort
// after 'z', CJK, a supplementary character (two UTF-16 code units), LIKE wildcards and their
// traps ('100% pure' / '100 stars', 'a_c' / 'abc'), a backslash, a quote and padding.
const ITEMS: readonly ItemRow[] = [
  {
    ID: 1,
    Name: 'Apple',
    Note: 'red',
    Rank: 3,
    Big: '9007199254740993',
    Amount: '12345678901234567890.1234567891',
    Ratio: 0.1,
    Flag: true,
    Created: '2024-01-15T10:30:00.000Z',
    Updated: '2024-03-10T08:00:00.000Z',
    Code: '0f8fad5b-d9cb-469f-a165-70867728950e',
    Category: 1,
    Tags: ['α', 'b'],
  },
  {
    ID: 2,
    Name: 'apple',
    Note: null,
    Rank: 1,
    Big: '9007199254740992',
    Amount: '12345678901234567890.123456789',
    Ratio: 2.5,
    Flag: false,
    Created: '2024-01-15T10:30:00.000Z',
    Updated: null,
    Code: null,
    Category: 1,
    Tags: ['b'],
  },
  {
    ID: 3,
    Name: 'Äpfel',
    Note: 'Grün',
    Rank: null,
    Big: '-9223372036854775808',
    Amount: '0.1',
    Ratio: -2.5,
    Flag: null,
    Created: '1999-12-31T23:59:59.999Z',
    Updated: '2024-03-10T09:00:00.000+01:00',
    Code: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
    Category: 2,
    Tags: [],
  },
  {
    ID: 4,
    Name: 'Straße',
    Note: null,
    Rank: 2,
    Big: '9223372036854775807',
    Amount: '0.2',
    Ratio: 1.5,
    Flag: true,
    Created: '2000-02-29T00:00:00.000Z',
    Updated: null,
    Code: 'ffffffff-ffff-ffff-ffff-ffffffffffff',
    Category: null,
    Tags: ['z z'],
  },
  {
    ID: 5,
    Name: '日本語',
    Note: '',
    Rank: 3,
    Big: null,
    Amount: '0.3',
    Ratio: null,
    Flag: false,
    Created: '2024-01-15T10:30:00.001Z',
    Updated: '2020-02-29T23:30:00.000-05:00',
    Code: '00000000-0000-0000-0000-000000000001',
    Category: 2,
    Tags: ['α', "o'k", '日本'],
  },
  {
    ID: 6,
    Name: '𝄞 clef',
    Note: 'red',
    Rank: null,
    Big: '0',
    Amount: null,
    Ratio: 1e-7,
    Flag: null,
    Created: '2023-06-01T12:00:00.500Z',
    Updated: '2024-03-10T08:00:00.001Z',
    Code: '0f8fad5b-d9cb-469f-a165-70867728950f',
    Category: 3,
    Tags: [],
  },
  {
    ID: 7,
    Name: '100% pure',
    Note: null,
    Rank: 1,
    Big: '-1',
    Amount: '-0.0000000001',
    Ratio: 0,
    Flag: true,
    Created: '1970-01-01T00:00:00.000Z',
    Updated: null,
    Code: null,
    Category: 1,
    Tags: ['b'],
  },
  {
    ID: 8,
    Name: '100 stars',
    Note: 'blue',
    Rank: 5,
    Big: '9007199254740993',
    Amount: '100',
    Ratio: -0.5,
    Flag: true,
    Created: '2024-01-15T10:30:00.000Z',
    Updated: '2001-01-01T00:00:00.000Z',
    Code: null,
    Category: null,
    Tags: [],
  },
  {
    ID: 9,
    Name: 'a_c',
    Note: null,
    Rank: 2,
    Big: null,
    Amount: '2.5',
    Ratio: 3.7,
    Flag: false,
    Created: '2010-10-10T10:10:10.010Z',
    Updated: null,
    Code: null,
    Category: 2,
    Tags: [],
  },
  {
    ID: 10,
    Name: 'abc',
    Note: 'Red',
    Rank: null,
    Big: '42',
    Amount: '-2.5',
    Ratio: null,
    Flag: null,
    Created: '2023-06-01T12:00:00.500Z',
    Updated: '2025-01-01T05:00:00.000+14:00',
    Code: null,
    Category: 3,
    Tags: ['α'],
  },
  {
    ID: 11,
    Name: "O'Neil",
    Note: 'blue',
    Rank: 3,
    Big: '1234567890123456789',
    Amount: null,
    Ratio: 100,
    Flag: true,
    Created: '1969-07-20T20:17:40.000Z',
    Updated: '1969-07-20T20:17:40.000Z',
    Code: 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
    Category: 1,
    Tags: ["o'k"],
  },
  {
    ID: 12,
    Name: 'Zebra',
    Note: null,
    Rank: -4,
    Big: '-9007199254740993',
    Amount: '99999999999999999999.9999999999',
    Ratio: -1.2,
    Flag: false,
    Created: '2038-01-19T03:14:08.000Z',
    Updated: null,
    Code: null,
    Category: null,
    Tags: [],
  },
  {
    ID: 13,
    Name: 'naïve café',
    Note: 'green',
    Rank: 0,
    Big: null,
    Amount: '1.5',
    Ratio: 2.5,
    Flag: null,
    Created: '1900-01-01T00:00:00.000Z',
    Updated: '2024-03-10T08:00:00.000Z',
    Code: '7c9e6679-7425-40de-944b-e07fc1f90ae8',
    Category: 2,
    Tags: ['α'],
  },
  {
    ID: 14,
    Name: '  padded\\ ',
    Note: 'red',
    Rank: 5,
    Big: '7',
    Amount: '0',
    Ratio: null,
    Flag: true,
    Created: '9999-12-31T23:59:59.999Z',
    Updated: null,
    Code: null,
    Category: 1,
    Tags: [],
  },
];

const CATEGORIES: readonly CategoryRow[] = [
  { ID: 1, Name: 'Fruit' },
  { ID: 2, Name: 'Écrire' },
  { ID: 3, Name: 'books' },
  { ID: 4, Name: 'Empty' },
];

const TAGS: readonly TagRow[] = [
  { Code: 'α', Label: 'alpha' },
  { Code: 'b', Label: null },
  { Code: "o'k", Label: 'quoted' },
  { Code: '日本', Label: 'Japan' },
  { Code: 'z z', Label: null },
];

const CUSTOMERS: readonly CustomerRow[] = [
  {
    ID: 1,
    Name: 'Ada',
    Address: { Street: 'Main 1', City: 'Zürich' },
    Status: 'gold',
    Tier: 3,
    Credit: '2500.75',
    Version: 1,
    Joined: '2020-01-15T08:00:00.000Z',
  },
  { ID: 2, Name: 'Bob', Address: { Street: null, City: null }, Status: 'new', Tier: 1, Credit: null, Version: 1, Joined: '2021-06-30T12:30:00.250+02:00' },
  { ID: 3, Name: 'Çelik', Address: { Street: 'Rue 2', City: 'Paris' }, Status: 'silver', Tier: 2, Credit: '0', Version: 1, Joined: null },
  {
    ID: 4,
    Name: 'Dee',
    Address: { Street: 'Side 4', City: 'Aachen' },
    Status: 'new',
    Tier: 1,
    Credit: '100.5',
    Version: 1,
    Joined: '2019-03-01T00:00:00.000Z',
  },
];

const ORDERS: readonly OrderRow[] = [
  { Region: 'EU', Number: '1', Placed: '2024-02-01T09:00:00.000Z', Total: '10.5', Customer: 1 },
  { Region: 'EU', Number: '9007199254740993', Placed: null, Total: '99999999999999.9999', Customer: 1 },
  { Region: 'US', Number: '1', Placed: '2024-02-01T09:00:00.000-08:00', Total: '0', Customer: 2 },
  { Region: "Ö'st", Number: '2', Placed: '2023-01-01T00:00:00.000Z', Total: '7', Customer: 2 },
  { Region: 'EU', Number: '-5', Placed: null, Total: '1.25', Customer: 4 },
];

const ORDER_LINES: readonly OrderLineRow[] = [
  { ID: 1, Product: 'Äpfel', Quantity: 3, Order: { Region: 'EU', Number: '1' } },
  { ID: 2, Product: 'Straße', Quantity: 1, Order: { Region: 'EU', Number: '1' } },
  { ID: 3, Product: '𝄞', Quantity: 12, Order: { Region: 'EU', Number: '9007199254740993' } },
  { ID: 4, Product: 'abc', Quantity: 2, Order: { Region: 'US', Number: '1' } },
  { ID: 5, Product: 'x', Quantity: 5, Order: { Region: 'EU', Number: '-5' } },
];

// Ties on At (three at one millisecond) and on AtOffset (the same instant in two offsets).
const EVENTS: readonly EventRow[] = [
  { ID: 1, Label: 'a', At: '2024-05-01T10:00:00.123Z', AtOffset: '2024-05-01T10:00:00.123Z', Duration: 'PT1H30M', Payload: 'AP8=' },
  { ID: 2, Label: 'b', At: '2024-05-01T10:00:00.123Z', AtOffset: '2024-05-01T12:00:00.123+02:00', Duration: 'PT0S', Payload: null },
  { ID: 3, Label: 'c', At: '2024-05-01T10:00:00.124Z', AtOffset: null, Duration: null, Payload: '3q2+7w==' },
  { ID: 4, Label: 'd', At: '2024-05-01T10:00:00.122Z', AtOffset: '2024-05-01T10:00:00.124Z', Duration: 'PT2H15M', Payload: '' },
  { ID: 5, Label: 'e', At: '2024-05-01T10:00:00.123Z', AtOffset: null, Duration: 'PT23H59M59.999S', Payload: 'AAAAAA==' },
  { ID: 6, Label: 'f', At: '2023-12-31T23:59:59.999Z', AtOffset: '2024-01-01T00:59:59.999+01:00', Duration: null, Payload: null },
  { ID: 7, Label: 'g', At: '2024-05-01T10:00:01.000Z', AtOffset: '2024-05-01T10:00:00.122Z', Duration: 'PT1H', Payload: 'AP8=' },
];

const NOTES: readonly NoteRow[] = [
  { ID: 1, Text: 'first', Mood: 'happy', Stars: 4 },
  { ID: 2, Text: null, Mood: 'sad', Stars: 2, Pinned: true },
  { ID: 3, Text: 'third' },
  { ID: 4, Text: 'fourth', Mood: 'happy', Pinned: false },
];

/** The fixture rows (shared and frozen: the cases only read them). */
export const FIXTURE_ROWS: FixtureRows = deepFreeze({
  Items: ITEMS,
  Categories: CATEGORIES,
  Tags: TAGS,
  Customers: CUSTOMERS,
  Orders: ORDERS,
  OrderLines: ORDER_LINES,
  Events: EVENTS,
  Moments: MOMENTS,
  Notes: NOTES,
});

/** What a provider under test may lack, as far as the fixture's data is concerned. */
export interface FixtureDataOptions {
  /** False: leave out the dynamic properties of the open type's entities. */
  readonly openTypes: boolean;
}

/**
 * A fresh copy of the fixture data in MemoryProvider's format, safe for the caller to change.
 * Links are given once, from the side that holds one key (Item.Category, Order.Customer,
 * OrderLine.Order) or from Item for the many-to-many Tags.
 */
export function fixtureData(options: FixtureDataOptions = { openTypes: true }): MemoryData {
  const rows = FIXTURE_ROWS;
  return {
    Items: rows.Items.map((item) => ({ ...item, Tags: [...item.Tags] })),
    Categories: rows.Categories.map((category) => ({ ...category })),
    Tags: rows.Tags.map((tag) => ({ ...tag })),
    Customers: rows.Customers.map((customer) => ({ ...customer, Address: { ...customer.Address } })),
    Orders: rows.Orders.map((order) => ({ ...order })),
    OrderLines: rows.OrderLines.map((line) => ({ ...line, Order: { ...line.Order } })),
    Events: rows.Events.map((event) => ({ ...event })),
    Moments: momentData(),
    Deliveries: [],
    Photos: [],
    Notes: rows.Notes.map((note) => (options.openTypes ? { ...note } : { ID: note.ID, Text: note.Text })),
  };
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
