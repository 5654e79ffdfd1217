/**
 * The name column of a table (lib/sql/introspect/name-column.ts): the rule table walked with
 * examples (each rule matches its own and not those of the rules after it), then the choice on
 * entity types: the strongest rule wins over column order, keys and foreign keys never count, and
 * a table without a name-like column has none (no first-string-column fallback).
 */
import { defineModel } from '../../../lib/edm';
import type { EdmEntityType, EdmProperty } from '../../../lib/edm/model';
import { NAME_RULES, nameProperty } from '../../../lib/sql/introspect/name-column';

it.each([
  [0, ['name', 'title', 'label', 'caption', 'displayname', 'fullname'], ['names', 'subtitle']],
  [1, ['categoryname', 'categorytitle'], ['productname']],
  [2, ['companyname', 'lastname', 'subtitle', 'productname'], ['namespace', 'titles']],
  [3, ['description', 'summary', 'subject'], ['descriptions', 'notes', 'street']],
])('rule %i: %s', (index, matching, others) => {
  const { matches } = NAME_RULES[index];
  expect(matching.filter((name) => !matches(name, 'category'))).toEqual([]);
  expect(others.filter((name) => matches(name, 'category'))).toEqual([]);
});

/** One entity type with string columns `columns` (after the key `ID`), `CategoryID` a foreign key when listed. */
function typeWith(name: string, columns: readonly string[]): { type: EdmEntityType; foreignKeys: Set<EdmProperty> } {
  const model = defineModel({
    namespace: 'S',
    entityTypes: [
      {
        name,
        key: ['ID'],
        properties: [
          { name: 'ID', type: 'Edm.String', nullable: false },
          ...columns.map((column) => ({ name: column, type: column === 'Count' ? 'Edm.Int32' : 'Edm.String' })),
        ],
      },
    ],
    entityContainers: [{ name: 'C', entitySets: [{ name: 'Set', entityType: `S.${name}` }] }],
  });
  const type = model.entityTypes.get(`S.${name}`);
  if (type === undefined) throw new Error('no type');
  return { type, foreignKeys: new Set(type.properties.filter((property) => property.name === 'CategoryID')) };
}

it.each([
  ['Category', ['Description', 'LastName', 'CategoryName', 'Name'], 'Name'],
  ['Category', ['Description', 'LastName', 'CategoryName'], 'CategoryName'],
  ['Employee', ['Notes', 'LastName', 'FirstName'], 'LastName'],
  ['Category', ['Street', 'Description'], 'Description'],
  ['Product', ['CategoryID', 'Status', 'Street', 'Count'], undefined],
  ['Person', ['user_name'], 'user_name'],
])('the name column of %s with %j is %s', (name, columns, expected) => {
  const { type, foreignKeys } = typeWith(name, columns);
  expect(nameProperty(type, foreignKeys)?.name).toBe(expected);
});

it('never takes a key or a foreign-key column', () => {
  const { type } = typeWith('Category', ['CategoryName']);
  expect(nameProperty(type, new Set(type.properties.filter((property) => property.name === 'CategoryName')))).toBeUndefined();
});
