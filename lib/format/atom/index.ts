export { writeAtomFeed, writeAtomEntry } from './feed-writer';
export { writeAtomServiceDocument } from './service-document-writer';
