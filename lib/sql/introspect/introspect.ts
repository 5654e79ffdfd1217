/**
 * `introspect(db, options)`: an existing PostgreSQL schema as an EDM model and the complete SQL
 * mapping that serves it. Reads the catalog once (catalog.ts), drafts entity sets from the tables
 * and keyed views (tables.ts), names everything (names.ts), adds the associations of the foreign
 * keys and join tables (associations.ts), and builds the model with the ordinary model builder,
 * so the result is the same kind of model `defineModel` and `loadEdmx` give, and the mapping is
 * checked by `validateMapping` like a saved mapping.json.
 */
import type { AnnotationAttribute, EntitySetDefinition, EntityTypeDefinition, PropertyDefinition } from '../../edm/definition';
import { defineModel } from '../../edm/define';
import { isNamespaceName } from '../../edm/definition-index';
import type { SqlDatabase } from '../database';
import { SqlIntrospectionError } from '../errors';
import { validateMapping } from '../mapping/resolve';
import { SQL_MAPPING_VERSION, type SqlEntitySetMapping, type SqlMapping } from '../mapping/types';
import { buildAssociations, splitJoinTables, type NamedEntity } from './associations';
import { readCatalog } from './catalog';
import { SAP_NAMESPACE, STORE_ANNOTATION_NAMESPACE, sapAttribute } from './comments';
import { NameScope, toIdentifier } from './names';
import { nameMatcher } from './patterns';
import { draftEntity, unusedKeyOptions, type ColumnDraft, type DraftOptions, type EntityDraft } from './tables';
import type { IntrospectOptions, IntrospectionResult, IntrospectionWarning } from './types';

const DEFAULT_VERSION_COLUMNS = ['version', 'row_version'];

