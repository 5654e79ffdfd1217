/**
 * The entity type, entity set and set mapping of a named entity draft: properties with their EDM
 * types (a foreign-key column takes its key's), facets, defaults, store generation, labels and
 * write permissions; the set's `sap:` capabilities; the mapping's columns, store-generated columns
 * and column types. Nothing here names anything (naming.ts did).
 */
import type { AnnotationAttribute, EntitySetDefinition, EntityTypeDefinition, PropertyDefinition } from '../../edm/definition';
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import type { SqlEntitySetMapping } from '../mapping/types';
import type { NamedEntity } from './associations';
import { STORE_ANNOTATION_NAMESPACE, sapAttribute, type CommentParts } from './comments';
import type { ColumnDraft, EntityDraft } from './tables';

/** `sap:label` and `sap:quickinfo` of a comment. */
function labelAttributes(comment: CommentParts): AnnotationAttribute[] {
  return [
    ...(comment.label === undefined ? [] : [sapAttribute('label', comment.label)]),
    ...(comment.quickinfo === undefined ? [] : [sapAttribute('quickinfo', comment.quickinfo)]),
  ];
}

/** A property; `set` says what the set allows (a column is not marked for what its whole set refuses). */
function propertyDefinition(name: string, column: ColumnDraft, type: EdmPrimitiveTypeName, isKey: boolean, set: EntityDraft): PropertyDefinition {
  const { mapped, comment, generated } = column;
  const attributes = labelAttributes(comment);
  if (mapped.displayFormat !== undefined) attributes.push(sapAttribute('display-format', mapped.displayFormat));
  const madeByDatabase = generated === 'identity' || generated === 'computed';
  if (madeByDatabase || (set.creatable && !column.column.canInsert)) attributes.push(sapAttribute('creatable', 'false'));
  if (madeByDatabase || (set.updatable && !column.column.canUpdate)) attributes.push(sapAttribute('updatable', 'false'));
  // A default the database evaluates (now(), nextval...) on a NOT NULL column is Identity too:
  // generated on insert when not given, unchanged on update (CSDL's meaning), so a create need not
  // send it (the service requires every other non-nullable property without a DefaultValue). Such
  // a column stays creatable and updatable: a value the client sends is stored.
  if (madeByDatabase || (generated === 'default' && column.notNull)) {
    attributes.push({
      namespace: STORE_ANNOTATION_NAMESPACE,
      prefix: 'annotation',
      name: 'StoreGeneratedPattern',
      value: generated === 'computed' ? 'Computed' : 'Identity',
    });
  }
  const { maxLength, precision, scale } = mapped.facets;
  return {
    name,
    type,
    nullable: !(column.notNull || isKey),
    ...(maxLength === undefined ? {} : { maxLength }),
    ...(precision === undefined ? {} : { precision }),
    ...(scale === undefined ? {} : { scale }),
    ...(column.defaultValue === undefined ? {} : { defaultValue: column.defaultValue }),
    ...(column.concurrencyToken ? { concurrencyMode: 'Fixed' as const } : {}),
    ...(comment.documentation === undefined ? {} : { documentation: comment.documentation }),
    ...(attributes.length === 0 ? {} : { annotationAttributes: attributes }),
  };
}

function entitySetAnnotations(draft: EntityDraft): AnnotationAttribute[] {
  const attributes: AnnotationAttribute[] = [];
  if (!draft.creatable) attributes.push(sapAttribute('creatable', 'false'));
  if (!draft.updatable) attributes.push(sapAttribute('updatable', 'false'));
  if (!draft.deletable) attributes.push(sapAttribute('deletable', 'false'));
  return attributes;
}

/** What a named draft becomes: its entity type, entity set and set mapping. */
export interface EntityParts {
  readonly type: EntityTypeDefinition;
  readonly set: EntitySetDefinition;
  readonly mapping: SqlEntitySetMapping;
}

/** The entity type, entity set and set mapping of a named draft; `propertyTypes` are the EDM types foreign-key columns take from their keys. */
export function entityParts(entity: NamedEntity, namespace: string, propertyTypes: ReadonlyMap<ColumnDraft, EdmPrimitiveTypeName>): EntityParts {
  const { draft } = entity;
  const keyPositions = new Set(draft.key.map((column) => column.column.position));
  const property = (column: ColumnDraft): string => entity.properties.get(column.column.position) ?? '';
  const storeGenerated = draft.columns.flatMap((column) => (column.generated === undefined ? [] : [[property(column), column.generated] as const]));
  const columnTypes = draft.columns.flatMap((column) =>
    column.mapped.storedType === undefined ? [] : [[property(column), column.mapped.storedType] as const],
  );
  const typeAttributes = labelAttributes(draft.comment);
  const setAttributes = entitySetAnnotations(draft);
  return {
    type: {
      name: entity.type,
      key: draft.key.map(property),
      properties: draft.columns.map((column) =>
        propertyDefinition(property(column), column, propertyTypes.get(column) ?? column.mapped.type, keyPositions.has(column.column.position), draft),
      ),
      ...(entity.navigation.length === 0 ? {} : { navigationProperties: entity.navigation }),
      ...(draft.comment.documentation === undefined ? {} : { documentation: draft.comment.documentation }),
      ...(typeAttributes.length === 0 ? {} : { annotationAttributes: typeAttributes }),
    },
    set: { name: entity.set, entityType: `${namespace}.${entity.type}`, ...(setAttributes.length === 0 ? {} : { annotationAttributes: setAttributes }) },
    mapping: {
      schema: draft.relation.schema,
      table: draft.relation.name,
      columns: Object.fromEntries(draft.columns.map((column) => [property(column), column.column.name])),
      ...(storeGenerated.length === 0 ? {} : { storeGenerated: Object.fromEntries(storeGenerated) }),
      ...(columnTypes.length === 0 ? {} : { columnTypes: Object.fromEntries(columnTypes) }),
      ...(draft.creatable && draft.insert !== 'onConflict' ? { insert: draft.insert } : {}),
      ...(draft.etag === undefined ? {} : { etag: draft.etag }),
    },
  };
}
