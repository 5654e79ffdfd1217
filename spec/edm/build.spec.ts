import { readFileSync } from 'fs';
import { join } from 'path';
import { buildModel, loadEdmx, METADATA_NAMESPACE, type EdmEntityType, type EdmModel, type ModelDefinition } from '../../lib/edm';

const KITCHEN_SINK = readFileSync(join(__dirname, '..', 'fixtures', 'kitchen-sink.xml'), 'utf8');

function entityType(model: EdmModel, name: string): EdmEntityType {
  const type = model.entityTypes.get(name);
  if (type === undefined) throw new Error(`no entity type ${name}`);
  return type;
}

const names = (items: readonly { readonly name: string }[]): string[] => items.map((item) => item.name);

describe('buildModel: types', () => {
  const model = loadEdmx(KITCHEN_SINK);
  const thing = entityType(model, 'KitchenSink.Thing');
  const product = entityType(model, 'KitchenSink.Product');
  const photo = entityType(model, 'KitchenSink.Photo');

  it('looks types up by qualified and alias-qualified names', () => {
    expect(model.entityTypes.get('KS.Product')).toBe(product);
    expect(model.entityTypes.get('X.Review')).toBe(model.entityTypes.get('KitchenSink.Extra.Review'));
    expect(model.complexTypes.get('KS.Unit')?.qualifiedName).toBe('KitchenSink.Unit');
    expect(model.associations.get('X.Review_Product')?.namespace).toBe('KitchenSink.Extra');
    expect(product.qualifiedName).toBe('KitchenSink.Product');
  });

  it('inherits keys and properties along the BaseType chain', () => {
    expect(product.baseType).toBe(thing);
    expect(product.key).toEqual(thing.key);
    expect(product.key[0]).toBe(thing.propertiesByName.get('Id'));
    expect(names(product.key)).toEqual(['Id', 'Tenant']);
    expect(names(product.properties).slice(0, 6)).toEqual(['Id', 'Tenant', 'Version', 'Created', 'Name', 'Summary']);
    expect(names(product.declaredProperties)[0]).toBe('Name');
    expect(product.propertiesByName.get('Tenant')?.declaringType).toBe(thing);
    expect(product.propertiesByName.get('Id')?.isKey).toBe(true);
    expect(product.propertiesByName.get('Name')?.isKey).toBe(false);
  });

  it('applies facet defaults and keeps the declared facets', () => {
    const weight = product.propertiesByName.get('Weight');
    expect(weight).toMatchObject({ nullable: true, concurrencyMode: 'None', defaultValue: '0.5', extraAttributes: [] });
    expect(weight?.maxLength).toBeUndefined();
    expect(product.propertiesByName.get('Price')).toMatchObject({ nullable: false, precision: 19, scale: 4, concurrencyMode: 'Fixed' });
    expect(product.propertiesByName.get('Shape')?.extraAttributes).toEqual([{ name: 'SRID', value: '4326' }]);
    expect(product.propertiesByName.get('Manual')?.mimeType).toBe('text/html');
    expect(product.propertiesByName.get('Name')?.feedCustomization).toEqual({ targetPath: 'SyndicationTitle', contentKind: 'text', keepInContent: false });
  });

  it('collects concurrency properties, base first', () => {
    expect(names(thing.concurrencyProperties)).toEqual(['Version']);
    expect(names(product.concurrencyProperties)).toEqual(['Version', 'Price']);
  });

  it('knows abstract, open and media types and the derived types', () => {
    expect([thing.abstract, product.openType, photo.hasStream, product.hasStream]).toEqual([true, true, true, false]);
    expect(thing.derivedTypes).toEqual([product, photo]);
    expect(product.derivedTypes).toEqual([]);
  });

  it('resolves complex property types, nested', () => {
    const dimensions = product.propertiesByName.get('Dimensions')?.type;
    expect(dimensions?.kind).toBe('Complex');
    if (dimensions?.kind !== 'Complex') return;
    expect(dimensions.type).toBe(model.complexTypes.get('KitchenSink.Dimensions'));
    expect(dimensions.type.propertiesByName.get('Unit')?.type).toEqual({ kind: 'Complex', type: model.complexTypes.get('KitchenSink.Unit') });
    expect(dimensions.type.documentation).toEqual({ summary: 'Outer measurements.' });
    expect(dimensions.type.properties[0].declaringType).toBe(dimensions.type);
  });
});

