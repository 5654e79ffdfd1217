/**
 * What a statement selects of a set's table and how a row becomes an entity: the columns
 * `$select` needs (plus keys, concurrency tokens, the properties `$orderby` reads for the next
 * link, and the foreign keys the expansions follow), complex values rebuilt from their flattened
 * columns, derived types' properties only on rows of those types, dynamic properties from their
 * JSON column, the media resource's content type from the side table, and the row version of
 * a set whose ETag it is.
 */
import { sql } from 'kysely';
import type { EdmEntityType } from '../../edm/model';
import type { PrimitiveValue, PropertyValue } from '../../edm/primitives';
import type { Entity } from '../../provider/types';
import type { Selection } from '../../uri/types';
import type { Sql } from '../dialect';
import type { SqlEngine, SqlValueCodec } from '../engine';
import { decodeDynamicProperties } from '../dynamic';
import type { ColumnPlan, SetPlan } from '../mapping/compiled';
import { hierarchyOf } from '../mapping/model';
import { derivesFrom } from '../rows';
import type { Aliases } from './joins';

/** What a projection must include besides `$select`. */
export interface ProjectionNeeds {
  /** `$select` at this level; undefined selects everything. */
  readonly select: Selection | undefined;
  /** Top-level property names that must be read whatever `$select` says (what `$orderby` reads). */
  readonly properties?: ReadonlySet<string>;
  /** Columns of the table to read raw (foreign keys of expanded links), by name. */
  readonly linkColumns?: readonly string[];
}

/** A row read back: the entity, its type, raw link columns, and the media content type. */
export interface DecodedRow {
  readonly entity: Entity;
  readonly type: EdmEntityType;
  readonly links: ReadonlyMap<string, unknown>;
  readonly contentType: string | undefined;
  /** The row version (a set mapped with `etag: 'xmin'`): the entity tag's value. */
  readonly etag?: string;
}

/** The links of a row that reads no link columns (shared: DecodedRow.links is read-only). */
const NO_LINKS: ReadonlyMap<string, unknown> = new Map();
const NONE_ABSENT: ReadonlySet<string> = new Set();

/** Projections that read every column, per engine and set plan, by alias, prefix and link columns. */
const everyColumn = new WeakMap<SqlEngine, WeakMap<SetPlan, Map<string, Projection>>>();

/** The projection of one aliased table in one statement. */
export class Projection {
  /**
   * A projection, shared when it reads every column of a set without a media side table: it
   * depends only on the plan, engine, alias, prefix and link columns (all from the model, so
   * the cache is bounded), and building its column list of Kysely nodes per request was a
   * visible share of a read's CPU. A `$select` (unbounded combinations) or a media join (which
   * takes an alias of the statement) builds its own.
   */
  static of(plan: SetPlan, alias: string, needs: ProjectionNeeds, aliases: Aliases, prefix: string, engine: SqlEngine): Projection {
    const everything = needs.select === undefined || needs.select.allProperties;
    if (!everything || plan.media !== undefined) return new Projection(plan, alias, needs, aliases, prefix, engine);
    let byPlan = everyColumn.get(engine);
    if (byPlan === undefined) everyColumn.set(engine, (byPlan = new WeakMap()));
    let byShape = byPlan.get(plan);
    if (byShape === undefined) byPlan.set(plan, (byShape = new Map<string, Projection>()));
    const key = [alias, prefix, ...(needs.linkColumns ?? [])].join('\u0000');
    let projection = byShape.get(key);
    if (projection === undefined)
      byShape.set(key, (projection = new Projection(plan, alias, { select: undefined, linkColumns: needs.linkColumns }, aliases, prefix, engine)));
    return projection;
  }

  /** The select-list items (`"t"."Name" as "c3"`). */
  readonly columns: Sql[] = [];
  /** Joins the projection needs (the media side table). */
  readonly joins: Sql[] = [];
  private readonly read: { readonly plan: ColumnPlan; readonly name: string }[] = [];
  private readonly linkNames = new Map<string, string>();
  private readonly keyNames: readonly string[];
  private discriminatorName: string | undefined;
  private dynamicName: string | undefined;
  private contentTypeName: string | undefined;
  private etagName: string | undefined;
  /** How the engine's results become values. */
  private readonly values: SqlValueCodec;

