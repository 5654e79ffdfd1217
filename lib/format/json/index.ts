export { writeJsonFeed, writeJsonEntry } from './feed-writer';
export { writeJsonProperty, writeJsonCollection } from './property-writer';
export { writeJsonLinks, writeJsonLink } from './links-writer';
export { writeJsonServiceDocument } from './service-document-writer';
