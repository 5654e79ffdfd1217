import { generatedKeys, withUuidKeys } from '../../lib/provider/new-keys';
import { describeFailure } from '../helpers/odata-error';
import { setOf, shopModel } from '../providers/memory/models';

describe('the kit’s rule for the keys a new entry leaves out', () => {
  const model = shopModel();
  const typeOf = (set: string) => setOf(model, set).entityType;
  const generations = (set: string, values: Record<string, unknown>, storeMade?: ReadonlySet<string>) =>
    generatedKeys(typeOf(set), values, '', storeMade).map((key) => `${key.property.name}:${key.generation}`);

  it.each<[string, string, Record<string, unknown>, string[]]>([
    ['a single Int64 key: the store numbers it', 'Customers', {}, ['ID:next']],
    ['a null key counts as missing', 'Customers', { ID: null }, ['ID:next']],
    ['a given key: nothing', 'Customers', { ID: '7' }, []],
    ['a Guid key: a UUID', 'Orders', {}, ['ID:uuid']],
    ['a Guid in a composite key: a UUID (the integer beside it is given)', 'Lines', { No: 1 }, ['OrderID:uuid']],
  ])('%s', (_what, set, values, expected) => {
    expect(generations(set, values)).toEqual(expected);
  });

  it('refuses with 400 an integer in a composite key, naming it, with the caller’s hint', () => {
    expect(describeFailure(() => generatedKeys(typeOf('Lines'), { OrderID: '6e1ec1a7-2f0c-4c9e-8a51-7d5e2c0d3f11' }, ' (try harder)'))).toBe(
      "400 BODY_INVALID: The request body is invalid: the key property 'No' of Shop.Line is missing; only a single integer key or a Guid key is generated (try harder).",
    );
  });

  it('leaves out a key the store always makes itself', () => {
    expect(generations('Lines', { OrderID: '6e1ec1a7-2f0c-4c9e-8a51-7d5e2c0d3f11' }, new Set(['No']))).toEqual([]);
  });

  it('fills a random UUID for each uuid key and keeps the given values', () => {
    const values = { Total: '1.00' };
    const filled = withUuidKeys(values, generatedKeys(typeOf('Orders'), values));
    expect(filled.Total).toBe('1.00');
    expect(filled.ID).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(withUuidKeys(values, [])).toBe(values);
  });
});
