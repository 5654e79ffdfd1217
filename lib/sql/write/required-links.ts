/**
 * Required ends kept in a join table. A foreign key column enforces a `1` end by itself (`not
 * null`); a join row cannot: nothing in the schema says that an Order must have exactly one row
 * in its Customer_Orders join table, and a deferrable constraint or a trigger would leave what
 * distributed engines run. So the writers note every entity whose required join-table link a
 * statement may have changed (a new entry, a link added or removed, a partner deleted), and before
 * COMMIT one statement per required end and set counts their links: an entity with none (or,
 * corrupted, several) fails the transaction with 409 CONSTRAINT_VIOLATION, as MemoryProvider
 * answers, and the rollback leaves nothing behind. Checked at commit, not per statement, so a
 * changeset may create an entry and link it in a later operation (MemoryProvider checks then too).
 */
import { sql } from 'kysely';
import { requiredLinkLabel, requiredLinkProblem } from '../../provider/required-links';
import type { EdmEntitySet } from '../../edm/model';
import type { PrimitiveValue } from '../../edm/primitives';
import { ODataError } from '../../errors';
import type { EntityKey } from '../../uri/types';
import type { SqlKysely } from '../database';
import type { Sql } from '../dialect';
import type { SqlEngine } from '../engine';
import { qualified, type CompiledMapping, type SetPlan } from '../mapping/compiled';

/** One end of an association set stored in a join table, seen from its entity set. */
export interface JoinEnd {
  /** This end's set. */
  readonly plan: SetPlan;
  /** The other end's set. */
  readonly partner: SetPlan;
  /** The join table. */
  readonly table: Sql;
  /** The join table's columns holding this end's key, in key order. */
  readonly columns: readonly string[];
  /** The join table's columns holding the partner's key, in key order. */
  readonly partnerColumns: readonly string[];
  /** This end's entities must have exactly one partner (the other end's multiplicity is `1`). */
  readonly required: boolean;
  /** The partners must have exactly one entity of this end (this end's multiplicity is `1`). */
  readonly requiredByPartner: boolean;
  /** Deleting an entity of this end deletes its partners (`OnDelete Action="Cascade"` on this end). */
  readonly cascades: boolean;
  /** How messages name the link: the navigation property, else the association set. */
  readonly label: string;
}

const CACHE = new WeakMap<CompiledMapping, ReadonlyMap<EdmEntitySet, readonly JoinEnd[]>>();

/** The join-table ends of every set (once per compiled mapping). */
function joinEndsBySet(compiled: CompiledMapping): ReadonlyMap<EdmEntitySet, readonly JoinEnd[]> {
  const cached = CACHE.get(compiled);
  if (cached !== undefined) return cached;
  const bySet = new Map<EdmEntitySet, JoinEnd[]>();
  for (const associationSet of compiled.model.defaultContainer.associationSets) {
    const storage = compiled.mapping.associationSets[associationSet.name];
    if (storage?.kind !== 'joinTable') continue;
    const [first, second] = associationSet.ends;
    for (const [end, other] of [
      [first, second],
      [second, first],
    ] as const) {
      const plan = compiled.sets.get(end.entitySet) as SetPlan;
      const joinEnd: JoinEnd = {
        plan,
        partner: compiled.sets.get(other.entitySet) as SetPlan,
        table: qualified(storage.schema, storage.table),
        columns: plan.key.map((column) => storage.columns[end.role][column.property.name]),
        partnerColumns: (compiled.sets.get(other.entitySet) as SetPlan).key.map((column) => storage.columns[other.role][column.property.name]),
        required: other.end.multiplicity === '1',
        requiredByPartner: end.end.multiplicity === '1',
        cascades: end.end.onDelete === 'Cascade',
        label: requiredLinkLabel(associationSet, end === first ? 0 : 1),
      };
      bySet.set(end.entitySet, [...(bySet.get(end.entitySet) ?? []), joinEnd]);
    }
  }
  CACHE.set(compiled, bySet);
  return bySet;
}

/** The join-table ends of `entitySet`. */
export function joinEndsOf(compiled: CompiledMapping, entitySet: EdmEntitySet): readonly JoinEnd[] {
  return joinEndsBySet(compiled).get(entitySet) ?? [];
}

/** `"c1" = <key value 1> and ...` over `columns` (qualified by `alias`) for the key of `plan`. */
function keyMatch(plan: SetPlan, columns: readonly string[], alias: string, key: EntityKey, engine: SqlEngine): Sql {
  return sql.join(
    plan.key.map((column, i) => sql`${sql.id(alias, columns[i])} = ${engine.values.parameter(column.type ?? 'Edm.String', key[column.property.name])}`),
    sql` and `,
  );
}

