/**
 * Foreign keys as associations: a foreign key between two entity tables is an association with a
 * referential constraint (the dependent's columns are properties), navigation properties on both
 * ends and `OnDelete="Cascade"` for ON DELETE CASCADE; a join table (two foreign keys that make
 * up its primary key and all its columns) is a many-to-many association stored in that table.
 * Navigation names come from the foreign-key columns and table names (rules in
 * docs/sql-provider.md "Introspection"); foreign keys that cannot be an association are warnings.
 */
import type { AssociationDefinition, AssociationSetDefinition, NavigationPropertyDefinition } from '../../edm/definition';
import type { SqlAssociationSetMapping } from '../mapping/types';
import type { CatalogConstraint } from './catalog';
import { type NameScope, toIdentifier, withoutKeySuffix } from './names';
import type { ColumnDraft, EntityDraft } from './tables';
import type { IntrospectionWarning } from './types';

/** An entity draft with its names. */
export interface NamedEntity {
  readonly draft: EntityDraft;
  /** The entity type's and entity set's name. */
  readonly name: string;
  /** Property and navigation names taken on the type. */
  readonly members: NameScope;
  /** The property of each mapped column, by column position. */
  readonly properties: ReadonlyMap<number, string>;
  /** Navigation properties added by the associations. */
  readonly navigation: NavigationPropertyDefinition[];
}

/** A foreign key of a join table: its constraint and the entity it refers to. */
interface JoinLink {
  readonly constraint: CatalogConstraint;
  readonly target: EntityDraft;
  /** The join table's column for each of the target's key columns, in key order. */
  readonly columns: readonly string[];
}

/** A join table: a many-to-many association between its two targets. */
export interface JoinDraft {
  readonly draft: EntityDraft;
  readonly links: readonly [JoinLink, JoinLink];
}

/** What the associations add to the model and the mapping. */
export interface AssociationsResult {
  readonly associations: AssociationDefinition[];
  readonly associationSets: AssociationSetDefinition[];
  readonly mapping: Record<string, SqlAssociationSetMapping>;
}

const sameSet = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((value) => b.includes(value));

/** The dependent's column for each principal key column (key order), or a reason it does not fit. */
function matchKey(constraint: CatalogConstraint, dependent: EntityDraft, principal: EntityDraft): ColumnDraft[] | string {
  const keyPositions = principal.key.map((column) => column.column.position);
  if (!sameSet(constraint.referencedColumns, keyPositions)) return `it refers to columns of ${principal.qualified} that are not its key`;
  const columns: ColumnDraft[] = [];
  for (const key of principal.key) {
    const column = dependent.byPosition.get(constraint.columns[constraint.referencedColumns.indexOf(key.column.position)]);
    if (column === undefined) return 'one of its columns is left out';
    if (!column.mapped.keyable) return `its column ${column.column.name} (${column.column.declaredType}) cannot be compared with key values as it is`;
    if (column.mapped.type !== key.mapped.type)
      return `its column ${column.column.name} is ${column.mapped.type} where the key ${key.column.name} is ${key.mapped.type}`;
    columns.push(column);
  }
  return columns;
}

/** Separate the join tables (kept out of the entity sets) from the entity tables. */
export function splitJoinTables(
  drafts: readonly EntityDraft[],
  constraints: readonly CatalogConstraint[],
  columnCount: (draft: EntityDraft) => number,
): { entities: EntityDraft[]; joins: JoinDraft[] } {
  const byName = new Map(drafts.map((draft) => [draft.qualified, draft]));
  const referenced = new Set(
    constraints.filter((constraint) => constraint.kind === 'f').map((constraint) => `${constraint.referencedSchema}.${constraint.referencedTable}`),
  );
  const joins: JoinDraft[] = [];
  for (const draft of drafts) {
    const { relation } = draft;
    if (relation.kind !== 'r' && relation.kind !== 'p') continue;
    if (referenced.has(draft.qualified)) continue;
    const own = constraints.filter((constraint) => constraint.schema === relation.schema && constraint.table === relation.name);
    const primaryKey = own.find((constraint) => constraint.kind === 'p');
    const foreignKeys = own.filter((constraint) => constraint.kind === 'f');
    if (primaryKey === undefined || foreignKeys.length !== 2 || draft.columns.length !== columnCount(draft)) continue;
    if (
      !sameSet(
        draft.key.map((column) => column.column.position),
        primaryKey.columns,
      )
    )
      continue;
    const positions = foreignKeys.flatMap((constraint) => constraint.columns);
    if (new Set(positions).size !== positions.length || !sameSet(positions, primaryKey.columns) || positions.length !== draft.columns.length) continue;
    const links = foreignKeys.map((constraint): JoinLink | undefined => {
      const target = byName.get(`${constraint.referencedSchema}.${constraint.referencedTable}`);
      if (target === undefined || target === draft) return undefined;
      const matched = matchKey(constraint, draft, target);
      return typeof matched === 'string' ? undefined : { constraint, target, columns: matched.map((column) => column.column.name) };
    });
    const [first, second] = links;
    if (first !== undefined && second !== undefined) joins.push({ draft, links: [first, second] });
  }
  const joinDrafts = new Set(joins.map((join) => join.draft));
  return { entities: drafts.filter((draft) => !joinDrafts.has(draft)), joins };
}

