import { readFileSync } from 'fs';
import { join } from 'path';
import { defineModel, loadEdmx, readEdmx, toModelDefinition, writeEdmx, type EdmModel } from '../../lib/edm';
import { ODATA_DEMO_DEFINITION } from '../fixtures/odata-demo-definition';

const DEMO_XML = readFileSync(join(__dirname, '..', 'fixtures', 'odata-demo', 'metadata.xml'), 'utf8');

/** What other layers read from a model, as plain data (names instead of object references). */
function summarize(model: EdmModel): unknown {
  return {
    version: model.dataServiceVersion,
    container: model.defaultContainer.name,
    types: [...model.entityTypes.values()].map((type) => ({
      name: type.qualifiedName,
      key: type.key.map((p) => p.name),
      properties: type.properties.map((p) => [
        p.name,
        p.type.kind === 'Primitive' ? p.type.name : p.type.type.qualifiedName,
        p.nullable,
        p.isKey,
        p.concurrencyMode,
        p.feedCustomization,
      ]),
      navigation: type.navigationProperties.map((n) => [n.name, n.target.qualifiedName, n.isCollection, n.partner?.name]),
      sets: model.entitySetsOf(type).map((s) => s.name),
    })),
    targets: [...model.entitySets.values()].flatMap((set) =>
      set.entityType.navigationProperties.map((n) => [set.name, n.name, model.navigationTarget(set, n)?.name]),
    ),
    operations: [...model.functionImports.values()].map((f) => [
      f.name,
      f.returnType?.kind,
      f.returnType?.collection,
      f.entitySet?.name,
      f.httpMethod,
      f.parameters.map((p) => [p.name, p.type.name, p.mode]),
    ]),
  };
}

describe('defineModel', () => {
  it('builds from TypeScript the same model as loadEdmx builds from the equivalent EDMX', () => {
    const defined = defineModel(ODATA_DEMO_DEFINITION);
    const loaded = loadEdmx(DEMO_XML);
    expect(summarize(defined)).toEqual(summarize(loaded));
    expect(writeEdmx(defined)).toBe(writeEdmx(loaded));
  });

  it('differs from the read definition only in what the document itself records', () => {
    const { dataServiceVersion, schemas } = readEdmx(DEMO_XML);
    expect(dataServiceVersion).toBe('2.0');
    const [{ csdlNamespace, ...schema }] = schemas;
    expect(csdlNamespace).toBe('http://schemas.microsoft.com/ado/2007/05/edm');
    expect({ schemas: [schema] }).toEqual(ODATA_DEMO_DEFINITION);
  });

  it('accepts a single schema written inline, with model options beside it', () => {
    const [schema] = ODATA_DEMO_DEFINITION.schemas;
    const namespaces = { sap: 'http://www.sap.com/Protocols/SAPData' };
    expect(toModelDefinition({ ...schema, namespaces, dataServiceVersion: '2.0' })).toEqual({ schemas: [schema], namespaces, dataServiceVersion: '2.0' });
    expect(toModelDefinition(ODATA_DEMO_DEFINITION)).toBe(ODATA_DEMO_DEFINITION);
    expect(summarize(defineModel(schema))).toEqual(summarize(defineModel(ODATA_DEMO_DEFINITION)));
  });

  it('throws MODEL_INVALID for an invalid definition', () => {
    expect(() => defineModel({ namespace: 'N' })).toThrow(
      expect.objectContaining({ code: 'MODEL_INVALID', message: 'The model is invalid:\nModel: at least one EntityContainer is required' }),
    );
  });
});
