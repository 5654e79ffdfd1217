/**
 * The mapping conventions: `resolveMapping(model, overrides)` names every table and column a model
 * needs (entity set -> table, property -> column, complex members flattened with `_`, a foreign
 * key on the dependent end or a join table per association set, `$type` and `$dynamic` columns,
 * a `_media` side table) and applies the user's overrides; `validateMapping` checks a complete
 * mapping (a saved mapping.json) without filling anything in. Both collect every problem.
 */
import type { EdmAssociationSet, EdmAssociationSetEnd, EdmEntitySet, EdmModel } from '../../edm/model';
import { didYouMean } from '../../util';
import { SqlMappingError } from '../errors';
import { conventionalStorage, hierarchyOf, holdsMedia, holdsOpenType, otherEndOf, structuralPaths } from './model';
import { choiceField, isRecord, nameField, namesField, recordField, unknownFields } from './shape';
import {
  SQL_MAPPING_VERSION,
  type SqlAssociationSetMapping,
  type SqlEntitySetMapping,
  type SqlInsertMode,
  type SqlMapping,
  type SqlMappingOverrides,
  type SqlStoreGenerated,
} from './types';
import { mappingProblems } from './validate';

/** Conventional names of the columns the library adds. */
const CONVENTIONAL_NAMES = Object.freeze({
  discriminator: '$type',
  dynamicProperties: '$dynamic',
  mediaTableSuffix: '_media',
  mediaContentType: 'ContentType',
  mediaBody: 'Body',
});

const STORE_GENERATED: ReadonlySet<string> = new Set<SqlStoreGenerated>(['identity', 'computed', 'default']);

const INSERT_MODES: readonly SqlInsertMode[] = ['onConflict', 'checked', 'readBack'];

/**
 * An SQL type name as a mapping may give it (`integer[]`, `numeric(10,2)`, `public."Mood"`,
 * `time(3) without time zone`): it is written into statements as it is, so nothing that could end
 * or comment out a statement, and no string literal.
 */
function isSqlTypeName(text: string): boolean {
  return /^[\p{L}_"][\p{L}\p{N}_$ ".,()[\]]*$/u.test(text) && !text.includes('--');
}

/** An optional record by property path whose values pass `valid` (problems name the bad entries). */
function pathRecord(
  overrides: Readonly<Record<string, unknown>>,
  field: string,
  where: string,
  paths: ReadonlySet<string>,
  problems: string[],
  valid: (value: string) => boolean,
  expected: string,
): Readonly<Record<string, string>> | undefined {
  const given = namesField(overrides, field, where, problems);
  if (given === undefined) return undefined;
  const accepted: Record<string, string> = {};
  for (const [path, value] of Object.entries(given)) {
    if (!paths.has(path)) problems.push(`${where} / ${field}: '${path}' is not a property path of the set.${didYouMean(path, paths)}`);
    else if (!valid(value)) problems.push(`${where} / ${field} '${path}': '${value}' is not ${expected}.`);
    else accepted[path] = value;
  }
  return accepted;
}

/** What a resolution reports as missing when it must not fill anything in (validateMapping). */
class Resolution {
  readonly problems: string[] = [];
  constructor(private readonly complete: boolean) {}

  /** `given`, or the convention (and, for a complete mapping, a problem saying it is missing). */
  fill<T>(given: T | undefined, convention: T, where: string, what: string): T {
    if (given !== undefined) return given;
    if (this.complete) this.problems.push(`${where}: no ${what}.`);
    return convention;
  }
}