/** Build the associations of the foreign keys between `entities` and of the join tables. */
export function buildAssociations(
  entities: ReadonlyMap<EntityDraft, NamedEntity>,
  constraints: readonly CatalogConstraint[],
  joins: readonly JoinDraft[],
  namespace: string,
  types: NameScope,
  warnings: IntrospectionWarning[],
): AssociationsResult {
  const result: AssociationsResult = { associations: [], associationSets: [], mapping: {} };
  const byName = new Map([...entities.values()].map((entity) => [entity.draft.qualified, entity]));
  const joinTables = new Set(joins.map((join) => join.draft.qualified));

  // Foreign keys between entity tables, with their matched columns, before any name is taken.
  const foreignKeys: { constraint: CatalogConstraint; dependent: NamedEntity; principal: NamedEntity; columns: ColumnDraft[] }[] = [];
  for (const constraint of constraints) {
    if (constraint.kind !== 'f') continue;
    const dependent = byName.get(`${constraint.schema}.${constraint.table}`);
    if (dependent === undefined || joinTables.has(`${constraint.schema}.${constraint.table}`)) continue;
    const target = `${constraint.referencedSchema}.${constraint.referencedTable}`;
    const where = `${dependent.draft.qualified}.${constraint.name}`;
    const notMapped = (reason: string): void => {
      warnings.push({ code: 'ASSOCIATION_NOT_MAPPED', target: where, message: `The foreign key ${where} is not an association: ${reason}.` });
    };
    const principal = byName.get(target);
    if (principal === undefined) {
      notMapped(`it refers to ${target}, which is not in the model`);
      continue;
    }
    const matched = matchKey(constraint, dependent.draft, principal.draft);
    if (typeof matched === 'string') {
      notMapped(matched);
      continue;
    }
    foreignKeys.push({ constraint, dependent, principal, columns: matched });
  }

  // To-one names first (they depend on the columns only), then the to-many names.
  const basisOf = (columns: readonly ColumnDraft[], constraint: CatalogConstraint): { stripped: string | undefined; basis: string } => {
    const single = columns.length === 1 ? toIdentifier(columns[0].column.name) : undefined;
    const stripped = single === undefined ? undefined : withoutKeySuffix(single);
    return { stripped, basis: stripped ?? single ?? constraint.name };
  };
  const toOne = foreignKeys.map(({ constraint, dependent, principal, columns }) => {
    const { stripped, basis } = basisOf(columns, constraint);
    if (stripped !== undefined) return dependent.members.claim(stripped, `${stripped}_${principal.name}`);
    // reports_to -> employees: `reports_to_employees` (the column keeps its own name).
    const described = `${basis}_${principal.name}`;
    return dependent === principal ? dependent.members.claim(described) : dependent.members.claim(principal.name, described);
  });
  const pairCount = new Map<string, number>();
  for (const { dependent, principal } of foreignKeys)
    pairCount.set(`${dependent.name}\n${principal.name}`, (pairCount.get(`${dependent.name}\n${principal.name}`) ?? 0) + 1);
  foreignKeys.forEach(({ constraint, dependent, principal, columns }, i) => {
    const descriptive = `${dependent.name}_by_${basisOf(columns, constraint).basis}`;
    const plain = dependent !== principal && pairCount.get(`${dependent.name}\n${principal.name}`) === 1;
    const toMany = plain ? principal.members.claim(dependent.name, descriptive) : principal.members.claim(descriptive);
    const name = types.claim(constraint.name, `${dependent.name}_${constraint.name}`);
    const [principalRole, dependentRole] =
      dependent === principal ? [`${principal.name}_principal`, `${dependent.name}_dependent`] : [principal.name, dependent.name];
    const unique = uniqueColumns(constraints, dependent.draft, columns);
    const required = columns.every((column) => column.notNull);
    const relationship = `${namespace}.${name}`;
    result.associations.push({
      name,
      ends: [
        {
          role: principalRole,
          type: `${namespace}.${principal.name}`,
          multiplicity: required ? '1' : '0..1',
          ...(constraint.onDelete === 'c' ? { onDelete: 'Cascade' as const } : {}),
        },
        { role: dependentRole, type: `${namespace}.${dependent.name}`, multiplicity: unique ? '0..1' : '*' },
      ],
      referentialConstraint: {
        principal: { role: principalRole, propertyRefs: principal.draft.key.map((key) => principal.properties.get(key.column.position) ?? '') },
        dependent: { role: dependentRole, propertyRefs: columns.map((column) => dependent.properties.get(column.column.position) ?? '') },
      },
    });
    result.associationSets.push({
      name,
      association: relationship,
      ends: [
        { role: principalRole, entitySet: principal.name },
        { role: dependentRole, entitySet: dependent.name },
      ],
    });
    dependent.navigation.push({ name: toOne[i], relationship, fromRole: dependentRole, toRole: principalRole });
    principal.navigation.push({ name: toMany, relationship, fromRole: principalRole, toRole: dependentRole });
    result.mapping[name] = {
      kind: 'foreignKey',
      dependent: dependentRole,
      columns: Object.fromEntries(principal.draft.key.map((key, k) => [principal.properties.get(key.column.position) ?? '', columns[k].column.name])),
    };
  });

  const joinCount = new Map<string, number>();
  const pairOf = (join: JoinDraft): string =>
    join.links
      .map((link) => link.target.qualified)
      .sort()
      .join('\n');
  for (const join of joins) joinCount.set(pairOf(join), (joinCount.get(pairOf(join)) ?? 0) + 1);
  for (const join of joins) {
    const [first, second] = join.links.map((link) => ({ link, entity: byName.get(link.target.qualified) as NamedEntity }));
    const table = join.draft.relation.name;
    const label = (link: JoinLink): string =>
      link.columns.length === 1 ? (withoutKeySuffix(toIdentifier(link.columns[0])) ?? link.columns[0]) : link.target.relation.name;
    const plain = first.entity !== second.entity && joinCount.get(pairOf(join)) === 1;
    const navigationTo = (from: typeof first, to: typeof first): string =>
      plain ? from.entity.members.claim(to.entity.name, `${to.entity.name}_by_${table}`) : from.entity.members.claim(`${table}_${label(to.link)}`);
    const name = types.claim(table, `${table}_link`);
    const relationship = `${namespace}.${name}`;
    const roles =
      first.entity === second.entity
        ? [`${first.entity.name}_${label(first.link)}`, `${second.entity.name}_${label(second.link)}`]
        : [first.entity.name, second.entity.name];
    result.associations.push({
      name,
      ends: [
        { role: roles[0], type: `${namespace}.${first.entity.name}`, multiplicity: '*' },
        { role: roles[1], type: `${namespace}.${second.entity.name}`, multiplicity: '*' },
      ],
      ...(join.draft.comment.documentation === undefined ? {} : { documentation: join.draft.comment.documentation }),
    });
    result.associationSets.push({
      name,
      association: relationship,
      ends: [
        { role: roles[0], entitySet: first.entity.name },
        { role: roles[1], entitySet: second.entity.name },
      ],
    });
    first.entity.navigation.push({ name: navigationTo(first, second), relationship, fromRole: roles[0], toRole: roles[1] });
    second.entity.navigation.push({ name: navigationTo(second, first), relationship, fromRole: roles[1], toRole: roles[0] });
    const keyColumns = (side: typeof first): Record<string, string> =>
      Object.fromEntries(side.link.target.key.map((key, k) => [side.entity.properties.get(key.column.position) ?? '', side.link.columns[k]]));
    result.mapping[name] = {
      kind: 'joinTable',
      schema: join.draft.relation.schema,
      table,
      columns: { [roles[0]]: keyColumns(first), [roles[1]]: keyColumns(second) },
    };
  }
  return result;
}

/** True when the columns are unique in their table (a primary key, unique constraint or index on exactly them). */
function uniqueColumns(constraints: readonly CatalogConstraint[], draft: EntityDraft, columns: readonly ColumnDraft[]): boolean {
  const positions = columns.map((column) => column.column.position);
  return constraints.some(
    (constraint) =>
      constraint.schema === draft.relation.schema &&
      constraint.table === draft.relation.name &&
      (constraint.kind === 'p' || constraint.kind === 'u' || constraint.kind === 'i') &&
      sameSet(constraint.columns, positions),
  );
}
