/**
 * Foreign keys as associations: a foreign key between two entity tables is an association with a
 * referential constraint (the dependent's columns are properties), navigation properties on both
 * ends and `OnDelete="Cascade"` for ON DELETE CASCADE; a join table (two foreign keys that make
 * up its primary key and all its columns) is a many-to-many association stored in that table.
 * Key and foreign-key columns of comparable types (integers of any width; strings and decimals of
 * any length or scale) match: the dependent property takes the key's EDM type, so both ends
 * agree. Foreign keys that cannot be an association are warnings. Names come from naming.ts.
 */
import type { AssociationDefinition, AssociationSetDefinition, NavigationPropertyDefinition } from '../../edm/definition';
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import type { SqlAssociationSetMapping } from '../mapping/types';
import type { CatalogConstraint } from './catalog';
import type { ForeignKeyNames, JoinNames } from './naming';
import type { ColumnDraft, EntityDraft } from './tables';
import type { IntrospectionWarning } from './types';

/** An entity draft with its names. */
export interface NamedEntity {
  readonly draft: EntityDraft;
  /** The entity type's name. */
  readonly type: string;
  /** The entity set's name. */
  readonly set: string;
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

/** A foreign key between two entity tables that becomes an association. */
export interface ForeignKeyLink {
  readonly constraint: CatalogConstraint;
  readonly dependent: EntityDraft;
  readonly principal: EntityDraft;
  /** The dependent's columns, in the order of the principal's key. */
  readonly columns: readonly ColumnDraft[];
  /** The columns are unique in the dependent's table (a one-to-one extension). */
  readonly unique: boolean;
}

/** What the associations add to the model and the mapping. */
export interface AssociationsResult {
  readonly associations: AssociationDefinition[];
  readonly associationSets: AssociationSetDefinition[];
  readonly mapping: Record<string, SqlAssociationSetMapping>;
}

const sameSet = (a: readonly number[], b: readonly number[]): boolean => a.length === b.length && a.every((value) => b.includes(value));

const INTEGERS: ReadonlySet<EdmPrimitiveTypeName> = new Set(['Edm.Byte', 'Edm.SByte', 'Edm.Int16', 'Edm.Int32', 'Edm.Int64']);

/** True when a key and a foreign-key column of these types hold the same values (integers of any width; equal types otherwise). */
function comparable(a: EdmPrimitiveTypeName, b: EdmPrimitiveTypeName): boolean {
  return a === b || (INTEGERS.has(a) && INTEGERS.has(b));
}

/** The dependent's column for each principal key column (key order), or a reason it does not fit. */
function matchKey(constraint: CatalogConstraint, dependent: EntityDraft, principal: EntityDraft): ColumnDraft[] | string {
  const keyPositions = principal.key.map((column) => column.column.position);
  if (!sameSet(constraint.referencedColumns, keyPositions)) return `it refers to columns of ${principal.qualified} that are not its key`;
  const columns: ColumnDraft[] = [];
  for (const key of principal.key) {
    const column = dependent.byPosition.get(constraint.columns[constraint.referencedColumns.indexOf(key.column.position)]);
    if (column === undefined) return 'one of its columns is left out';
    if (!column.mapped.keyable) return `its column ${column.column.name} (${column.column.declaredType}) cannot be compared with key values as it is`;
    if (!comparable(column.mapped.type, key.mapped.type))
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

/**
 * The foreign keys between entity tables that become associations (catalog order), and the EDM
 * type each dependent column takes where it differs from its own: the key's, so that both ends of
 * the referential constraint agree (a `smallint` column referring to an `integer` key is Edm.Int32;
 * a write beyond smallint is refused by the database, a 400).
 */
export function foreignKeyLinks(
  entities: readonly EntityDraft[],
  constraints: readonly CatalogConstraint[],
  joins: readonly JoinDraft[],
  warnings: IntrospectionWarning[],
): { links: ForeignKeyLink[]; propertyTypes: ReadonlyMap<ColumnDraft, EdmPrimitiveTypeName> } {
  const byName = new Map(entities.map((draft) => [draft.qualified, draft]));
  const joinTables = new Set(joins.map((join) => join.draft.qualified));
  const found: ForeignKeyLink[] = [];
  const notMapped = (where: string, reason: string): void => {
    warnings.push({ code: 'ASSOCIATION_NOT_MAPPED', target: where, message: `The foreign key ${where} is not an association: ${reason}.` });
  };
  for (const constraint of constraints) {
    if (constraint.kind !== 'f') continue;
    const dependent = byName.get(`${constraint.schema}.${constraint.table}`);
    if (dependent === undefined || joinTables.has(`${constraint.schema}.${constraint.table}`)) continue;
    const target = `${constraint.referencedSchema}.${constraint.referencedTable}`;
    const where = `${dependent.qualified}.${constraint.name}`;
    const principal = byName.get(target);
    if (principal === undefined) {
      notMapped(where, `it refers to ${target}, which is not in the model`);
      continue;
    }
    const matched = matchKey(constraint, dependent, principal);
    if (typeof matched === 'string') notMapped(where, matched);
    else found.push({ constraint, dependent, principal, columns: matched, unique: uniqueColumns(constraints, dependent, matched) });
  }
  // Each dependent column takes its key's type; keys that are themselves dependent columns change
  // too, so repeat until nothing changes. A column two foreign keys want in two types keeps the first.
  const propertyTypes = new Map<ColumnDraft, EdmPrimitiveTypeName>();
  const owner = new Map<ColumnDraft, ForeignKeyLink>();
  const refused = new Set<ForeignKeyLink>();
  const typeOf = (column: ColumnDraft): EdmPrimitiveTypeName => propertyTypes.get(column) ?? column.mapped.type;
  for (let changed = true, round = 0; changed && round <= found.length; round++) {
    changed = false;
    for (const link of found) {
      if (refused.has(link)) continue;
      link.principal.key.forEach((key, k) => {
        const column = link.columns[k];
        const wanted = typeOf(key);
        if (typeOf(column) === wanted) return;
        const other = owner.get(column);
        if (other !== undefined && other !== link) {
          refused.add(link);
          notMapped(
            `${link.dependent.qualified}.${link.constraint.name}`,
            `its column ${column.column.name} is ${typeOf(column)} for the foreign key ${other.constraint.name}, where this key is ${wanted}`,
          );
          return;
        }
        propertyTypes.set(column, wanted);
        owner.set(column, link);
        changed = true;
      });
    }
  }
  return { links: found.filter((link) => !refused.has(link)), propertyTypes };
}

/** Build the associations of `links` and of the join tables, with the names naming.ts gave them (pairwise). */
export function buildAssociations(
  entities: ReadonlyMap<EntityDraft, NamedEntity>,
  links: readonly ForeignKeyLink[],
  linkNames: readonly ForeignKeyNames[],
  joins: readonly JoinDraft[],
  joinNames: readonly JoinNames[],
  namespace: string,
): AssociationsResult {
  const result: AssociationsResult = { associations: [], associationSets: [], mapping: {} };
  const named = (draft: EntityDraft): NamedEntity => entities.get(draft) as NamedEntity;
  const property = (entity: NamedEntity, column: ColumnDraft): string => entity.properties.get(column.column.position) ?? '';
  links.forEach((link, i) => {
    const { association: name, toOne, toMany, principalRole, dependentRole } = linkNames[i];
    const dependent = named(link.dependent);
    const principal = named(link.principal);
    const relationship = `${namespace}.${name}`;
    result.associations.push({
      name,
      ends: [
        {
          role: principalRole,
          type: `${namespace}.${principal.type}`,
          multiplicity: link.columns.every((column) => column.notNull) ? '1' : '0..1',
          ...(link.constraint.onDelete === 'c' ? { onDelete: 'Cascade' as const } : {}),
        },
        { role: dependentRole, type: `${namespace}.${dependent.type}`, multiplicity: link.unique ? '0..1' : '*' },
      ],
      referentialConstraint: {
        principal: { role: principalRole, propertyRefs: link.principal.key.map((key) => property(principal, key)) },
        dependent: { role: dependentRole, propertyRefs: link.columns.map((column) => property(dependent, column)) },
      },
    });
    result.associationSets.push({
      name,
      association: relationship,
      ends: [
        { role: principalRole, entitySet: principal.set },
        { role: dependentRole, entitySet: dependent.set },
      ],
    });
    dependent.navigation.push({ name: toOne, relationship, fromRole: dependentRole, toRole: principalRole });
    principal.navigation.push({ name: toMany, relationship, fromRole: principalRole, toRole: dependentRole });
    result.mapping[name] = {
      kind: 'foreignKey',
      dependent: dependentRole,
      columns: Object.fromEntries(link.principal.key.map((key, k) => [property(principal, key), link.columns[k].column.name])),
    };
  });
  joins.forEach((join, i) => {
    const { association: name, navigations, roles } = joinNames[i];
    const [first, second] = join.links.map((link) => ({ link, entity: named(link.target) }));
    const relationship = `${namespace}.${name}`;
    result.associations.push({
      name,
      ends: [
        { role: roles[0], type: `${namespace}.${first.entity.type}`, multiplicity: '*' },
        { role: roles[1], type: `${namespace}.${second.entity.type}`, multiplicity: '*' },
      ],
      ...(join.draft.comment.documentation === undefined ? {} : { documentation: join.draft.comment.documentation }),
    });
    result.associationSets.push({
      name,
      association: relationship,
      ends: [
        { role: roles[0], entitySet: first.entity.set },
        { role: roles[1], entitySet: second.entity.set },
      ],
    });
    first.entity.navigation.push({ name: navigations[0], relationship, fromRole: roles[0], toRole: roles[1] });
    second.entity.navigation.push({ name: navigations[1], relationship, fromRole: roles[1], toRole: roles[0] });
    const keyColumns = (side: typeof first): Record<string, string> =>
      Object.fromEntries(side.link.target.key.map((key, k) => [property(side.entity, key), side.link.columns[k]]));
    result.mapping[name] = {
      kind: 'joinTable',
      schema: join.draft.relation.schema,
      table: join.draft.relation.name,
      columns: { [roles[0]]: keyColumns(first), [roles[1]]: keyColumns(second) },
    };
  });
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