function entitySetMapping(
  entitySet: EdmEntitySet,
  overrides: Readonly<Record<string, unknown>>,
  defaultSchema: string | undefined,
  resolution: Resolution,
): SqlEntitySetMapping {
  const where = `EntitySet '${entitySet.name}'`;
  const { problems } = resolution;
  unknownFields(
    overrides,
    ['schema', 'table', 'columns', 'discriminator', 'dynamicProperties', 'media', 'storeGenerated', 'columnTypes', 'insert', 'etag'],
    where,
    problems,
  );
  const schema = nameField(overrides, 'schema', where, problems) ?? defaultSchema;
  const table = resolution.fill(nameField(overrides, 'table', where, problems), entitySet.name, where, 'table');
  const givenColumns = namesField(overrides, 'columns', where, problems) ?? {};
  const paths = structuralPaths(entitySet);
  const known = new Set(paths.map((path) => path.path));
  for (const path of Object.keys(givenColumns)) {
    if (!known.has(path))
      problems.push(
        `${where} / columns: '${path}' is not a property path of ${entitySet.entityType.qualifiedName} or its derived types.${didYouMean(path, known)}`,
      );
  }
  const columns: Record<string, string> = {};
  for (const { path } of paths) columns[path] = resolution.fill(givenColumns[path], path.replace(/\//g, '_'), `${where} / property '${path}'`, 'column');

  // Schema first: a saved mapping.json reads as schema, table, columns.
  const mapping: { -readonly [K in keyof SqlEntitySetMapping]: SqlEntitySetMapping[K] } = { ...(schema === undefined ? {} : { schema }), table, columns };
  const storeGenerated = pathRecord(
    overrides,
    'storeGenerated',
    where,
    known,
    problems,
    (value) => STORE_GENERATED.has(value),
    `one of ${[...STORE_GENERATED].map((kind) => `'${kind}'`).join(', ')}`,
  );
  if (storeGenerated !== undefined) mapping.storeGenerated = storeGenerated as Readonly<Record<string, SqlStoreGenerated>>;
  const columnTypes = pathRecord(overrides, 'columnTypes', where, known, problems, isSqlTypeName, 'an SQL type name');
  if (columnTypes !== undefined) mapping.columnTypes = columnTypes;
  const types = hierarchyOf(entitySet);
  const discriminator = recordField(overrides, 'discriminator', where, problems);
  if (types.length > 1) {
    const at = `${where} / discriminator`;
    const given = discriminator ?? {};
    unknownFields(given, ['column', 'values'], at, problems);
    const values = namesField(given, 'values', at, problems) ?? {};
    const names = new Set(types.map((type) => type.qualifiedName));
    for (const name of Object.keys(values)) if (!names.has(name)) problems.push(`${at}: '${name}' is not an entity type of the set.${didYouMean(name, names)}`);
    mapping.discriminator = {
      column: resolution.fill(nameField(given, 'column', at, problems), CONVENTIONAL_NAMES.discriminator, at, 'column'),
      values: Object.fromEntries(
        types.map((type) => [type.qualifiedName, resolution.fill(values[type.qualifiedName], type.qualifiedName, `${at} / '${type.qualifiedName}'`, 'value')]),
      ),
    };
  } else if (discriminator !== undefined) {
    problems.push(`${where}: a discriminator needs derived entity types; ${entitySet.entityType.qualifiedName} has none.`);
  }
  const dynamic = nameField(overrides, 'dynamicProperties', where, problems);
  if (holdsOpenType(entitySet)) mapping.dynamicProperties = resolution.fill(dynamic, CONVENTIONAL_NAMES.dynamicProperties, where, 'dynamicProperties column');
  else if (dynamic !== undefined) problems.push(`${where}: dynamicProperties needs an open entity type; ${entitySet.entityType.qualifiedName} is not one.`);
  const media = recordField(overrides, 'media', where, problems);
  if (holdsMedia(entitySet)) {
    const at = `${where} / media`;
    const given = media ?? {};
    unknownFields(given, ['schema', 'table', 'contentType', 'body'], at, problems);
    const mediaSchema = nameField(given, 'schema', at, problems) ?? schema;
    mapping.media = {
      ...(mediaSchema === undefined ? {} : { schema: mediaSchema }),
      table: resolution.fill(nameField(given, 'table', at, problems), table + CONVENTIONAL_NAMES.mediaTableSuffix, at, 'table'),
      contentType: resolution.fill(nameField(given, 'contentType', at, problems), CONVENTIONAL_NAMES.mediaContentType, at, 'contentType column'),
      body: resolution.fill(nameField(given, 'body', at, problems), CONVENTIONAL_NAMES.mediaBody, at, 'body column'),
    };
  } else if (media !== undefined) {
    problems.push(`${where}: media needs a media link entry type (m:HasStream); ${entitySet.entityType.qualifiedName} is not one.`);
  }
  const insert = choiceField(overrides, 'insert', where, problems, INSERT_MODES);
  if (insert !== undefined && insert !== 'onConflict') mapping.insert = insert;
  const etag = choiceField(overrides, 'etag', where, problems, ['xmin'] as const);
  if (etag !== undefined && entitySet.entityType.concurrencyProperties.length > 0)
    problems.push(`${where}: etag 'xmin' on ${entitySet.entityType.qualifiedName}, whose ConcurrencyMode="Fixed" properties make its ETag already.`);
  else if (etag !== undefined) mapping.etag = etag;
  return mapping;
}

/** The navigation property of `end`'s entity type that walks this association set, if one is declared. */
function navigationName(associationSet: EdmAssociationSet, end: EdmAssociationSetEnd): string | undefined {
  const navigation = hierarchyOf(end.entitySet)
    .flatMap((type) => type.declaredNavigationProperties)
    .find((property) => property.relationship === associationSet.association && property.fromEnd.role === end.role);
  return navigation?.name;
}

function foreignKeyColumns(
  associationSet: EdmAssociationSet,
  dependent: EdmAssociationSetEnd,
  sets: Readonly<Record<string, SqlEntitySetMapping>>,
): Record<string, string> {
  const principal = otherEndOf(associationSet, dependent);
  const constraint = associationSet.association.referentialConstraint;
  const dependentColumns = sets[dependent.entitySet.name]?.columns ?? {};
  if (constraint !== undefined && constraint.dependent.role === dependent.role) {
    // The constraint's dependent properties are the key columns: the link and the properties are one value.
    return Object.fromEntries(
      constraint.principal.properties.map((key, i) => [
        key.name,
        dependentColumns[constraint.dependent.properties[i].name] ?? constraint.dependent.properties[i].name,
      ]),
    );
  }
  const prefix = navigationName(associationSet, dependent) ?? principal.role;
  return Object.fromEntries(principal.entitySet.entityType.key.map((key) => [key.name, `${prefix}_${key.name}`]));
}

function associationSetMapping(
  associationSet: EdmAssociationSet,
  overrides: Readonly<Record<string, unknown>>,
  defaultSchema: string | undefined,
  sets: Readonly<Record<string, SqlEntitySetMapping>>,
  resolution: Resolution,
): SqlAssociationSetMapping {
  const where = `AssociationSet '${associationSet.name}'`;
  const { problems } = resolution;
  const convention = conventionalStorage(associationSet);
  const givenKind = overrides.kind;
  if (givenKind !== undefined && givenKind !== 'foreignKey' && givenKind !== 'joinTable') problems.push(`${where}: kind must be 'foreignKey' or 'joinTable'.`);
  const kind = resolution.fill(givenKind === 'foreignKey' || givenKind === 'joinTable' ? givenKind : undefined, convention.kind, where, 'kind');
  const roles = associationSet.ends.map((end) => end.role);
  if (kind === 'joinTable') {
    unknownFields(overrides, ['kind', 'schema', 'table', 'columns'], where, problems);
    const schema = nameField(overrides, 'schema', where, problems) ?? defaultSchema;
    const table = resolution.fill(nameField(overrides, 'table', where, problems), associationSet.name, where, 'table');
    const givenColumns = recordField(overrides, 'columns', where, problems) ?? {};
    for (const role of Object.keys(givenColumns))
      if (!roles.includes(role)) problems.push(`${where} / columns: '${role}' is not a role of the association set.${didYouMean(role, roles)}`);
    const columns = Object.fromEntries(
      associationSet.ends.map((end) => {
        const given = namesField(givenColumns, end.role, `${where} / columns`, problems) ?? {};
        const keys = end.entitySet.entityType.key.map((key) => key.name);
        for (const name of Object.keys(given))
          if (!keys.includes(name))
            problems.push(`${where} / columns / '${end.role}': '${name}' is not a key property of ${end.entitySet.entityType.qualifiedName}.`);
        return [
          end.role,
          Object.fromEntries(
            keys.map((key) => [key, resolution.fill(given[key], `${end.role}_${key}`, `${where} / columns / '${end.role}' / '${key}'`, 'column')]),
          ),
        ];
      }),
    );
    return { kind, ...(schema === undefined ? {} : { schema }), table, columns };
  }
  unknownFields(overrides, ['kind', 'dependent', 'columns'], where, problems);
  const givenDependent = nameField(overrides, 'dependent', where, problems);
  if (givenDependent !== undefined && !roles.includes(givenDependent))
    problems.push(`${where}: dependent '${givenDependent}' is not a role of the association set.${didYouMean(givenDependent, roles)}`);
  const conventionalDependent = convention.kind === 'foreignKey' ? convention.dependent : associationSet.ends[1];
  const dependentRole = resolution.fill(
    givenDependent !== undefined && roles.includes(givenDependent) ? givenDependent : undefined,
    conventionalDependent.role,
    where,
    'dependent',
  );
  const dependent = associationSet.ends.find((end) => end.role === dependentRole) ?? conventionalDependent;
  const principalKeys = otherEndOf(associationSet, dependent).entitySet.entityType.key.map((key) => key.name);
  const given = namesField(overrides, 'columns', where, problems) ?? {};
  for (const name of Object.keys(given))
    if (!principalKeys.includes(name))
      problems.push(`${where} / columns: '${name}' is not a key property of the principal end.${didYouMean(name, principalKeys)}`);
  const conventional = foreignKeyColumns(associationSet, dependent, sets);
  const columns = Object.fromEntries(
    principalKeys.map((key) => [key, resolution.fill(given[key], conventional[key], `${where} / columns / '${key}'`, 'column')]),
  );
  return { kind, dependent: dependentRole, columns };
}

function resolve(model: EdmModel, input: unknown, complete: boolean): SqlMapping {
  const resolution = new Resolution(complete);
  const { problems } = resolution;
  const root = isRecord(input) ? input : {};
  if (!isRecord(input)) problems.push(`The mapping must be an object.`);
  unknownFields(
    root,
    complete ? ['version', 'entitySets', 'associationSets'] : ['version', 'schema', 'entitySets', 'associationSets'],
    'The mapping',
    problems,
  );
  if (root.version !== undefined && root.version !== SQL_MAPPING_VERSION)
    problems.push(`The mapping has version ${JSON.stringify(root.version)}; this library reads version ${SQL_MAPPING_VERSION}.`);
  if (complete && root.version === undefined) problems.push(`The mapping has no version (expected ${SQL_MAPPING_VERSION}).`);
  const defaultSchema = complete ? undefined : nameField(root, 'schema', 'The mapping', problems);
  const container = model.defaultContainer;
  const setOverrides = recordField(root, 'entitySets', 'The mapping', problems) ?? {};
  const setNames = container.entitySets.map((set) => set.name);
  for (const name of Object.keys(setOverrides))
    if (!setNames.includes(name)) problems.push(`The mapping names the entity set '${name}', which the model does not have.${didYouMean(name, setNames)}`);
  const entitySets: Record<string, SqlEntitySetMapping> = {};
  for (const entitySet of container.entitySets) {
    const given = recordField(setOverrides, entitySet.name, 'The mapping / entitySets', problems);
    if (given === undefined && complete) problems.push(`EntitySet '${entitySet.name}': not mapped.`);
    entitySets[entitySet.name] = entitySetMapping(entitySet, given ?? {}, defaultSchema, resolution);
  }
  const associationOverrides = recordField(root, 'associationSets', 'The mapping', problems) ?? {};
  const associationNames = container.associationSets.map((set) => set.name);
  for (const name of Object.keys(associationOverrides))
    if (!associationNames.includes(name))
      problems.push(`The mapping names the association set '${name}', which the model does not have.${didYouMean(name, associationNames)}`);
  const associationSets: Record<string, SqlAssociationSetMapping> = {};
  for (const associationSet of container.associationSets) {
    const given = recordField(associationOverrides, associationSet.name, 'The mapping / associationSets', problems);
    if (given === undefined && complete) problems.push(`AssociationSet '${associationSet.name}': not mapped.`);
    associationSets[associationSet.name] = associationSetMapping(associationSet, given ?? {}, defaultSchema, entitySets, resolution);
  }
  const mapping: SqlMapping = { version: SQL_MAPPING_VERSION, entitySets, associationSets };
  if (problems.length === 0) problems.push(...mappingProblems(model, mapping));
  if (problems.length > 0) throw new SqlMappingError(problems);
  return mapping;
}

/**
 * The complete mapping of `model`: the conventions, with `overrides` applied (a complete mapping
 * resolves to itself). Throws SqlMappingError naming every problem: unknown sets, properties or
 * roles, names that collide in a table, storage that does not fit a multiplicity.
 */
export function resolveMapping(model: EdmModel, overrides: SqlMappingOverrides = {}): SqlMapping {
  return resolve(model, overrides, false);
}

/**
 * Check a complete mapping (e.g. one read from mapping.json) against `model`: every entity set,
 * property and association set mapped, nothing unknown, nothing colliding. Returns it typed;
 * throws SqlMappingError naming every problem.
 */
export function validateMapping(model: EdmModel, mapping: unknown): SqlMapping {
  return resolve(model, mapping, true);
}
