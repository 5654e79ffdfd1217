/**
 * Every name of an introspected model, from the SQL names alone, in one of two styles: `odata`
 * (plural PascalCase sets, singular types, PascalCase properties with `ID`, navigations named by
 * role) or `sql` (the SQL names as they are). A pure function of table, column and constraint
 * names, with no catalog in sight, so the naming rules are a table a spec walks through
 * (docs/sql-provider.md "Names" lists them). Names are claimed in one fixed order (types and
 * sets, properties, to-one navigations, then per foreign key its to-many navigation and
 * association, then the join tables), so a schema names the same way every run.
 */
import { pascalName, pluralName, singularName, withoutPreposition } from './inflection';
import { NameScope, toIdentifier, withoutKeySuffix } from './names';

/** How introspection names things: `odata` (the default) or `sql`. */
export type NamingStyle = 'odata' | 'sql';

/** A table (or view) that becomes an entity type and set. */
interface NamingTable {
  readonly schema: string;
  readonly name: string;
  /** The SQL names of its mapped columns, in column order. */
  readonly columns: readonly string[];
}

/** A foreign key between two tables, by their indexes in `tables`. */
interface NamingForeignKey {
  readonly dependent: number;
  readonly principal: number;
  /** The dependent's columns, in the order of the principal's key. */
  readonly columns: readonly string[];
  /** The constraint's name. */
  readonly constraint: string;
}

/** One side of a join table: the table it refers to and its columns there. */
interface NamingJoinEnd {
  readonly target: number;
  readonly columns: readonly string[];
}

/** A join table (a many-to-many association). */
interface NamingJoin {
  readonly schema: string;
  readonly table: string;
  readonly ends: readonly [NamingJoinEnd, NamingJoinEnd];
}

/** What is named. */
export interface NamingInput {
  readonly tables: readonly NamingTable[];
  readonly foreignKeys: readonly NamingForeignKey[];
  readonly joins: readonly NamingJoin[];
  /** The schema whose tables keep unqualified names (the first schema read). */
  readonly firstSchema: string;
}

/** The names of a table's entity type, entity set and properties (pairwise with its columns). */
interface TableNames {
  readonly type: string;
  readonly set: string;
  readonly properties: readonly string[];
}

/** The names a foreign key gives: its association (and association set), navigations and roles. */
export interface ForeignKeyNames {
  readonly association: string;
  /** On the dependent, to the principal. */
  readonly toOne: string;
  /** On the principal, to the dependents. */
  readonly toMany: string;
  readonly principalRole: string;
  readonly dependentRole: string;
}

/** The names of a join table's association, of the navigation on each end (to the other) and of the roles. */
export interface JoinNames {
  readonly association: string;
  readonly navigations: readonly [string, string];
  readonly roles: readonly [string, string];
}

/** All names of a model. */
export interface ModelNames {
  readonly tables: readonly TableNames[];
  readonly foreignKeys: readonly ForeignKeyNames[];
  readonly joins: readonly JoinNames[];
}

/** The first candidate free in every scope (each made an identifier), else the first numbered; taken in all of them. */
function claimIn(scopes: readonly NameScope[], ...candidates: readonly string[]): string {
  const identifiers = candidates.map(toIdentifier);
  let name = identifiers.find((candidate) => scopes.every((scope) => !scope.has(candidate)));
  for (let n = 2; name === undefined; n++) {
    const numbered = `${identifiers[0]}_${n}`;
    if (scopes.every((scope) => !scope.has(numbered))) name = numbered;
  }
  for (const scope of scopes) scope.claim(name);
  return name;
}

/** How many foreign keys join each ordered pair of tables. */
function pairCounts(foreignKeys: readonly NamingForeignKey[]): (key: NamingForeignKey) => number {
  const counts = new Map<string, number>();
  const pair = (key: NamingForeignKey): string => `${key.dependent}:${key.principal}`;
  for (const key of foreignKeys) counts.set(pair(key), (counts.get(pair(key)) ?? 0) + 1);
  return (key) => counts.get(pair(key)) ?? 0;
}

/** Scopes shared by the steps: types and associations (the schema), sets and association sets (the container), members per table. */
interface Scopes {
  readonly types: NameScope;
  readonly sets: NameScope;
  readonly members: readonly NameScope[];
}

function scopesFor(input: NamingInput): Scopes {
  return { types: new NameScope(), sets: new NameScope(), members: input.tables.map(() => new NameScope()) };
}

