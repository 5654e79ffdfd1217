/**
 * A resolved mapping compiled once for the provider (cached per mapping object): per entity set its
 * table, columns with their EDM types, key, discriminator and side tables; per navigation property
 * the columns that link a source row to its targets (directly, or through a join table).
 */
import { sql } from 'kysely';
import type { EdmEntitySet, EdmEntityType, EdmModel, EdmNavigationProperty, EdmProperty } from '../../edm/model';
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import type { Sql } from '../dialect';
import { hierarchyOf, otherEndOf, structuralPaths, type StructuralPath } from './model';
import { storedTemporal } from './stored-types';
import type { SqlInsertMode, SqlMapping, SqlStoreGenerated } from './types';

/** One column of a set's table that holds a structural path. */
export interface ColumnPlan {
  /** The path and properties it holds. */
  readonly path: StructuralPath;
  /** The column name. */
  readonly column: string;
  /** The EDM type of a value column; undefined for a presence column (boolean). */
  readonly type: EdmPrimitiveTypeName | undefined;
  /** The last property of the path. */
  readonly property: EdmProperty;
  /** The column's SQL type when it is not the EDM type's own (the mapping's `columnTypes`): read and compared converted. */
  readonly storedType?: string;
  /**
   * Fractional-second digits the column keeps (date/time columns): from the mapping's column type
   * when it names one (`timestamp(6)`), else the property's Precision, else milliseconds (what
   * createSchema creates). The Precision facet says what is served, this what is stored.
   */
  readonly digits: number;
  /** How the database makes the column's value, if it does (the mapping's `storeGenerated`). */
  readonly generated?: SqlStoreGenerated;
}

/** An entity set's table as the provider reads it. */
export interface SetPlan {
  readonly entitySet: EdmEntitySet;
  /** The table, schema-qualified when the mapping names a schema. */
  readonly table: Sql;
  /** The table's name (messages, DDL). */
  readonly tableName: { readonly schema?: string; readonly table: string };
  /** Every structural column, in model order (the set's type first, then derived types). */
  readonly columns: readonly ColumnPlan[];
  /** By property path (`Address/City`). */
  readonly byPath: ReadonlyMap<string, ColumnPlan>;
  /** The key columns, in key order. */
  readonly key: readonly ColumnPlan[];
  /** With derived types: the type column and each type's value. */
  readonly discriminator?: {
    readonly column: string;
    readonly valueOf: ReadonlyMap<EdmEntityType, string>;
    readonly typeOf: ReadonlyMap<string, EdmEntityType>;
  };
  /** Open types: the jsonb column of dynamic properties. */
  readonly dynamic?: string;
  /** How a create inserts a row (the mapping's `insert`, default `onConflict`). */
  readonly insert: SqlInsertMode;
  /** `xmin`: the row version is the entity tag (the mapping's `etag`). */
  readonly etag?: 'xmin';
  /** Media link entries: the side table. */
  readonly media?: {
    readonly table: Sql;
    readonly tableName: { readonly schema?: string; readonly table: string };
    readonly contentType: string;
    readonly body: string;
  };
}

/**
 * How a row of `source` reaches its targets over a navigation property: `sourceColumns[i]` of the
 * source row equals `targetColumns[i]` of the target row, or, through a join table, equals
 * `via.sourceColumns[i]` of a join row whose `via.targetColumns[i]` equal the target's.
 */
export interface LinkPlan {
  readonly property: EdmNavigationProperty;
  readonly source: SetPlan;
  readonly target: SetPlan;
  readonly sourceColumns: readonly string[];
  readonly targetColumns: readonly string[];
  /** The EDM types of the values compared, pairwise. */
  readonly types: readonly EdmPrimitiveTypeName[];
  /** The types of the join table's target side (the target's key types). */
  readonly targetTypes: readonly EdmPrimitiveTypeName[];
  /** Which table holds the link: the source row (a foreign key), the target row, or a join table. */
  readonly holder: 'source' | 'target' | 'joinTable';
  readonly via?: { readonly table: Sql; readonly sourceColumns: readonly string[]; readonly targetColumns: readonly string[] };
}

/** The compiled mapping. */
export interface CompiledMapping {
  readonly model: EdmModel;
  readonly mapping: SqlMapping;
  /** Every set's plan. */
  readonly sets: ReadonlyMap<EdmEntitySet, SetPlan>;
  /** The link of a navigation property from a set. */
  link(source: EdmEntitySet, property: EdmNavigationProperty): LinkPlan;
}

/** A table name, schema-qualified when a schema is given. */
export function qualified(schema: string | undefined, table: string): Sql {
  return schema === undefined ? sql.id(table) : sql.id(schema, table);
}

/** Fractional-second digits of a column the mapping and the model say nothing about (createSchema's). */
const DEFAULT_DIGITS = 3;

function typeOfProperty(property: EdmProperty): EdmPrimitiveTypeName {
  if (property.type.kind !== 'Primitive') throw new TypeError(`'${property.name}' is not primitive`);
  return property.type.name;
}

