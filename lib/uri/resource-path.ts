/**
 * The resource path, resolved against the model (MS-ODATA §2.2.3.1 "URI Syntax", §2.2.3.5
 * "Resource Path: Semantics"). A small state machine walks the decoded segments; each state says
 * which segments may follow. The result is a typed ResourcePath: handlers never see the text.
 *
 * Errors, one rule for all (docs/uri.md "Errors"):
 * - 404 URI_UNKNOWN_SEGMENT: a name that resolves to nothing where a name is looked up (an entity
 *   set, property, navigation property, or an unknown `$` word), with did-you-mean suggestions.
 *   WCF answers these "Resource not found for the segment ...".
 * - 404 RESOURCE_NOT_FOUND: a navigation property the model binds to no entity set.
 * - 400 URI_INVALID_SEGMENT: a known segment in a place the grammar does not allow (a key on a
 *   single entity, anything after `$value`/`$count`/`$metadata`, a property after a collection).
 * - 400 URI_KEY_SYNTAX: a key predicate that does not fit the key (key-predicate.ts).
 */
import { ODataError } from '../errors';
import type { EdmComplexType, EdmEntitySet, EdmEntityType, EdmFunctionImport, EdmModel, EdmNavigationProperty, EdmProperty } from '../edm/model';
import { didYouMean } from '../util';
import { parseKeyPredicate } from './key-predicate';
import { invalidSegment, splitPath, splitSegment } from './segments';
import type { PathSegment } from './segments';
import type { EntityKey, EntityPath, KeyedEntityPath, PropertyStep, ResourcePath } from './types';

/** Where the walk is: the entities reached so far, and the path that reached them (a keyed one past one entity). */
interface EntityBase<P extends EntityPath = EntityPath> {
  readonly path: P;
  readonly entitySet: EdmEntitySet;
  readonly entityType: EdmEntityType;
}

/** The walk after one entity: only a path with a key on its root gets there. */
type EntityPastKey = EntityBase<KeyedEntityPath>;

type Cursor =
  | { readonly state: 'Collection'; readonly kind: 'EntitySet' | 'NavigationCollection'; readonly base: EntityBase }
  | { readonly state: 'Entity'; readonly kind: 'Entity' | 'NavigationEntity'; readonly base: EntityPastKey }
  | { readonly state: 'Complex'; readonly base: EntityPastKey; readonly properties: readonly PropertyStep[]; readonly type: EdmComplexType }
  | { readonly state: 'Primitive'; readonly base: EntityPastKey; readonly properties: readonly PropertyStep[] }
  | { readonly state: 'LinksStart'; readonly base: EntityPastKey }
  | {
      readonly state: 'Links';
      readonly kind: 'Links' | 'Link';
      readonly base: EntityPastKey;
      readonly navigationProperty: EdmNavigationProperty;
      readonly targetEntitySet: EdmEntitySet;
      readonly targetKey: EntityKey | undefined;
    }
  | { readonly state: 'ServiceOperation'; readonly functionImport: EdmFunctionImport }
  /** A segment after which nothing may follow (`$value`, `$count`, `$metadata`, `$batch`). */
  | { readonly state: 'Final'; readonly result: ResourcePath; readonly last: string };

/** The `$` words of a resource path, for suggestions. */
const ROOT_KEYWORDS = ['$metadata', '$batch'] as const;
const ENTITY_KEYWORDS = ['$count', '$value', '$links'] as const;
const ALL_KEYWORDS: ReadonlySet<string> = new Set<string>([...ROOT_KEYWORDS, ...ENTITY_KEYWORDS]);

const SERVICE_DOCUMENT: ResourcePath = Object.freeze({ kind: 'ServiceDocument' });
const METADATA: ResourcePath = Object.freeze({ kind: 'Metadata' });
const BATCH: ResourcePath = Object.freeze({ kind: 'Batch' });

function unknownSegment(segment: PathSegment, name: string, candidates: Iterable<string>): ODataError {
  return ODataError.fromCode(
    'URI_UNKNOWN_SEGMENT',
    { segment: segment.text, suggestion: didYouMean(name, candidates) },
    { target: segment.text, position: segment.start },
  );
}

/** A `$` word: misplaced known ones are 400, unknown ones 404 with suggestions. */
function misplacedKeyword(segment: PathSegment, name: string, allowed: readonly string[], detail: string): ODataError {
  if (ALL_KEYWORDS.has(name)) return invalidSegment(segment, detail);
  return unknownSegment(segment, name, allowed);
}

function noPredicate(segment: PathSegment, predicate: string | undefined, what: string): void {
  if (predicate !== undefined) throw invalidSegment(segment, `${what} takes no parenthesised part`);
}

