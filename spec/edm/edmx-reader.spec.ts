import { readFileSync } from 'fs';
import { join } from 'path';
import { isODataError } from '../../lib/errors';
import { DEFAULT_CSDL_NAMESPACE, EDMX_NAMESPACE, METADATA_NAMESPACE, loadEdmx, readEdmx, writeEdmx } from '../../lib/edm';
import { seededRandom } from '../helpers/random';
import { catchODataError } from '../helpers/odata-error';

const FIXTURES = join(__dirname, '..', 'fixtures');
const DEMO = readFileSync(join(FIXTURES, 'odata-demo', 'metadata.xml'), 'utf8');
const KITCHEN_SINK = readFileSync(join(FIXTURES, 'kitchen-sink.xml'), 'utf8');
const SAP = readFileSync(join(FIXTURES, 'sap-gwsample.xml'), 'utf8');
const SAP_NS = 'http://www.sap.com/Protocols/SAPData';
const KS_NS = 'http://example.org/kitchen-sink/annotations';

/** The code, status and message of what `fn` throws. */
function thrown(fn: () => unknown): { code: string; status: number; message: string } {
  const { code, status, message } = catchODataError(fn);
  return { code, status, message };
}

/** A minimal document around some Schema content. */
function edmx(schemaBody: string, options: { csdl?: string; dsv?: string; version?: string } = {}): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<edmx:Edmx Version="${options.version ?? '1.0'}" xmlns:edmx="${EDMX_NAMESPACE}">`,
    `<edmx:DataServices xmlns:m="${METADATA_NAMESPACE}" m:DataServiceVersion="${options.dsv ?? '1.0'}">`,
    `<Schema Namespace="NS" xmlns="${options.csdl ?? DEFAULT_CSDL_NAMESPACE}">`,
    schemaBody,
    '</Schema></edmx:DataServices></edmx:Edmx>',
  ].join('\n');
}

const VALID_BODY = [
  '<EntityType Name="T"><Key><PropertyRef Name="Id"/></Key><Property Name="Id" Type="Edm.Int32" Nullable="false"/></EntityType>',
  '<EntityContainer Name="C"><EntitySet Name="Ts" EntityType="NS.T"/></EntityContainer>',
].join('\n');

describe('readEdmx / loadEdmx: round trips', () => {
  it.each([
    ['the ODataDemo metadata', DEMO],
    ['the kitchen sink', KITCHEN_SINK],
    ['an SAP Gateway document', SAP],
  ])('%s reads back to an equal definition after writeEdmx', (_name, xml) => {
    const definition = readEdmx(xml);
    const written = writeEdmx(loadEdmx(xml));
    expect(readEdmx(written)).toEqual(definition);
    // And the writer is a fixed point from then on.
    expect(writeEdmx(loadEdmx(written))).toBe(written);
  });

  it('accepts every CSDL namespace of OData 1.0 and 2.0 and keeps it', () => {
    for (const year of ['2006/04', '2007/05', '2008/01', '2008/09']) {
      const csdl = `http://schemas.microsoft.com/ado/${year}/edm`;
      expect(readEdmx(edmx(VALID_BODY, { csdl })).schemas[0].csdlNamespace).toBe(csdl);
    }
  });

  it('ignores a byte-order mark, comments and processing instructions', () => {
    const xml = '\uFEFF' + edmx(`<!-- c --><?pi x?>${VALID_BODY}`);
    expect(loadEdmx(xml).entitySets.get('Ts')?.entityType.qualifiedName).toBe('NS.T');
  });
});

