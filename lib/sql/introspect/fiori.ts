/**
 * Fiori semantics of an introspected model (`annotations: 'fiori'`, the default): what a SAP Fiori
 * elements List Report and Object Page need to work with no annotation file of their own. On the
 * CSDL elements: keys `sap:updatable="false"`, `sap:variable-scale="true"` on a decimal without a
 * scale, `sap:label` (a readable form of the name) where no comment gave one, `sap:searchable="true"`
 * on sets with searchable properties, `sap:value-list="standard"` on foreign keys. As vocabulary
 * annotations: a value list and a text for each foreign key, and per entity type a line item,
 * selection fields, header info and a field group in one facet. Derived from the built model alone
 * (the rules are in docs/sql-provider.md "Fiori annotations"); it never changes what is served.
 */
import type {
  AnnotationAttribute,
  AnnotationExpression,
  EntitySetDefinition,
  ModelDefinition,
  PropertyDefinition,
  ReferenceDefinition,
  VocabularyAnnotation,
  VocabularyAnnotations,
} from '../../edm/definition';
import type { EdmEntitySet, EdmEntityType, EdmModel, EdmNavigationProperty, EdmProperty } from '../../edm/model';
import { sapSwitch } from '../../edm/sap';
import { searchableProperties } from '../../provider/search';
import { sapAttribute, SAP_NAMESPACE } from './comments';
import { readableName } from './inflection';
import { nameProperty } from './name-column';

/** The vocabularies the annotations use, under the aliases SAP Gateway and CAP use. */
const REFERENCES: readonly ReferenceDefinition[] = [
  { uri: 'https://sap.github.io/odata-vocabularies/vocabularies/Common.xml', includes: [{ namespace: 'com.sap.vocabularies.Common.v1', alias: 'Common' }] },
  { uri: 'https://sap.github.io/odata-vocabularies/vocabularies/UI.xml', includes: [{ namespace: 'com.sap.vocabularies.UI.v1', alias: 'UI' }] },
];

/** Columns of a list report: the key, the name, then the next columns, up to this many. */
const LINE_ITEM_FIELDS = 6;
/** Filter fields of a list report: the name and the foreign keys, up to this many. */
const SELECTION_FIELDS = 5;
/** The qualifier of the field group the object page shows. */
const FIELD_GROUP = 'General';

/** A foreign key seen from its dependent type: the to-one navigation, the set it leads to, and each dependent property with its principal key. */
interface ForeignKey {
  readonly navigation: EdmNavigationProperty;
  readonly principalSet: EdmEntitySet;
  readonly pairs: readonly (readonly [EdmProperty, EdmProperty])[];
}

const path = (kind: 'Path' | 'PropertyPath' | 'AnnotationPath', value: string): AnnotationExpression => ({ kind, value });
const text = (value: string): AnnotationExpression => ({ kind: 'String', value });
const dataField = (property: EdmProperty): AnnotationExpression => ({
  kind: 'Record',
  type: 'UI.DataField',
  propertyValues: [{ property: 'Value', value: path('Path', property.name) }],
});

/** Binary values have no field to show them in. */
const displayable = (property: EdmProperty): boolean => !(property.type.kind === 'Primitive' && property.type.name === 'Edm.Binary');

function foreignKeysOf(model: EdmModel, set: EdmEntitySet): ForeignKey[] {
  const keys: ForeignKey[] = [];
  for (const navigation of set.entityType.navigationProperties) {
    const constraint = navigation.relationship.referentialConstraint;
    const principalSet = model.navigationTarget(set, navigation);
    if (constraint === undefined || principalSet === undefined || constraint.dependent.role !== navigation.fromEnd.role) continue;
    keys.push({
      navigation,
      principalSet,
      pairs: constraint.dependent.properties.map((property, i) => [property, constraint.principal.properties[i]] as const),
    });
  }
  return keys;
}

