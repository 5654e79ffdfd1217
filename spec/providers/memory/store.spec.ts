import type { EdmModel } from '../../../lib/edm/model';
import { ODataError } from '../../../lib/errors';
import { loadData } from '../../../lib/providers/memory/load-data';
import { Store } from '../../../lib/providers/memory/store';
import { ORDER_A, ORDER_B, navOf, setOf, shopData, shopModel } from './models';
import { describeFailure as codeOf } from '../../helpers/odata-error';

const NEW_ORDER = '11111111-2222-3333-4444-555555555555';

/** Everything observable in the store, for "exactly as before" comparisons (link order has no meaning: reads order by target). */
function dump(store: Store, model: EdmModel): unknown {
  const sets = [...model.entitySets.values()].map((set) => [set.name, store.all(set).map((values) => ({ ...values }))]);
  const links = [...store.linkTables.tables.values()].map((table) => [table.associationSet.name, table.size]);
  const pairs: string[] = [];
  for (const set of model.entitySets.values()) {
    for (const values of store.all(set)) {
      const location = store.locate(values);
      for (const property of set.entityType.navigationProperties) {
        if (location !== undefined)
          pairs.push(`${set.name}${location.key}/${property.name}->${[...store.relatedKeys(set, location.key, property)].sort().join(',')}`);
      }
    }
  }
  return { sets, links, pairs };
}

