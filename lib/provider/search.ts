/**
 * The meaning of SAP's `search`, defined once for every provider and the evaluator: a filter AST
 * made of the expression nodes `$filter` uses, so MemoryProvider evaluates it and SqlProvider
 * translates it exactly as it would the same `$filter`. The URI layer splits the text into terms
 * (lib/uri/search.ts); this module decides what they match.
 */
import type { EdmEntityType, EdmProperty } from '../edm/model';
import { sapSwitch } from '../edm/sap';
import type { CallNode, ExprNode } from '../uri/expr/ast';
import type { FunctionName } from '../uri/expr/functions';
import { allOf, anyOf, and, literal, propertyMember } from './nodes';
import type { QueryRequest } from './types';

const STRING = { kind: 'Primitive', name: 'Edm.String' } as const;
const BOOLEAN = { kind: 'Primitive', name: 'Edm.Boolean' } as const;

const SEARCHABLE = new WeakMap<EdmEntityType, readonly EdmProperty[]>();

/**
 * The properties `search` looks in: the entity type's own and inherited top-level `Edm.String`
 * properties, keys included, except those the model marks `sap:searchable="false"`. Members of
 * complex properties, properties of derived types and dynamic properties of open types are not
 * searched. Computed once per type.
 */
export function searchableProperties(entityType: EdmEntityType): readonly EdmProperty[] {
  let properties = SEARCHABLE.get(entityType);
  if (properties === undefined) {
    properties = Object.freeze(
      entityType.properties.filter(
        (property) => property.type.kind === 'Primitive' && property.type.name === 'Edm.String' && sapSwitch(property, 'searchable') !== false,
      ),
    );
    SEARCHABLE.set(entityType, properties);
  }
  return properties;
}

function call(name: FunctionName, args: readonly ExprNode[], type: CallNode['type']): CallNode {
  return { kind: 'Call', name, args, type };
}

/**
 * SAP's `search` as a type-checked filter: an entity passes when every term is contained, ignoring
 * case, in at least one searchable property (`searchableProperties`). Each term is one conjunct,
 * the `or` over the properties of `substringof('<term in lower case>', tolower(Property))`, the
 * term lowered as `tolower` lowers (JavaScript's full Unicode mapping: `Ä` finds `ä`, `ẞ` finds
 * `ß`), so any provider that translates `$filter` translates this too. Terms that are equal in
 * lower case count once; a type without searchable properties matches nothing (`false`);
 * undefined for no terms.
 */
export function searchFilter(entityType: EdmEntityType, terms: readonly string[]): ExprNode | undefined {
  if (terms.length === 0) return undefined;
  const properties = searchableProperties(entityType);
  const members = properties.map((property) => call('tolower', [propertyMember(entityType, property.name)], STRING));
  const lowered = [...new Set(terms.map((term) => term.toLowerCase()))];
  return allOf(lowered.map((term) => anyOf(members.map((member) => call('substringof', [literal(term, 'Edm.String'), member], BOOLEAN)))));
}

/**
 * What an entity must pass to be in the result of a query or count: its `filter` and its `search`
 * (`searchFilter`), combined with `and`; undefined for neither. A provider that translates this one
 * condition applies both.
 */
export function requestFilter(request: Pick<QueryRequest, 'entityType' | 'filter' | 'search'>): ExprNode | undefined {
  const search = request.search === undefined ? undefined : searchFilter(request.entityType, request.search);
  if (search === undefined) return request.filter;
  return request.filter === undefined ? search : and(request.filter, search);
}