/** `Common.ValueList` of one dependent property: the principal set, every key column in and out, the name shown. */
function valueList(key: ForeignKey, name: EdmProperty | undefined): VocabularyAnnotation {
  const parameters: AnnotationExpression[] = key.pairs.map(([local, remote]) => ({
    kind: 'Record',
    type: 'Common.ValueListParameterInOut',
    propertyValues: [
      { property: 'LocalDataProperty', value: path('PropertyPath', local.name) },
      { property: 'ValueListProperty', value: text(remote.name) },
    ],
  }));
  if (name !== undefined) {
    parameters.push({
      kind: 'Record',
      type: 'Common.ValueListParameterDisplayOnly',
      propertyValues: [{ property: 'ValueListProperty', value: text(name.name) }],
    });
  }
  return {
    term: 'Common.ValueList',
    value: {
      kind: 'Record',
      propertyValues: [
        { property: 'Label', value: text(readableName(key.principalSet.entityType.name)) },
        { property: 'CollectionPath', value: text(key.principalSet.name) },
        { property: 'Parameters', value: { kind: 'Collection', items: parameters } },
      ],
    },
  };
}

/** The UI annotations of an entity type: line item, selection fields, header info, facets and their field group. */
function uiAnnotations(set: EdmEntitySet, name: EdmProperty | undefined, foreignKeyProperties: readonly EdmProperty[]): VocabularyAnnotation[] {
  const type = set.entityType;
  const shown = type.properties.filter(displayable);
  const lineItem = [...type.key, ...(name === undefined || name.isKey ? [] : [name])];
  for (const property of shown) if (lineItem.length < LINE_ITEM_FIELDS && !lineItem.includes(property)) lineItem.push(property);
  const filters = [...(name === undefined ? [] : [name]), ...foreignKeyProperties.filter((property) => property !== name)].slice(0, SELECTION_FIELDS);
  const title = name ?? type.key[0];
  return [
    { term: 'UI.LineItem', value: { kind: 'Collection', items: lineItem.map(dataField) } },
    {
      term: 'UI.SelectionFields',
      value: { kind: 'Collection', items: (filters.length > 0 ? filters : type.key.slice(0, 1)).map((p) => path('PropertyPath', p.name)) },
    },
    {
      term: 'UI.HeaderInfo',
      value: {
        kind: 'Record',
        type: 'UI.HeaderInfoType',
        propertyValues: [
          { property: 'TypeName', value: text(readableName(type.name)) },
          { property: 'TypeNamePlural', value: text(readableName(set.name)) },
          { property: 'Title', value: dataField(title) },
        ],
      },
    },
    {
      term: 'UI.Facets',
      value: {
        kind: 'Collection',
        items: [
          {
            kind: 'Record',
            type: 'UI.ReferenceFacet',
            propertyValues: [
              { property: 'ID', value: text(FIELD_GROUP) },
              { property: 'Label', value: text('General Information') },
              { property: 'Target', value: path('AnnotationPath', `@UI.FieldGroup#${FIELD_GROUP}`) },
            ],
          },
        ],
      },
    },
    {
      term: 'UI.FieldGroup',
      qualifier: FIELD_GROUP,
      value: { kind: 'Record', type: 'UI.FieldGroupType', propertyValues: [{ property: 'Data', value: { kind: 'Collection', items: shown.map(dataField) } }] },
    },
  ];
}

const has = (attributes: readonly AnnotationAttribute[] | undefined, name: string): boolean =>
  (attributes ?? []).some((attribute) => attribute.namespace === SAP_NAMESPACE && attribute.name === name);

