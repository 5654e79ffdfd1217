/**
 * Namespace URIs and fixed names of the OData 2.0 wire formats (MS-ODATA §2.2.6.2, RFC 4287,
 * RFC 5023). Writers and readers take them from here so that no URI is spelled twice.
 */

/** Atom syndication format (RFC 4287). */
export const ATOM_NS = 'http://www.w3.org/2005/Atom';
/** Atom publishing protocol, used by the service document (RFC 5023). */
export const APP_NS = 'http://www.w3.org/2007/app';
/** OData data namespace, the `d:` prefix: property elements, `$links` bodies. */
export const DATA_NS = 'http://schemas.microsoft.com/ado/2007/08/dataservices';
/** OData metadata namespace, the `m:` prefix: `m:properties`, `m:type`, `m:null`, `m:etag`, `m:error`. */
export const METADATA_NS = 'http://schemas.microsoft.com/ado/2007/08/dataservices/metadata';
/** Scheme of the `atom:category` that names an entry's entity type. */
export const SCHEME_NS = 'http://schemas.microsoft.com/ado/2007/08/dataservices/scheme';
/** Prefix of the `rel` of a navigation link; the navigation property name follows. */
export const RELATED_REL = 'http://schemas.microsoft.com/ado/2007/08/dataservices/related/';
/** XHTML namespace, for `FC_ContentKind="xhtml"` Atom text constructs. */
export const XHTML_NS = 'http://www.w3.org/1999/xhtml';
/** The XML declaration every top-level XML payload starts with, as WCF Data Services wrote it. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8" standalone="yes"?>';
/** Atom media type of a link to a feed (many-valued navigation). */
export const ATOM_FEED_TYPE = 'application/atom+xml;type=feed';
/** Atom media type of a link to an entry (single-valued navigation). */
export const ATOM_ENTRY_TYPE = 'application/atom+xml;type=entry';
/** The language of every message this library writes (`xml:lang`, JSON `lang`). */
export const MESSAGE_LANG = 'en-US';