describe('the MemoryProvider store', () => {
  let model: EdmModel;
  let store: Store;
  let clock: number;
  const Customers = () => setOf(model, 'Customers');
  const Orders = () => setOf(model, 'Orders');
  const Lines = () => setOf(model, 'Lines');
  const Products = () => setOf(model, 'Products');
  const Employees = () => setOf(model, 'Employees');
  const Notes = () => setOf(model, 'Notes');

  beforeEach(() => {
    model = shopModel();
    clock = Date.UTC(2024, 0, 1);
    store = new Store(model, { now: () => new Date(clock) });
    loadData(store, shopData());
  });

  describe('key lookups', () => {
    it('finds an Int64 key given as a string, beyond 2^53', () => {
      expect(store.get(Customers(), { ID: '9007199254740993' })?.Name).toBe('Big');
      expect(store.get(Customers(), { ID: '9007199254740992' })).toBeUndefined();
    });

    it('finds a Guid key whatever its letter case', () => {
      expect(store.get(Orders(), { ID: ORDER_B.toUpperCase() })?.Total).toBe('7');
    });

    it('finds a composite key', () => {
      expect(store.get(Lines(), { OrderID: ORDER_A, No: 2 })?.Quantity).toBe(1);
      expect(store.get(Lines(), { OrderID: ORDER_B, No: 2 })).toBeUndefined();
    });

    it('finds a string key', () => {
      expect(store.get(Products(), { Code: 'P2' })?.Code).toBe('P2');
    });

    it('refuses a key that does not fit the type with a 400', () => {
      expect(codeOf(() => store.get(Lines(), { OrderID: ORDER_A }))).toBe(
        "400 URI_KEY_SYNTAX: Bad key predicate '(OrderID=guid'0d9c1f9e-8d6a-4b61-9b39-5a0e8d3f4a11',No=undefined)' for entity type 'Shop.Line': key property 'No': the property is not nullable (Nullable=\"false\")",
      );
    });
  });

  describe('insert', () => {
    it('stores converted values, fills defaults and starts tokens', () => {
      const values = store.insert(Orders(), { ID: NEW_ORDER }, [{ property: navOf(model, 'Orders', 'Customer'), key: { ID: 2 } }]);
      expect(values).toEqual({ ID: NEW_ORDER, Total: '0', Modified: new Date(clock) });
      expect([...store.relatedKeys(Customers(), '2', navOf(model, 'Customers', 'Orders'))]).toEqual([ORDER_B, NEW_ORDER]);
    });

    it('starts an integer version column at 0 whatever the client sent', () => {
      expect(store.insert(Customers(), { ID: 3, Version: 99 }).Version).toBe(0);
    });

    it('refuses a taken key with 409 ENTITY_EXISTS', () => {
      expect(codeOf(() => store.insert(Products(), { Code: 'P1' }))).toBe("409 ENTITY_EXISTS: An entity with the key ('P1') already exists in 'Products'.");
    });

    it('refuses an entity that misses its required link, leaving nothing behind', () => {
      const before = dump(store, model);
      expect(codeOf(() => store.insert(Orders(), { ID: NEW_ORDER }))).toBe(
        "409 CONSTRAINT_VIOLATION: Orders(guid'11111111-2222-3333-4444-555555555555') must be linked to exactly one entity of 'Customers' over 'Customer' (multiplicity 1), but has 0.",
      );
      expect(dump(store, model)).toEqual(before);
    });

    it('refuses bad values with 400 VALUE_INVALID and unknown properties with 400 BODY_INVALID', () => {
      expect(codeOf(() => store.insert(Customers(), { ID: 5, Name: 'x'.repeat(21) }))).toBe(
        "400 VALUE_INVALID: Invalid value for property 'Name' of type Edm.String: the length is 21 characters, more than the MaxLength of 20.",
      );
      expect(codeOf(() => store.insert(Customers(), { ID: 5, Nam: 'x' }))).toBe(
        "400 BODY_INVALID: The request body is invalid: 'Nam' is not a property of Shop.Customer. Did you mean 'Name'?",
      );
      expect(store.size(Customers())).toBe(2);
    });

    it('keeps dynamic properties of an open type', () => {
      store.insert(Notes(), { ID: 2, Mood: 'calm', When: new Date(0) });
      expect(store.get(Notes(), { ID: 2 })).toEqual({ ID: 2, Text: null, Mood: 'calm', When: new Date(0) });
    });
  });

  describe('replace and merge', () => {
    it('replace stores the values given, keeps declared properties not given (the service resets them) and bumps the version column', () => {
      const values = store.replace(Customers(), { ID: '9007199254740993' }, { Name: 'Bigger' });
      expect(values).toEqual({ ID: '9007199254740993', Name: 'Bigger', Version: 5 });
      expect(store.replace(Customers(), { ID: '9007199254740993' }, {})).toEqual({ ID: '9007199254740993', Name: 'Bigger', Version: 6 });
      expect(store.replace(Customers(), { ID: '9007199254740993' }, { Name: null }).Name).toBeNull();
    });

    it('replace drops the dynamic properties not given', () => {
      expect(store.replace(Notes(), { ID: 1 }, { Size: 4 })).toEqual({ ID: 1, Text: 'hello', Size: 4 });
    });

    it('merge changes only the given properties and keeps links', () => {
      store.merge(Orders(), { ID: ORDER_A }, { Total: '99.90' });
      expect(store.get(Orders(), { ID: ORDER_A })).toEqual({ ID: ORDER_A, Total: '99.9', Modified: new Date(clock) });
      expect(store.related(Orders(), ORDER_A, navOf(model, 'Orders', 'Lines'))).toHaveLength(2);
    });

    it('gives a DateTime token the write time, strictly increasing within one millisecond', () => {
      const first = store.merge(Orders(), { ID: ORDER_A }, {}).Modified;
      const second = store.merge(Orders(), { ID: ORDER_A }, {}).Modified;
      expect(first).toEqual(new Date(clock));
      expect(second).toEqual(new Date(clock + 1));
    });

    it('refuses a key change with 400 KEY_MISMATCH', () => {
      expect(codeOf(() => store.merge(Customers(), { ID: 2 }, { ID: 3 }))).toBe(
        '400 KEY_MISMATCH: The key in the request body does not match the key in the URL.',
      );
    });

    it('runs the precondition check in the same step, and a refusal changes nothing', () => {
      const seen: unknown[] = [];
      const refuse = (current: unknown): void => {
        seen.push(current);
        throw ODataError.fromCode('PRECONDITION_FAILED', { header: 'If-Match' });
      };
      expect(codeOf(() => store.merge(Customers(), { ID: 2 }, { Name: 'x' }, { check: refuse }))).toMatch(/^412 PRECONDITION_FAILED/);
      expect(seen).toEqual([{ ID: '2', Name: 'Small', Version: 0 }]);
      expect(store.get(Customers(), { ID: 2 })).toEqual({ ID: '2', Name: 'Small', Version: 0 });
    });

    it('answers 404 ENTITY_NOT_FOUND for a missing entity', () => {
      expect(codeOf(() => store.replace(Products(), { Code: "it's" }, {}))).toBe(
        "404 ENTITY_NOT_FOUND: No entity with the key ('it''s') exists in 'Products'.",
      );
    });
  });

  describe('delete', () => {
    it('cascades over an OnDelete="Cascade" end and removes the links', () => {
      store.delete(Orders(), { ID: ORDER_A });
      expect(store.all(Lines()).map((line) => `${String(line.OrderID)}/${String(line.No)}`)).toEqual([`${ORDER_B}/1`]);
      expect(store.relatedKeys(Customers(), '9007199254740993', navOf(model, 'Customers', 'Orders')).size).toBe(0);
      expect(store.linkTables.tables.size).toBe(4);
    });

    it('refuses to orphan entities that require the deleted one (a `1` end without cascade)', () => {
      const before = dump(store, model);
      expect(codeOf(() => store.delete(Customers(), { ID: 2 }))).toBe(
        "409 CONSTRAINT_VIOLATION: Orders(guid'7f3e2a10-1b2c-4d5e-8f90-abcdefabcdef') must be linked to exactly one entity of 'Customers' over 'Customer' (multiplicity 1), but has 0.",
      );
      expect(dump(store, model)).toEqual(before);
    });

    it('unlinks the `0..1` side of a self-association without deleting anyone else', () => {
      store.delete(Employees(), { ID: 1 });
      expect(store.all(Employees()).map((e) => e.ID)).toEqual([2, 3, 4]);
      expect(store.related(Employees(), '2', navOf(model, 'Employees', 'Manager'))).toEqual([]);
      expect(store.related(Employees(), '4', navOf(model, 'Employees', 'Manager')).map((e) => e.ID)).toEqual([2]);
    });
  });

  describe('link and unlink', () => {
    it('replaces the link of a single-valued end (moving the line to another product)', () => {
      store.link(Lines(), { OrderID: ORDER_A, No: 1 }, navOf(model, 'Lines', 'Product'), { Code: 'P2' });
      expect(store.related(Lines(), JSON.stringify([ORDER_A, '1']), navOf(model, 'Lines', 'Product')).map((p) => p.Code)).toEqual(['P2']);
      expect(store.related(Lines(), JSON.stringify([ORDER_B, '1']), navOf(model, 'Lines', 'Product')).map((p) => p.Code)).toEqual(['P2']);
      expect([...store.linkTables.tables.values()].find((table) => table.associationSet.name === 'Lines_Product')?.size).toBe(2);
    });

    it('linking from the many side moves the partner off its old single-valued link', () => {
      store.link(Employees(), { ID: 2 }, navOf(model, 'Employees', 'Reports'), { ID: 3 });
      expect(store.related(Employees(), '3', navOf(model, 'Employees', 'Manager')).map((e) => e.ID)).toEqual([2]);
      expect(store.related(Employees(), '1', navOf(model, 'Employees', 'Reports')).map((e) => e.ID)).toEqual([2]);
    });

    it('moving an order to another customer is fine; leaving one without a customer is not', () => {
      store.link(Orders(), { ID: ORDER_A }, navOf(model, 'Orders', 'Customer'), { ID: 2 });
      expect(store.related(Customers(), '2', navOf(model, 'Customers', 'Orders')).map((o) => o.ID)).toEqual([ORDER_A, ORDER_B]);
      expect(codeOf(() => store.unlink(Orders(), { ID: ORDER_A }, navOf(model, 'Orders', 'Customer')))).toMatch(/^409 CONSTRAINT_VIOLATION: Orders\(guid'0d9c/);
      expect(store.related(Orders(), ORDER_A, navOf(model, 'Orders', 'Customer')).map((c) => c.ID)).toEqual(['2']);
    });

    it('unlinks one target of a many-valued navigation, and 404s for a target that is not linked', () => {
      store.unlink(Employees(), { ID: 1 }, navOf(model, 'Employees', 'Reports'), { ID: 3 });
      expect(store.related(Employees(), '1', navOf(model, 'Employees', 'Reports')).map((e) => e.ID)).toEqual([2]);
      expect(codeOf(() => store.unlink(Employees(), { ID: 1 }, navOf(model, 'Employees', 'Reports'), { ID: 4 }))).toBe(
        "404 ENTITY_NOT_FOUND: No entity with the key (4) exists in 'Employees(1)/Reports'.",
      );
    });

    it('404s for a missing source or target', () => {
      expect(codeOf(() => store.link(Employees(), { ID: 9 }, navOf(model, 'Employees', 'Manager'), { ID: 1 }))).toBe(
        "404 ENTITY_NOT_FOUND: No entity with the key (9) exists in 'Employees'.",
      );
      expect(codeOf(() => store.link(Employees(), { ID: 1 }, navOf(model, 'Employees', 'Manager'), { ID: 9 }))).toBe(
        "404 ENTITY_NOT_FOUND: No entity with the key (9) exists in 'Employees'.",
      );
    });
  });

  describe('transactions', () => {
    it('rolls back a failed transaction exactly, including deleted records and their order', () => {
      const before = dump(store, model);
      expect(() =>
        store.transaction(() => {
          store.delete(Orders(), { ID: ORDER_A });
          store.insert(Products(), { Code: 'P3' });
          store.merge(Customers(), { ID: 2 }, { Name: 'Changed' });
          store.link(Employees(), { ID: 4 }, navOf(model, 'Employees', 'Manager'), { ID: 3 });
          store.delete(Employees(), { ID: 1 });
          throw new Error('changeset failed');
        }),
      ).toThrow('changeset failed');
      expect(dump(store, model)).toEqual(before);
    });

    it('checks required links at commit, so a deep insert may link after inserting', () => {
      store.transaction(() => {
        store.insert(Orders(), { ID: NEW_ORDER });
        store.insert(Lines(), { OrderID: NEW_ORDER, No: 1, Quantity: 1 }, [{ property: navOf(model, 'Lines', 'Order'), key: { ID: NEW_ORDER } }]);
        store.link(Orders(), { ID: NEW_ORDER }, navOf(model, 'Orders', 'Customer'), { ID: 2 });
      });
      expect(store.related(Orders(), NEW_ORDER, navOf(model, 'Orders', 'Lines')).map((l) => l.No)).toEqual([1]);
    });

    it('rolls back a whole transaction whose constraints fail at commit', () => {
      const before = dump(store, model);
      expect(codeOf(() => store.transaction(() => store.insert(Orders(), { ID: NEW_ORDER })))).toMatch(/^409 CONSTRAINT_VIOLATION/);
      expect(dump(store, model)).toEqual(before);
    });

    it('a failed write inside a transaction undoes only itself (a savepoint)', () => {
      store.transaction(() => {
        store.insert(Products(), { Code: 'P3' });
        expect(() => store.insert(Products(), { Code: 'P1' })).toThrow(ODataError);
      });
      expect(store.all(Products()).map((p) => p.Code)).toEqual(['P1', 'P2', 'P3']);
    });

    it('begin() spans awaits and rolls back on request', async () => {
      const before = dump(store, model);
      const transaction = store.begin();
      store.insert(Products(), { Code: 'P3' });
      await Promise.resolve();
      store.delete(Products(), { Code: 'P1' });
      transaction.rollback();
      expect(dump(store, model)).toEqual(before);
      const second = store.begin();
      store.insert(Products(), { Code: 'P4' });
      second.commit();
      expect(store.size(Products())).toBe(3);
      expect(() => second.commit()).toThrow('MemoryStore transactions must be closed once, innermost first.');
    });

    it('transactionAsync undoes a failed changeset but not a write queued behind it', async () => {
      const before = store.all(Products()).map((p) => p.Code);
      const order: string[] = [];
      const changeset = store.transactionAsync(async () => {
        await store.exclusive(() => store.insert(Products(), { Code: 'P3' }));
        order.push('inside');
        await new Promise((resolve) => setTimeout(resolve, 5));
        throw new Error('part 2 failed');
      });
      const outside = store.exclusive(() => {
        order.push('outside');
        return store.insert(Products(), { Code: 'P9' });
      });
      await expect(changeset).rejects.toThrow('part 2 failed');
      await outside;
      expect(order).toEqual(['inside', 'outside']);
      expect(store.all(Products()).map((p) => p.Code)).toEqual([...before, 'P9']);
    });

    it('exclusiveSync waits for a running changeset, and runs at once inside one', async () => {
      const order: string[] = [];
      const changeset = store.transactionAsync(async () => {
        await store.exclusiveSync(() => order.push('inside'));
        await new Promise((resolve) => setTimeout(resolve, 5));
        order.push('changeset done');
      });
      const outside = store.exclusiveSync(() => {
        order.push('outside');
        return store.insert(Products(), { Code: 'P8' }).Code;
      });
      await changeset;
      expect(await outside).toBe('P8');
      expect(order).toEqual(['inside', 'changeset done', 'outside']);
    });

    it('exclusiveSync refuses async work with a TypeError, and the queue goes on', async () => {
      await expect(store.exclusiveSync(() => Promise.resolve(1))).rejects.toThrow(
        'MemoryStore.exclusiveSync takes a synchronous function; use exclusive() for async work.',
      );
      expect(await store.exclusiveSync(() => 2)).toBe(2);
    });

    it('transactionAsync commits and returns the result of its work', async () => {
      const code = await store.transactionAsync(async () => {
        await Promise.resolve();
        return store.exclusive(() => store.insert(Products(), { Code: 'P5' }).Code);
      });
      expect(code).toBe('P5');
      expect(store.get(Products(), { Code: 'P5' })).toEqual({ Code: 'P5', Picture: null, Released: null });
    });

    it('refuses an async function in transaction()', () => {
      expect(() => store.transaction(() => Promise.resolve(1))).toThrow(TypeError);
    });

    it('runs the writes of a scope inside its transaction at once, and queues the writes of other scopes behind it', async () => {
      const mine = {};
      const order: string[] = [];
      const changeset = store.transactionAsync(
        async () => {
          await store.exclusiveSync(() => order.push('mine'), mine);
          await new Promise((resolve) => setTimeout(resolve, 5));
          order.push('changeset done');
        },
        { scope: mine },
      );
      const other = store.exclusiveSync(() => order.push('other'), {});
      await Promise.all([changeset, other]);
      expect(order).toEqual(['mine', 'changeset done', 'other']);
    });

    it('a nested transaction of the same scope is a savepoint of the outer one', async () => {
      const scope = {};
      const before = dump(store, model);
      await expect(
        store.transactionAsync(
          async () => {
            await store.transactionAsync(
              async () => {
                await store.exclusiveSync(() => store.insert(Products(), { Code: 'P6' }), scope);
              },
              { scope },
            );
            throw new Error('outer fails');
          },
          { scope },
        ),
      ).rejects.toThrow('outer fails');
      expect(dump(store, model)).toEqual(before);
    });

    it('abandons a transaction that does not settle within its timeout: undone (nested frames too), 503, the next writer let in, its late writes refused', async () => {
      const scope = {};
      const before = dump(store, model);
      let resume = (): void => undefined;
      const hung = new Promise<void>((resolve) => (resume = resolve));
      let lateWrite: Promise<unknown> | undefined;
      const changeset = store.transactionAsync(
        async () => {
          await store.exclusiveSync(() => store.insert(Products(), { Code: 'P7' }), scope);
          // A nested transaction is still open when the timeout strikes.
          await store.transactionAsync(
            async () => {
              await store.exclusiveSync(() => store.insert(Products(), { Code: 'P8' }), scope);
              await hung;
              lateWrite = store.exclusiveSync(() => store.insert(Products(), { Code: 'P9' }), scope).catch((error: unknown) => error);
            },
            { scope },
          );
        },
        { scope, timeout: 30 },
      );
      const next = store.exclusiveSync(() => store.insert(Products(), { Code: 'Q1' }).Code, {});
      const error = await changeset.then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(error).toBeInstanceOf(ODataError);
      expect([(error as ODataError).status, (error as ODataError).code, (error as ODataError).headers]).toEqual([
        503,
        'PROVIDER_TIMEOUT',
        { 'retry-after': '1' },
      ]);
      expect(await next).toBe('Q1');
      resume();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await lateWrite).toMatchObject({ code: 'PROVIDER_TIMEOUT' });
      expect(store.get(Products(), { Code: 'P7' })).toBeUndefined();
      expect(store.get(Products(), { Code: 'P8' })).toBeUndefined();
      expect(store.get(Products(), { Code: 'P9' })).toBeUndefined();
      const after = dump(store, model) as { sets: [string, { Code?: string }[]][] };
      const products = after.sets.find(([name]) => name === 'Products')?.[1].map((p) => p.Code);
      expect(products).toEqual([
        ...((before as { sets: [string, { Code?: string }[]][] }).sets.find(([name]) => name === 'Products')?.[1].map((p) => p.Code) ?? []),
        'Q1',
      ]);
    });

    it('refuses the late writes of scope-less work of an abandoned transaction (recognised by its async context)', async () => {
      let resume = (): void => undefined;
      const hung = new Promise<void>((resolve) => (resume = resolve));
      let lateWrite: Promise<unknown> | undefined;
      const changeset = store.transactionAsync(
        async () => {
          await hung;
          lateWrite = store.exclusive(() => store.insert(Products(), { Code: 'P5' })).catch((error: unknown) => error);
        },
        { timeout: 20 },
      );
      await expect(changeset).rejects.toMatchObject({ code: 'PROVIDER_TIMEOUT' });
      resume();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await lateWrite).toMatchObject({ code: 'PROVIDER_TIMEOUT' });
      expect(store.get(Products(), { Code: 'P5' })).toBeUndefined();
    });

    it("closes the scope of a transaction whose work failed with the service's timeout (PROVIDER_TIMEOUT)", async () => {
      const scope = {};
      const timeout = ODataError.fromCode('PROVIDER_TIMEOUT', { timeout: 5 });
      await expect(store.transactionAsync(async () => Promise.reject(timeout), { scope })).rejects.toBe(timeout);
      await expect(store.exclusiveSync(() => store.insert(Products(), { Code: 'P4' }), scope)).rejects.toBe(timeout);
      await expect(store.transactionAsync(async () => undefined, { scope: {} })).resolves.toBeUndefined();
    });
  });

  describe('concurrency tokens', () => {
    it('counts an integer version column up by one per write, including replace', () => {
      const key = { ID: '9007199254740993' };
      expect(store.get(Customers(), key)?.Version).toBe(4);
      store.merge(Customers(), key, { Name: 'a' });
      store.replace(Customers(), key, { Name: 'b' });
      expect(store.get(Customers(), key)?.Version).toBe(6);
    });

    it('keeps tokens given in the data, and starts missing ones', () => {
      expect(store.get(Customers(), { ID: 2 })?.Version).toBe(0);
      expect(store.get(Orders(), { ID: ORDER_B })?.Modified).toEqual(new Date('2020-01-02T10:00:00Z'));
    });

    it('moves a DateTime token with the clock', () => {
      clock += 60000;
      expect(store.merge(Orders(), { ID: ORDER_B }, {}).Modified).toEqual(new Date(Date.UTC(2024, 0, 1, 0, 1)));
    });
  });
});
