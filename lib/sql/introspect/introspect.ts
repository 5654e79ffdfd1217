/**
 * `introspect(db, options)`: an existing schema as an EDM model and the complete SQL mapping that
 * serves it. Reads the catalog once (the engine's reader, `SqlEngine.catalog`), drafts entity sets from the tables
 * and keyed views (tables.ts), names everything (names.ts), adds the associations of the foreign
 * keys and join tables (associations.ts), and builds the model with the ordinary model builder,
 * so the result is the same kind of model `defineModel` and `loadEdmx` give, and the mapping is
 * checked by `validateMapping` like a saved mapping.json.
 */
import { buildModel } from '../../edm/build';
import { defineModel } from '../../edm/define';
import { isNamespaceName } from '../../edm/definition-index';
import type { SqlDatabase } from '../database';
import { SqlIntrospectionError } from '../errors';
import { validateMapping } from '../mapping/resolve';
import { SQL_MAPPING_VERSION, type SqlMapping } from '../mapping/types';
import { buildAssociations, foreignKeyLinks, splitJoinTables, type NamedEntity } from './associations';
import { SAP_NAMESPACE, STORE_ANNOTATION_NAMESPACE } from './comments';
import { entityParts } from './entity-parts';
import { withFioriAnnotations } from './fiori';
import { toIdentifier } from './names';
import { nameModel } from './naming';
import { withInheritedConstraints } from './partitions';
import { nameMatcher } from './patterns';
import { draftEntity, unusedKeyOptions, type DraftOptions, type EntityDraft } from './tables';
import type { IntrospectOptions, IntrospectionResult, IntrospectionWarning } from './types';

const DEFAULT_VERSION_COLUMNS = ['version', 'row_version'];

function checkOptions(options: IntrospectOptions): void {
  const namespace = options.namespace ?? 'Database';
  if (!isNamespaceName(namespace)) throw new TypeError(`introspect: the namespace '${namespace}' is not a CSDL namespace name (identifiers joined by dots).`);
  const container = options.containerName ?? 'Entities';
  if (toIdentifier(container) !== container) throw new TypeError(`introspect: the container name '${container}' is not a CSDL identifier.`);
  if (options.schemas !== undefined && options.schemas.length === 0) throw new TypeError('introspect: schemas must name at least one schema.');
  const names: unknown = options.names;
  if (names !== undefined && names !== 'odata' && names !== 'sql')
    throw new TypeError(`introspect: names must be 'odata' or 'sql', got ${typeof names === 'string' ? `'${names}'` : typeof names}.`);
  const annotations: unknown = options.annotations;
  if (annotations !== undefined && annotations !== 'fiori' && annotations !== 'none')
    throw new TypeError(`introspect: annotations must be 'fiori' or 'none', got ${typeof annotations === 'string' ? `'${annotations}'` : typeof annotations}.`);
  const etag: unknown = options.etag;
  if (etag !== undefined && etag !== 'xmin' && etag !== 'none')
    throw new TypeError(`introspect: etag must be 'xmin' or 'none', got ${typeof etag === 'string' ? `'${etag}'` : typeof etag}.`);
}

/**
 * Read the catalog of `db` and return the EDM model of its tables (and keyed views), the complete
 * SQL mapping that serves it, and warnings for everything left out. Throws SqlIntrospectionError
 * when no table can be served (with the warnings that say why).
 */
export async function introspect(db: SqlDatabase, options: IntrospectOptions = {}): Promise<IntrospectionResult> {
  checkOptions(options);
  const namespace = options.namespace ?? 'Database';
  const reader = db.sqlEngine.catalog;
  const schemas = options.schemas ?? [reader.schema];
  if (reader.oneSchema && schemas.some((schema) => schema !== reader.schema))
    throw new TypeError(`introspect: ${db.sqlEngine.name} has one schema, '${reader.schema}'.`);
  // Without a row version (SQLite), ETags come from version columns only.
  const { rowVersions } = reader;
  if (!rowVersions && options.etag === 'xmin')
    throw new TypeError(`introspect: ${db.sqlEngine.name} has no row version (etag 'xmin'); name version columns (versionColumns) or use etag 'none'.`);
  const read = await reader.read(db, schemas);
  const catalog = { ...read, constraints: withInheritedConstraints(read) };
  const included = options.include === undefined || options.include.length === 0 ? () => true : nameMatcher(options.include);
  const excluded = nameMatcher(options.exclude ?? []);
  const relations = catalog.relations.filter(
    (relation) => !relation.isPartition && included(relation.schema, relation.name) && !excluded(relation.schema, relation.name),
  );
  const draftOptions: DraftOptions = {
    keys: options.keys ?? {},
    versionColumns: new Set((options.versionColumns ?? DEFAULT_VERSION_COLUMNS).map((name) => name.toLowerCase())),
    // SQLite has no row version: ETags come from version columns only.
    etag: options.etag ?? (rowVersions ? 'xmin' : 'none'),
    quote: (name) => db.sqlEngine.ddl.quoteIdentifier(name),
    firstSchema: schemas[0],
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
  const { links, propertyTypes } = foreignKeyLinks(entities, catalog.constraints, joins, warnings);
  const index = new Map(entities.map((draft, i) => [draft, i]));
  const position = (draft: EntityDraft): number => index.get(draft) ?? -1;
  const names = nameModel(
    {
      tables: entities.map((draft) => ({
        schema: draft.relation.schema,
        name: draft.relation.name,
        columns: draft.columns.map((column) => column.column.name),
      })),
      foreignKeys: links.map((link) => ({
        dependent: position(link.dependent),
        principal: position(link.principal),
        columns: link.columns.map((column) => column.column.name),
        constraint: link.constraint.name,
      })),
      joins: joins.map((join) => ({
        schema: join.draft.relation.schema,
        table: join.draft.relation.name,
        ends: [
          { target: position(join.links[0].target), columns: join.links[0].columns },
          { target: position(join.links[1].target), columns: join.links[1].columns },
        ],
      })),
      firstSchema: schemas[0],
    },
    options.names ?? 'odata',
  );
  const named = new Map(
    entities.map((draft, i): [EntityDraft, NamedEntity] => {
      const { type, set, properties } = names.tables[i];
      return [draft, { draft, type, set, properties: new Map(draft.columns.map((column, k) => [column.column.position, properties[k]])), navigation: [] }];
    }),
  );
  const associations = buildAssociations(named, links, names.foreignKeys, joins, names.joins, namespace);
  const parts = [...named.values()].map((entity) => entityParts(entity, namespace, propertyTypes));
  const used = new Set(
    parts
      .flatMap((part) => [...(part.type.properties ?? []), part.type, part.set])
      .flatMap((element) => (element.annotationAttributes ?? []).map((attribute) => attribute.namespace)),
  );
  const plain = defineModel({
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
  const model = options.annotations === 'none' ? plain : buildModel(withFioriAnnotations(plain));
  const mapping: SqlMapping = {
    version: SQL_MAPPING_VERSION,
    entitySets: Object.fromEntries(parts.map((part) => [part.set.name, part.mapping])),
    associationSets: associations.mapping,
  };
  const uncheckedKeys = [...named.values()].flatMap(({ draft, set }) =>
    draft.keyBacked
      ? []
      : [{ entitySet: set, schema: draft.relation.schema, table: draft.relation.name, columns: draft.key.map((column) => column.column.name) }],
  );
  return { model, mapping: validateMapping(model, mapping), warnings, uncheckedKeys };
}