describe('buildModel: navigation', () => {
  const model = loadEdmx(KITCHEN_SINK);
  const category = entityType(model, 'KitchenSink.Category');
  const product = entityType(model, 'KitchenSink.Product');
  const set = (name: string) => {
    const found = model.entitySets.get(name);
    if (found === undefined) throw new Error(name);
    return found;
  };

  it('gives targets, multiplicity and partners', () => {
    const parent = category.navigationPropertiesByName.get('Parent');
    const children = category.navigationPropertiesByName.get('Children');
    expect(parent).toMatchObject({ target: category, isCollection: false });
    expect(children).toMatchObject({ target: category, isCollection: true });
    expect(parent?.partner).toBe(children);
    expect(children?.partner).toBe(parent);
    expect(product.navigationPropertiesByName.get('Category')?.partner).toBe(category.navigationPropertiesByName.get('Products'));
    expect(product.navigationPropertiesByName.get('Photos')?.isCollection).toBe(true);
    expect(entityType(model, 'X.Review').navigationPropertiesByName.get('Product')?.partner).toBeUndefined();
  });

  it('routes navigation to entity sets through association sets', () => {
    const toCategory = product.navigationPropertiesByName.get('Category');
    const parent = category.navigationPropertiesByName.get('Parent');
    if (toCategory === undefined || parent === undefined) throw new Error('navigation missing');
    expect(model.navigationTarget(set('Products'), toCategory)).toBe(set('Categories'));
    expect(model.navigationTarget(set('Categories'), parent)).toBe(set('Categories'));
    expect(model.navigationTarget(set('Things'), toCategory)).toBeUndefined();
    const order = entityType(model, 'KitchenSink.Order');
    const lines = order.navigationPropertiesByName.get('Lines');
    const archive = model.schemas[0].entityContainers[1];
    if (lines === undefined) throw new Error('Lines missing');
    expect(model.navigationTarget(set('Orders'), lines)).toBe(set('OrderLines'));
    expect(model.navigationTarget(archive.entitySets[0], lines)).toBe(archive.entitySets[1]);
  });

  it('lists the default container sets that hold a type', () => {
    expect(names(model.entitySetsOf(product))).toEqual(['Things', 'Products']);
    expect(names(model.entitySetsOf(entityType(model, 'KitchenSink.Photo')))).toEqual(['Things', 'Photos']);
    expect(names(model.entitySetsOf(entityType(model, 'KitchenSink.Order')))).toEqual(['Orders']);
  });

  it('resolves associations, constraints and OnDelete', () => {
    const association = model.associations.get('KS.Customer_Orders');
    const customer = entityType(model, 'KitchenSink.Customer');
    expect(association?.ends.map((end) => [end.role, end.type.name, end.multiplicity, end.onDelete])).toEqual([
      ['Customer', 'Customer', '1', 'None'],
      ['Order', 'Order', '*', 'None'],
    ]);
    expect(association?.referentialConstraint?.principal.properties[0]).toBe(customer.propertiesByName.get('Id'));
    expect(association?.referentialConstraint?.dependent.properties[0]).toBe(entityType(model, 'KitchenSink.Order').propertiesByName.get('CustomerId'));
    expect(model.associations.get('KS.Order_Lines')?.ends[0].onDelete).toBe('Cascade');
  });
});

describe('buildModel: containers', () => {
  const model = loadEdmx(KITCHEN_SINK);

  it('picks the container marked default and exposes its sets and operations', () => {
    expect(model.defaultContainer.name).toBe('KitchenSinkService');
    expect(model.defaultContainer.isDefault).toBe(true);
    expect(model.schemas[0].entityContainers[1].isDefault).toBe(false);
    expect([...model.entitySets.keys()]).toEqual(['Things', 'Products', 'Photos', 'Categories', 'Customers', 'Profiles', 'Orders', 'OrderLines', 'Reviews']);
    expect(model.entitySets.get('Products')?.container).toBe(model.defaultContainer);
    expect(model.functionImports.has('Restore')).toBe(false);
  });

  it('resolves every kind of function import result', () => {
    const result = (name: string) => {
      const returnType = model.functionImports.get(name)?.returnType;
      if (returnType === undefined) return undefined;
      return returnType.kind === 'Primitive'
        ? [returnType.kind, returnType.name, returnType.collection]
        : [returnType.kind, returnType.type.name, returnType.collection];
    };
    expect(result('Reindex')).toBeUndefined();
    expect(result('CountProducts')).toEqual(['Primitive', 'Edm.Int32', false]);
    expect(result('ProductNames')).toEqual(['Primitive', 'Edm.String', true]);
    expect(result('BiggestBox')).toEqual(['Complex', 'Dimensions', false]);
    expect(result('AllBoxes')).toEqual(['Complex', 'Dimensions', true]);
    expect(result('BestProduct')).toEqual(['Entity', 'Product', false]);
    expect(result('ProductsByRating')).toEqual(['Entity', 'Product', true]);
    expect(model.functionImports.get('ProductsByRating')?.entitySet).toBe(model.entitySets.get('Products'));
    expect(model.functionImports.get('Discount')?.httpMethod).toBe('MERGE');
    expect(model.functionImports.get('BiggestBox')?.httpMethod).toBeUndefined();
  });

  it('resolves parameters with mode and facets', () => {
    const count = model.functionImports.get('CountProducts');
    expect(count?.parametersByName.get('prefix')).toMatchObject({
      type: { kind: 'Primitive', name: 'Edm.String' },
      mode: 'In',
      nullable: true,
      maxLength: 20,
      unicode: true,
    });
    expect(count?.parametersByName.get('since')?.mode).toBeUndefined();
    expect(model.functionImports.get('Purge')?.parameters[0].mode).toBe('Out');
  });
});

