/**
 * Validation shared by the Atom and verbose JSON entry readers: the type named by the body, property
 * names, facets, the key against the URL, and the assembly of an EntryBody with duplicate checks.
 */
import type { EdmEntitySet, EdmEntityType, EdmNavigationProperty, EdmProperty, EdmPropertyTypeRef } from '../edm/model';
import type { PrimitiveValue, PropertyValue } from '../edm/primitives';
import { checkFacets } from '../edm/payload-values';
import { ODataError } from '../errors';
import type { EntityKey } from '../uri/types';
import { didYouMean } from '../util';
import type { EntryBody, EntryReference, EntryTarget, ReadContext } from './entry-body';
import { DEFAULT_MAX_INLINE_DEPTH } from './entry-body';

/** True when `type` is `base` or derives from it. */
function isSameOrDerived(type: EdmEntityType, base: EdmEntityType): boolean {
  for (let current: EdmEntityType | undefined = type; current !== undefined; current = current.baseType) {
    if (current === base) return true;
  }
  return false;
}

/**
 * The entity type an entry body names (Atom category term, JSON `__metadata.type`), checked against
 * the declared one: MS-ODATA §2.2.6.2.2 lets an entry be of the declared type or a type derived from it.
 */
export function resolveEntryType(name: string | undefined, declared: EdmEntityType, context: ReadContext): EdmEntityType {
  if (name === undefined) return declared;
  const named = context.model.entityTypes.get(name.trim());
  if (named === undefined) {
    throw ODataError.fromCode('BODY_INVALID', {
      detail: `the entity type '${name}' is not defined in the model.${didYouMean(name, context.model.entityTypes.keys())}`,
    });
  }
  if (!isSameOrDerived(named, declared)) {
    throw ODataError.fromCode('BODY_INVALID', {
      detail: `the entity type '${named.qualifiedName}' is not '${declared.qualifiedName}' or a type derived from it.`,
    });
  }
  return named;
}

/** 400 for a member name the type does not declare, with suggestions. */
export function unknownPropertyError(
  name: string,
  owner: { readonly qualifiedName: string; readonly propertiesByName: ReadonlyMap<string, unknown> },
  navigation?: ReadonlyMap<string, unknown>,
): ODataError {
  const candidates = navigation === undefined ? [...owner.propertiesByName.keys()] : [...owner.propertiesByName.keys(), ...navigation.keys()];
  return ODataError.fromCode('BODY_INVALID', {
    detail: `the type '${owner.qualifiedName}' has no property '${name}'.${didYouMean(name, candidates)}`,
  });
}

/** 400 VALUE_INVALID when a value breaks the property's facets (Nullable, MaxLength, Precision, Scale). */
export function assertFacets(property: EdmProperty, value: PropertyValue): void {
  let violation: string | undefined;
  if (property.type.kind === 'Complex') {
    // CSDL §2.2: Nullable on a complex property; the primitive facets do not apply to it.
    if (value === null && !property.nullable) violation = 'the property is not nullable.';
  } else {
    violation = checkFacets(property, value);
  }
  if (violation !== undefined) {
    const type = property.type.kind === 'Primitive' ? property.type.name : property.type.type.qualifiedName;
    throw ODataError.fromCode('VALUE_INVALID', { property: property.name, type, detail: violation }, { target: property.name });
  }
}

/** Equality of primitive values in their JS form (Date by instant, binary by bytes). */
function primitiveEquals(a: PropertyValue, b: PrimitiveValue): boolean {
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (a instanceof Uint8Array) return b instanceof Uint8Array && Buffer.compare(a, b) === 0;
  return a === b;
}

/** 400 KEY_MISMATCH when a key property in the body differs from the key in the URL (PUT/MERGE). */
function assertKeyMatches(type: EdmEntityType, properties: ReadonlyMap<string, PropertyValue>, expected: EntityKey | undefined): void {
  if (expected === undefined) return;
  for (const keyProperty of type.key) {
    if (!properties.has(keyProperty.name)) continue;
    const wanted = expected[keyProperty.name];
    if (wanted === undefined || !primitiveEquals(properties.get(keyProperty.name) ?? null, wanted)) {
      throw ODataError.fromCode('KEY_MISMATCH', {}, { target: keyProperty.name });
    }
  }
}

