/**
 * The mapping of a model to tables: the conventions (demo and Catalog models), overrides per set,
 * property, association and schema, the JSON round trip of a resolved mapping (mapping.json) and
 * its validation, and problems reported together, each naming its element.
 */
import { defineModel } from '../../lib/edm';
import { SqlMappingError } from '../../lib/sql/errors';
import { resolveMapping, validateMapping } from '../../lib/sql/mapping/resolve';
import type { SqlMapping, SqlMappingOverrides } from '../../lib/sql/mapping/types';
import { DEMO_MODEL } from '../helpers/demo';
import { CATALOG } from './provider/catalog';

function problemsOf(run: () => unknown): readonly string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof SqlMappingError) return error.problems;
    throw error;
  }
  throw new Error('expected a SqlMappingError');
}

describe('conventions', () => {
  it('the demo: a table per set, flattened complex columns, a foreign key on the many end named after its navigation property', () => {
    expect(resolveMapping(DEMO_MODEL)).toEqual({
      version: 1,
      entitySets: {
        Products: {
          table: 'Products',
          columns: {
            ID: 'ID',
            Name: 'Name',
            Description: 'Description',
            ReleaseDate: 'ReleaseDate',
            DiscontinuedDate: 'DiscontinuedDate',
            Rating: 'Rating',
            Price: 'Price',
          },
        },
        Categories: { table: 'Categories', columns: { ID: 'ID', Name: 'Name' } },
        Suppliers: {
          table: 'Suppliers',
          columns: {
            ID: 'ID',
            Name: 'Name',
            'Address/Street': 'Address_Street',
            'Address/City': 'Address_City',
            'Address/State': 'Address_State',
            'Address/ZipCode': 'Address_ZipCode',
            'Address/Country': 'Address_Country',
            Concurrency: 'Concurrency',
          },
        },
      },
      associationSets: {
        Products_Category_Categories: { kind: 'foreignKey', dependent: 'Product_Category', columns: { ID: 'Category_ID' } },
        Products_Supplier_Suppliers: { kind: 'foreignKey', dependent: 'Product_Supplier', columns: { ID: 'Supplier_ID' } },
      },
    });
  });

  it('the Catalog: constraints reuse their properties, many-to-many gets a join table, open and media types their columns', () => {
    const mapping = resolveMapping(CATALOG);
    expect(mapping.associationSets).toEqual({
      Products_Category: { kind: 'foreignKey', dependent: 'Products', columns: { ID: 'Category_ID' } },
      Categories_Parent: { kind: 'foreignKey', dependent: 'Child', columns: { ID: 'Parent_ID' } },
      Products_Tags: { kind: 'joinTable', table: 'Products_Tags', columns: { Products: { ID: 'Products_ID' }, Tags: { Code: 'Tags_Code' } } },
      Customers_Orders: { kind: 'foreignKey', dependent: 'Orders', columns: { ID: 'CustomerID' } },
      Customers_Profile: { kind: 'foreignKey', dependent: 'Profile', columns: { ID: 'CustomerID' } },
      Orders_Lines: { kind: 'foreignKey', dependent: 'Lines', columns: { ID: 'OrderID' } },
    });
    // A nullable complex property has a presence column under its own path.
    expect(mapping.entitySets.Products.columns).toMatchObject({
      Dimensions: 'Dimensions',
      'Dimensions/Width': 'Dimensions_Width',
      'Dimensions/Unit/Code': 'Dimensions_Unit_Code',
    });
    expect(mapping.entitySets.Notes.dynamicProperties).toBe('$dynamic');
    expect(mapping.entitySets.Photos.media).toEqual({ table: 'Photos_media', contentType: 'ContentType', body: 'Body' });
  });

  it('derived types share their set’s table, with a discriminator valued by qualified name', () => {
    const model = defineModel({
      namespace: 'Zoo',
      entityTypes: [
        { name: 'Animal', key: ['ID'], abstract: true, properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }] },
        { name: 'Cat', baseType: 'Zoo.Animal', properties: [{ name: 'Lives', type: 'Edm.Int32', nullable: false }] },
        { name: 'Lion', baseType: 'Zoo.Cat', properties: [{ name: 'Mane', type: 'Edm.String' }] },
      ],
      entityContainers: [{ name: 'Z', isDefaultEntityContainer: true, entitySets: [{ name: 'Animals', entityType: 'Zoo.Animal' }] }],
    });
    expect(resolveMapping(model).entitySets.Animals).toEqual({
      table: 'Animals',
      columns: { ID: 'ID', Lives: 'Lives', Mane: 'Mane' },
      discriminator: { column: '$type', values: { 'Zoo.Animal': 'Zoo.Animal', 'Zoo.Cat': 'Zoo.Cat', 'Zoo.Lion': 'Zoo.Lion' } },
    });
  });
});

