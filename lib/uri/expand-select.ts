/**
 * `$expand` and `$select` (MS-ODATA §2.2.3.6.1.3 "Expand", §2.2.3.6.1.11 "Select") resolved into
 * the recursive SelectExpand tree: one level per entity in the response, each with what is
 * selected there and which navigation properties are expanded below it.
 *
 * Rules (docs/uri.md "$select and $expand"):
 * - `$select=Category` without `$expand=Category` selects the deferred link only.
 * - `$select=Category/Name` needs `$expand=Category` (WCF refuses paths through deferred links).
 * - An expanded navigation property is always written, selected or not: a client that expands
 *   means to read it (SAP Gateway does the same; WCF silently drops it).
 * - Complex properties are selected whole (`Address`, not `Address/City`): OData 2.0 has no
 *   member selection.
 */
import { ODataError } from '../errors';
import type { EdmEntitySet, EdmEntityType, EdmModel, EdmNavigationProperty } from '../edm/model';
import { didYouMean } from '../util';
import type { ExpandItem, SelectExpand, Selection } from './types';

/** No `$select` and no `$expand`: every property, every navigation property deferred. Shared and frozen. */
export const NO_SELECT_EXPAND: SelectExpand = Object.freeze({ select: undefined, expand: Object.freeze([]) });

/** The limits `$expand` is held to. */
interface ExpandLimits {
  /** Deepest path (`A/B/C` is 3). */
  readonly maxExpandDepth: number;
  /** Most comma-separated paths. */
  readonly maxExpandBreadth: number;
}

interface SelectionBuilder {
  all: boolean;
  readonly properties: Set<string>;
  readonly navigationProperties: Set<string>;
}

interface LevelBuilder {
  readonly entitySet: EdmEntitySet;
  readonly entityType: EdmEntityType;
  readonly property: EdmNavigationProperty | undefined;
  readonly children: Map<string, LevelBuilder>;
  select: SelectionBuilder | undefined;
  /** Selected as a whole from the level above (`$select=Category`): everything is written. */
  selectedWhole: boolean;
}

/** One comma-separated item, with its offset in the option text. */
interface Item {
  readonly text: string;
  readonly start: number;
}

function invalid(option: '$expand' | '$select', value: string, detail: string, position: number): ODataError {
  return ODataError.fromCode('QUERY_INVALID_VALUE', { value, option, detail }, { target: option, position });
}

/** Split on `,`, trimming blanks around items (MS-ODATA selectClause allows WSP); empty items are 400. */
function splitItems(option: '$expand' | '$select', text: string): Item[] {
  const items: Item[] = [];
  let start = 0;
  for (const part of text.split(',')) {
    const trimmed = part.trim();
    const offset = start + (part.length - part.trimStart().length);
    if (trimmed.length === 0) throw invalid(option, text, `an empty item at position ${start}`, start);
    items.push({ text: trimmed, start: offset });
    start += part.length + 1;
  }
  return items;
}

function newLevel(entitySet: EdmEntitySet, entityType: EdmEntityType, property: EdmNavigationProperty | undefined): LevelBuilder {
  return { entitySet, entityType, property, children: new Map(), select: undefined, selectedWhole: false };
}

function memberNames(type: EdmEntityType): string[] {
  return [...type.propertiesByName.keys(), ...type.navigationPropertiesByName.keys()];
}

/**
 *   expandClause = expandItem *( "," expandItem )
 *   expandItem   = entityNavProperty *( "/" entityNavProperty )
 */
