/**
 * What a create leaves out: a required property (not nullable, no DefaultValue, not a key, a
 * concurrency token or store-generated) is 400 PROPERTY_REQUIRED before anything is stored, also
 * inside a deep insert and through a navigation; a store-generated one is the store's to fill
 * (the time of the insert for a provider that keeps its store's defaults, else null), and the
 * answer carries what a read then gives. Keys from 130 up.
 */
import { fail, show } from '../check';
import { jsonDate } from '../reference';
import { RuleViolation } from '../failure';
import { check } from '../suite';
import type { GroupDefinition } from '../suite';
import { create, expectMissing, expectRequired, read } from './writing';

const created = { Created: jsonDate('2020-01-01T00:00:00.000Z', false) };

/** How far the store's clock may be from the suite's, for a DEFAULT now(). */
const CLOCK_SKEW_MS = 5 * 60_000;

const required = [
  check('POST Items without a required property is 400 PROPERTY_REQUIRED and creates nothing', 'create.required', async ({ service }) => {
    await expectRequired(service, 'POST', 'Items', { ID: 130, ...created }, 'Name');
    await expectMissing(service, 'Items(130)', 'a create without Name must not store an entry (with a zero value for Name)');
    await expectRequired(service, 'POST', 'Items', { ID: 131, Name: 'no Created' }, 'Created');
    await expectMissing(service, 'Items(131)', 'a create without Created must not store an entry (with a zero date)');
  }),
  check('POST through a navigation without a required property is 400 and creates nothing', 'create.required', async ({ service }) => {
    await expectRequired(service, 'POST', "Orders(Region='EU',Number=1L)/Lines", { ID: 130, Product: 'no quantity' }, 'Quantity');
    await expectMissing(service, 'OrderLines(130)', 'a create without Quantity must not store an entry (with Quantity 0)');
  }),
  check('a deep insert whose inline entry lacks a required property is 400 and creates nothing', 'create.required', async ({ service }) => {
    const body = { ID: 130, Name: 'deep', Orders: [{ Region: 'REQ', Number: '2', Lines: [{ ID: 131, Quantity: 1 }] }] };
    await expectRequired(service, 'POST', 'Customers', body, 'Product');
    await expectMissing(service, 'Customers(130)', 'the root of a refused deep insert');
    await expectMissing(service, "Orders(Region='REQ',Number=2L)", 'the inline order of a refused deep insert');
    await expectMissing(service, 'OrderLines(131)', 'the inline line without Product');
  }),
];

const JSON_DATE = /^\/Date\((-?\d+)(?:[+-]\d{4})?\)\/$/;

const storeDefaults = check(
  'POST Customers without the store-generated Joined: the store fills it, the answer says what it stored',
  'create.store-defaults',
  async ({ service, capabilities }) => {
    const before = Date.now();
    const { entry } = await create(service, 'Customers', { ID: 132, Name: 'joined by the store' });
    const after = Date.now();
    const stored = await read(service, 'Customers(132)');
    if (entry.Joined !== stored.Joined)
      fail(`POST Customers answered Joined ${show(entry.Joined)}, but GET Customers(132) reads ${show(stored.Joined)}: the answer must be the stored entry`);
    if (stored.Address !== null)
      throw new RuleViolation('create.values', `GET Customers(132): the omitted nullable Address is ${show(stored.Address)}, expected null`);
    if (!capabilities.storeDefaults) {
      if (stored.Joined !== null)
        fail(
          `GET Customers(132): the omitted Joined is ${show(stored.Joined)}, expected null (a provider that keeps its store's defaults declares storeDefaults)`,
        );
      return;
    }
    const match = typeof stored.Joined === 'string' ? JSON_DATE.exec(stored.Joined) : null;
    const at = match === null ? NaN : Number(match[1]);
    if (!(at >= before - CLOCK_SKEW_MS && at <= after + CLOCK_SKEW_MS)) {
      const time = Number.isNaN(at) ? show(stored.Joined) : new Date(at).toISOString();
      fail(
        `GET Customers(132): Joined is ${time}, expected the time of the insert (${new Date(before).toISOString()}, give or take five minutes) from the store's DEFAULT now(): the provider declares storeDefaults, so it must leave an omitted column to the store, not write a zero value or null`,
      );
    }
  },
);

/** Creating without required or store-generated properties. */
export const omittedGroups: readonly GroupDefinition[] = [{ name: 'create with omitted properties', cases: [...required, storeDefaults] }];
