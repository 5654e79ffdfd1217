/**
 * SAP's annotation attributes of OData V2 (`sap:searchable="false"` on an EntitySet), read from
 * the annotations a model keeps. Only the switches the service enforces are read; every other
 * `sap:` attribute is kept and written back untouched.
 */
import type { EdmAnnotations } from './model';

/** The namespace of SAP's OData V2 annotation attributes (`xmlns:sap`). */
const SAP_NAMESPACE = 'http://www.sap.com/Protocols/SAPData';

/** The Boolean `sap:` switches the library reads (SAP Gateway's default for each is true). */
export type SapSwitch = 'searchable';

/**
 * The value of a Boolean `sap:` switch on a model element: true or false as written, undefined
 * when the element does not say (or says something else than `true`/`false`, which SAP clients
 * also read as the default).
 */
export function sapSwitch(element: EdmAnnotations, name: SapSwitch): boolean | undefined {
  const attribute = element.annotationAttributes.find((candidate) => candidate.name === name && candidate.namespace === SAP_NAMESPACE);
  return attribute?.value === 'true' ? true : attribute?.value === 'false' ? false : undefined;
}