/** Look a name up in the default container, also as `Container.Name` (MS-ODATA §2.2.3.1 `[entityContainer "."] entitySet`). */
function lookupRoot<T>(map: ReadonlyMap<string, T>, name: string, model: EdmModel): T | undefined {
  const direct = map.get(name);
  if (direct !== undefined) return direct;
  const prefix = `${model.defaultContainer.name}.`;
  return name.startsWith(prefix) ? map.get(name.slice(prefix.length)) : undefined;
}

/**
 * The first segment.
 *
 *   resourcePath = "/" ( ( [entityContainer "."] entitySet [ paren / "(" keyPredicate ")" ] [ navPath ] [ count ] )
 *                      / serviceOperation [ paren ] [ count / value ] )
 *   paren        = "()"
 */
function first(segment: PathSegment, model: EdmModel): Cursor {
  const { name, predicate } = splitSegment(segment);
  if (name === '$metadata' || name === '$batch') {
    noPredicate(segment, predicate, name);
    return { state: 'Final', result: name === '$metadata' ? METADATA : BATCH, last: name };
  }
  if (name.startsWith('$')) {
    throw misplacedKeyword(segment, name, ROOT_KEYWORDS, `'${name}' must follow an entity set, an entity or a property`);
  }
  const entitySet = lookupRoot(model.entitySets, name, model);
  if (entitySet !== undefined) {
    const { entityType } = entitySet;
    if (!predicate)
      return { state: 'Collection', kind: 'EntitySet', base: { path: { root: { entitySet, key: undefined }, navigation: [] }, entitySet, entityType } };
    const root = { entitySet, key: parseKeyPredicate(predicate, entityType) };
    return { state: 'Entity', kind: 'Entity', base: { path: { root, navigation: [] }, entitySet, entityType } };
  }
  const functionImport = lookupRoot(model.functionImports, name, model);
  if (functionImport !== undefined) {
    if (predicate) {
      throw invalidSegment(segment, `the service operation '${name}' takes its parameters in the query string, not in parentheses`);
    }
    return { state: 'ServiceOperation', functionImport };
  }
  throw unknownSegment(segment, name, [...model.entitySets.keys(), ...model.functionImports.keys()]);
}

/**
 * A segment after one entity.
 *
 *   navPath-np = "/" ( "$links" "/" entityNavProperty / entityNavProperty / entityProperty / "$value" )
 * (`$count` after one entity is refused: MS-ODATA's `count` follows collections only.)
 *   entityNavProperty = entityNavProperty-es [ paren / "(" keyPredicate ")" ] / entityNavProperty-et
 */
function afterEntity(base: EntityPastKey, segment: PathSegment, model: EdmModel): Cursor {
  const { name, predicate } = splitSegment(segment);
  const type = base.entityType;
  switch (name) {
    case '$count':
      noPredicate(segment, predicate, name);
      // MS-ODATA §2.2.3.1: `count` follows an entity set or a collection navigation property only;
      // WCF: "$count can only follow a resource segment that refers to a collection".
      throw invalidSegment(segment, `$count can only follow a collection; '${previousName(base)}' addresses a single entity`);
    case '$value':
      noPredicate(segment, predicate, name);
      // MS-ODATA §2.2.3.5 URI17: the media resource of a media link entry (m:HasStream="true").
      if (!type.hasStream) throw invalidSegment(segment, `the entity type '${type.qualifiedName}' has no media resource (m:HasStream)`);
      return { state: 'Final', result: { kind: 'MediaResource', path: base.path, entitySet: base.entitySet, entityType: type }, last: name };
    case '$links':
      noPredicate(segment, predicate, name);
      return { state: 'LinksStart', base };
  }
  if (name.startsWith('$')) {
    throw misplacedKeyword(segment, name, ENTITY_KEYWORDS, `'${name}' cannot follow an entity`);
  }
  const navigation = type.navigationPropertiesByName.get(name);
  if (navigation !== undefined) return navigate(base, navigation, predicate, segment, model);
  const property = type.propertiesByName.get(name);
  if (property !== undefined) {
    noPredicate(segment, predicate, `the property '${name}'`);
    return propertyCursor(base, [], property);
  }
  if (type.openType) {
    // MS-ODATA §2.2.3.5: dynamic properties of open types are addressed like declared ones.
    noPredicate(segment, predicate, `the dynamic property '${name}'`);
    return { state: 'Primitive', base, properties: [{ kind: 'Dynamic', name }] };
  }
  throw unknownSegment(segment, name, [...type.propertiesByName.keys(), ...type.navigationPropertiesByName.keys(), ...ENTITY_KEYWORDS]);
}

