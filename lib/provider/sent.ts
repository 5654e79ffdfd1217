/**
 * Sent properties: which properties a client actually listed in a create or update body, the
 * rule for required properties (a create, a replace), what a replace resets, and the model's
 * defaults for a provider that fills them itself (a create's `values` are only what was sent).
 */
import { propertyCapabilities } from '../edm/sap';
import { defaultValueOf } from '../edm/facets';
import type { EdmAssociationEnd, EdmEntityType, EdmNavigationProperty, EdmProperty } from '../edm/model';
import type { PropertyValue } from '../edm/primitives';
import { ODataError } from '../errors';
import type { CreateRequest, LinkBinding } from './types';

/** The CSDL annotation namespace of `StoreGeneratedPattern` (EF's `annotation:` prefix). */
const STORE_GENERATED_NAMESPACE = 'http://schemas.microsoft.com/ado/2009/02/edm/annotation';

/**
 * True when the model says the store computes the property: `annotation:StoreGeneratedPattern`
 * is `Identity` or `Computed` (the CSDL annotation Entity Framework writes for identity and
 * computed columns).
 */
export function isStoreGenerated(property: EdmProperty): boolean {
  return property.annotationAttributes.some(
    (attribute) =>
      attribute.name === 'StoreGeneratedPattern' &&
      attribute.namespace === STORE_GENERATED_NAMESPACE &&
      (attribute.value === 'Identity' || attribute.value === 'Computed'),
  );
}

/**
 * True when a new entry must give the property: it is not nullable, has no `DefaultValue`, and
 * nobody else supplies it. Key properties are left to the provider (it generates a key or refuses
 * the entry), concurrency tokens (`ConcurrencyMode="Fixed"`) are the provider's to set, and
 * store-generated ones and those marked `sap:creatable="false"` (a client may not give them) are
 * the store's. A complex property is required when one of its members is. A replace (PUT) that
 * omits such a property is refused the same way (`replacedValues`).
 */
export function isRequiredOnCreate(property: EdmProperty): boolean {
  if (property.isKey || property.concurrencyMode === 'Fixed' || isStoreGenerated(property) || !propertyCapabilities(property).creatable) return false;
  if (property.nullable || property.defaultValue !== undefined) return false;
  if (property.type.kind === 'Complex') return property.type.type.properties.some(isRequiredOnCreate);
  return true;
}

const REQUIRED = new WeakMap<EdmEntityType, readonly EdmProperty[]>();

/** The properties of `entityType` (declared and inherited) a create must send; computed once per type. */
export function requiredProperties(entityType: EdmEntityType): readonly EdmProperty[] {
  let required = REQUIRED.get(entityType);
  if (required === undefined) {
    required = entityType.properties.filter(isRequiredOnCreate);
    REQUIRED.set(entityType, required);
  }
  return required;
}

/**
 * The dependent properties of a referential constraint whose association the new entry is linked
 * over (`end` is the entry's own end): the link supplies their values, so they need not be sent.
 */
function suppliedByLink(end: EdmAssociationEnd, property: EdmNavigationProperty, into: Set<string>): void {
  const constraint = property.relationship.referentialConstraint;
  if (constraint === undefined || constraint.dependent.role !== end.role) return;
  for (const dependent of constraint.dependent.properties) into.add(dependent.name);
}

/**
 * 400 PROPERTY_REQUIRED naming the first required property (see `isRequiredOnCreate`) that a new
 * entry, or any entry of its inline tree, did not send. Foreign-key properties of a referential
 * constraint count as sent when the request links that association (a binding, the POST's parent,
 * the inline entry's parent). A media link entry created from its media resource carries no
 * properties, so nothing is required of it. The service runs this before calling `create`.
 */
export function assertRequiredSent(request: CreateRequest, linkedFrom?: EdmNavigationProperty): void {
  if (request.media === undefined) {
    const required = requiredProperties(request.entityType);
    if (required.length > 0) {
      const linked = new Set<string>();
      for (const binding of request.bindings) suppliedByLink(binding.property.fromEnd, binding.property, linked);
      if (request.parent !== undefined) suppliedByLink(request.parent.navigationProperty.toEnd, request.parent.navigationProperty, linked);
      if (linkedFrom !== undefined) suppliedByLink(linkedFrom.toEnd, linkedFrom, linked);
      for (const inline of request.inline) suppliedByLink(inline.property.fromEnd, inline.property, linked);
      const missing = required.find((property) => !Object.prototype.hasOwnProperty.call(request.values, property.name) && !linked.has(property.name));
      if (missing !== undefined) {
        throw ODataError.fromCode('PROPERTY_REQUIRED', { property: missing.name, entityType: request.entityType.qualifiedName }, { target: missing.name });
      }
    }
  }
  for (const inline of request.inline) for (const entry of inline.entries) assertRequiredSent(entry, inline.property);
}

