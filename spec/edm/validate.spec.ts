import { isODataError } from '../../lib/errors';
import { buildModel, collectModelErrors, type ModelDefinition } from '../../lib/edm';

/** A writable, string-typed copy of a definition, so a row can break it in any way. */
type Loose<T> = T extends string ? string : T extends readonly (infer U)[] ? Loose<U>[] : T extends object ? { -readonly [K in keyof T]: Loose<T[K]> } : T;
type Draft = Loose<ModelDefinition>;

const BASE: ModelDefinition = {
  schemas: [
    {
      namespace: 'ODataDemo',
      alias: 'Demo',
      entityTypes: [
        {
          name: 'Product',
          key: ['ID'],
          properties: [
            { name: 'ID', type: 'Edm.Int32', nullable: false },
            { name: 'Name', type: 'Edm.String', maxLength: 40 },
            { name: 'Address', type: 'ODataDemo.Address' },
          ],
          navigationProperties: [{ name: 'Category', relationship: 'ODataDemo.Product_Category', fromRole: 'Product', toRole: 'Category' }],
        },
        {
          name: 'Category',
          key: ['ID'],
          properties: [{ name: 'ID', type: 'Edm.Int32', nullable: false }],
          navigationProperties: [{ name: 'Products', relationship: 'Demo.Product_Category', fromRole: 'Category', toRole: 'Product' }],
        },
        { name: 'Special', baseType: 'Demo.Product', properties: [{ name: 'Extra', type: 'Edm.String' }] },
      ],
      complexTypes: [{ name: 'Address', properties: [{ name: 'Street', type: 'Edm.String' }] }],
      associations: [
        {
          name: 'Product_Category',
          ends: [
            { role: 'Product', type: 'ODataDemo.Product', multiplicity: '*' },
            { role: 'Category', type: 'ODataDemo.Category', multiplicity: '0..1' },
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
          functionImports: [
            {
              name: 'Top',
              returnType: 'Collection(ODataDemo.Product)',
              entitySet: 'Products',
              httpMethod: 'GET',
              parameters: [{ name: 'n', type: 'Edm.Int32', mode: 'In' }],
            },
          ],
        },
      ],
    },
  ],
};

/** BASE with one change applied. */
function broken(change: (draft: Draft) => void): ModelDefinition {
  const draft = structuredClone(BASE) as unknown as Draft;
  change(draft);
  return draft as unknown as ModelDefinition;
}

/** Shorthands into the draft (the fixture above guarantees these exist). */
const schema = (d: Draft) => d.schemas[0];
const type = (d: Draft, name: string) => {
  const found = schema(d).entityTypes?.find((t) => t.name === name);
  if (found === undefined) throw new Error(name);
  return found;
};
const prop = (d: Draft, typeName: string, name: string) => {
  const found = type(d, typeName).properties?.find((p) => p.name === name);
  if (found === undefined) throw new Error(name);
  return found;
};
const association = (d: Draft) => (schema(d).associations ?? [])[0];
const container = (d: Draft) => (schema(d).entityContainers ?? [])[0];
const functionImport = (d: Draft) => (container(d).functionImports ?? [])[0];

const P = "EntityType 'ODataDemo.Product'";
const A = "Association 'ODataDemo.Product_Category'";
const C = "EntityContainer 'DemoService'";

describe('collectModelErrors', () => {
  it('finds nothing wrong with the base definition', () => {
    expect(collectModelErrors(BASE)).toEqual([]);
  });

  it.each<[string, (d: Draft) => void, string[]]>([
    // --- keys ---
    ['a root type without a key', (d) => (type(d, 'Category').key = []), ["EntityType 'ODataDemo.Category' / Key: a root entity type must declare a key"]],
    ['a key naming no property', (d) => (type(d, 'Product').key = ['Id']), [`${P} / Key: property 'Id' not found. Did you mean 'ID'?`]],
    ['a nullable key property', (d) => (prop(d, 'Product', 'ID').nullable = true), [`${P} / Key: property 'ID' must not be nullable`]],
    [
      'a complex key property',
      (d) => (type(d, 'Product').key = ['ID', 'Address']),
      [`${P} / Key: property 'Address' is of type 'ODataDemo.Address'; key properties must be primitive`],
    ],
    ['a key property listed twice', (d) => (type(d, 'Product').key = ['ID', 'ID']), [`${P} / Key: property 'ID' is listed twice`]],
    [
      'a derived type with its own key',
      (d) => (type(d, 'Special').key = ['Extra']),
      ["EntityType 'ODataDemo.Special' / Key: a derived entity type inherits its key and must not declare one"],
    ],
    // --- types and properties ---
    [
      'an unknown property type',
      (d) => (prop(d, 'Product', 'Name').type = 'Edm.Strin'),
      [`${P} / Property 'Name': unknown type 'Edm.Strin'. Did you mean 'Edm.String'?`],
    ],
    [
      'an entity type as property type',
      (d) => (prop(d, 'Product', 'Address').type = 'Demo.Category'),
      [`${P} / Property 'Address': 'Demo.Category' is an entity type; use a NavigationProperty`],
    ],
    [
      'a collection property',
      (d) => (prop(d, 'Product', 'Name').type = 'Collection(Edm.String)'),
      [`${P} / Property 'Name': collection properties are not part of OData 2.0`],
    ],
    ['a duplicate property', (d) => (prop(d, 'Product', 'Address').name = 'Name'), [`${P} / Property 'Name': duplicate name`]],
    [
      'a property clashing with an inherited one',
      (d) => (prop(d, 'Special', 'Extra').name = 'Name'),
      ["EntityType 'ODataDemo.Special' / Property 'Name': clashes with the member inherited from 'ODataDemo.Product'"],
    ],
    [
      'a navigation property clashing with an inherited one',
      (d) => (type(d, 'Special').navigationProperties = [{ name: 'Category', relationship: 'Demo.Product_Category', fromRole: 'Product', toRole: 'Category' }]),
      ["EntityType 'ODataDemo.Special' / NavigationProperty 'Category': clashes with the member inherited from 'ODataDemo.Product'"],
    ],
    [
      'a navigation property named like a property',
      (d) => ((type(d, 'Category').navigationProperties ?? [])[0].name = 'ID'),
      ["EntityType 'ODataDemo.Category' / NavigationProperty 'ID': duplicate name"],
    ],
    ['an invalid name', (d) => (prop(d, 'Product', 'Name').name = 'Full Name'), [`${P} / Property 'Full Name': invalid name`]],
    [
      'two types with one name',
      (d) => schema(d).complexTypes?.push({ name: 'Product' }),
      ["ComplexType 'ODataDemo.Product': duplicate name, already used by EntityType 'ODataDemo.Product'"],
    ],
    [
      'a complex type that contains itself',
      (d) => schema(d).complexTypes?.[0].properties?.push({ name: 'Next', type: 'Demo.Address' }),
      ["ComplexType 'ODataDemo.Address' / Property 'Next': the complex type contains itself"],
    ],
    [
      'an unknown base type',
      (d) => (type(d, 'Special').baseType = 'ODataDemo.Prod'),
      ["EntityType 'ODataDemo.Special' / BaseType: entity type 'ODataDemo.Prod' not found. Did you mean 'ODataDemo.Product'?"],
    ],
    [
      'a base type cycle',
      (d) => {
        type(d, 'Product').baseType = 'ODataDemo.Special';
        delete type(d, 'Product').key;
      },
      [`${P} / BaseType: inheritance cycle ODataDemo.Product -> ODataDemo.Special -> ODataDemo.Product`],
    ],
    // --- facets ---
    ['MaxLength on Int32', (d) => (prop(d, 'Product', 'ID').maxLength = 10), [`${P} / Property 'ID': facet MaxLength does not apply to Edm.Int32`]],
    ['Precision on String', (d) => (prop(d, 'Product', 'Name').precision = 3), [`${P} / Property 'Name': facet Precision does not apply to Edm.String`]],
    [
      'Scale beyond Precision',
      (d) => type(d, 'Category').properties?.push({ name: 'Price', type: 'Edm.Decimal', precision: 4, scale: 6 }),
      ["EntityType 'ODataDemo.Category' / Property 'Price': Scale 6 exceeds Precision 4"],
    ],
    ['MaxLength zero', (d) => (prop(d, 'Product', 'Name').maxLength = 0), [`${P} / Property 'Name': MaxLength must be a positive integer or 'Max', got '0'`]],
    [
      'a default that is no Int32',
      (d) => (prop(d, 'Product', 'ID').defaultValue = 'abc'),
      [`${P} / Property 'ID': DefaultValue 'abc' is not a valid Edm.Int32 value`],
    ],
    [
      'a default out of range',
      (d) => type(d, 'Category').properties?.push({ name: 'Level', type: 'Edm.Byte', defaultValue: '256' }),
      ["EntityType 'ODataDemo.Category' / Property 'Level': DefaultValue '256' is out of range for Edm.Byte"],
    ],
    [
      'an Int64 default out of range',
      (d) => type(d, 'Category').properties?.push({ name: 'Serial', type: 'Edm.Int64', defaultValue: '9223372036854775808' }),
      ["EntityType 'ODataDemo.Category' / Property 'Serial': DefaultValue '9223372036854775808' is out of range for Edm.Int64"],
    ],
    [
      'a default longer than MaxLength',
      (d) => Object.assign(prop(d, 'Product', 'Name'), { maxLength: 2, defaultValue: 'abc' }),
      [`${P} / Property 'Name': DefaultValue 'abc' is longer than MaxLength 2`],
    ],
    [
      'facets on a complex property',
      (d) => (prop(d, 'Product', 'Address').maxLength = 2),
      [`${P} / Property 'Address': facets maxLength do not apply to a complex type`],
    ],
    [
      'ConcurrencyMode on a complex property',
      (d) => (prop(d, 'Product', 'Address').concurrencyMode = 'Fixed'),
      [`${P} / Property 'Address': ConcurrencyMode Fixed applies to primitive properties only`],
    ],
    [
      'a bad ConcurrencyMode',
      (d) => (prop(d, 'Product', 'Name').concurrencyMode = 'Always'),
      [`${P} / Property 'Name': ConcurrencyMode must be None or Fixed, got 'Always'`],
    ],
    [
      'a custom feed target without namespace',
      (d) => (prop(d, 'Product', 'Name').feedCustomization = { targetPath: 'title' }),
      [`${P} / Property 'Name': the custom target 'title' needs m:FC_NsUri`],
    ],
    [
      'an unknown Atom target',
      (d) => (prop(d, 'Product', 'Name').feedCustomization = { targetPath: 'SyndicationHeadline' }),
      [`${P} / Property 'Name': unknown Atom target 'SyndicationHeadline'`],
    ],
    // --- navigation and associations ---
    [
      'a dangling association',
      (d) => ((type(d, 'Product').navigationProperties ?? [])[0].relationship = 'ODataDemo.Nope'),
      [`${P} / NavigationProperty 'Category': association 'ODataDemo.Nope' not found`],
    ],
    [
      'swapped roles',
      (d) => {
        const nav = (type(d, 'Product').navigationProperties ?? [])[0];
        nav.fromRole = 'Category';
        nav.toRole = 'Product';
      },
      [`${P} / NavigationProperty 'Category': FromRole 'Category' is played by 'ODataDemo.Category', not by 'ODataDemo.Product' or one of its base types`],
    ],
    [
      'an unknown ToRole',
      (d) => ((type(d, 'Product').navigationProperties ?? [])[0].toRole = 'Categori'),
      [`${P} / NavigationProperty 'Category': ToRole 'Categori' is not a role of association 'ODataDemo.Product_Category'. Did you mean 'Category'?`],
    ],
    [
      'FromRole equal to ToRole',
      (d) => ((type(d, 'Product').navigationProperties ?? [])[0].toRole = 'Product'),
      [`${P} / NavigationProperty 'Category': FromRole and ToRole must be different roles`],
    ],
    [
      'an end of unknown type',
      (d) => (association(d).ends[1].type = 'ODataDemo.Categ'),
      [`${A} / End 'Category': entity type 'ODataDemo.Categ' not found. Did you mean 'ODataDemo.Category'?`],
    ],
    ['an invalid multiplicity', (d) => (association(d).ends[0].multiplicity = '2'), [`${A} / End 'Product': invalid multiplicity '2' (use 0..1, 1 or *)`]],
    [
      'two ends with one role',
      (d) => (association(d).ends[1].role = 'Product'),
      [
        `${A}: both ends have the role 'Product'`,
        `EntityType 'ODataDemo.Category' / NavigationProperty 'Products': FromRole 'Category' is not a role of association 'ODataDemo.Product_Category'`,
        `${P} / NavigationProperty 'Category': ToRole 'Category' is not a role of association 'ODataDemo.Product_Category'`,
        `${C} / AssociationSet 'Products_Category': the ends ('Product', 'Category') must name the two roles of 'ODataDemo.Product_Category' ('Product', 'Product')`,
      ].sort(),
    ],
    [
      'OnDelete Cascade on a many end',
      (d) => (association(d).ends[0].onDelete = 'Cascade'),
      [`${A} / End 'Product': OnDelete Cascade is not allowed on an end with multiplicity *`],
    ],
    [
      'a referential constraint that does not use the key',
      (d) =>
        (association(d).referentialConstraint = {
          principal: { role: 'Category', propertyRefs: ['Name'] },
          dependent: { role: 'Product', propertyRefs: ['CategoryID'] },
        }),
      [
        `${A} / ReferentialConstraint: the Principal properties (Name) must be the key of 'ODataDemo.Category' (ID)`,
        `${A} / ReferentialConstraint: Dependent property 'CategoryID' not found on 'ODataDemo.Product'`,
      ],
    ],
    [
      'a referential constraint with a many principal',
      (d) =>
        (association(d).referentialConstraint = {
          principal: { role: 'Product', propertyRefs: ['ID'] },
          dependent: { role: 'Category', propertyRefs: ['ID'] },
        }),
      [`${A} / ReferentialConstraint: the Principal end must have multiplicity 1 or 0..1`],
    ],
    // --- containers ---
    [
      'a duplicate entity set',
      (d) => ((container(d).entitySets ?? [])[1].name = 'Products'),
      [
        `${C} / EntitySet 'Products': duplicate name in the container`,
        `${C} / AssociationSet 'Products_Category' / End 'Category': entity set 'Categories' not found`,
      ],
    ],
    ['a function import named like a set', (d) => (functionImport(d).name = 'Products'), [`${C} / FunctionImport 'Products': duplicate name in the container`]],
    [
      'an entity set of unknown type',
      (d) => ((container(d).entitySets ?? [])[1].entityType = 'ODataDemo.Categry'),
      [`${C} / EntitySet 'Categories': entity type 'ODataDemo.Categry' not found. Did you mean 'ODataDemo.Category'?`],
    ],
    [
      'association set ends that do not match',
      (d) => ((container(d).associationSets ?? [])[0].ends[1].role = 'Nope'),
      [
        `${C} / AssociationSet 'Products_Category': the ends ('Product', 'Nope') must name the two roles of 'ODataDemo.Product_Category' ('Product', 'Category')`,
      ],
    ],
    [
      'an association set end in an unknown set',
      (d) => ((container(d).associationSets ?? [])[0].ends[1].entitySet = 'Cats'),
      [`${C} / AssociationSet 'Products_Category' / End 'Category': entity set 'Cats' not found`],
    ],
    [
      'an association set of unknown association',
      (d) => ((container(d).associationSets ?? [])[0].association = 'Demo.Nope'),
      [`${C} / AssociationSet 'Products_Category': association 'Demo.Nope' not found`],
    ],
    [
      'a function import with an unknown set',
      (d) => (functionImport(d).entitySet = 'Product'),
      [`${C} / FunctionImport 'Top': entity set 'Product' not found. Did you mean 'Products'?`],
    ],
    [
      'an entity result without a set',
      (d) => delete functionImport(d).entitySet,
      [`${C} / FunctionImport 'Top': returns entities of 'ODataDemo.Product' but names no EntitySet`],
    ],
    [
      'an entity result in a set of another type',
      (d) => (functionImport(d).entitySet = 'Categories'),
      [`${C} / FunctionImport 'Top': entity set 'Categories' holds 'ODataDemo.Category', not 'ODataDemo.Product'`],
    ],
    [
      'an unknown return type',
      (d) => (functionImport(d).returnType = 'Collection(Other.Thing)'),
      [`${C} / FunctionImport 'Top': unknown return type 'Collection(Other.Thing)'`],
    ],
    [
      'a set for a primitive result',
      (d) => (functionImport(d).returnType = 'Edm.Int32'),
      [`${C} / FunctionImport 'Top': EntitySet applies only to entity results, not to 'Edm.Int32'`],
    ],
    [
      'a complex parameter',
      (d) => ((functionImport(d).parameters ?? [])[0].type = 'ODataDemo.Address'),
      [`${C} / FunctionImport 'Top' / Parameter 'n': type 'ODataDemo.Address' is not primitive; OData 2.0 service operations take primitive parameters`],
    ],
    [
      'a bad HttpMethod',
      (d) => (functionImport(d).httpMethod = 'PATCH'),
      [`${C} / FunctionImport 'Top': m:HttpMethod must be GET, POST, PUT, MERGE or DELETE, got 'PATCH'`],
    ],
    [
      'a bad parameter mode',
      (d) => ((functionImport(d).parameters ?? [])[0].mode = 'Both'),
      [`${C} / FunctionImport 'Top' / Parameter 'n': Mode must be In, Out or InOut, got 'Both'`],
    ],
    ['no container', (d) => delete schema(d).entityContainers, ['Model: at least one EntityContainer is required']],
    [
      'two default containers',
      (d) => schema(d).entityContainers?.push({ name: 'Other', isDefaultEntityContainer: true }),
      ["Model: only one EntityContainer may be marked m:IsDefaultEntityContainer, found 'DemoService', 'Other'"],
    ],
    [
      'two containers and no default',
      (d) => {
        container(d).isDefaultEntityContainer = false;
        schema(d).entityContainers?.push({ name: 'Other' });
      },
      ['Model: several EntityContainers and none is marked m:IsDefaultEntityContainer="true"'],
    ],
    // --- schemas ---
    [
      'an alias equal to a namespace',
      (d) => d.schemas.push({ namespace: 'Other', alias: 'ODataDemo' }),
      ["Schema 'Other' / Alias 'ODataDemo': already used as a namespace or alias"],
    ],
    ['a repeated namespace', (d) => d.schemas.push({ namespace: 'ODataDemo' }), ["Schema 'ODataDemo': the namespace is already used by another Schema"]],
    ['no schema', (d) => (d.schemas = []), ['Model: at least one Schema is required']],
  ])('%s', (_name, change, expected) => {
    expect(collectModelErrors(broken(change)).sort()).toEqual([...expected].sort());
  });

  it('collects every problem before throwing one MODEL_INVALID', () => {
    const definition = broken((d) => {
      type(d, 'Category').key = [];
      prop(d, 'Product', 'ID').maxLength = 10;
      functionImport(d).entitySet = 'Product';
    });
    let error: unknown;
    try {
      buildModel(definition);
    } catch (caught) {
      error = caught;
    }
    expect(isODataError(error) && error.code).toBe('MODEL_INVALID');
    expect(error instanceof Error && error.message).toBe(
      [
        'The model is invalid:',
        `${P} / Property 'ID': facet MaxLength does not apply to Edm.Int32`,
        "EntityType 'ODataDemo.Category' / Key: a root entity type must declare a key",
        `${C} / FunctionImport 'Top': entity set 'Product' not found. Did you mean 'Products'?`,
      ].join('\n'),
    );
  });
});
