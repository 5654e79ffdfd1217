import { readFileSync } from 'fs';
import { join } from 'path';
import { defineModel, writeEdmx, type EdmModel } from '../../lib/edm';

/** The complete example of docs/model.md, run as written (it is plain JavaScript inside a ts fence). */
function docsExample(): EdmModel {
  const markdown = readFileSync(join(__dirname, '..', '..', 'docs', 'model.md'), 'utf8');
  const start = markdown.indexOf("```ts\nimport { defineModel } from 'express-odata-v2';");
  const end = markdown.indexOf('```', start + 5);
  if (start < 0 || end < 0) throw new Error('the example is missing from docs/model.md');
  const body = markdown
    .slice(start + 5, end)
    .replace("import { defineModel } from 'express-odata-v2';", '')
    .replace('export const model = ', 'return ');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the docs' example as a user would paste it
  const run = new Function('defineModel', body) as (define: typeof defineModel) => EdmModel;
  return run(defineModel);
}

/** The vocabulary annotations example of docs/model.md, run as written. */
function vocabularyExample(): EdmModel {
  const markdown = readFileSync(join(__dirname, '..', '..', 'docs', 'model.md'), 'utf8');
  const start = markdown.indexOf("```ts\nimport { defineModel } from 'express-odata-v2';\n\nconst withFiori");
  const end = markdown.indexOf('```', start + 5);
  if (start < 0 || end < 0) throw new Error('the vocabulary annotations example is missing from docs/model.md');
  const body = markdown
    .slice(start + 5, end)
    .replace("import { defineModel } from 'express-odata-v2';", '')
    .replace(/ as const/g, '')
    .replace('const withFiori = ', 'return ');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- runs the docs' example as a user would paste it
  const run = new Function('defineModel', body) as (define: typeof defineModel) => EdmModel;
  return run(defineModel);
}

describe('docs/model.md', () => {
  it('its vocabulary annotations example writes a line item and the UI reference', () => {
    const xml = writeEdmx(vocabularyExample());
    expect(xml).toContain('<edmx:Include Namespace="com.sap.vocabularies.UI.v1" Alias="UI" />');
    expect(xml).toContain(
      [
        '      <Annotations Target="Shop.Product" xmlns="http://docs.oasis-open.org/odata/ns/edm">',
        '        <Annotation Term="UI.LineItem">',
        '          <Collection>',
        '            <Record Type="UI.DataField">',
        '              <PropertyValue Property="Value" Path="ID" />',
        '            </Record>',
      ].join('\n'),
    );
  });

  it('its complete example builds the model it describes', () => {
    const model = docsExample();
    expect([...model.entitySets.keys()]).toEqual(['Products', 'Categories', 'Pictures']);
    expect(model.entityTypes.get('S.Gadget')?.key.map((p) => p.name)).toEqual(['ID']);
    expect(model.entityTypes.get('Shop.Product')?.concurrencyProperties.map((p) => p.name)).toEqual(['Stamp']);
    expect(model.entityTypes.get('Shop.Picture')?.hasStream).toBe(true);
    expect(model.dataServiceVersion).toBe('2.0');
    expect(writeEdmx(model)).toContain(
      '<Property Name="Name" Type="Edm.String" MaxLength="80" m:FC_TargetPath="SyndicationTitle" m:FC_ContentKind="text" m:FC_KeepInContent="false" />',
    );
  });
});