/**
 * The properties a replace (PUT) that omits them leaves as they are: the key, concurrency tokens,
 * store-generated ones, and those the model marks `sap:updatable="false"`.
 */
function keptOnReplace(property: EdmProperty): boolean {
  return property.isKey || property.concurrencyMode === 'Fixed' || isStoreGenerated(property) || !propertyCapabilities(property).updatable;
}

/**
 * The values a replace (PUT) stores, decided before anything is written (MS-ODATA §2.2.7.3.1: a
 * replace resets what the body leaves out), the same on every provider. A declared property the
 * body omits is reset as a create that omitted it would store it: its `DefaultValue`, else null
 * when nullable (a complex property: its members' defaults), else 400 PROPERTY_REQUIRED naming it
 * (see `isRequiredOnCreate`). Omitted keys, concurrency tokens, store-generated properties,
 * properties marked `sap:updatable="false"` and the dependent properties of a link the body sets
 * are left out of the result: they keep their values (the key is the URL's, the provider advances
 * its tokens, the store makes generated values, no update changes a non-updatable one, the link
 * supplies foreign keys). Dynamic properties (open types) are the ones sent. Unlike WCF Data
 * Services, no type default (`0`, `''`, 1970-01-01) is ever invented (docs/writes.md).
 */
export function replacedValues(
  entityType: EdmEntityType,
  sent: Readonly<Record<string, PropertyValue>>,
  bindings: readonly LinkBinding[],
): Record<string, PropertyValue> {
  const linked = new Set<string>();
  for (const binding of bindings) if (binding.targets.length > 0) suppliedByLink(binding.property.fromEnd, binding.property, linked);
  // Declared properties in declaration order, then the dynamic ones as sent (the order writers keep).
  const values: Record<string, PropertyValue> = {};
  for (const property of entityType.properties) {
    const value = sent[property.name];
    if (value !== undefined) values[property.name] = value;
    else if (keptOnReplace(property) || linked.has(property.name)) continue;
    else if (isRequiredOnCreate(property)) {
      throw ODataError.fromCode('PROPERTY_REQUIRED', { property: property.name, entityType: entityType.qualifiedName }, { target: property.name });
    } else values[property.name] = defaultValueOf(property);
  }
  for (const name of Object.keys(sent)) {
    const value = sent[name];
    if (value !== undefined && !entityType.propertiesByName.has(name)) values[name] = value;
  }
  return values;
}

/**
 * `values` with every declared non-key property it lacks set to the model's default: the CSDL
 * `DefaultValue`, else null for a nullable property, else the type's zero value (`0`, `''`,
 * `1970-01-01`, members filled for a complex value). Key properties stay absent so a provider can
 * generate them. For a provider that stores the model's defaults itself (MemoryProvider does):
 * `CreateRequest.values` holds only what the client sent, and `fillDefaults(entityType,
 * request.values)` is the whole entry. After `assertRequiredSent` a zero value only stands for a
 * property something else supplies (a concurrency token, a store-generated property, a foreign
 * key a link sets). A provider that leaves omitted columns to its store writes `values` as they are.
 */
export function fillDefaults(entityType: EdmEntityType, values: Readonly<Record<string, PropertyValue>>): Record<string, PropertyValue> {
  // Declared properties in declaration order, then the dynamic ones as given (the order writers keep).
  const filled: Record<string, PropertyValue> = {};
  for (const property of entityType.properties) {
    const value = values[property.name];
    if (value !== undefined) filled[property.name] = value;
    else if (!property.isKey) filled[property.name] = defaultValueOf(property);
  }
  for (const name of Object.keys(values)) {
    const value = values[name];
    if (value !== undefined && !entityType.propertiesByName.has(name)) filled[name] = value;
  }
  return filled;
}