/** The name of the segment that reached `base`: its last navigation property, or its entity set. */
function previousName(base: EntityPastKey): string {
  const { root, navigation } = base.path;
  const last = navigation[navigation.length - 1];
  return last === undefined ? root.entitySet.name : last.property.name;
}

/** Follow a navigation property; a key is allowed after a many-valued one only. */
function navigate(base: EntityPastKey, property: EdmNavigationProperty, predicate: string | undefined, segment: PathSegment, model: EdmModel): Cursor {
  const entitySet = model.navigationTarget(base.entitySet, property);
  if (entitySet === undefined) {
    throw ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: segment.text }, { target: segment.text, position: segment.start });
  }
  let key: EntityKey | undefined;
  if (property.isCollection) {
    if (predicate) key = parseKeyPredicate(predicate, property.target);
  } else if (predicate !== undefined) {
    throw invalidSegment(segment, `'${property.name}' addresses a single entity; a key predicate is not allowed`);
  }
  const next: EntityPastKey = {
    path: { root: base.path.root, navigation: [...base.path.navigation, { property, entitySet, key }] },
    entitySet,
    entityType: property.target,
  };
  if (key !== undefined) return { state: 'Entity', kind: 'Entity', base: next };
  return property.isCollection ? { state: 'Collection', kind: 'NavigationCollection', base: next } : { state: 'Entity', kind: 'NavigationEntity', base: next };
}

function propertyCursor(base: EntityPastKey, before: readonly PropertyStep[], property: EdmProperty): Cursor {
  const properties: readonly PropertyStep[] = [...before, { kind: 'Property', property }];
  return property.type.kind === 'Complex' ? { state: 'Complex', base, properties, type: property.type.type } : { state: 'Primitive', base, properties };
}

/**
 * `$links/NavProperty[(key)]` (MS-ODATA §2.2.3.5 URI7).
 *
 *   links = "/$links/" entityNavProperty [ "(" keyPredicate ")" ] [ count ]
 */
function afterLinks(base: EntityPastKey, segment: PathSegment, model: EdmModel): Cursor {
  const { name, predicate } = splitSegment(segment);
  const type = base.entityType;
  const property = type.navigationPropertiesByName.get(name);
  if (property === undefined) {
    if (name.startsWith('$') || type.propertiesByName.has(name)) {
      throw invalidSegment(segment, "'$links' must be followed by a navigation property");
    }
    throw unknownSegment(segment, name, type.navigationPropertiesByName.keys());
  }
  const targetEntitySet = model.navigationTarget(base.entitySet, property);
  if (targetEntitySet === undefined) {
    throw ODataError.fromCode('RESOURCE_NOT_FOUND', { segment: segment.text }, { target: segment.text, position: segment.start });
  }
  let targetKey: EntityKey | undefined;
  if (property.isCollection) {
    if (predicate) targetKey = parseKeyPredicate(predicate, property.target);
  } else if (predicate !== undefined) {
    throw invalidSegment(segment, `'${property.name}' addresses a single entity; a key predicate is not allowed`);
  }
  const kind = property.isCollection && targetKey === undefined ? 'Links' : 'Link';
  return { state: 'Links', kind, base, navigationProperty: property, targetEntitySet, targetKey };
}

/** `$count` and `$value` after a service operation, where its return type allows them (MS-ODATA §2.2.3.1 serviceOperation). */
function afterServiceOperation(functionImport: EdmFunctionImport, segment: PathSegment): Cursor {
  const { name, predicate } = splitSegment(segment);
  const returnType = functionImport.returnType;
  if (name === '$count' && predicate === undefined && returnType?.kind === 'Entity' && returnType.collection) {
    return { state: 'Final', result: { kind: 'ServiceOperation', functionImport, suffix: 'count' }, last: name };
  }
  if (name === '$value' && predicate === undefined && returnType?.kind === 'Primitive' && !returnType.collection) {
    return { state: 'Final', result: { kind: 'ServiceOperation', functionImport, suffix: 'value' }, last: name };
  }
  throw invalidSegment(
    segment,
    `only $count (after a collection of entities) or $value (after a single primitive value) may follow the service operation '${functionImport.name}'`,
  );
}