describe('readEdmx: what the ODataDemo document says', () => {
  const definition = readEdmx(DEMO);

  it('reads the schema, declared version and container', () => {
    expect(definition.dataServiceVersion).toBe('2.0');
    expect(definition.namespaces).toBeUndefined();
    const [schema] = definition.schemas;
    expect(schema.namespace).toBe('ODataDemo');
    expect(schema.csdlNamespace).toBe('http://schemas.microsoft.com/ado/2007/05/edm');
    expect(schema.entityTypes?.map((t) => t.name)).toEqual(['Product', 'Category', 'Supplier']);
    expect(schema.entityContainers?.[0]).toMatchObject({ name: 'DemoService', isDefaultEntityContainer: true });
  });

  it('reads properties with facets and feed customization', () => {
    const product = definition.schemas[0].entityTypes?.[0];
    expect(product?.key).toEqual(['ID']);
    expect(product?.properties?.[1]).toEqual({
      name: 'Name',
      type: 'Edm.String',
      nullable: true,
      feedCustomization: { targetPath: 'SyndicationTitle', contentKind: 'text', keepInContent: false },
    });
    const supplier = definition.schemas[0].entityTypes?.[2];
    expect(supplier?.properties?.[3]).toEqual({ name: 'Concurrency', type: 'Edm.Int32', nullable: false, concurrencyMode: 'Fixed' });
  });

  it('reads function imports with HttpMethod and parameters', () => {
    expect(definition.schemas[0].entityContainers?.[0].functionImports).toEqual([
      {
        name: 'GetProductsByRating',
        returnType: 'Collection(ODataDemo.Product)',
        entitySet: 'Products',
        httpMethod: 'GET',
        parameters: [{ name: 'rating', type: 'Edm.Int32', mode: 'In' }],
      },
    ]);
  });
});

describe('readEdmx: an SAP Gateway document', () => {
  const definition = readEdmx(SAP);
  const schema = definition.schemas[0];

  it('keeps the sap namespace declaration and schema attributes', () => {
    expect(definition.namespaces).toEqual({ sap: SAP_NS });
    expect(schema.annotationAttributes).toEqual([
      { namespace: 'http://www.w3.org/XML/1998/namespace', prefix: 'xml', name: 'lang', value: 'en' },
      { namespace: SAP_NS, prefix: 'sap', name: 'schema-version', value: '1' },
    ]);
  });

  it('keeps sap: attributes on properties, sets and containers', () => {
    const id = schema.entityTypes?.[0].properties?.[1];
    expect(id?.maxLength).toBe(10);
    expect(id?.annotationAttributes?.map((a) => `${a.prefix}:${a.name}=${a.value}`)).toEqual([
      'sap:unicode=false',
      'sap:label=Bus. Part. ID',
      'sap:creatable=false',
      'sap:updatable=false',
    ]);
    expect(schema.entityContainers?.[0].annotationAttributes).toEqual([
      { namespace: SAP_NS, prefix: 'sap', name: 'supported-formats', value: 'atom json xlsx' },
    ]);
  });

  it('reads edmx:Reference (the OASIS edmx namespace) and vocabulary annotations into definitions, and keeps atom:link as elements', () => {
    expect(definition.references?.[0]).toEqual({
      uri: "https://gateway.example.com/sap/opu/odata/IWFND/CATALOGSERVICE;v=2/Vocabularies(TechnicalName='%2FIWBEP%2FVOC_COMMON',Version='0001',SAPOrigin='LOCAL')/$value",
      includes: [{ namespace: 'com.sap.vocabularies.Common.v1', alias: 'Common' }],
    });
    expect(definition.annotationElements).toBeUndefined();
    expect(schema.vocabularyAnnotations?.map((group) => group.target)).toEqual([
      'GWSAMPLE_BASIC.GWSAMPLE_BASIC_Entities',
      'GWSAMPLE_BASIC.SalesOrder/CustomerID',
    ]);
    expect(schema.vocabularyAnnotations?.[1].annotations).toEqual([{ term: 'Common.Text', value: { kind: 'Path', value: 'CustomerName' } }]);
    expect(schema.annotationElements?.map((e) => `${e.prefix ?? ''}:${e.name}`)).toEqual(['atom:link', 'atom:link']);
    const model = loadEdmx(SAP);
    expect(model.dataServiceVersion).toBe('2.0');
    expect(model.entityTypes.get('GWSAMPLE_BASIC.Product')?.hasStream).toBe(true);
    expect(model.functionImports.get('SalesOrder_Confirm')?.returnType).toMatchObject({ kind: 'Entity', collection: false });
  });
});

