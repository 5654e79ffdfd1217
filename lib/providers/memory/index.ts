/** The in-memory provider: MemoryProvider, its store and the data-loading helpers. */
export { MemoryProvider } from './memory-provider';
export type { MemoryProviderOptions } from './memory-provider';
export { MemoryStore } from './store';
export type { EntityLocation, LinkTarget, MemoryStoreOptions, StoreTransaction, StoredMedia, StoredValues, WriteOptions } from './store';
export { fromForeignKeys, loadData } from './load-data';
export type { ForeignKeyMap, MemoryData } from './load-data';