  private constructor(
    readonly plan: SetPlan,
    readonly alias: string,
    needs: ProjectionNeeds,
    aliases: Aliases,
    prefix: string,
    engine: SqlEngine,
  ) {
    this.values = engine.values;
    let next = 0;
    const output = (value: Sql): string => {
      const name = `${prefix}${next++}`;
      this.columns.push(sql`${value} as ${sql.id(name)}`);
      return name;
    };
    const { select } = needs;
    const everything = select === undefined || select.allProperties;
    const wanted = (column: ColumnPlan): boolean => {
      const top = column.path.properties[0];
      return everything || top.isKey || top.concurrencyMode === 'Fixed' || select.properties.has(top.name) || needs.properties?.has(top.name) === true;
    };
    // A column stored in another SQL type is read converted, also as a link column (a char(n) key
    // compares with the value read only without its padding).
    const value = (column: ColumnPlan): Sql =>
      column.storedType === undefined || column.type === undefined
        ? sql.id(alias, column.column)
        : engine.reads.storedValue(sql.id(alias, column.column), column.storedType, column.type, 'read');
    const byColumn = new Map(plan.columns.map((column) => [column.column, column]));
    for (const column of plan.columns) if (wanted(column)) this.read.push({ plan: column, name: output(value(column)) });
    this.keyNames = this.read.filter((entry) => plan.key.includes(entry.plan)).map((entry) => entry.name);
    if (plan.discriminator !== undefined) this.discriminatorName = output(sql.id(alias, plan.discriminator.column));
    const declared = new Set(plan.columns.map((column) => column.path.properties[0].name));
    const dynamicWanted = everything || [...select.properties].some((name) => !declared.has(name));
    if (plan.dynamic !== undefined && dynamicWanted) this.dynamicName = output(sql.id(alias, plan.dynamic));
    for (const column of needs.linkColumns ?? []) {
      const property = byColumn.get(column);
      if (!this.linkNames.has(column)) this.linkNames.set(column, output(property === undefined ? sql.id(alias, column) : value(property)));
    }
    // Read from a table, `xmin` is the system column; from the CTE of a write, the column of that
    // name its RETURNING gives (writtenRowVersion), since a table cannot have a column so named.
    if (plan.etag === 'xmin') this.etagName = output(engine.tokens.rowVersion(alias));
    if (plan.media !== undefined) {
      const media = aliases.take('m');
      const key = plan.key.map((column) => sql`${sql.id(media, column.column)} = ${sql.id(alias, column.column)}`);
      this.joins.push(sql`left join ${plan.media.table} as ${sql.id(media)} on ${sql.join(key, sql` and `)}`);
      this.contentTypeName = output(sql.id(media, plan.media.contentType));
    }
  }

  /** True when the row holds no entity here (every key column null: the target of a LEFT JOIN that found none). */
  isMissing(row: Readonly<Record<string, unknown>>): boolean {
    return this.keyNames.every((name) => row[name] === null || row[name] === undefined);
  }

  /** The entity of a result row. */
  decode(row: Readonly<Record<string, unknown>>): DecodedRow {
    const type = this.typeOf(row);
    const entity: Entity = {};
    // Allocated only for rows that need them (a feed of flat rows without links makes none).
    let absent: Set<string> | undefined;
    for (const { plan: column, name } of this.read) {
      const { path } = column;
      if (path.declaringType !== this.plan.entitySet.entityType && !derivesFrom(type, path.declaringType)) continue;
      const raw = row[name];
      if (column.type === undefined) {
        if (raw === null || raw === undefined) (absent ??= new Set<string>()).add(path.path);
        continue;
      }
      if (path.properties.length === 1) {
        entity[path.path] = this.values.fromValue(column.type, raw);
        continue;
      }
      this.setMember(entity, column, this.values.fromValue(column.type, raw), absent ?? NONE_ABSENT);
    }
    if (this.dynamicName !== undefined) Object.assign(entity, decodeDynamicProperties(row[this.dynamicName]));
    let links: ReadonlyMap<string, unknown> = NO_LINKS;
    if (this.linkNames.size > 0) {
      const read = new Map<string, unknown>();
      for (const [column, name] of this.linkNames) read.set(column, row[name]);
      links = read;
    }
    const contentType = this.contentTypeName === undefined ? undefined : row[this.contentTypeName];
    const etag = this.etagName === undefined ? undefined : row[this.etagName];
    return { entity, type, links, contentType: typeof contentType === 'string' ? contentType : undefined, ...(typeof etag === 'string' ? { etag } : {}) };
  }

  /** Place a complex member's value, creating the complex objects on its path (null where a nullable one is absent). */
  private setMember(entity: Entity, column: ColumnPlan, value: PrimitiveValue | null, absent: ReadonlySet<string>): void {
    const steps = column.path.properties;
    let container: Record<string, PropertyValue> = entity as Record<string, PropertyValue>;
    let prefix = '';
    for (let i = 0; i < steps.length - 1; i++) {
      prefix = prefix === '' ? steps[i].name : `${prefix}/${steps[i].name}`;
      if (absent.has(prefix)) {
        container[steps[i].name] = null;
        return;
      }
      let next = container[steps[i].name];
      if (next === undefined || next === null || typeof next !== 'object' || next instanceof Date || next instanceof Uint8Array) {
        next = {};
        container[steps[i].name] = next;
      }
      container = next;
    }
    container[steps[steps.length - 1].name] = value;
  }

  private typeOf(row: Readonly<Record<string, unknown>>): EdmEntityType {
    const discriminator = this.plan.discriminator;
    if (discriminator === undefined || this.discriminatorName === undefined) return this.plan.entitySet.entityType;
    const value = row[this.discriminatorName];
    const type = typeof value === 'string' ? discriminator.typeOf.get(value) : undefined;
    if (type === undefined)
      throw new TypeError(
        `The row's type '${String(value)}' in '${this.plan.tableName.table}' is none of ${hierarchyOf(this.plan.entitySet)
          .map((candidate) => candidate.qualifiedName)
          .join(', ')}.`,
      );
    return type;
  }
}
