/**
 * Stored values read back exactly, and entities addressed by every key form. The expected JSON
 * is the fixture's value in its verbose-JSON form (Int64, Decimal and Guid as text, dates as
 * `/Date(ms)/`); Atom is checked for the values JSON cannot show as typed text.
 */
import { entryOf, expectEqual, expectStatus, fail, feedOf, isObject, show } from '../check';
import type { JsonObject } from '../check';
import { url } from '../client';
import { idOfEntry, orderId } from '../entities';
import type { EntityId, FixtureSet } from '../entities';
import { FIXTURE_ROWS } from '../fixture-data';
import type { CustomerRow, EventRow, ItemRow, OrderRow } from '../fixture-data';
import { jsonDate, ticks } from '../reference';
import { check } from '../suite';
import type { CaseDefinition, GroupDefinition } from '../suite';

const dateTime = (text: string | null): string | null => (text === null ? null : jsonDate(text, false));
const dateTimeOffset = (text: string | null): string | null => (text === null ? null : jsonDate(text, true));

function itemJson(item: ItemRow): JsonObject {
  const { ID, Name, Note, Rank, Big, Amount, Ratio, Flag, Code } = item;
  return { ID, Name, Note, Rank, Big, Amount, Ratio, Flag, Created: dateTime(item.Created), Updated: dateTimeOffset(item.Updated), Code };
}

function customerJson(customer: CustomerRow): JsonObject {
  const { ID, Name, Status, Tier, Credit, Version } = customer;
  return { ID, Name, Address: { ...customer.Address }, Status, Tier, Credit, Version, Joined: dateTimeOffset(customer.Joined) };
}

function orderJson(order: OrderRow): JsonObject {
  return { Region: order.Region, Number: order.Number, Placed: dateTimeOffset(order.Placed), Total: order.Total };
}

function eventJson(event: EventRow): JsonObject {
  return {
    ID: event.ID,
    Label: event.Label,
    At: dateTime(event.At),
    AtOffset: dateTimeOffset(event.AtOffset),
    Duration: event.Duration,
    Payload: event.Payload,
  };
}

/** The structural properties of an entry (no `__metadata`, no navigation), complex values without their `__metadata`. */
function structural(entry: JsonObject, names: readonly string[]): JsonObject {
  const out: Record<string, unknown> = {};
  for (const name of names) {
    const value = entry[name];
    if (isObject(value)) {
      const { __metadata: _metadata, ...members } = value;
      void _metadata;
      out[name] = members;
    } else {
      out[name] = value;
    }
  }
  return out;
}

function feedCase(set: FixtureSet, expected: readonly JsonObject[]): CaseDefinition {
  return check(`every entry of ${set} reads back exactly`, 'values.exact', async ({ service }) => {
    const target = url(set);
    const entries = feedOf(await service.get(target), `GET ${target}`).entries;
    const names = Object.keys(expected[0] ?? {});
    const byId = new Map<EntityId, JsonObject>(entries.map((entry) => [idOfEntry(set, entry), structural(entry, names)]));
    for (const want of expected) {
      const id = idOfEntry(set, want);
      const got = byId.get(id);
      if (got === undefined) fail(`GET ${target} has no entry ${show(id)}`);
      for (const name of names) expectEqual(got[name], want[name], `${set} ${show(id)}: ${name}`);
    }
    expectEqual(entries.length, expected.length, `the number of entries of GET ${target}`);
  });
}

/** The text of `<d:name ...>text</d:name>` in an Atom entry, or null for `m:null="true"`. */
function atomValue(atom: string, name: string): string | null {
  const match = new RegExp(`<d:${name}(?: [^>]*)?(/>|>([^<]*)</d:${name}>)`).exec(atom);
  if (match === null) fail(`the Atom entry has no d:${name}: ${atom.slice(0, 300)}`);
  return match[1] === '/>' ? null : (match[2] ?? '');
}

const xmlText = (text: string): string =>
  text
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'");

const atomCase = check('Atom carries the exact values of every Item', 'values.exact', async ({ service }) => {
  for (const item of FIXTURE_ROWS.Items) {
    const target = url(`Items(${item.ID})`, { $format: 'atom' });
    const answer = await service.get(target);
    expectStatus(answer, 200, `GET ${target}`);
    const what = `GET ${target}`;
    expectEqual(xmlText(atomValue(answer.text, 'Name') ?? ''), item.Name, `${what}: Name`);
    expectEqual(atomValue(answer.text, 'Big'), item.Big, `${what}: Big`);
    expectEqual(atomValue(answer.text, 'Amount'), item.Amount, `${what}: Amount`);
    const created = atomValue(answer.text, 'Created');
    if (created === null || ticks(created) !== ticks(item.Created)) fail(`${what}: Created is ${show(created)}, expected the instant ${item.Created}`);
    const updated = atomValue(answer.text, 'Updated');
    if ((updated === null) !== (item.Updated === null) || (updated !== null && item.Updated !== null && ticks(updated) !== ticks(item.Updated))) {
      fail(`${what}: Updated is ${show(updated)}, expected the instant ${show(item.Updated)}`);
    }
  }
});

/** A single entry by a key form: its key properties must be the addressed ones. */
function keyCase(path: string, set: FixtureSet, expected: EntityId): CaseDefinition {
  return check(`GET ${path}`, 'uri.keys', async ({ service }) => {
    const target = url(path);
    expectEqual(idOfEntry(set, entryOf(await service.get(target), `GET ${target}`)), expected, `GET ${target} answered the entry`);
  });
}

function missingCase(path: string): CaseDefinition {
  return check(`GET ${path} is 404`, 'uri.keys', async ({ service }) => {
    const target = url(path);
    expectStatus(await service.get(target), 404, `GET ${target}`);
  });
}

const big = FIXTURE_ROWS.Orders.find((order) => order.Number === '9007199254740993');
const quoted = FIXTURE_ROWS.Orders.find((order) => order.Region.includes("'"));

const keys = [
  keyCase('Items(7)', 'Items', 7),
  keyCase("Tags('o''k')", 'Tags', "o'k"),
  keyCase("Tags('日本')", 'Tags', '日本'),
  keyCase("Tags('z z')", 'Tags', 'z z'),
  keyCase("Orders(Region='EU',Number=9007199254740993L)", 'Orders', big === undefined ? '' : orderId(big)),
  keyCase("Orders(Number=9007199254740993L,Region='EU')", 'Orders', big === undefined ? '' : orderId(big)),
  keyCase("Orders(Region='Ö''st',Number=2L)", 'Orders', quoted === undefined ? '' : orderId(quoted)),
  keyCase("Orders(Region='EU',Number=-5L)", 'Orders', 'EU/-5'),
  missingCase('Items(999)'),
  missingCase("Orders(Region='EU',Number=9007199254740992L)"),
  missingCase("Tags('O''K')"),
  missingCase("Tags('Α')"),
];

/** Values read back exactly, and every key form. */
export const valueGroups: readonly GroupDefinition[] = [
  {
    name: 'values',
    cases: [
      feedCase('Items', FIXTURE_ROWS.Items.map(itemJson)),
      feedCase('Customers', FIXTURE_ROWS.Customers.map(customerJson)),
      feedCase('Orders', FIXTURE_ROWS.Orders.map(orderJson)),
      feedCase('Events', FIXTURE_ROWS.Events.map(eventJson)),
      feedCase(
        'Tags',
        FIXTURE_ROWS.Tags.map((tag) => ({ ...tag })),
      ),
      atomCase,
    ],
  },
  { name: 'keys', cases: keys },
];