/** The `select` of the partners of `key` over a join end, from the join table (before a delete drops the rows); `partnerKeys` reads its rows. */
export function partnersStatement(end: JoinEnd, key: EntityKey, engine: SqlEngine): Sql {
  const selected = sql.join(end.partnerColumns.map((column, i) => sql`${sql.id('j', column)} as ${sql.id(`k${i}`)}`));
  return sql`select ${selected} from ${end.table} as j where ${keyMatch(end.plan, end.columns, 'j', key, engine)}`;
}

/** The partners' keys in the rows of `partnersStatement`. */
export function partnerKeys(end: JoinEnd, rows: readonly Readonly<Record<string, unknown>>[], engine: SqlEngine): EntityKey[] {
  return rows.map((row) => {
    const partnerKey: Record<string, PrimitiveValue> = {};
    end.partner.key.forEach((column, i) => {
      partnerKey[column.property.name] = engine.values.fromValue(column.type ?? 'Edm.String', row[`k${i}`]) as PrimitiveValue;
    });
    return partnerKey;
  });
}

/** True when entities of `entitySet` need exactly one link over some join table (counted before COMMIT). */
export function hasRequiredJoinEnd(compiled: CompiledMapping, entitySet: EdmEntitySet): boolean {
  return joinEndsOf(compiled, entitySet).some((end) => end.required);
}

/** Keys per chunk of a check statement (two parameters per key column each). */
const CHUNK = 500;

/** The entities of one transaction whose required join-table links must be counted before COMMIT. */
export class RequiredLinks {
  private readonly pending = new Map<EdmEntitySet, Map<string, EntityKey>>();

  constructor(private readonly compiled: CompiledMapping) {}

  /** Note an entity whose links over a join table may have changed (sets without a required join end are ignored). */
  touch(entitySet: EdmEntitySet, key: EntityKey): void {
    if (!hasRequiredJoinEnd(this.compiled, entitySet)) return;
    const keys = this.pending.get(entitySet) ?? new Map<string, EntityKey>();
    const plan = this.compiled.sets.get(entitySet) as SetPlan;
    keys.set(JSON.stringify(plan.key.map((column) => key[column.property.name])), key);
    this.pending.set(entitySet, keys);
  }

  /** Count the links of every noted entity that still exists; 409 CONSTRAINT_VIOLATION naming each that has not exactly one. */
  async check(executor: SqlKysely, engine: SqlEngine): Promise<void> {
    const problems: string[] = [];
    for (const [entitySet, byText] of this.pending) {
      const keys = [...byText.values()];
      for (const end of joinEndsOf(this.compiled, entitySet)) {
        if (!end.required) continue;
        for (let start = 0; start < keys.length; start += CHUNK)
          problems.push(...(await this.offenders(executor, engine, end, keys.slice(start, start + CHUNK))));
      }
    }
    this.pending.clear();
    if (problems.length > 0) throw ODataError.fromCode('CONSTRAINT_VIOLATION', { detail: problems.join(' ') });
  }

  /** One statement: the noted entities of `keys` that exist and have not exactly one link over `end`. */
  private async offenders(executor: SqlKysely, engine: SqlEngine, end: JoinEnd, keys: readonly EntityKey[]): Promise<string[]> {
    const { plan } = end;
    const names = plan.key.map((_, i) => sql.id(`k${i}`));
    const rows = keys.map(
      (key, index) =>
        sql`(${sql.lit(index)}, ${sql.join(plan.key.map((column) => engine.values.parameter(column.type ?? 'Edm.String', key[column.property.name])))})`,
    );
    const onEntity = sql.join(
      plan.key.map((column, i) => sql`${sql.id('t', column.column)} = ${sql.id('p', `k${i}`)}`),
      sql` and `,
    );
    const onLink = sql.join(
      plan.key.map((column, i) => sql`${sql.id('j', end.columns[i])} = ${sql.id('t', column.column)}`),
      sql` and `,
    );
    // The keys as a named VALUES list in a WITH (engines without column aliases on a derived table take it too).
    const result = await sql<{ i: unknown; n: unknown }>`with p (i, ${sql.join(names)}) as (values ${sql.join(rows)})
      select p.i as i, (select count(*) from ${end.table} as j where ${onLink}) as n from p join ${plan.table} as t on ${onEntity}`.execute(executor);
    return result.rows
      .filter((row) => Number(row.n) !== 1)
      .map((row) => {
        const key = keys[Number(row.i)];
        return requiredLinkProblem(plan.entitySet, key, end.partner.entitySet, end.label, Number(row.n));
      });
  }
}
