/**
 * Table aliases and joins of one statement: the link conditions between two aliased tables (over
 * a foreign key or through a join table), and the resolver the filter compiler asks for columns,
 * which adds a LEFT JOIN per to-one navigation path it is asked about (`Category/Name`), once.
 * To-one joins never multiply rows: each source row has at most one target.
 */
import { sql } from 'kysely';
import type { EdmEntityType, EdmNavigationProperty } from '../../edm/model';
import type { SqlColumnRef, SqlMemberPath, SqlPathResolver } from '../compile/context';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import type { CompiledMapping, LinkPlan, SetPlan } from '../mapping/compiled';
import { derivesFrom } from '../rows';

/** Allocates aliases for one statement: `t` is the target set, others are numbered by kind. */
export class Aliases {
  private next = 0;
  take(prefix: string): string {
    return `${prefix}${++this.next}`;
  }
}

/** `a.c1 = b.d1 and ...`. */
function columnsEqual(left: string, leftColumns: readonly string[], right: string, rightColumns: readonly string[]): Sql {
  return sql.join(
    leftColumns.map((column, i) => sql`${sql.id(left, column)} = ${sql.id(right, rightColumns[i])}`),
    sql` and `,
  );
}

/**
 * The join from `sourceAlias` (a row of `link.source`) to `targetAlias` (its targets): one join over
 * a foreign key, or two through the join table. `kind` is `join` (path steps) or `left join`.
 */
export function linkJoin(link: LinkPlan, sourceAlias: string, targetAlias: string, kind: 'join' | 'left join', aliases: Aliases): Sql {
  const join = sql.raw(kind);
  if (link.via === undefined)
    return sql`${join} ${link.target.table} as ${sql.id(targetAlias)} on ${columnsEqual(sourceAlias, link.sourceColumns, targetAlias, link.targetColumns)}`;
  const through = aliases.take('l');
  return sql`${join} ${link.via.table} as ${sql.id(through)} on ${columnsEqual(sourceAlias, link.sourceColumns, through, link.via.sourceColumns)} ${join} ${link.target.table} as ${sql.id(targetAlias)} on ${columnsEqual(through, link.via.targetColumns, targetAlias, link.targetColumns)}`;
}

/** True when every row of the set's table has the type (no derived types to tell apart). */
function typeTest(plan: SetPlan, alias: string, type: EdmEntityType): Sql | boolean {
  if (plan.discriminator === undefined) return derivesFrom(plan.entitySet.entityType, type);
  const values = [...plan.discriminator.valueOf].filter(([candidate]) => derivesFrom(candidate, type)).map(([, value]) => sql`${value}`);
  if (values.length === 0) return false;
  return sql`coalesce(${sql.id(alias, plan.discriminator.column)} in (${sql.join(values)}), false)`;
}

/**
 * The filter compiler's resolver for a statement whose target set is aliased `alias`: columns by
 * path, through LEFT JOINs it adds for to-one navigation paths (in `joins`, in the order needed).
 */
export class JoinResolver implements SqlPathResolver {
  /** The LEFT JOINs added so far, to put after the FROM clause. */
  readonly joins: Sql[] = [];
  private readonly byPath = new Map<string, { readonly alias: string; readonly plan: SetPlan }>();

  constructor(
    private readonly compiled: CompiledMapping,
    readonly plan: SetPlan,
    readonly alias: string,
    private readonly aliases: Aliases,
    private readonly engine: SqlEngine,
  ) {}

  /** The alias and set of the entity at the end of `navigation` (joined on first use). */
  entityAt(navigation: readonly EdmNavigationProperty[]): { readonly alias: string; readonly plan: SetPlan } {
    let current = { alias: this.alias, plan: this.plan };
    let key = '';
    for (const property of navigation) {
      key += `/${property.name}`;
      const known = this.byPath.get(key);
      if (known !== undefined) {
        current = known;
        continue;
      }
      const link = this.compiled.link(current.plan.entitySet, property);
      const alias = this.aliases.take('j');
      this.joins.push(linkJoin(link, current.alias, alias, 'left join', this.aliases));
      current = { alias, plan: link.target };
      this.byPath.set(key, current);
    }
    return current;
  }

  column(path: SqlMemberPath): SqlColumnRef | undefined {
    const { alias, plan } = this.entityAt(path.navigation);
    const column = plan.byPath.get(path.properties.map((property) => property.name).join('/'));
    if (column === undefined || column.type === undefined) return undefined;
    const required = column.path.declaringType === plan.entitySet.entityType && column.path.properties.every((property) => !property.nullable);
    const reference = sql.id(alias, column.column);
    // No `precision`: the compiler then takes a timestamp or interval column to keep microseconds,
    // which is exact whatever it keeps. The model's Precision facet says what the service serves
    // (milliseconds), not what a column stores.
    return {
      sql: column.storedType === undefined ? reference : this.engine.reads.storedValue(reference, column.storedType, column.type, 'compare'),
      nullable: !required || path.navigation.length > 0,
    };
  }

  presence(path: SqlMemberPath): Sql | undefined {
    const { alias, plan } = this.entityAt(path.navigation);
    const entityPresence = path.navigation.length === 0 ? sql`true` : sql.id(alias, plan.key[0].column);
    if (path.properties.length === 0) return entityPresence;
    // A complex value is absent when its entity is, or when a nullable complex step on the way is null.
    const flags: Sql[] = [];
    for (let i = 1; i <= path.properties.length; i++) {
      const column = plan.byPath.get(
        path.properties
          .slice(0, i)
          .map((property) => property.name)
          .join('/'),
      );
      if (column?.type === undefined && column !== undefined) flags.push(sql.id(alias, column.column));
    }
    if (flags.length === 0) return entityPresence;
    return sql`case when ${entityPresence} is not null and ${sql.join(
      flags.map((flag) => sql`${flag} is not null`),
      sql` and `,
    )} then true end`;
  }

  isInstance(path: SqlMemberPath, type: EdmEntityType): Sql | boolean | undefined {
    if (path.properties.length > 0) return undefined;
    const { alias, plan } = this.entityAt(path.navigation);
    const test = typeTest(plan, alias, type);
    if (path.navigation.length === 0 || test === false) return test;
    const present = sql`(${sql.id(alias, plan.key[0].column)} is not null)`;
    return test === true ? present : sql`(${present} and ${test})`;
  }
}
