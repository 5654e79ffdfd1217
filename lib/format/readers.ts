/**
 * The request-body readers of the write path (MS-ODATA §2.2.6): bytes to typed, validated
 * structures for the write handlers. Re-exported by `format/index.ts`.
 */
export type { EntryBody, EntryTarget, LinkBody, LinkTarget, PropertyBody, PropertyTarget, ReadContext } from './entry-body';
export { readAtomEntry } from './atom/entry-reader';
export { readJsonEntry } from './json/entry-reader';
export { readXmlProperty } from './xml/property-reader';
export { readJsonProperty } from './json/property-reader';
export { readRawValue } from './raw-value-reader';
export { readXmlLink } from './xml/link-reader';
export { readJsonLink } from './json/link-reader';
export { resolveLinkUri } from './link-uri';
