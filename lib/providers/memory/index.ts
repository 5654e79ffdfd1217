/** The in-memory provider: MemoryProvider, its store and the data-loading helpers. */
export { MemoryProvider, storeOf } from './memory-provider';
export type { MemoryProviderOptions } from './memory-provider';
export { Store } from './store';
export type { LinkTarget, MemoryStore, StoredMedia, StoredValues, WriteOptions } from './store';