function setPlan(entitySet: EdmEntitySet, mapping: SqlMapping): SetPlan {
  const setMapping = mapping.entitySets[entitySet.name];
  const columns = structuralPaths(entitySet).map((path): ColumnPlan => {
    const property = path.properties[path.properties.length - 1];
    const storedType = setMapping.columnTypes?.[path.path];
    const generated = setMapping.storeGenerated?.[path.path];
    return {
      path,
      column: setMapping.columns[path.path],
      type: path.presence ? undefined : typeOfProperty(property),
      property,
      digits: (storedType === undefined ? undefined : storedTemporal(storedType)?.digits) ?? property.precision ?? DEFAULT_DIGITS,
      ...(storedType === undefined ? {} : { storedType }),
      ...(generated === undefined ? {} : { generated }),
    };
  });
  const byPath = new Map(columns.map((column) => [column.path.path, column]));
  const key = entitySet.entityType.key.map((property) => byPath.get(property.name) as ColumnPlan);
  const discriminator = setMapping.discriminator;
  const types = hierarchyOf(entitySet);
  const media = setMapping.media;
  return {
    entitySet,
    table: qualified(setMapping.schema, setMapping.table),
    tableName: { ...(setMapping.schema === undefined ? {} : { schema: setMapping.schema }), table: setMapping.table },
    columns,
    byPath,
    key,
    insert: setMapping.insert ?? 'onConflict',
    ...(setMapping.etag === undefined ? {} : { etag: setMapping.etag }),
    ...(discriminator === undefined
      ? {}
      : {
          discriminator: {
            column: discriminator.column,
            valueOf: new Map(types.map((type) => [type, discriminator.values[type.qualifiedName]])),
            typeOf: new Map(types.map((type) => [discriminator.values[type.qualifiedName], type])),
          },
        }),
    ...(setMapping.dynamicProperties === undefined ? {} : { dynamic: setMapping.dynamicProperties }),
    ...(media === undefined
      ? {}
      : {
          media: {
            table: qualified(media.schema, media.table),
            tableName: { ...(media.schema === undefined ? {} : { schema: media.schema }), table: media.table },
            contentType: media.contentType,
            body: media.body,
          },
        }),
  };
}

function linkPlans(model: EdmModel, mapping: SqlMapping, sets: ReadonlyMap<EdmEntitySet, SetPlan>): Map<EdmEntitySet, Map<EdmNavigationProperty, LinkPlan>> {
  const links = new Map<EdmEntitySet, Map<EdmNavigationProperty, LinkPlan>>();
  for (const associationSet of model.defaultContainer.associationSets) {
    const storage = mapping.associationSets[associationSet.name];
    for (const end of associationSet.ends) {
      const other = otherEndOf(associationSet, end);
      const source = sets.get(end.entitySet) as SetPlan;
      const target = sets.get(other.entitySet) as SetPlan;
      const sourceKeys = end.entitySet.entityType.key;
      const targetKeys = other.entitySet.entityType.key;
      const keyColumns = (plan: SetPlan): string[] => plan.key.map((column) => column.column);
      let plan: Omit<LinkPlan, 'property'>;
      if (storage.kind === 'joinTable') {
        plan = {
          source,
          target,
          sourceColumns: keyColumns(source),
          targetColumns: keyColumns(target),
          types: sourceKeys.map(typeOfProperty),
          targetTypes: targetKeys.map(typeOfProperty),
          holder: 'joinTable',
          via: {
            table: qualified(storage.schema, storage.table),
            sourceColumns: sourceKeys.map((key) => storage.columns[end.role][key.name]),
            targetColumns: targetKeys.map((key) => storage.columns[other.role][key.name]),
          },
        };
      } else if (storage.dependent === end.role) {
        // This end holds the principal's key: its foreign-key columns meet the target's key.
        plan = {
          source,
          target,
          sourceColumns: targetKeys.map((key) => storage.columns[key.name]),
          targetColumns: keyColumns(target),
          types: targetKeys.map(typeOfProperty),
          targetTypes: targetKeys.map(typeOfProperty),
          holder: 'source',
        };
      } else {
        plan = {
          source,
          target,
          sourceColumns: keyColumns(source),
          targetColumns: sourceKeys.map((key) => storage.columns[key.name]),
          types: sourceKeys.map(typeOfProperty),
          targetTypes: targetKeys.map(typeOfProperty),
          holder: 'target',
        };
      }
      const byProperty = links.get(end.entitySet) ?? new Map<EdmNavigationProperty, LinkPlan>();
      links.set(end.entitySet, byProperty);
      for (const type of hierarchyOf(end.entitySet)) {
        for (const property of type.declaredNavigationProperties) {
          if (property.relationship === associationSet.association && property.fromEnd.role === end.role) byProperty.set(property, { ...plan, property });
        }
      }
    }
  }
  return links;
}

const CACHE = new WeakMap<SqlMapping, WeakMap<EdmModel, CompiledMapping>>();

/** Compile a resolved mapping for `model` (once per mapping and model). */
export function compileMapping(model: EdmModel, mapping: SqlMapping): CompiledMapping {
  const cached = CACHE.get(mapping)?.get(model);
  if (cached !== undefined) return cached;
  const sets = new Map(model.defaultContainer.entitySets.map((entitySet) => [entitySet, setPlan(entitySet, mapping)]));
  const links = linkPlans(model, mapping, sets);
  const compiled: CompiledMapping = {
    model,
    mapping,
    sets,
    link(source, property) {
      const link = links.get(source)?.get(property);
      if (link === undefined) throw new TypeError(`The navigation property '${property.name}' of '${source.name}' has no association set.`);
      return link;
    },
  };
  const byModel = CACHE.get(mapping) ?? new WeakMap<EdmModel, CompiledMapping>();
  byModel.set(model, compiled);
  CACHE.set(mapping, byModel);
  return compiled;
}