function step(cursor: Cursor, segment: PathSegment, previous: PathSegment, model: EdmModel): Cursor {
  switch (cursor.state) {
    case 'Entity':
      return afterEntity(cursor.base, segment, model);
    case 'Collection': {
      const { name, predicate } = splitSegment(segment);
      if (name === '$count' && predicate === undefined) {
        const { base } = cursor;
        return { state: 'Final', result: { kind: 'CollectionCount', path: base.path, entitySet: base.entitySet, entityType: base.entityType }, last: name };
      }
      // WCF: "Since the segment refers to a collection, this must be the last segment" (400).
      throw invalidSegment(segment, `'${previous.text}' is a collection; address one entity with a key predicate before '${name}'`);
    }
    case 'Complex': {
      const { name, predicate } = splitSegment(segment);
      const member = cursor.type.propertiesByName.get(name);
      if (member !== undefined) {
        noPredicate(segment, predicate, `the property '${name}'`);
        return propertyCursor(cursor.base, cursor.properties, member);
      }
      if (name.startsWith('$')) {
        throw misplacedKeyword(segment, name, [], `'${name}' cannot follow the complex property '${previous.text}'`);
      }
      throw unknownSegment(segment, name, cursor.type.propertiesByName.keys());
    }
    case 'Primitive': {
      const { name, predicate } = splitSegment(segment);
      if (name === '$value' && predicate === undefined) {
        const { base, properties } = cursor;
        const result: ResourcePath = { kind: 'PropertyValue', path: base.path, entitySet: base.entitySet, entityType: base.entityType, properties };
        return { state: 'Final', result, last: name };
      }
      throw invalidSegment(segment, `only '$value' may follow the primitive property '${previous.text}'`);
    }
    case 'LinksStart':
      return afterLinks(cursor.base, segment, model);
    case 'Links': {
      const { name, predicate } = splitSegment(segment);
      if (name === '$count' && predicate === undefined) {
        if (cursor.kind === 'Link') {
          throw invalidSegment(segment, `$count can only follow a collection; '$links/${cursor.navigationProperty.name}' addresses a single link`);
        }
        return { state: 'Final', result: { ...linksPath(cursor), kind: 'LinksCount' }, last: name };
      }
      throw invalidSegment(
        segment,
        cursor.kind === 'Links'
          ? `only '$count' may follow '$links/${cursor.navigationProperty.name}'`
          : `nothing may follow the single link '$links/${cursor.navigationProperty.name}'`,
      );
    }
    case 'ServiceOperation':
      return afterServiceOperation(cursor.functionImport, segment);
    case 'Final':
      throw invalidSegment(segment, `'${cursor.last}' must be the last segment`);
  }
}

function linksPath(cursor: Extract<Cursor, { state: 'Links' }>): Extract<ResourcePath, { kind: 'Links' | 'Link' | 'LinksCount' }> {
  const { base } = cursor;
  return {
    kind: cursor.kind,
    path: base.path,
    entitySet: base.entitySet,
    entityType: base.entityType,
    navigationProperty: cursor.navigationProperty,
    targetEntitySet: cursor.targetEntitySet,
    targetKey: cursor.targetKey,
  };
}

function finish(cursor: Cursor, last: PathSegment): ResourcePath {
  switch (cursor.state) {
    case 'Collection': {
      const { base } = cursor;
      return { kind: cursor.kind, path: base.path, entitySet: base.entitySet, entityType: base.entityType };
    }
    case 'Entity': {
      const { base } = cursor;
      return { kind: cursor.kind, path: base.path, entitySet: base.entitySet, entityType: base.entityType };
    }
    case 'Complex':
    case 'Primitive': {
      const { base } = cursor;
      const kind = cursor.state === 'Complex' ? 'ComplexProperty' : 'PrimitiveProperty';
      return { kind, path: base.path, entitySet: base.entitySet, entityType: base.entityType, properties: cursor.properties };
    }
    case 'LinksStart':
      throw invalidSegment(last, "'$links' must be followed by a navigation property");
    case 'Links':
      return linksPath(cursor);
    case 'ServiceOperation':
      return { kind: 'ServiceOperation', functionImport: cursor.functionImport, suffix: undefined };
    case 'Final':
      return cursor.result;
  }
}

/**
 * Resolve a resource path (relative to the service root, still percent-encoded, with or without a
 * leading `/`) against the model (MS-ODATA §2.2.3.1, §2.2.3.5). The empty path is the service
 * document. Throws 404 URI_UNKNOWN_SEGMENT / RESOURCE_NOT_FOUND or 400 URI_INVALID_SEGMENT /
 * URI_KEY_SYNTAX / URI_PERCENT_ENCODING (see the module header).
 */
export function parseResourcePath(path: string, model: EdmModel): ResourcePath {
  const segments = splitPath(path);
  if (segments.length === 0) return SERVICE_DOCUMENT;
  let cursor = first(segments[0], model);
  for (let i = 1; i < segments.length; i++) cursor = step(cursor, segments[i], segments[i - 1], model);
  return finish(cursor, segments[segments.length - 1]);
}