describe('overrides', () => {
  it('rename tables, columns, schemas and join tables; the rest keeps its conventions', () => {
    const overrides: SqlMappingOverrides = {
      schema: 'shop',
      entitySets: {
        Products: { table: 'product', columns: { ID: 'product_id', 'Dimensions/Unit/Code': 'unit' } },
        Photos: { schema: 'media', media: { table: 'photo_bytes', body: 'bytes' } },
      },
      associationSets: {
        Products_Tags: { kind: 'joinTable', table: 'product_tag', columns: { Tags: { Code: 'tag' } } },
        Products_Category: { columns: { ID: 'category_id' } },
      },
    };
    const mapping = resolveMapping(CATALOG, overrides);
    expect(mapping.entitySets.Products).toMatchObject({
      schema: 'shop',
      table: 'product',
      columns: { ID: 'product_id', Name: 'Name', 'Dimensions/Unit/Code': 'unit' },
    });
    expect(mapping.entitySets.Photos).toMatchObject({
      schema: 'media',
      table: 'Photos',
      media: { schema: 'media', table: 'photo_bytes', contentType: 'ContentType', body: 'bytes' },
    });
    expect(mapping.associationSets.Products_Tags).toEqual({
      kind: 'joinTable',
      schema: 'shop',
      table: 'product_tag',
      columns: { Products: { ID: 'Products_ID' }, Tags: { Code: 'tag' } },
    });
    expect(mapping.associationSets.Products_Category).toEqual({ kind: 'foreignKey', dependent: 'Products', columns: { ID: 'category_id' } });
  });

  it('a one-to-many association can be stored in a join table instead', () => {
    const mapping = resolveMapping(DEMO_MODEL, { associationSets: { Products_Category_Categories: { kind: 'joinTable' } } });
    expect(mapping.associationSets.Products_Category_Categories).toEqual({
      kind: 'joinTable',
      table: 'Products_Category_Categories',
      columns: { Product_Category: { ID: 'Product_Category_ID' }, Category_Products: { ID: 'Category_Products_ID' } },
    });
  });
});

describe('a resolved mapping is plain JSON', () => {
  it.each([
    ['demo', () => resolveMapping(DEMO_MODEL)],
    ['Catalog with overrides', () => resolveMapping(CATALOG, { schema: 'shop', entitySets: { Notes: { dynamicProperties: 'extra' } } })],
  ])('%s: survives JSON, validates, and resolves to itself', (_name, make) => {
    const mapping = make();
    const saved = JSON.parse(JSON.stringify(mapping)) as unknown;
    expect(saved).toEqual(mapping);
    const model = _name === 'demo' ? DEMO_MODEL : CATALOG;
    expect(validateMapping(model, saved)).toEqual(mapping);
    expect(resolveMapping(model, mapping as SqlMappingOverrides)).toEqual(mapping);
  });
});