// --- sql: the SQL names as they are --------------------------------------------------------------

function sqlNames(input: NamingInput): ModelNames {
  const scopes = scopesFor(input);
  const { types, members } = scopes;
  const tables = input.tables.map((table, t): TableNames => {
    const qualified = `${table.schema}_${table.name}`;
    const name = table.schema === input.firstSchema ? claimIn([types, scopes.sets], table.name, qualified) : claimIn([types, scopes.sets], qualified);
    return { type: name, set: name, properties: table.columns.map((column) => members[t].claim(column)) };
  });
  const count = pairCounts(input.foreignKeys);
  const basisOf = (key: NamingForeignKey): { stripped: string | undefined; basis: string } => {
    const single = key.columns.length === 1 ? toIdentifier(key.columns[0]) : undefined;
    const stripped = single === undefined ? undefined : withoutKeySuffix(single);
    return { stripped, basis: stripped ?? single ?? key.constraint };
  };
  const toOne = input.foreignKeys.map((key) => {
    const { stripped, basis } = basisOf(key);
    const principal = tables[key.principal].type;
    const scope = members[key.dependent];
    if (stripped !== undefined) return scope.claim(stripped, `${stripped}_${principal}`);
    // reports_to -> employees: `reports_to_employees` (the column keeps its own name).
    const described = `${basis}_${principal}`;
    return key.dependent === key.principal ? scope.claim(described) : scope.claim(principal, described);
  });
  const foreignKeys = input.foreignKeys.map((key, i): ForeignKeyNames => {
    const dependent = tables[key.dependent].type;
    const principal = tables[key.principal].type;
    const self = key.dependent === key.principal;
    const descriptive = `${dependent}_by_${basisOf(key).basis}`;
    const plain = !self && count(key) === 1;
    const toMany = plain ? members[key.principal].claim(dependent, descriptive) : members[key.principal].claim(descriptive);
    const association = claimIn([types, scopes.sets], key.constraint, `${dependent}_${key.constraint}`);
    const [principalRole, dependentRole] = self ? [`${principal}_principal`, `${dependent}_dependent`] : [principal, dependent];
    return { association, toOne: toOne[i], toMany, principalRole, dependentRole };
  });
  const joins = nameJoins(input, tables, scopes, 'sql');
  return { tables, foreignKeys, joins };
}

// --- odata: sets plural, types singular, PascalCase, navigations by role ------------------------

/** The role a single foreign-key column names, and whether the column had a key suffix. */
function roleOf(key: NamingForeignKey): { role: string | undefined; suffixed: boolean } {
  if (key.columns.length !== 1) return { role: undefined, suffixed: false };
  const stripped = withoutKeySuffix(key.columns[0]);
  return { role: pascalName(stripped ?? key.columns[0]) || undefined, suffixed: stripped !== undefined };
}