/** The deepest inline nesting allowed. */
function maxInlineDepth(context: ReadContext): number {
  return context.limits?.maxInlineDepth ?? DEFAULT_MAX_INLINE_DEPTH;
}

/** The entity set new inline entries of `property` go to; 400 when the model binds none. */
export function inlineTargetSet(source: EdmEntitySet, property: EdmNavigationProperty, context: ReadContext, depth: number): EdmEntitySet {
  if (depth >= maxInlineDepth(context)) {
    throw ODataError.fromCode('BODY_INVALID', {
      detail: `inline entries are nested deeper than ${maxInlineDepth(context)} levels (at '${property.name}').`,
    });
  }
  const target = context.model.navigationTarget(source, property);
  if (target === undefined) {
    throw ODataError.fromCode('BODY_INVALID', {
      detail: `'${property.name}' has no entity set to insert inline entries into.`,
    });
  }
  return target;
}

/** Collects the parts of one entry while a reader walks it, refusing duplicates. */
export class EntryBuilder {
  readonly properties = new Map<string, PropertyValue>();
  private readonly dynamicTypes = new Map<string, EdmPropertyTypeRef>();
  private readonly bindings = new Map<EdmNavigationProperty, EntryReference[]>();
  private readonly inline = new Map<EdmNavigationProperty, { entitySet: EdmEntitySet; entries: EntryBody[] }>();
  /** Navigation properties given explicitly, to refuse a second value for a single-valued one. */
  private readonly seen = new Set<EdmNavigationProperty>();

  constructor(readonly entityType: EdmEntityType) {}

  /** Add a property value (with its type when dynamic); a property given twice is a 400. */
  setProperty(name: string, value: PropertyValue, dynamicType?: EdmPropertyTypeRef): void {
    if (this.properties.has(name)) {
      throw ODataError.fromCode('BODY_INVALID', { detail: `the property '${name}' is given more than once.` });
    }
    this.properties.set(name, value);
    if (dynamicType !== undefined) this.dynamicTypes.set(name, dynamicType);
  }

  /** True when the property was already given. */
  hasProperty(name: string): boolean {
    return this.properties.has(name);
  }

  /** Mark a navigation property as given; a single-valued one given twice is a 400. */
  private touch(property: EdmNavigationProperty): void {
    if (!property.isCollection && this.seen.has(property)) {
      throw ODataError.fromCode('BODY_INVALID', {
        detail: `the single-valued navigation property '${property.name}' is given more than once.`,
      });
    }
    this.seen.add(property);
  }

  /** Record a link to an existing entry. */
  addBinding(property: EdmNavigationProperty, target: EntryReference): void {
    this.touch(property);
    const list = this.bindings.get(property);
    if (list === undefined) this.bindings.set(property, [target]);
    else list.push(target);
  }

  /** Record new entries (possibly none: explicit null for a single-valued navigation). */
  addInline(property: EdmNavigationProperty, entitySet: EdmEntitySet, entries: readonly EntryBody[]): void {
    this.touch(property);
    if (!property.isCollection && entries.length > 1) {
      throw ODataError.fromCode('BODY_INVALID', {
        detail: `the single-valued navigation property '${property.name}' holds more than one entry.`,
      });
    }
    const existing = this.inline.get(property);
    if (existing === undefined) this.inline.set(property, { entitySet, entries: [...entries] });
    else existing.entries.push(...entries);
  }

  /** The finished entry, after the key check against the URL. */
  build(target: EntryTarget | undefined, mediaLinkEntry: boolean, id: string | undefined): EntryBody {
    assertKeyMatches(this.entityType, this.properties, target?.expectedKey);
    const entry: EntryBody = {
      entityType: this.entityType,
      properties: this.properties,
      bindings: [...this.bindings].map(([property, targets]) => ({ property, targets })),
      inline: [...this.inline].map(([property, { entitySet, entries }]) => ({ property, entitySet, entries })),
      mediaLinkEntry,
      ...(this.dynamicTypes.size > 0 ? { dynamicTypes: this.dynamicTypes } : {}),
      ...(id === undefined ? {} : { id }),
    };
    return entry;
  }
}