describe('problems, collected and named', () => {
  it('unknown sets, properties, roles and types in overrides, with suggestions', () => {
    expect(
      problemsOf(() =>
        resolveMapping(CATALOG, {
          entitySets: { Prodcts: {}, Products: { columns: { 'Dimensions/Widht': 'w' } }, Categories: { dynamicProperties: 'x' } },
          associationSets: { Products_Tags: { kind: 'joinTable', columns: { Tag: { Code: 'c' } } }, Nope: {} },
        }),
      ),
    ).toEqual([
      "The mapping names the entity set 'Prodcts', which the model does not have. Did you mean 'Products'?",
      "EntitySet 'Categories': dynamicProperties needs an open entity type; Catalog.Category is not one.",
      "EntitySet 'Products' / columns: 'Dimensions/Widht' is not a property path of Catalog.Product or its derived types. Did you mean 'Dimensions/Width', 'Dimensions/Height' or 'Dimensions'?",
      "The mapping names the association set 'Nope', which the model does not have.",
      "AssociationSet 'Products_Tags' / columns: 'Tag' is not a role of the association set. Did you mean 'Tags'?",
    ]);
  });

  it('columns that collide in a table, a foreign key toward a many end, names PostgreSQL would cut, a key column of the wrong type', () => {
    expect(
      problemsOf(() =>
        resolveMapping(CATALOG, {
          entitySets: { Products: { columns: { Name: 'Price' } }, Tags: { table: 'Products' }, Notes: { table: 'n'.repeat(64) } },
          associationSets: { Products_Category: { dependent: 'Category' }, Customers_Orders: { columns: { ID: 'Total' } } },
        }),
      ),
    ).toEqual([
      "EntitySet 'Products' / property 'Price': the column 'Price' of table 'Products' is already used by EntitySet 'Products' / property 'Name'.",
      "EntitySet 'Tags': the table 'Products' is already used by EntitySet 'Products'.",
      `EntitySet 'Notes' table: '${'n'.repeat(64)}' is longer than 63 bytes (PostgreSQL would cut it).`,
      "AssociationSet 'Products_Category': a foreign key on 'Category' would point to the many-valued end 'Products'; use kind 'joinTable' (or the other end as dependent).",
      "AssociationSet 'Customers_Orders' / columns / 'ID': the column 'Total' is the property 'Total' (Edm.Decimal), which cannot hold the key 'ID' (Edm.Int64).",
    ]);
  });

  it('a saved mapping that misses parts is refused, not completed', () => {
    const saved = JSON.parse(JSON.stringify(resolveMapping(DEMO_MODEL))) as {
      entitySets: Record<string, { columns: Record<string, string> }>;
      associationSets: Record<string, unknown>;
    };
    delete saved.entitySets.Suppliers.columns['Address/City'];
    delete saved.associationSets.Products_Supplier_Suppliers;
    saved.entitySets.Categories.columns.Color = 'Color';
    expect(problemsOf(() => validateMapping(DEMO_MODEL, saved))).toEqual([
      "EntitySet 'Categories' / columns: 'Color' is not a property path of ODataDemo.Category or its derived types.",
      "EntitySet 'Suppliers' / property 'Address/City': no column.",
      "AssociationSet 'Products_Supplier_Suppliers': not mapped.",
      "AssociationSet 'Products_Supplier_Suppliers': no kind.",
      "AssociationSet 'Products_Supplier_Suppliers': no dependent.",
      "AssociationSet 'Products_Supplier_Suppliers' / columns / 'ID': no column.",
    ]);
    expect(problemsOf(() => validateMapping(DEMO_MODEL, { ...saved, version: 2 }))[0]).toBe('The mapping has version 2; this library reads version 1.');
    expect(problemsOf(() => validateMapping(DEMO_MODEL, 'mapping.json'))[0]).toBe('The mapping must be an object.');
  });

  it('insert and etag take their choices only; etag xmin not where concurrency properties make the ETag', () => {
    expect(
      problemsOf(() =>
        resolveMapping(DEMO_MODEL, {
          entitySets: { Products: { insert: 'upsert' }, Categories: { etag: 'version' }, Suppliers: { etag: 'xmin' } },
        } as unknown as SqlMappingOverrides),
      ),
    ).toEqual([
      "EntitySet 'Products': 'insert' must be 'onConflict' or 'checked' or 'readBack'.",
      "EntitySet 'Categories': 'etag' must be 'xmin'.",
      `EntitySet 'Suppliers': etag 'xmin' on ODataDemo.Supplier, whose ConcurrencyMode="Fixed" properties make its ETag already.`,
    ]);
  });

  it('keeps insert modes other than the default and etag xmin in the resolved mapping, which validates as it is', () => {
    const mapping = resolveMapping(DEMO_MODEL, { entitySets: { Products: { insert: 'checked', etag: 'xmin' }, Categories: { insert: 'onConflict' } } });
    expect([mapping.entitySets.Products.insert, mapping.entitySets.Products.etag, mapping.entitySets.Categories.insert]).toEqual([
      'checked',
      'xmin',
      undefined,
    ]);
    expect(validateMapping(DEMO_MODEL, JSON.parse(JSON.stringify(mapping)))).toEqual(mapping);
  });

  it('the error lists every problem in its message', () => {
    const mapping: SqlMapping = resolveMapping(DEMO_MODEL);
    expect(() =>
      validateMapping(DEMO_MODEL, { ...mapping, entitySets: { ...mapping.entitySets, Products: { ...mapping.entitySets.Products, table: 'Categories' } } }),
    ).toThrow("The SQL mapping does not fit the model:\n- EntitySet 'Categories': the table 'Categories' is already used by EntitySet 'Products'.");
  });
});
