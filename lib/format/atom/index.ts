export { writeAtomFeed, writeAtomEntry } from './feed-writer';
export { atomEntryWriter, atomRootAttributes, atomScope } from './entry-writer';
export { writeAtomServiceDocument } from './service-document-writer';
export { compileFeedCustomization } from './feed-customization';
