import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { defineModel, loadEdmx, readEdmx, writeEdmx, type SingleSchemaDefinition } from '../../lib/edm';

const FIXTURES = join(__dirname, '..', 'fixtures');
const GOLDEN = join(__dirname, '..', 'golden', 'metadata');

/** Compare with a golden file byte for byte; `UPDATE_GOLDEN=1` rewrites it. */
function expectGolden(name: string, actual: string): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
    mkdirSync(GOLDEN, { recursive: true });
    writeFileSync(file, actual);
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}

const ITEM = { name: 'Item', key: ['Id'], properties: [{ name: 'Id', type: 'Edm.Int32', nullable: false }] };
const SMALL: SingleSchemaDefinition = {
  namespace: 'Shop',
  entityTypes: [ITEM],
  entityContainers: [{ name: 'Service', entitySets: [{ name: 'Items', entityType: 'Shop.Item' }] }],
};

describe('writeEdmx: golden documents', () => {
  it.each([
    ['odata-demo.xml', join(FIXTURES, 'odata-demo', 'metadata.xml')],
    ['kitchen-sink.xml', join(FIXTURES, 'kitchen-sink.xml')],
    ['sap-gwsample.xml', join(FIXTURES, 'sap-gwsample.xml')],
  ])('%s', (golden, fixture) => {
    expectGolden(golden, writeEdmx(loadEdmx(readFileSync(fixture, 'utf8'))));
  });

  it('writes the ODataDemo document as the reference service does, but for the repeated xmlns:m on Schema', () => {
    const original = readFileSync(join(FIXTURES, 'odata-demo', 'metadata.xml'), 'utf8');
    const written = writeEdmx(loadEdmx(original));
    const redundant = ' xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" xmlns="http://schemas.microsoft.com/ado/2007/05/edm"';
    expect(written).toBe(original.replace(redundant, ' xmlns="http://schemas.microsoft.com/ado/2007/05/edm"'));
  });
});

describe('writeEdmx: details', () => {
  it('writes a minimal model with the default CSDL namespace and version 1.0', () => {
    expect(writeEdmx(defineModel(SMALL))).toBe(
      [
        '<?xml version="1.0" encoding="utf-8" standalone="yes"?>',
        '<edmx:Edmx Version="1.0" xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx">',
        '  <edmx:DataServices xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" m:DataServiceVersion="1.0">',
        '    <Schema Namespace="Shop" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns="http://schemas.microsoft.com/ado/2007/05/edm">',
        '      <EntityType Name="Item">',
        '        <Key>',
        '          <PropertyRef Name="Id" />',
        '        </Key>',
        '        <Property Name="Id" Type="Edm.Int32" Nullable="false" />',
        '      </EntityType>',
        '      <EntityContainer Name="Service">',
        '        <EntitySet Name="Items" EntityType="Shop.Item" />',
        '      </EntityContainer>',
        '    </Schema>',
        '  </edmx:DataServices>',
        '</edmx:Edmx>',
      ].join('\n'),
    );
  });

  it('raises the CSDL namespace to 2008/01 for open types (as WCF Data Services does)', () => {
    const model = defineModel({ ...SMALL, entityTypes: [{ ...ITEM, openType: true }] });
    expect(writeEdmx(model)).toContain(
      '<Schema Namespace="Shop" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns="http://schemas.microsoft.com/ado/2008/01/edm">',
    );
  });

  it('escapes attribute values and text so that they read back unchanged', () => {
    const tricky = 'a & b &amp; "c" <d> \'e\'\n\tf\r\n';
    const model = defineModel({
      ...SMALL,
      annotationAttributes: [{ namespace: 'urn:x', prefix: 'x', name: 'label', value: tricky }],
      annotationElements: [{ namespace: 'urn:x', prefix: 'x', name: 'note', children: [tricky] }],
      documentation: { summary: tricky, longDescription: '&lt;' },
    });
    const schema = readEdmx(writeEdmx(model)).schemas[0];
    expect(schema.annotationAttributes?.[0].value).toBe(tricky);
    expect(schema.annotationElements?.[0].children).toEqual([tricky]);
    expect(schema.documentation).toEqual({ summary: tricky, longDescription: '&lt;' });
  });

  it('declares annotation namespaces on edmx:Edmx when named in namespaces, else where they are used', () => {
    const model = defineModel({
      ...SMALL,
      namespaces: { sap: 'http://www.sap.com/Protocols/SAPData' },
      annotationAttributes: [
        { namespace: 'http://www.sap.com/Protocols/SAPData', name: 'schema-version', value: '1' },
        { namespace: 'urn:unnamed', name: 'flag', value: 'on' },
        // m is bound to the metadata namespace here: it must not be rebound on a CSDL element.
        { namespace: 'urn:not-metadata', prefix: 'm', name: 'odd', value: 'x' },
      ],
      annotationElements: [
        { namespace: 'urn:default', name: 'Plain', children: [{ namespace: 'urn:default', name: 'Child' }] },
        { namespace: 'urn:p', prefix: 'sap', name: 'clash' },
      ],
    });
    const xml = writeEdmx(model);
    expect(xml).toContain(
      '<edmx:Edmx Version="1.0" xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx" xmlns:sap="http://www.sap.com/Protocols/SAPData">',
    );
    expect(xml).toContain(
      'xmlns="http://schemas.microsoft.com/ado/2007/05/edm" xmlns:ns1="urn:unnamed" xmlns:ns2="urn:not-metadata" sap:schema-version="1" ns1:flag="on" ns2:odd="x">',
    );
    expect(xml).toContain('<Plain xmlns="urn:default">');
    expect(xml).toContain('<Child />');
    // An annotation element may rebind a prefix locally: its subtree is all the writer's own.
    expect(xml).toContain('<sap:clash xmlns:sap="urn:p" />');
    const schema = readEdmx(xml).schemas[0];
    expect(schema.annotationAttributes?.map((a) => [a.namespace, a.name, a.value])).toEqual([
      ['http://www.sap.com/Protocols/SAPData', 'schema-version', '1'],
      ['urn:unnamed', 'flag', 'on'],
      ['urn:not-metadata', 'odd', 'x'],
    ]);
    expect(schema.annotationElements?.map((e) => [e.namespace, e.name])).toEqual([
      ['urn:default', 'Plain'],
      ['urn:p', 'clash'],
    ]);
  });

  it('is deterministic', () => {
    const xml = readFileSync(join(FIXTURES, 'kitchen-sink.xml'), 'utf8');
    expect(writeEdmx(loadEdmx(xml))).toBe(writeEdmx(loadEdmx(xml)));
  });
});