/** A property; `set` says what the set allows (a column is not marked for what its whole set refuses). */
function propertyDefinition(name: string, column: ColumnDraft, isKey: boolean, set: EntityDraft): PropertyDefinition {
  const { mapped, comment, generated } = column;
  const attributes: AnnotationAttribute[] = [];
  if (comment.label !== undefined) attributes.push(sapAttribute('label', comment.label));
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
    type: mapped.type,
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

/** The entity type, entity set and set mapping of a named draft. */
function entityParts(entity: NamedEntity, namespace: string): { type: EntityTypeDefinition; set: EntitySetDefinition; mapping: SqlEntitySetMapping } {
  const { draft, name } = entity;
  const keyPositions = new Set(draft.key.map((column) => column.column.position));
  const property = (column: ColumnDraft): string => entity.properties.get(column.column.position) ?? '';
  const storeGenerated = draft.columns.flatMap((column) => (column.generated === undefined ? [] : [[property(column), column.generated] as const]));
  const columnTypes = draft.columns.flatMap((column) =>
    column.mapped.storedType === undefined ? [] : [[property(column), column.mapped.storedType] as const],
  );
  const typeAttributes = draft.comment.label === undefined ? [] : [sapAttribute('label', draft.comment.label)];
  const setAttributes = entitySetAnnotations(draft);
  return {
    type: {
      name,
      key: draft.key.map(property),
      properties: draft.columns.map((column) => propertyDefinition(property(column), column, keyPositions.has(column.column.position), draft)),
      ...(entity.navigation.length === 0 ? {} : { navigationProperties: entity.navigation }),
      ...(draft.comment.documentation === undefined ? {} : { documentation: draft.comment.documentation }),
      ...(typeAttributes.length === 0 ? {} : { annotationAttributes: typeAttributes }),
    },
    set: { name, entityType: `${namespace}.${name}`, ...(setAttributes.length === 0 ? {} : { annotationAttributes: setAttributes }) },
    mapping: {
      schema: draft.relation.schema,
      table: draft.relation.name,
      columns: Object.fromEntries(draft.columns.map((column) => [property(column), column.column.name])),
      ...(storeGenerated.length === 0 ? {} : { storeGenerated: Object.fromEntries(storeGenerated) }),
      ...(columnTypes.length === 0 ? {} : { columnTypes: Object.fromEntries(columnTypes) }),
    },
  };
}

/** Entity names: the table's name, or `schema_table` where two schemas read have a table of that name. */
function nameEntities(entities: readonly EntityDraft[], types: NameScope): Map<EntityDraft, NamedEntity> {
  const counts = new Map<string, number>();
  for (const draft of entities) counts.set(draft.relation.name, (counts.get(draft.relation.name) ?? 0) + 1);
  const named = new Map<EntityDraft, NamedEntity>();
  for (const draft of entities) {
    const { schema, name: table } = draft.relation;
    const name = counts.get(table) === 1 ? types.claim(table, `${schema}_${table}`) : types.claim(`${schema}_${table}`);
    const members = new NameScope();
    const properties = new Map(draft.columns.map((column) => [column.column.position, members.claim(column.column.name)]));
    named.set(draft, { draft, name, members, properties, navigation: [] });
  }
  return named;
}

function checkOptions(options: IntrospectOptions): void {
  const namespace = options.namespace ?? 'Database';
  if (!isNamespaceName(namespace)) throw new TypeError(`introspect: the namespace '${namespace}' is not a CSDL namespace name (identifiers joined by dots).`);
  const container = options.containerName ?? 'Entities';
  if (toIdentifier(container) !== container) throw new TypeError(`introspect: the container name '${container}' is not a CSDL identifier.`);
  if (options.schemas !== undefined && options.schemas.length === 0) throw new TypeError('introspect: schemas must name at least one schema.');
}

/**
 * Read the catalog of `db` and return the EDM model of its tables (and keyed views), the complete
 * SQL mapping that serves it, and warnings for everything left out. Throws SqlIntrospectionError
 * when no table can be served (with the warnings that say why).
 */
export async function introspect(db: SqlDatabase, options: IntrospectOptions = {}): Promise<IntrospectionResult> {
  checkOptions(options);
  const namespace = options.namespace ?? 'Database';
  const schemas = options.schemas ?? ['public'];
  const catalog = await readCatalog(db, schemas);
  const included = options.include === undefined || options.include.length === 0 ? () => true : nameMatcher(options.include);
  const excluded = nameMatcher(options.exclude ?? []);
  const relations = catalog.relations.filter(
    (relation) => !relation.isPartition && included(relation.schema, relation.name) && !excluded(relation.schema, relation.name),
  );
  const draftOptions: DraftOptions = {
    keys: options.keys ?? {},
    versionColumns: new Set((options.versionColumns ?? DEFAULT_VERSION_COLUMNS).map((name) => name.toLowerCase())),
    quote: (name) => db.dialect.quoteIdentifier(name),
  };
  const warnings: IntrospectionWarning[] = [...unusedKeyOptions(relations, draftOptions)];
  const drafts = relations.flatMap((relation) => draftEntity(catalog, relation, draftOptions, warnings) ?? []);
  const columnCount = (draft: EntityDraft): number =>
    catalog.columns.filter((column) => column.schema === draft.relation.schema && column.table === draft.relation.name).length;
  const { entities, joins } = splitJoinTables(drafts, catalog.constraints, columnCount);
  if (entities.length === 0) {
    const where = schemas.map((schema) => `'${schema}'`).join(', ');
    throw new SqlIntrospectionError(
      `No table to serve in schema ${where}${relations.length === 0 ? '' : ` (${relations.length} table(s) and view(s) read, none with a usable key)`}.`,
      warnings,
    );
  }
  const types = new NameScope();
  const named = nameEntities(entities, types);
  const associations = buildAssociations(named, catalog.constraints, joins, namespace, types, warnings);
  const parts = [...named.values()].map((entity) => entityParts(entity, namespace));
  const used = new Set(
    parts
      .flatMap((part) => [...(part.type.properties ?? []), part.type, part.set])
      .flatMap((element) => (element.annotationAttributes ?? []).map((attribute) => attribute.namespace)),
  );
  const model = defineModel({
    schemas: [
      {
        namespace,
        entityTypes: parts.map((part) => part.type),
        associations: associations.associations,
        entityContainers: [
          {
            name: options.containerName ?? 'Entities',
            isDefaultEntityContainer: true,
            entitySets: parts.map((part) => part.set),
            associationSets: associations.associationSets,
          },
        ],
      },
    ],
    namespaces: {
      ...(used.has(SAP_NAMESPACE) ? { sap: SAP_NAMESPACE } : {}),
      ...(used.has(STORE_ANNOTATION_NAMESPACE) ? { annotation: STORE_ANNOTATION_NAMESPACE } : {}),
    },
  });
  const mapping: SqlMapping = {
    version: SQL_MAPPING_VERSION,
    entitySets: Object.fromEntries(parts.map((part) => [part.set.name, part.mapping])),
    associationSets: associations.mapping,
  };
  return { model, mapping: validateMapping(model, mapping), warnings };
}
