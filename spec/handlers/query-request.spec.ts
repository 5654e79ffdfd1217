/**
 * The key of an entity a provider returned: the values of its key properties, or a TypeError
 * (logged and answered 500 by the service) when the provider left one out.
 */
import { readFileSync } from 'fs';
import { resolve } from 'path';
import { loadEdmx } from '../../lib/edm';
import { keyOfEntity } from '../../lib/handlers/query-request';
import type { Entity } from '../../lib/provider/types';

const model = loadEdmx(readFileSync(resolve(__dirname, '../fixtures/odata-demo/metadata.xml'), 'utf8'));
const product = model.entitySets.get('Products')?.entityType;
if (product === undefined) throw new Error('no Products');

describe('keyOfEntity', () => {
  it('takes the key properties of the entity', () => {
    expect(keyOfEntity(product, { ID: 3, Name: 'Bread', Price: '2.5' })).toEqual({ ID: 3 });
  });

  it.each<[string, Entity]>([
    ['a missing key value', { Name: 'Bread' }],
    ['a null key value', { ID: null }],
    ['an object as key value', { ID: { value: 3 } }],
  ])('refuses an entity with %s as a provider bug', (_name, entity) => {
    expect(() => keyOfEntity(product, entity)).toThrow(
      new TypeError('The provider returned an entity of ODataDemo.Product without a primitive value for each key property (ID).'),
    );
  });
});
