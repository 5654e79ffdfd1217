/**
 * Vocabulary annotations (`<Annotations Target>` in the OASIS namespace) and `edmx:Reference` in a
 * V2 document: each case is read into its definition, written back byte for byte (the documents
 * below are in the writer's layout, so they are their own golden bytes), and built from the
 * definition by defineModel to the same bytes. Then what the reader refuses (with the element's
 * line), and what the validator refuses (a Target that names nothing first of all).
 */
import { defineModel, loadEdmx, readEdmx, writeEdmx, type ModelDefinition, type VocabularyAnnotations } from '../../lib/edm';
import { catchODataError } from '../helpers/odata-error';

const OASIS_EDM = 'http://docs.oasis-open.org/odata/ns/edm';

const SCHEMA: ModelDefinition['schemas'][number] = {
  namespace: 'NS',
  alias: 'A',
  csdlNamespace: 'http://schemas.microsoft.com/ado/2008/09/edm',
  entityTypes: [
    {
      name: 'T',
      key: ['Id'],
      properties: [
        { name: 'Id', type: 'Edm.Int32', nullable: false },
        { name: 'Name', type: 'Edm.String' },
        { name: 'Address', type: 'NS.Address', nullable: false },
      ],
    },
  ],
  complexTypes: [{ name: 'Address', properties: [{ name: 'City', type: 'Edm.String' }] }],
  entityContainers: [
    {
      name: 'C',
      isDefaultEntityContainer: true,
      entitySets: [{ name: 'Ts', entityType: 'NS.T' }],
      functionImports: [{ name: 'Find', returnType: 'Collection(NS.T)', entitySet: 'Ts', parameters: [{ name: 'text', type: 'Edm.String' }] }],
    },
  ],
};

const REFERENCE_LINES = [
  '  <edmx:Reference Uri="https://sap.github.io/odata-vocabularies/vocabularies/UI.xml" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">',
  '    <edmx:Include Namespace="com.sap.vocabularies.UI.v1" Alias="UI" />',
  '  </edmx:Reference>',
];

/** The whole document around some `<Annotations>` lines (indented as the writer indents them). */
function documentWith(annotationLines: readonly string[], referenceLines: readonly string[] = REFERENCE_LINES): string {
  return [
    '<?xml version="1.0" encoding="utf-8" standalone="yes"?>',
    '<edmx:Edmx Version="1.0" xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx">',
    ...referenceLines,
    '  <edmx:DataServices xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata" m:DataServiceVersion="1.0">',
    '    <Schema Namespace="NS" Alias="A" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns="http://schemas.microsoft.com/ado/2008/09/edm">',
    '      <EntityType Name="T">',
    '        <Key>',
    '          <PropertyRef Name="Id" />',
    '        </Key>',
    '        <Property Name="Id" Type="Edm.Int32" Nullable="false" />',
    '        <Property Name="Name" Type="Edm.String" />',
    '        <Property Name="Address" Type="NS.Address" Nullable="false" />',
    '      </EntityType>',
    '      <ComplexType Name="Address">',
    '        <Property Name="City" Type="Edm.String" />',
    '      </ComplexType>',
    '      <EntityContainer Name="C" m:IsDefaultEntityContainer="true">',
    '        <EntitySet Name="Ts" EntityType="NS.T" />',
    '        <FunctionImport Name="Find" EntitySet="Ts" ReturnType="Collection(NS.T)">',
    '          <Parameter Name="text" Type="Edm.String" />',
    '        </FunctionImport>',
    '      </EntityContainer>',
    ...annotationLines.map((line) => `      ${line}`),
    '    </Schema>',
    '  </edmx:DataServices>',
    '</edmx:Edmx>',
  ].join('\n');
}

const UI_REFERENCE = {
  uri: 'https://sap.github.io/odata-vocabularies/vocabularies/UI.xml',
  includes: [{ namespace: 'com.sap.vocabularies.UI.v1', alias: 'UI' }],
};

const OPEN = `<Annotations Target="NS.T" xmlns="${OASIS_EDM}">`;

