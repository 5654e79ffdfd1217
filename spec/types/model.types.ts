/** defineModel literals (single schema and full model), loadEdmx/readEdmx/writeEdmx, the built EdmModel. */
import {
  buildModel,
  defineModel,
  loadEdmx,
  readEdmx,
  writeEdmx,
  type AssociationEndDefinition,
  type EdmModel,
  type EntityTypeDefinition,
  type ModelDefinition,
} from 'express-odata-v2';
import { expectType } from './expect.types';

const model = defineModel({
  namespace: 'ODataDemo',
  entityTypes: [
    {
      name: 'Product',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', nullable: false },
        { name: 'Name', type: 'Edm.String', maxLength: 100, feedCustomization: { targetPath: 'SyndicationTitle', keepInContent: false } },
        { name: 'Price', type: 'Edm.Decimal', precision: 10, scale: 2, nullable: false, defaultValue: '0' },
        { name: 'Version', type: 'Edm.Int32', concurrencyMode: 'Fixed' },
      ],
      navigationProperties: [{ name: 'Category', relationship: 'ODataDemo.Product_Category', fromRole: 'Product', toRole: 'Category' }],
    },
    { name: 'Category', key: ['ID'], properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }] },
  ],
  associations: [
    {
      name: 'Product_Category',
      ends: [
        { role: 'Product', type: 'ODataDemo.Product', multiplicity: '*' },
        { role: 'Category', type: 'ODataDemo.Category', multiplicity: '0..1', onDelete: 'None' },
      ],
    },
  ],
  entityContainers: [
    {
      name: 'DemoService',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Products', entityType: 'ODataDemo.Product' },
        { name: 'Categories', entityType: 'ODataDemo.Category' },
      ],
      associationSets: [
        {
          name: 'Products_Category',
          association: 'ODataDemo.Product_Category',
          ends: [
            { role: 'Product', entitySet: 'Products' },
            { role: 'Category', entitySet: 'Categories' },
          ],
        },
      ],
    },
  ],
});
expectType<EdmModel>()(model);

// The built model is typed and read-only.
const products = model.entitySets.get('Products');
if (products !== undefined) {
  expectType<string>()(products.entityType.name);
  // @ts-expect-error: the model is immutable
  products.name = 'Items';
}

const definition: ModelDefinition = { schemas: [{ namespace: 'A', entityTypes: [] }] };
expectType<EdmModel>()(buildModel(definition));
expectType<EdmModel>()(loadEdmx('<edmx:Edmx/>'));
expectType<string>()(writeEdmx(model));
readEdmx('<edmx:Edmx/>');

// @ts-expect-error: key is a list of property names
const badKey: EntityTypeDefinition = { name: 'P', key: 'ID' };
// @ts-expect-error: nullable is a boolean
defineModel({ namespace: 'A', entityTypes: [{ name: 'P', properties: [{ name: 'ID', type: 'Edm.Int32', nullable: 'false' }] }] });
// @ts-expect-error: multiplicity is '0..1', '1' or '*'
const badEnd: AssociationEndDefinition = { role: 'A', type: 'A.P', multiplicity: 'many' };
// @ts-expect-error: an association has exactly two ends
defineModel({ namespace: 'A', associations: [{ name: 'X', ends: [{ role: 'A', type: 'A.P', multiplicity: '1' }] }] });
// @ts-expect-error: unknown member of a property definition
defineModel({ namespace: 'A', entityTypes: [{ name: 'P', properties: [{ name: 'ID', type: 'Edm.Int32', required: true }] }] });
void badKey;
void badEnd;