describe('buildModel: immutability and version', () => {
  const minimal = (): ModelDefinition => ({
    schemas: [
      {
        namespace: 'N',
        entityTypes: [{ name: 'T', key: ['Id'], properties: [{ name: 'Id', type: 'Edm.Int32', nullable: false }] }],
        entityContainers: [{ name: 'C', entitySets: [{ name: 'Ts', entityType: 'N.T' }] }],
      },
    ],
  });

  it('freezes the whole graph and refuses Map writes', () => {
    const model = loadEdmx(KITCHEN_SINK);
    const product = entityType(model, 'KitchenSink.Product');
    expect(Object.isFrozen(model)).toBe(true);
    expect(Object.isFrozen(product)).toBe(true);
    expect(Object.isFrozen(product.properties)).toBe(true);
    expect(Object.isFrozen(product.properties[0].annotationAttributes)).toBe(true);
    expect(Object.isFrozen(model.definition.schemas[0])).toBe(true);
    expect(() => (model.entityTypes as Map<string, EdmEntityType>).set('x', product)).toThrow(TypeError);
    expect(() => (model.entityTypes as Map<string, EdmEntityType>).delete('KS.Product')).toThrow(TypeError);
  });

  it('copies the definition, so later changes to it do not reach the model', () => {
    const definition = minimal();
    const model = buildModel(definition);
    expect(Object.isFrozen(definition.schemas[0])).toBe(false);
    (definition.schemas[0] as { namespace: string }).namespace = 'Changed';
    expect(model.definition.schemas[0].namespace).toBe('N');
  });

  it('treats the only container as the default one and key properties as non-nullable', () => {
    const model = buildModel({
      schemas: [{ ...minimal().schemas[0], entityTypes: [{ name: 'T', key: ['Id'], properties: [{ name: 'Id', type: 'Edm.Int32' }] }] }],
    });
    expect(model.defaultContainer.name).toBe('C');
    expect(model.entityTypes.get('N.T')?.key[0].nullable).toBe(false);
  });

  it.each<[string, ModelDefinition, '1.0' | '2.0']>([
    ['a plain model', minimal(), '1.0'],
    ['a model declaring 2.0', { ...minimal(), dataServiceVersion: '2.0' }, '2.0'],
    [
      'a model declaring 1.0 but mapping a property to a feed element',
      {
        ...minimal(),
        dataServiceVersion: '1.0',
        schemas: [
          {
            ...minimal().schemas[0],
            entityTypes: [
              {
                name: 'T',
                key: ['Id'],
                properties: [
                  { name: 'Id', type: 'Edm.Int32', nullable: false },
                  { name: 'Title', type: 'Edm.String', feedCustomization: { targetPath: 'SyndicationTitle', keepInContent: true } },
                ],
              },
            ],
          },
        ],
      },
      '2.0',
    ],
    [
      'a model with an entity-level m:FC_* mapping',
      {
        schemas: [
          {
            ...minimal().schemas[0],
            entityTypes: [
              {
                name: 'T',
                key: ['Id'],
                properties: [{ name: 'Id', type: 'Edm.Int32', nullable: false }],
                annotationAttributes: [{ namespace: METADATA_NAMESPACE, prefix: 'm', name: 'FC_TargetPath', value: 'SyndicationTitle' }],
              },
            ],
          },
        ],
      },
      '2.0',
    ],
    [
      'a model with media, open types and service operations only',
      {
        schemas: [
          {
            ...minimal().schemas[0],
            entityTypes: [
              {
                name: 'T',
                key: ['Id'],
                hasStream: true,
                openType: true,
                properties: [{ name: 'Id', type: 'Edm.Int32', nullable: false, mimeType: 'text/plain' }],
              },
            ],
            entityContainers: [
              {
                name: 'C',
                entitySets: [{ name: 'Ts', entityType: 'N.T' }],
                functionImports: [{ name: 'F', returnType: 'Collection(Edm.Int32)', httpMethod: 'POST' }],
              },
            ],
          },
        ],
      },
      '1.0',
    ],
  ])('dataServiceVersion of %s', (_name, definition, version) => {
    expect(buildModel(definition).dataServiceVersion).toBe(version);
  });
});