const CASES: readonly (readonly [string, readonly string[], VocabularyAnnotations])[] = [
  [
    'a line item: a collection of records, attribute and element notation',
    [
      OPEN,
      '  <Annotation Term="UI.LineItem">',
      '    <Collection>',
      '      <Record Type="UI.DataField">',
      '        <PropertyValue Property="Value" Path="Id" />',
      '      </Record>',
      '      <Record Type="UI.DataField">',
      '        <PropertyValue Property="Value">',
      '          <Path>Name</Path>',
      '        </PropertyValue>',
      '        <PropertyValue Property="Label" String="The name" />',
      '      </Record>',
      '    </Collection>',
      '  </Annotation>',
      '</Annotations>',
    ],
    {
      target: 'NS.T',
      annotations: [
        {
          term: 'UI.LineItem',
          value: {
            kind: 'Collection',
            items: [
              { kind: 'Record', type: 'UI.DataField', propertyValues: [{ property: 'Value', value: { kind: 'Path', value: 'Id' } }] },
              {
                kind: 'Record',
                type: 'UI.DataField',
                propertyValues: [
                  { property: 'Value', value: { kind: 'Path', value: 'Name', notation: 'element' } },
                  { property: 'Label', value: { kind: 'String', value: 'The name' } },
                ],
              },
            ],
          },
        },
      ],
    },
  ],
  [
    'a tag without a value, a string kept with its spaces, an empty path, a qualifier',
    [
      OPEN,
      '  <Annotation Term="UI.Hidden" />',
      '  <Annotation Term="Common.Label">',
      '    <String>  spaced  </String>',
      '  </Annotation>',
      '  <Annotation Term="UI.SelectionFields" Qualifier="Small">',
      '    <Collection>',
      '      <PropertyPath>Name</PropertyPath>',
      '      <PropertyPath />',
      '    </Collection>',
      '  </Annotation>',
      '</Annotations>',
    ],
    {
      target: 'NS.T',
      annotations: [
        { term: 'UI.Hidden' },
        { term: 'Common.Label', value: { kind: 'String', value: '  spaced  ', notation: 'element' } },
        {
          term: 'UI.SelectionFields',
          qualifier: 'Small',
          value: {
            kind: 'Collection',
            items: [
              { kind: 'PropertyPath', value: 'Name' },
              { kind: 'PropertyPath', value: '' },
            ],
          },
        },
      ],
    },
  ],
  [
    'an annotation of an annotation, a null, a group qualifier, a property target',
    [
      `<Annotations Target="NS.T/Name" Qualifier="q" xmlns="${OASIS_EDM}">`,
      '  <Annotation Term="Common.Text" Path="Name">',
      '    <Annotation Term="UI.TextArrangement" EnumMember="UI.TextArrangementType/TextFirst" />',
      '  </Annotation>',
      '  <Annotation Term="X.Y">',
      '    <Null />',
      '  </Annotation>',
      '</Annotations>',
    ],
    {
      target: 'NS.T/Name',
      qualifier: 'q',
      annotations: [
        {
          term: 'Common.Text',
          value: { kind: 'Path', value: 'Name' },
          annotations: [{ term: 'UI.TextArrangement', value: { kind: 'EnumMember', value: 'UI.TextArrangementType/TextFirst' } }],
        },
        { term: 'X.Y', value: { kind: 'Null' } },
      ],
    },
  ],
  [
    'a dynamic expression kept as written, on a member of a complex property (alias-qualified target)',
    [
      `<Annotations Target="A.T/Address/City" xmlns="${OASIS_EDM}">`,
      '  <Annotation Term="UI.Criticality">',
      '    <If>',
      '      <Eq>',
      '        <Path>City</Path>',
      '        <String>Rome</String>',
      '      </Eq>',
      '      <Int>3</Int>',
      '      <Int>0</Int>',
      '    </If>',
      '  </Annotation>',
      '</Annotations>',
    ],
    {
      target: 'A.T/Address/City',
      annotations: [
        {
          term: 'UI.Criticality',
          value: {
            kind: 'Xml',
            element: {
              namespace: OASIS_EDM,
              name: 'If',
              children: [
                {
                  namespace: OASIS_EDM,
                  name: 'Eq',
                  children: [
                    { namespace: OASIS_EDM, name: 'Path', children: ['City'] },
                    { namespace: OASIS_EDM, name: 'String', children: ['Rome'] },
                  ],
                },
                { namespace: OASIS_EDM, name: 'Int', children: ['3'] },
                { namespace: OASIS_EDM, name: 'Int', children: ['0'] },
              ],
            },
          },
        },
      ],
    },
  ],
  [
    'container, entity set, function import and parameter targets; a record annotated',
    [
      `<Annotations Target="NS.C" xmlns="${OASIS_EDM}">`,
      '  <Annotation Term="Core.Description" String="The container" />',
      '</Annotations>',
      `<Annotations Target="NS.C/Ts" xmlns="${OASIS_EDM}">`,
      '  <Annotation Term="Capabilities.SearchRestrictions">',
      '    <Record>',
      '      <PropertyValue Property="Searchable" Bool="true" />',
      '      <Annotation Term="Core.Description" String="searched" />',
      '    </Record>',
      '  </Annotation>',
      '</Annotations>',
      `<Annotations Target="NS.C/Find/text" xmlns="${OASIS_EDM}">`,
      '  <Annotation Term="Common.Label" String="Text" />',
      '</Annotations>',
    ],
    {
      target: 'NS.C/Ts',
      annotations: [
        {
          term: 'Capabilities.SearchRestrictions',
          value: {
            kind: 'Record',
            propertyValues: [{ property: 'Searchable', value: { kind: 'Bool', value: 'true' } }],
            annotations: [{ term: 'Core.Description', value: { kind: 'String', value: 'searched' } }],
          },
        },
      ],
    },
  ],
];

