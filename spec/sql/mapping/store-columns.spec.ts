/**
 * The mapping's per-set `storeGenerated` (columns the database makes) and `columnTypes` (columns
 * stored in another SQL type): resolved and validated with the rest of the mapping, by property
 * path, every problem named.
 */
import { defineModel } from '../../../lib';
import { resolveMapping, SqlMappingError, validateMapping, type SqlMappingOverrides } from '../../../lib/sql';

const model = defineModel({
  namespace: 'Shop',
  entityTypes: [
    {
      name: 'Order',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Status', type: 'Edm.String' },
        { name: 'Placed', type: 'Edm.DateTime' },
      ],
    },
  ],
  entityContainers: [{ name: 'Service', isDefaultEntityContainer: true, entitySets: [{ name: 'Orders', entityType: 'Shop.Order' }] }],
});

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof SqlMappingError) return error.problems;
    throw error;
  }
  throw new Error('expected a SqlMappingError');
}

describe('storeGenerated and columnTypes', () => {
  it('are kept by property path, after schema, table and columns (the order mapping.json is written in)', () => {
    const mapping = resolveMapping(model, {
      schema: 'shop',
      entitySets: { Orders: { storeGenerated: { ID: 'identity', Placed: 'default' }, columnTypes: { Status: 'shop."Order Status"', Placed: 'date' } } },
    });
    expect(JSON.stringify(mapping.entitySets.Orders)).toBe(
      '{"schema":"shop","table":"Orders","columns":{"ID":"ID","Status":"Status","Placed":"Placed"},"storeGenerated":{"ID":"identity","Placed":"default"},"columnTypes":{"Status":"shop.\\"Order Status\\"","Placed":"date"}}',
    );
    expect(validateMapping(model, JSON.parse(JSON.stringify(mapping)))).toEqual(mapping);
  });

  it('are absent when not given, and a complete mapping needs neither', () => {
    const mapping = resolveMapping(model);
    expect(Object.keys(mapping.entitySets.Orders)).toEqual(['table', 'columns']);
    expect(validateMapping(model, mapping)).toEqual(mapping);
  });

  it.each([
    [{ storeGenerated: { ID: 'sequence' } }, "EntitySet 'Orders' / storeGenerated 'ID': 'sequence' is not one of 'identity', 'computed', 'default'."],
    [{ storeGenerated: { Id: 'identity' } }, "EntitySet 'Orders' / storeGenerated: 'Id' is not a property path of the set. Did you mean 'ID'?"],
    [{ storeGenerated: ['ID'] }, "EntitySet 'Orders': 'storeGenerated' must be an object."],
    [{ columnTypes: { Status: 'text; drop table x' } }, "EntitySet 'Orders' / columnTypes 'Status': 'text; drop table x' is not an SQL type name."],
    [{ columnTypes: { Status: "text default 'x'" } }, "EntitySet 'Orders' / columnTypes 'Status': 'text default 'x'' is not an SQL type name."],
    [{ columnTypes: { Status: 'text -- comment' } }, "EntitySet 'Orders' / columnTypes 'Status': 'text -- comment' is not an SQL type name."],
    [{ columnTypes: { Status: '' } }, "EntitySet 'Orders' / columnTypes 'Status': must be a non-empty string."],
  ])('refuses %j', (overrides, problem) => {
    // As a mapping.json written by hand holds them: not typed.
    const fromJson = JSON.parse(JSON.stringify({ entitySets: { Orders: overrides } })) as SqlMappingOverrides;
    expect(problemsOf(() => resolveMapping(model, fromJson))).toEqual([problem]);
  });

  it.each(['integer[]', 'numeric(10,2)', 'time(3) without time zone', '"char"', 'public."mood"[]', 'character varying(20)', 'bit varying(8)'])(
    'accepts the type name %s',
    (type) => {
      expect(resolveMapping(model, { entitySets: { Orders: { columnTypes: { Status: type } } } }).entitySets.Orders.columnTypes).toEqual({ Status: type });
    },
  );
});
