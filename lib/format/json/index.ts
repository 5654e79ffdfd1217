export { writeJsonFeed, writeJsonEntry } from './feed-writer';
export { jsonEntryWriter } from './entry-writer';
export { compileJsonValue, writeDynamicJsonValue } from './value-writer';
export type { JsonValueWriter } from './value-writer';
export { writeJsonProperty, writeJsonCollection } from './property-writer';
export { writeJsonLinks, writeJsonLink } from './links-writer';
export { writeJsonServiceDocument } from './service-document-writer';