describe('readEdmx: kitchen-sink details', () => {
  const definition = readEdmx(KITCHEN_SINK);
  const schema = definition.schemas[0];
  const type = (name: string) => schema.entityTypes?.find((t) => t.name === name);

  it('keeps Documentation, including escaped text', () => {
    expect(type('Thing')?.documentation).toEqual({
      summary: 'The root of the hierarchy.',
      longDescription: 'Every catalogued item & picture derives from it.',
    });
    expect(schema.associations?.find((a) => a.name === 'Order_Lines')?.referentialConstraint?.documentation).toEqual({
      summary: 'Lines belong to their order.',
    });
  });

  it('keeps unknown facets as extraAttributes and custom feed targets', () => {
    const product = type('Product');
    expect(product?.properties?.find((p) => p.name === 'Shape')?.extraAttributes).toEqual([{ name: 'SRID', value: '4326' }]);
    expect(product?.properties?.find((p) => p.name === 'Rating')?.feedCustomization).toEqual({
      targetPath: 'rating/@value',
      nsPrefix: 'rev',
      nsUri: 'http://example.org/reviews',
      keepInContent: true,
    });
    expect(product?.properties?.find((p) => p.name === 'Name')?.maxLength).toBe('Max');
  });

  it('keeps entity-type level m:FC_* attributes as metadata-namespace annotations', () => {
    expect(type('Photo')?.annotationAttributes?.map((a) => [a.namespace, a.prefix, a.name, a.value])).toEqual([
      [METADATA_NAMESPACE, 'm', 'FC_SourcePath', 'Caption'],
      [METADATA_NAMESPACE, 'm', 'FC_TargetPath', 'SyndicationAuthorName'],
      [METADATA_NAMESPACE, 'm', 'FC_KeepInContent', 'true'],
    ]);
  });

  it('keeps foreign elements with mixed content and edmx-level ones', () => {
    expect(schema.vocabularyAnnotations).toEqual([
      { target: 'KS.Product', annotations: [{ term: 'Core.Description', value: { kind: 'String', value: 'A product of the kitchen sink' } }] },
    ]);
    expect(schema.annotationElements?.[0]).toEqual({
      namespace: KS_NS,
      prefix: 'ks',
      name: 'note',
      attributes: [{ namespace: '', name: 'lang', value: 'en' }],
      children: ['A schema-level', { namespace: KS_NS, prefix: 'ks', name: 'em', children: ['note'] }, '.'],
    });
    expect(definition.annotationElements).toEqual([
      {
        namespace: KS_NS,
        prefix: 'ks',
        name: 'generator',
        attributes: [
          { namespace: '', name: 'name', value: 'hand' },
          { namespace: '', name: 'version', value: '1' },
        ],
      },
    ]);
    expect(definition.namespaces).toEqual({ ks: KS_NS });
  });

  it('reads OnDelete, ReferentialConstraint and the non-default container', () => {
    const association = schema.associations?.find((a) => a.name === 'Customer_Profile');
    expect(association?.ends.map((e) => [e.role, e.multiplicity, e.onDelete])).toEqual([
      ['Customer', '1', 'Cascade'],
      ['Profile', '0..1', 'None'],
    ]);
    expect(association?.referentialConstraint).toEqual({
      principal: { role: 'Customer', propertyRefs: ['Id'] },
      dependent: { role: 'Profile', propertyRefs: ['CustomerId'] },
    });
    expect(schema.entityContainers?.[1]).toMatchObject({ name: 'Archive', isDefaultEntityContainer: false });
  });
});