/** The `sap:` attributes a property gains. */
function propertyAttributes(definition: PropertyDefinition, property: EdmProperty, valueListed: boolean): AnnotationAttribute[] {
  const attributes = definition.annotationAttributes ?? [];
  // Labels lead, as a comment's label does (entity-parts.ts).
  const label = has(attributes, 'label') ? [] : [sapAttribute('label', readableName(property.name))];
  const added: AnnotationAttribute[] = [];
  // A key identifies the row: the service refuses to change it (400 KEY_MISMATCH), so no edit field offers it.
  if (property.isKey && !has(attributes, 'updatable')) added.push(sapAttribute('updatable', 'false'));
  // Unbounded numeric: SAP's (and CAP's) mark for a decimal whose scale varies; no Scale is invented.
  if (property.type.kind === 'Primitive' && property.type.name === 'Edm.Decimal' && property.scale === undefined)
    added.push(sapAttribute('variable-scale', 'true'));
  if (valueListed && !has(attributes, 'value-list')) added.push(sapAttribute('value-list', 'standard'));
  return [...label, ...attributes, ...added];
}

/** The definition of an introspected model with its Fiori semantics (one schema, one container). */
export function withFioriAnnotations(model: EdmModel): ModelDefinition {
  const definition = model.definition;
  const [schema] = definition.schemas;
  const vocabularyAnnotations: VocabularyAnnotations[] = [];
  const propertyChanges = new Map<EdmEntityType, Map<string, boolean>>();
  for (const set of model.defaultContainer.entitySets) {
    const type = set.entityType;
    const keys = foreignKeysOf(model, set);
    const foreignKeyProperties = type.properties.filter((property) => keys.some((key) => key.pairs.some(([local]) => local === property)));
    const name = nameProperty(type, new Set(foreignKeyProperties));
    vocabularyAnnotations.push({ target: type.qualifiedName, annotations: uiAnnotations(set, name, foreignKeyProperties) });
    const listed = new Map<string, boolean>();
    for (const property of foreignKeyProperties) {
      // A column in two foreign keys gets the value list of the first.
      const key = keys.find((candidate) => candidate.pairs.some(([local]) => local === property));
      if (key === undefined) continue;
      const principalName = nameProperty(
        key.principalSet.entityType,
        new Set(foreignKeysOf(model, key.principalSet).flatMap((k) => k.pairs.map(([local]) => local))),
      );
      const annotations = [valueList(key, principalName)];
      if (key.pairs.length === 1 && principalName !== undefined)
        annotations.push({ term: 'Common.Text', value: path('Path', `${key.navigation.name}/${principalName.name}`) });
      vocabularyAnnotations.push({ target: `${type.qualifiedName}/${property.name}`, annotations });
      listed.set(property.name, true);
    }
    propertyChanges.set(type, listed);
  }
  const searchable = (set: EntitySetDefinition): EntitySetDefinition => {
    const built = model.entitySets.get(set.name);
    if (built === undefined || sapSwitch(built, 'searchable') !== undefined || searchableProperties(built.entityType).length === 0) return set;
    return { ...set, annotationAttributes: [...(set.annotationAttributes ?? []), sapAttribute('searchable', 'true')] };
  };
  return {
    ...definition,
    references: REFERENCES,
    namespaces: { ...definition.namespaces, sap: SAP_NAMESPACE },
    schemas: [
      {
        ...schema,
        entityTypes: (schema.entityTypes ?? []).map((typeDefinition) => {
          const type = model.entityTypes.get(`${schema.namespace}.${typeDefinition.name}`);
          if (type === undefined) return typeDefinition;
          const listed = propertyChanges.get(type) ?? new Map<string, boolean>();
          return {
            ...typeDefinition,
            properties: (typeDefinition.properties ?? []).map((property) => {
              const built = type.propertiesByName.get(property.name);
              return built === undefined ? property : { ...property, annotationAttributes: propertyAttributes(property, built, listed.has(property.name)) };
            }),
          };
        }),
        entityContainers: (schema.entityContainers ?? []).map((container) => ({ ...container, entitySets: (container.entitySets ?? []).map(searchable) })),
        vocabularyAnnotations,
      },
    ],
  };
}
