/**
 * SAP's annotation attributes of OData V2 (`sap:searchable`, `sap:creatable`, `sap:updatable` and
 * `sap:deletable` on an EntitySet, `sap:creatable` and `sap:updatable` on a Property), read from
 * the annotations a model keeps, and set on every entity set where a service option or the
 * provider decides for all of them. The switches the service enforces are read, and the few the
 * Fiori preview shows (a label); every other `sap:` attribute is kept and written back untouched.
 */
import type { Annotated, AnnotationAttribute, ModelDefinition } from './definition';
import type { EdmAnnotations, EdmEntitySet, EdmProperty } from './model';

/** The namespace of SAP's OData V2 annotation attributes (`xmlns:sap`). */
const SAP_NAMESPACE = 'http://www.sap.com/Protocols/SAPData';

/** A set-level capability: what clients may do with the entries of an entity set. */
export type SetCapability = 'creatable' | 'updatable' | 'deletable';

/** The Boolean `sap:` switches the library reads (SAP Gateway's default for each is true). */
export type SapSwitch = 'searchable' | SetCapability;

/**
 * The value of a Boolean `sap:` switch on a model element: true or false as written, undefined
 * when the element does not say (or says something else than `true`/`false`, which SAP clients
 * also read as the default).
 */
export function sapSwitch(element: EdmAnnotations, name: SapSwitch): boolean | undefined {
  const attribute = element.annotationAttributes.find((candidate) => candidate.name === name && candidate.namespace === SAP_NAMESPACE);
  return attribute?.value === 'true' ? true : attribute?.value === 'false' ? false : undefined;
}

/**
 * The definition with a Boolean `sap:` switch set on every entity set of every container,
 * replacing what a set said: what a service option decides for all sets (`search: false`) is
 * then what its `$metadata` says.
 */
export function withEntitySetSwitch(definition: ModelDefinition, name: SapSwitch, value: boolean): ModelDefinition {
  const attribute: AnnotationAttribute = { namespace: SAP_NAMESPACE, prefix: 'sap', name, value: String(value) };
  const switched = <T extends Annotated>(element: T): T => ({
    ...element,
    annotationAttributes: [
      ...(element.annotationAttributes ?? []).filter((candidate) => !(candidate.name === name && candidate.namespace === SAP_NAMESPACE)),
      attribute,
    ],
  });
  const namespaces = definition.namespaces ?? {};
  // Declared once on edmx:Edmx rather than on every set, unless the document binds the prefix otherwise.
  const declared = Object.values(namespaces).includes(SAP_NAMESPACE) || 'sap' in namespaces;
  return {
    ...definition,
    ...(declared ? {} : { namespaces: { ...namespaces, sap: SAP_NAMESPACE } }),
    schemas: definition.schemas.map((schema) =>
      schema.entityContainers === undefined
        ? schema
        : {
            ...schema,
            entityContainers: schema.entityContainers.map((container) =>
              container.entitySets === undefined ? container : { ...container, entitySets: container.entitySets.map(switched) },
            ),
          },
    ),
  };
}

/** The text of a `sap:` attribute (`sap:label`) on a model element, or undefined when it has none. */
export function sapText(element: EdmAnnotations, name: 'label'): string | undefined {
  return element.annotationAttributes.find((candidate) => candidate.name === name && candidate.namespace === SAP_NAMESPACE)?.value;
}

const SETS = new WeakMap<EdmEntitySet, Readonly<Record<SetCapability, boolean>>>();

/** What clients may do with the entries of a set: false where its `sap:` switch says "false" (read once per set). */
export function setCapabilities(entitySet: EdmEntitySet): Readonly<Record<SetCapability, boolean>> {
  let capabilities = SETS.get(entitySet);
  if (capabilities === undefined) {
    capabilities = Object.freeze({
      creatable: sapSwitch(entitySet, 'creatable') !== false,
      updatable: sapSwitch(entitySet, 'updatable') !== false,
      deletable: sapSwitch(entitySet, 'deletable') !== false,
    });
    SETS.set(entitySet, capabilities);
  }
  return capabilities;
}

/** Whether a client may give the property a value on create (`sap:creatable`) and change it on update (`sap:updatable`). */
export function propertyCapabilities(property: EdmProperty): { readonly creatable: boolean; readonly updatable: boolean } {
  return { creatable: sapSwitch(property, 'creatable') !== false, updatable: sapSwitch(property, 'updatable') !== false };
}