describe('readEdmx: malformed and unsupported documents', () => {
  const deep = `${'<ks:a xmlns:ks="urn:x">'.repeat(1)}${'<ks:a>'.repeat(120)}${'</ks:a>'.repeat(121)}`;
  it.each<[string, string, string, string]>([
    ['an empty string', '', 'EDMX_SYNTAX', 'not well-formed'],
    ['plain text', 'hello', 'EDMX_SYNTAX', 'not well-formed'],
    ['a truncated document', edmx(VALID_BODY).slice(0, 200), 'EDMX_SYNTAX', 'not well-formed'],
    ['mismatched tags', '<a><b></a></b>', 'EDMX_SYNTAX', 'not well-formed'],
    ['two root elements', '<a/><b/>', 'EDMX_SYNTAX', 'not well-formed'],
    ['an unbound prefix', edmx('<foo:bar/>'), 'EDMX_SYNTAX', 'foo'],
    ['an undefined entity', edmx('<EntityType Name="&foo;"/>'), 'EDMX_SYNTAX', 'not well-formed'],
    ['a DOCTYPE', `<!DOCTYPE edmx:Edmx>${edmx(VALID_BODY)}`, 'EDMX_UNSUPPORTED', 'DOCTYPE'],
    [
      'an entity expansion bomb',
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><lolz>&lol2;</lolz>',
      'EDMX_UNSUPPORTED',
      'DOCTYPE',
    ],
    ['an external entity', '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>&x;</a>', 'EDMX_UNSUPPORTED', 'DOCTYPE'],
    ['nesting beyond the limit', edmx(`${VALID_BODY}${deep}`), 'EDMX_UNSUPPORTED', 'deeper than 100'],
    ['a root that is not edmx:Edmx', '<Edmx Version="1.0"/>', 'EDMX_UNSUPPORTED', 'root element must be edmx:Edmx'],
    ['EDMX version 4.0', edmx(VALID_BODY, { version: '4.0' }), 'EDMX_UNSUPPORTED', 'Version="4.0"'],
    ['no DataServices', `<edmx:Edmx Version="1.0" xmlns:edmx="${EDMX_NAMESPACE}"/>`, 'EDMX_UNSUPPORTED', 'exactly one edmx:DataServices'],
    ['DataServiceVersion 3.0', edmx(VALID_BODY, { dsv: '3.0' }), 'EDMX_UNSUPPORTED', 'm:DataServiceVersion="3.0"'],
    ['a CSDL 3.0 schema', edmx(VALID_BODY, { csdl: 'http://schemas.microsoft.com/ado/2009/11/edm' }), 'EDMX_UNSUPPORTED', '2009/11'],
    ['an OData 4 schema', edmx(VALID_BODY, { csdl: 'http://docs.oasis-open.org/odata/ns/edm' }), 'EDMX_UNSUPPORTED', 'not one of OData 1.0/2.0'],
    ['a Property without Type', edmx('<EntityType Name="T">\n<Property Name="Id"/></EntityType>'), 'EDMX_UNSUPPORTED', '<Property> at line 6, column 21'],
    ['a Schema without Namespace', edmx('').replace(' Namespace="NS"', ''), 'EDMX_UNSUPPORTED', 'the attribute Namespace is required'],
    [
      'Nullable="maybe"',
      edmx('<EntityType Name="T"><Property Name="Id" Type="Edm.Int32" Nullable="maybe"/></EntityType>'),
      'EDMX_UNSUPPORTED',
      'Nullable="maybe" is not a boolean',
    ],
    ['MaxLength="-1"', edmx('<ComplexType Name="C"><Property Name="S" Type="Edm.String" MaxLength="-1"/></ComplexType>'), 'EDMX_UNSUPPORTED', 'MaxLength="-1"'],
    [
      'ConcurrencyMode="Always"',
      edmx('<ComplexType Name="C"><Property Name="S" Type="Edm.String" ConcurrencyMode="Always"/></ComplexType>'),
      'EDMX_UNSUPPORTED',
      'None, Fixed',
    ],
    [
      'FC_ContentKind="markdown"',
      edmx('<ComplexType Name="C"><Property Name="S" Type="Edm.String" m:FC_TargetPath="SyndicationTitle" m:FC_ContentKind="markdown"/></ComplexType>'),
      'EDMX_UNSUPPORTED',
      'text, html, xhtml',
    ],
    [
      'Multiplicity="2"',
      edmx('<Association Name="A"><End Role="a" Type="NS.T" Multiplicity="2"/><End Role="b" Type="NS.T" Multiplicity="*"/></Association>'),
      'EDMX_UNSUPPORTED',
      'Multiplicity="2"',
    ],
    [
      'an Association with one End',
      edmx('<Association Name="A"><End Role="a" Type="NS.T" Multiplicity="1"/></Association>'),
      'EDMX_UNSUPPORTED',
      'exactly two <End>',
    ],
    [
      'OnDelete Action="Restrict"',
      edmx(
        '<Association Name="A"><End Role="a" Type="NS.T" Multiplicity="1"><OnDelete Action="Restrict"/></End><End Role="b" Type="NS.T" Multiplicity="*"/></Association>',
      ),
      'EDMX_UNSUPPORTED',
      'Cascade, None',
    ],
    ['an EnumType (CSDL 3.0)', edmx('<EnumType Name="E"/>'), 'EDMX_UNSUPPORTED', 'a <EnumType> element is not supported inside <Schema>'],
    ['complex type inheritance', edmx('<ComplexType Name="C" BaseType="NS.B"/>'), 'EDMX_UNSUPPORTED', 'complex type inheritance'],
    [
      'm:HttpMethod="PATCH"',
      edmx('<EntityContainer Name="C"><FunctionImport Name="F" m:HttpMethod="PATCH"/></EntityContainer>'),
      'EDMX_UNSUPPORTED',
      'GET, POST, PUT, MERGE, DELETE',
    ],
    [
      'Parameter Mode="Both"',
      edmx('<EntityContainer Name="C"><FunctionImport Name="F"><Parameter Name="p" Type="Edm.Int32" Mode="Both"/></FunctionImport></EntityContainer>'),
      'EDMX_UNSUPPORTED',
      'In, Out, InOut',
    ],
  ])('%s', (_name, xml, code, fragment) => {
    const error = thrown(() => readEdmx(xml));
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    expect(error.message).toContain(fragment);
  });

  it('refuses a value that is not a string', () => {
    expect(thrown(() => readEdmx(42 as unknown as string)).code).toBe('EDMX_UNSUPPORTED');
  });

  it('leaves semantic problems to the validator (loadEdmx throws MODEL_INVALID)', () => {
    const xml = edmx('<EntityType Name="T"><Key><PropertyRef Name="Nope"/></Key></EntityType><EntityContainer Name="C"/>');
    expect(() => readEdmx(xml)).not.toThrow();
    const error = thrown(() => loadEdmx(xml));
    expect(error.code).toBe('MODEL_INVALID');
    expect(error.message).toBe("The model is invalid:\nEntityType 'NS.T' / Key: property 'Nope' not found");
  });
});

describe('loadEdmx: totality', () => {
  const random = seededRandom;

  /** Loading ends in a model or an ODataError: a 400 for the document, MODEL_INVALID for its meaning. */
  function expectTotal(xml: string): void {
    try {
      loadEdmx(xml);
    } catch (error) {
      if (!isODataError(error)) throw error;
      expect(error.code === 'MODEL_INVALID' || error.status === 400).toBe(true);
    }
  }

  it('survives every truncation of a document', () => {
    for (let end = 0; end < KITCHEN_SINK.length; end += 61) expectTotal(KITCHEN_SINK.slice(0, end));
  });

  it('survives random single-character damage', () => {
    const next = random(20240607);
    const damage = ['<', '>', '"', '&', '/', ' ', 'x', ''];
    for (let i = 0; i < 400; i++) {
      const at = Math.floor(next() * SAP.length);
      const replacement = damage[Math.floor(next() * damage.length)];
      expectTotal(SAP.slice(0, at) + replacement + SAP.slice(at + 1));
    }
  });
});