function applyExpand(root: LevelBuilder, text: string, model: EdmModel, limits: ExpandLimits): void {
  const items = splitItems('$expand', text);
  if (items.length > limits.maxExpandBreadth) {
    throw ODataError.fromCode(
      'QUERY_LIMIT_EXCEEDED',
      { option: '$expand', limit: limits.maxExpandBreadth, detail: `it lists ${items.length} paths` },
      { target: '$expand' },
    );
  }
  for (const item of items) {
    const steps = item.text.split('/');
    if (steps.length > limits.maxExpandDepth) {
      throw ODataError.fromCode(
        'QUERY_LIMIT_EXCEEDED',
        { option: '$expand', limit: limits.maxExpandDepth, detail: `'${item.text}' is ${steps.length} levels deep` },
        { target: '$expand', position: item.start },
      );
    }
    let level = root;
    let offset = item.start;
    for (const name of steps) {
      const type = level.entityType;
      const navigation = type.navigationPropertiesByName.get(name);
      if (navigation === undefined) {
        const detail = type.propertiesByName.has(name)
          ? `'${name}' at position ${offset} is not a navigation property of '${type.qualifiedName}'`
          : `no navigation property '${name}' exists in '${type.qualifiedName}' (position ${offset}).${didYouMean(name, type.navigationPropertiesByName.keys())}`;
        throw invalid('$expand', text, detail, offset);
      }
      let child = level.children.get(name);
      if (child === undefined) {
        const entitySet = model.navigationTarget(level.entitySet, navigation);
        if (entitySet === undefined) {
          throw invalid('$expand', text, `the navigation property '${name}' is bound to no entity set`, offset);
        }
        child = newLevel(entitySet, navigation.target, navigation);
        level.children.set(name, child);
      }
      level = child;
      offset += name.length + 1;
    }
  }
}

function selectionOf(level: LevelBuilder): SelectionBuilder {
  if (level.select === undefined) level.select = { all: false, properties: new Set(), navigationProperties: new Set() };
  return level.select;
}

/**
 *   selectClause = [WSP] selectItem [ [WSP] "," selectClause ] [WSP]
 *   selectItem   = star / selectedProperty / ( selectedNavProperty [ "/" selectItem ] )
 *   star         = "*"
 */
function applySelect(root: LevelBuilder, text: string): void {
  for (const item of splitItems('$select', text)) {
    const steps = item.text.split('/');
    let level = root;
    let offset = item.start;
    for (let i = 0; i < steps.length; i++) {
      const name = steps[i];
      const last = i === steps.length - 1;
      const type = level.entityType;
      const selection = selectionOf(level);
      if (name === '*') {
        if (!last) throw invalid('$select', text, `'*' must end a select path (position ${offset})`, offset);
        selection.all = true;
        break;
      }
      const navigation = type.navigationPropertiesByName.get(name);
      if (navigation !== undefined) {
        selection.navigationProperties.add(name);
        const child = level.children.get(name);
        if (last) {
          if (child !== undefined) child.selectedWhole = true;
          break;
        }
        if (child === undefined) {
          throw invalid('$select', text, `'${item.text}' selects into '${name}', which is not expanded; add it to $expand`, offset);
        }
        level = child;
        offset += name.length + 1;
        continue;
      }
      if (type.propertiesByName.has(name) || type.openType) {
        if (!last) {
          throw invalid('$select', text, `'${item.text}': '${name}' is a property; only navigation properties may be followed by '/'`, offset);
        }
        selection.properties.add(name);
        break;
      }
      throw invalid(
        '$select',
        text,
        `no property '${name}' exists in '${type.qualifiedName}' (position ${offset}).${didYouMean(name, memberNames(type))}`,
        offset,
      );
    }
  }
}

function freezeLevel(level: LevelBuilder): SelectExpand {
  const expand: ExpandItem[] = [];
  for (const child of level.children.values()) {
    const inner = freezeLevel(child);
    if (child.property !== undefined) {
      expand.push(Object.freeze({ property: child.property, entitySet: child.entitySet, select: inner.select, expand: inner.expand }));
    }
  }
  let select: Selection | undefined;
  if (level.select !== undefined && !level.selectedWhole) {
    const navigationProperties = new Set(level.select.navigationProperties);
    for (const name of level.children.keys()) navigationProperties.add(name);
    select = Object.freeze({ allProperties: level.select.all, properties: level.select.properties, navigationProperties });
  }
  return Object.freeze({ select, expand: Object.freeze(expand) });
}

/**
 * Resolve `$select` and `$expand` (either may be undefined) for entities of `entityType` in
 * `entitySet`. Unknown names are 400 QUERY_INVALID_VALUE with suggestions; `$expand` over its
 * depth or breadth limit is 400 QUERY_LIMIT_EXCEEDED.
 */
export function parseSelectExpand(
  select: string | undefined,
  expand: string | undefined,
  entitySet: EdmEntitySet,
  entityType: EdmEntityType,
  model: EdmModel,
  limits: ExpandLimits,
): SelectExpand {
  const root = newLevel(entitySet, entityType, undefined);
  if (expand !== undefined) applyExpand(root, expand, model, limits);
  if (select !== undefined) applySelect(root, select);
  return freezeLevel(root);
}
