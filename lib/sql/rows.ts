/**
 * Entities as rows of their set's table (the write direction): a bound parameter per structural
 * column (complex values flattened, a presence flag per nullable complex property), the type
 * discriminator and the dynamic properties. Also the entity type of an entity given as plain data.
 */
import { sql } from 'kysely';
import type { EdmEntitySet, EdmEntityType } from '../edm/model';
import type { PrimitiveValue, PropertyValue } from '../edm/primitives';
import type { Sql } from './dialect';
import type { SqlEngine } from './engine';
import { encodeDynamicProperties } from './dynamic';
import type { ColumnPlan, SetPlan } from './mapping/compiled';
import { hierarchyOf } from './mapping/model';

/** True when `type` is `ancestor` or derives from it. */
export function derivesFrom(type: EdmEntityType, ancestor: EdmEntityType): boolean {
  for (let current: EdmEntityType | undefined = type; current !== undefined; current = current.baseType) if (current === ancestor) return true;
  return false;
}

/**
 * The entity type of plain entity data in a set: the most derived type of the set's hierarchy
 * whose own properties (and those of its bases below the set's type) the entity carries, as the
 * shared evaluator decides `isof` for such data; else the set's type.
 */
export function entityTypeOf(entity: Readonly<Record<string, unknown>>, entitySet: EdmEntitySet): EdmEntityType {
  const root = entitySet.entityType;
  let best = root;
  let depth = 0;
  for (const type of hierarchyOf(entitySet)) {
    let levels = 0;
    let matches = true;
    for (let current: EdmEntityType | undefined = type; current !== undefined && current !== root; current = current.baseType) {
      levels++;
      if (!current.declaredProperties.every((property) => Object.prototype.hasOwnProperty.call(entity, property.name))) matches = false;
    }
    if (matches && levels > depth) {
      best = type;
      depth = levels;
    }
  }
  return best;
}

/** The value at a column's path (null when a complex step is null or absent). */
export function valueAtPath(entity: Readonly<Record<string, unknown>>, column: ColumnPlan): PropertyValue {
  let current: unknown = entity;
  for (const property of column.path.properties) {
    if (current === null || current === undefined || typeof current !== 'object') return null;
    current = (current as Record<string, unknown>)[property.name];
  }
  return current === undefined ? null : (current as PropertyValue);
}

/** The bound value of one column of an entity of `type` (derived-type columns are NULL for other types). */
export function columnParameter(column: ColumnPlan, entity: Readonly<Record<string, unknown>>, type: EdmEntityType, engine: SqlEngine): Sql {
  if (!derivesFrom(type, column.path.declaringType)) return sql`null`;
  const value = valueAtPath(entity, column);
  if (column.type === undefined) return value === null ? sql`null` : sql`true`;
  if (value === null) return sql`null`;
  const parameter = engine.values.parameter(column.type, value as PrimitiveValue);
  // A column of another SQL type (the mapping's columnTypes: an enum, jsonb, date...) takes the
  // value cast to it: PostgreSQL assigns text to an enum or jsonb column only by an explicit cast.
  return column.storedType === undefined ? parameter : sql`cast(${parameter} as ${sql.raw(column.storedType)})`;
}

/** Column name -> bound value of every column of `entity`'s row except foreign keys. */
export function rowParameters(plan: SetPlan, entity: Readonly<Record<string, unknown>>, type: EdmEntityType, engine: SqlEngine): Map<string, Sql> {
  const values = new Map<string, Sql>();
  for (const column of plan.columns) values.set(column.column, columnParameter(column, entity, type, engine));
  if (plan.discriminator !== undefined) values.set(plan.discriminator.column, sql`${plan.discriminator.valueOf.get(type) ?? ''}`);
  if (plan.dynamic !== undefined) {
    const text = encodeDynamicProperties(entity, type);
    values.set(plan.dynamic, text === null ? sql`null` : engine.values.jsonParameter(text));
  }
  return values;
}