function odataNames(input: NamingInput): ModelNames {
  const scopes = scopesFor(input);
  const { types, sets, members } = scopes;
  const entityNames = input.tables.map((table) => {
    const prefix = table.schema === input.firstSchema ? '' : `${pascalName(table.schema) || toIdentifier(table.schema)}_`;
    // Two tables with one name (`order` and `orders`) are numbered, not told apart by their SQL spelling.
    const type = claimIn([types], `${prefix}${singularName(table.name) || toIdentifier(table.name)}`);
    const set = claimIn([sets], `${prefix}${pluralName(table.name) || toIdentifier(table.name)}`);
    return { type, set };
  });
  const count = pairCounts(input.foreignKeys);
  // To-one names depend on the types only: the role of the column, or the principal's type.
  const toOneCandidates = input.foreignKeys.map((key): string[] => {
    const principal = entityNames[key.principal].type;
    const { role, suffixed } = roleOf(key);
    const self = key.dependent === key.principal;
    if (role === undefined) return count(key) === 1 ? [principal, `${principal}Navigation`] : [`${principal}By${pascalName(key.constraint)}`];
    // ship_via -> Shipper: a column without a key suffix names a role only where the type cannot tell the keys apart.
    const byRole = suffixed ? role !== principal : self || count(key) > 1;
    // A name a property has taken gets `Navigation` (as Entity Framework's scaffolding does).
    return byRole ? [role, `${role}Navigation`] : [principal, `${principal}Navigation`];
  });
  // A foreign-key column named like its own navigation (reports_to -> ReportsTo) takes `ID`: `ReportsToID`.
  const idColumns = new Map<string, true>();
  input.foreignKeys.forEach((key, i) => {
    if (key.columns.length === 1 && withoutKeySuffix(key.columns[0]) === undefined && pascalName(key.columns[0]) === toOneCandidates[i][0])
      idColumns.set(`${key.dependent}:${key.columns[0]}`, true);
  });
  const tables = input.tables.map((table, t): TableNames => ({
    ...entityNames[t],
    properties: table.columns.map((column) => {
      const pascal = pascalName(column) || toIdentifier(column);
      return members[t].claim(idColumns.has(`${t}:${column}`) ? `${pascal}ID` : pascal, column);
    }),
  }));
  const toOne = input.foreignKeys.map((key, i) => members[key.dependent].claim(...toOneCandidates[i]));
  const foreignKeys = input.foreignKeys.map((key, i): ForeignKeyNames => {
    const dependent = tables[key.dependent];
    const principal = tables[key.principal];
    const self = key.dependent === key.principal;
    const byRole = `${dependent.set}By${toOne[i]}`;
    const reverse = self ? withoutPreposition(toOne[i]) : undefined;
    const candidates = self ? [reverse === undefined ? byRole : pluralName(reverse), byRole] : count(key) === 1 ? [dependent.set, byRole] : [byRole];
    const toMany = members[key.principal].claim(...candidates);
    const association = claimIn([types, sets], `${dependent.type}_${toOne[i]}`);
    const [principalRole, dependentRole] = self ? [toOne[i], dependent.type] : [principal.type, dependent.type];
    return { association, toOne: toOne[i], toMany, principalRole, dependentRole };
  });
  const joins = nameJoins(input, tables, scopes, 'odata');
  return { tables, foreignKeys, joins };
}

// --- join tables ---------------------------------------------------------------------------------

function nameJoins(input: NamingInput, tables: readonly TableNames[], scopes: Scopes, style: NamingStyle): JoinNames[] {
  const pairOf = (join: NamingJoin): string =>
    join.ends
      .map((end) => end.target)
      .sort((a, b) => a - b)
      .join(':');
  const counts = new Map<string, number>();
  for (const join of input.joins) counts.set(pairOf(join), (counts.get(pairOf(join)) ?? 0) + 1);
  return input.joins.map((join): JoinNames => {
    const [first, second] = join.ends;
    const plain = first.target !== second.target && counts.get(pairOf(join)) === 1;
    // The name of an end by its column (`tag_name` -> `tag`), or by its table for several columns.
    const label = (end: NamingJoinEnd): string =>
      end.columns.length === 1 ? (withoutKeySuffix(toIdentifier(end.columns[0])) ?? end.columns[0]) : input.tables[end.target].name;
    if (style === 'sql') {
      const name = claimIn([scopes.types, scopes.sets], join.table, `${join.table}_link`);
      const navigation = (from: NamingJoinEnd, to: NamingJoinEnd): string => {
        const target = tables[to.target].type;
        const scope = scopes.members[from.target];
        return plain ? scope.claim(target, `${target}_by_${join.table}`) : scope.claim(`${join.table}_${label(to)}`);
      };
      const roles: readonly [string, string] =
        first.target === second.target
          ? [`${tables[first.target].type}_${label(first)}`, `${tables[second.target].type}_${label(second)}`]
          : [tables[first.target].type, tables[second.target].type];
      return { association: name, navigations: [navigation(first, second), navigation(second, first)], roles };
    }
    const [a, b] = [tables[first.target], tables[second.target]];
    const name = claimIn([scopes.types, scopes.sets], `${a.type}_${b.type}`, `${a.type}_${b.type}_${pascalName(join.table)}`);
    const navigation = (from: NamingJoinEnd, to: NamingJoinEnd): string => {
      const target = tables[to.target].set;
      const byTable = `${target}By${pascalName(join.table)}`;
      return scopes.members[from.target].claim(...(plain ? [target, byTable] : [pluralName(label(to)), byTable]));
    };
    const roles: readonly [string, string] = first.target === second.target ? [singularName(label(first)), singularName(label(second))] : [a.type, b.type];
    return {
      association: name,
      navigations: [navigation(first, second), navigation(second, first)],
      roles: roles[0] === roles[1] ? [roles[0], `${roles[1]}_2`] : roles,
    };
  });
}

/** Name a model in `style`. */
export function nameModel(input: NamingInput, style: NamingStyle): ModelNames {
  return style === 'sql' ? sqlNames(input) : odataNames(input);
}
