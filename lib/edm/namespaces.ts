/** XML namespace URIs of EDMX 1.0 and the CSDL versions that OData 1.0 and 2.0 services use. */

/** `edmx:` (MS-ODATA §2.2.3.7.2; EDMX 1.0). */
export const EDMX_NAMESPACE = 'http://schemas.microsoft.com/ado/2007/06/edmx';

/** `m:`, the data-services metadata namespace (`m:DataServiceVersion`, `m:HasStream`, `m:FC_*`). */
export const METADATA_NAMESPACE = 'http://schemas.microsoft.com/ado/2007/08/dataservices/metadata';

/** `d:`, the data-services data namespace, declared on `<Schema>` by convention. */
export const DATA_NAMESPACE = 'http://schemas.microsoft.com/ado/2007/08/dataservices';

/** The `xml:` namespace (`xml:lang` on SAP schemas); never declared. */
export const XML_NAMESPACE = 'http://www.w3.org/XML/1998/namespace';

/** OData V4's CSDL namespace: vocabulary annotations (`<Annotations Target="...">`) in a V2 document are in it. */
export const OASIS_EDM_NAMESPACE = 'http://docs.oasis-open.org/odata/ns/edm';

/** OData V4's EDMX namespace: `edmx:Reference` / `edmx:Include` declare the vocabularies and their aliases. */
export const OASIS_EDMX_NAMESPACE = 'http://docs.oasis-open.org/odata/ns/edmx';

/** The `xmlns:` namespace of namespace declarations. */
export const XMLNS_NAMESPACE = 'http://www.w3.org/2000/xmlns/';

/** CSDL 1.0 (2006/04), 1.1 (2007/05), 1.2 (2008/01) and 2.0 (2008/09): the ones V1/V2 services write. */
const CSDL_NAMESPACES: readonly string[] = Object.freeze([
  'http://schemas.microsoft.com/ado/2006/04/edm',
  'http://schemas.microsoft.com/ado/2007/05/edm',
  'http://schemas.microsoft.com/ado/2008/01/edm',
  'http://schemas.microsoft.com/ado/2008/09/edm',
]);

/** What the writer uses when a schema does not say: CSDL 1.1, as WCF Data Services writes for V2. */
export const DEFAULT_CSDL_NAMESPACE = 'http://schemas.microsoft.com/ado/2007/05/edm';

/** True for a CSDL namespace this library reads. */
export function isCsdlNamespace(uri: string): boolean {
  return CSDL_NAMESPACES.includes(uri);
}

/** Namespaces the writer declares itself; a document's own declarations of them are not copied. */
export function isReservedNamespace(uri: string): boolean {
  return uri === EDMX_NAMESPACE || uri === METADATA_NAMESPACE || uri === DATA_NAMESPACE || uri === XML_NAMESPACE || isCsdlNamespace(uri);
}