describe('vocabulary annotations: read, written byte for byte, built from the definition', () => {
  it.each(CASES)('%s', (_name, lines, expected) => {
    const document = documentWith(lines);
    const definition = readEdmx(document);
    const groups = definition.schemas[0].vocabularyAnnotations ?? [];
    expect(groups).toContainEqual(expected);
    expect(definition.references).toEqual([UI_REFERENCE]);
    const model = loadEdmx(document);
    expect(writeEdmx(model)).toBe(document);
    expect(model.schemas[0].vocabularyAnnotations).toEqual(groups);
    expect(writeEdmx(defineModel({ schemas: [{ ...SCHEMA, vocabularyAnnotations: groups }], references: [UI_REFERENCE] }))).toBe(document);
  });

  it('reads and writes every include of a reference', () => {
    const references = [
      '  <edmx:Reference Uri="https://example.org/vocabularies/A.xml" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">',
      '    <edmx:Include Namespace="org.example.A" />',
      '    <edmx:Include Namespace="org.example.B" Alias="B" />',
      '    <edmx:IncludeAnnotations TermNamespace="org.example.A" Qualifier="Q" TargetNamespace="NS" />',
      '  </edmx:Reference>',
    ];
    const document = documentWith([], references);
    expect(readEdmx(document).references).toEqual([
      {
        uri: 'https://example.org/vocabularies/A.xml',
        includes: [{ namespace: 'org.example.A' }, { namespace: 'org.example.B', alias: 'B' }],
        includeAnnotations: [{ termNamespace: 'org.example.A', qualifier: 'Q', targetNamespace: 'NS' }],
      },
    ]);
    expect(writeEdmx(loadEdmx(document))).toBe(document);
  });
});

describe('vocabulary annotations: what the reader refuses, with the line', () => {
  it.each([
    ['an unknown attribute', '<Annotation Term="UI.Hidden" Terms="x"/>', '<Annotation> at line 8, column 40: the attribute Terms is not allowed here'],
    ['a missing Term', '<Annotation String="x"/>', '<Annotation> at line 8, column 24: the attribute Term is required'],
    ['two values', '<Annotation Term="A.B" String="x" Bool="true"/>', '<Annotation> at line 8, column 47: a value is given twice (String, Bool)'],
    [
      'a value in both notations',
      '<Annotation Term="A.B" String="x"><String>y</String></Annotation>',
      '<String> at line 8, column 42: <Annotation> has one value, and this is a second',
    ],
    ['text beside elements', '<Annotation Term="A.B">text<Record/></Annotation>', '<Annotation> at line 8, column 23: text is not allowed inside <Annotation>'],
    [
      'an element that is no expression',
      '<Annotation Term="A.B"><Strings>x</Strings></Annotation>',
      '<Strings> at line 8, column 32: <Strings> is not an annotation expression',
    ],
    [
      'an element in another namespace',
      '<Annotation Term="A.B"><x:String xmlns:x="urn:x">a</x:String></Annotation>',
      '<String> at line 8, column 49: <String> in the namespace urn:x is not allowed inside <Annotation>',
    ],
    [
      'an element inside a constant',
      '<Annotation Term="A.B"><String><Path>x</Path></String></Annotation>',
      '<Path> at line 8, column 37: <String> holds text only',
    ],
    [
      'a PropertyValue outside a record',
      '<Annotation Term="A.B"><PropertyValue Property="x" String="y"/></Annotation>',
      '<PropertyValue> at line 8, column 63: <PropertyValue> is not an annotation expression',
    ],
  ])('%s', (_name, annotation, detail) => {
    const document = [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<edmx:Edmx Version="1.0" xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx">',
      '<edmx:DataServices>',
      '<Schema Namespace="NS" xmlns="http://schemas.microsoft.com/ado/2008/09/edm">',
      '<EntityType Name="T"><Key><PropertyRef Name="Id"/></Key><Property Name="Id" Type="Edm.Int32" Nullable="false"/></EntityType>',
      '<EntityContainer Name="C"><EntitySet Name="Ts" EntityType="NS.T"/></EntityContainer>',
      `<Annotations Target="NS.T" xmlns="${OASIS_EDM}">`,
      annotation,
      '</Annotations></Schema></edmx:DataServices></edmx:Edmx>',
    ].join('\n');
    const error = catchODataError(() => readEdmx(document));
    expect([error.code, error.message]).toEqual(['EDMX_UNSUPPORTED', expect.stringContaining(detail)]);
  });

  it('refuses an edmx:Reference without Uri, and an unknown child of it', () => {
    const open = '<edmx:Edmx Version="1.0" xmlns:edmx="http://schemas.microsoft.com/ado/2007/06/edmx">';
    const rest = '<edmx:DataServices><Schema Namespace="NS" xmlns="http://schemas.microsoft.com/ado/2008/09/edm"/></edmx:DataServices></edmx:Edmx>';
    const reference = (inner: string): string => `${open}<r:Reference xmlns:r="http://docs.oasis-open.org/odata/ns/edmx"${inner}${rest}`;
    expect(catchODataError(() => readEdmx(reference('/>'))).message).toContain('the attribute Uri is required');
    expect(catchODataError(() => readEdmx(reference(' Uri="u"><r:Includes Namespace="x"/></r:Reference>'))).message).toContain(
      'edmx:Includes is not allowed inside edmx:Reference',
    );
  });
});

