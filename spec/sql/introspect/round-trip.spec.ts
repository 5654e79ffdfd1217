/**
 * The edit loop introspection is for: introspect, write metadata.xml and mapping.json, edit both
 * by hand (rename an entity set and a property, drop a property, change a label), load them back
 * with loadEdmx and validateMapping, and serve the edited model. Serving reads no catalog: every
 * statement the database sees after the files are written is logged and checked. The files are
 * written without the Fiori annotations, whose paths a rename would have to follow too
 * (real-schema.spec.ts shows the model error a renamed target gives).
 */
import type { PGlite } from '@electric-sql/pglite';
import { loadEdmx, writeEdmx } from '../../../lib';
import { introspect, pglite, SqlMappingError, validateMapping, type PGliteLike, type SqlDatabase } from '../../../lib/sql';
import { openTestPGlite } from '../../helpers/pglite';
import { FIXTURE_DATA, FIXTURE_OPTIONS, FIXTURE_SQL } from './fixture';
import { getJson, rows, serveModel } from './support';

const PLAIN = { ...FIXTURE_OPTIONS, annotations: 'none' } as const;

let instance: PGlite;
let db: SqlDatabase;
const statements: string[] = [];

beforeAll(async () => {
  instance = await openTestPGlite();
  await instance.exec(FIXTURE_SQL + FIXTURE_DATA);
  // Every statement the library sends, for the check that serving never reads the catalog.
  const logged: PGliteLike = {
    get waitReady() {
      return instance.waitReady;
    },
    get closed() {
      return instance.closed;
    },
    query: (text, parameters, options) => {
      statements.push(text);
      return instance.query(text, parameters, options);
    },
    close: () => instance.close(),
  };
  db = pglite(logged);
}, 30_000);

afterAll(async () => {
  await db.close();
  await instance.close();
});

/** The edits a user makes to metadata.xml. */
function editMetadata(xml: string): string {
  const edited = xml
    // Rename the entity set products to Products (its association set ends too).
    .replace('<EntitySet Name="products" ', '<EntitySet Name="Products" ')
    .replace(/EntitySet="products"/g, 'EntitySet="Products"')
    // Rename products.title to ProductTitle, drop products.discontinued.
    .replace(
      '<Property Name="title" Type="Edm.String" Nullable="false" />\n        <Property Name="price"',
      '<Property Name="ProductTitle" Type="Edm.String" Nullable="false" />\n        <Property Name="price"',
    )
    .replace(/\n\s*<Property Name="discontinued" [^>]*\/>/, '')
    // Relabel customers.name.
    .replace('sap:label="Customer name"', 'sap:label="Name"');
  expect(edited.match(/EntitySet="Products"/g)).toHaveLength(2);
  expect(edited).toContain('<Property Name="ProductTitle"');
  expect(edited).not.toContain('"discontinued"');
  return edited;
}

/** The same edits in mapping.json: the renamed entries keep their table and column. */
function editMapping(json: string): string {
  const mapping = JSON.parse(json) as { entitySets: Record<string, { columns: Record<string, string> }> };
  const { products, ...others } = mapping.entitySets;
  const { title, discontinued, ...columns } = products.columns;
  expect([title, discontinued]).toEqual(['title', 'discontinued']);
  return JSON.stringify({ ...mapping, entitySets: { ...others, Products: { ...products, columns: { ...columns, ProductTitle: 'title' } } } }, null, 2);
}

it('serves a hand-edited metadata.xml with its edited mapping.json, without reading the catalog', async () => {
  const introspected = await introspect(db, PLAIN);
  const metadataXml = editMetadata(writeEdmx(introspected.model));
  const mappingJson = editMapping(JSON.stringify(introspected.mapping, null, 2));

  statements.length = 0;
  const model = loadEdmx(metadataXml);
  const mapping = validateMapping(model, JSON.parse(mappingJson));
  expect(mapping.entitySets.Products).toMatchObject({ schema: 'public', table: 'products' });
  expect(mapping.entitySets.Products.columns.ProductTitle).toBe('title');
  const server = await serveModel(model, mapping, db);
  try {
    const metadata = await fetch(`${server.url}/odata/$metadata`);
    expect(await metadata.text()).toBe(metadataXml);
    const { status, d } = await getJson(server, "Products?$filter=startswith(ProductTitle, 'P')&$expand=tags&$select=id,ProductTitle,tags/name");
    expect(status).toBe(200);
    expect(rows(d)).toEqual([{ id: 1, ProductTitle: 'Pen', tags: [{ name: 'blue' }, { name: 'red' }] }]);
    const { d: line } = await getJson(server, 'order_lines(order_id=1L,line_no=2)/product?$select=ProductTitle,price');
    expect(rows(line)).toEqual([{ ProductTitle: 'Ink', price: '2.25' }]);
    const { d: customer } = await getJson(server, 'customers(2)?$select=name');
    expect(rows(customer)).toEqual([{ name: 'Bob' }]);
  } finally {
    await server.close();
  }
  expect(statements.length).toBeGreaterThan(0);
  expect(statements.filter((text) => /pg_catalog|information_schema/i.test(text))).toEqual([]);
});

it('names the entries of a mapping.json left behind the edited metadata.xml', async () => {
  const introspected = await introspect(db, PLAIN);
  const model = loadEdmx(editMetadata(writeEdmx(introspected.model)));
  let error: unknown;
  try {
    validateMapping(model, JSON.parse(JSON.stringify(introspected.mapping)));
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(SqlMappingError);
  // The first two say what happened; the rest list what the unmapped set lacks, entry by entry.
  expect((error as SqlMappingError).problems.slice(0, 3)).toEqual([
    "The mapping names the entity set 'products', which the model does not have. Did you mean 'Products'?",
    "EntitySet 'Products': not mapped.",
    "EntitySet 'Products': no table.",
  ]);
});