describe('vocabulary annotations: what the validator refuses', () => {
  const build = (groups: readonly VocabularyAnnotations[], references?: ModelDefinition['references']): string =>
    catchODataError(() => defineModel({ schemas: [{ ...SCHEMA, vocabularyAnnotations: groups }], ...(references !== undefined ? { references } : {}) }))
      .message;
  const hidden = [{ term: 'UI.Hidden' }];

  it.each([
    [
      'an unknown type',
      'NS.Tx',
      "Schema 'NS' / Annotations 'NS.Tx': Target: no type, association or entity container 'NS.Tx' in the model. Did you mean 'NS.T' or 'NS.C'?",
    ],
    ['an unknown namespace', 'Other.T', "Schema 'NS' / Annotations 'Other.T': Target: no type, association or entity container 'Other.T' in the model"],
    [
      'an unknown property',
      'NS.T/Nam',
      "Schema 'NS' / Annotations 'NS.T/Nam': Target: 'NS.T' has no property or navigation property 'Nam'. Did you mean 'Name'?",
    ],
    ['a member of a primitive property', 'NS.T/Name/x', "Target: the property 'NS.T/Name' is not of a complex type, so it has no member 'x'"],
    ['an unknown complex member', 'NS.T/Address/Town', "Target: 'NS.T/Address' has no property or navigation property 'Town'"],
    ['an unknown entity set', 'NS.C/Tx', "Target: the container 'NS.C' has no entity set, association set or function import 'Tx'. Did you mean 'Ts'?"],
    ['an unknown parameter', 'NS.C/Find/txt', "Target: 'txt' is not a parameter of 'NS.C/Find'. Did you mean 'text'?"],
  ])('a Target that names nothing: %s', (_name, target, problem) => {
    expect(build([{ target, annotations: hidden }])).toContain(problem);
  });

  it('names every other problem with its path', () => {
    const message = build(
      [
        {
          target: 'NS.T',
          qualifier: 'a b',
          annotations: [
            { term: 'Hidden' },
            {
              term: 'UI.LineItem',
              qualifier: '1x',
              value: {
                kind: 'Collection',
                items: [
                  { kind: 'Record', type: 'DataField', propertyValues: [{ property: 'Va lue', value: { kind: 'Bool', value: 'yes' } }] },
                  { kind: 'Int', value: '1.5' },
                ],
              },
            },
          ],
        },
      ],
      [{ uri: '', includes: [{ namespace: 'a..b', alias: 'NS' }] }],
    );
    expect(message.split('\n').slice(1)).toEqual([
      "Reference '': Uri must be a non-empty string",
      "Reference '' / Include 'a..b': invalid namespace",
      "Reference '' / Include 'a..b': the alias 'NS' is already used as a namespace or alias",
      "Schema 'NS' / Annotations 'NS.T': invalid Qualifier 'a b'",
      "Schema 'NS' / Annotations 'NS.T' / Annotation 'Hidden': Term must be a qualified name (Alias.Term or Namespace.Term)",
      "Schema 'NS' / Annotations 'NS.T' / Annotation 'UI.LineItem#1x': invalid Qualifier",
      "Schema 'NS' / Annotations 'NS.T' / Annotation 'UI.LineItem#1x' / Collection / Record: Type must be a qualified name",
      "Schema 'NS' / Annotations 'NS.T' / Annotation 'UI.LineItem#1x' / Collection / Record / PropertyValue 'Va lue': invalid Property name",
      "Schema 'NS' / Annotations 'NS.T' / Annotation 'UI.LineItem#1x' / Collection / Record / PropertyValue 'Va lue' / Bool: 'yes' is not true or false",
      "Schema 'NS' / Annotations 'NS.T' / Annotation 'UI.LineItem#1x' / Collection / Int: '1.5' is not an integer",
    ]);
  });
});
