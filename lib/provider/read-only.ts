/**
 * `readOnlyProvider(provider)`: the same provider without its write methods, so the service answers
 * every write (POST, PUT, MERGE, PATCH, DELETE, $links, media uploads, changesets) with 405
 * METHOD_NOT_ALLOWED and reads exactly as before. The wrapped provider is not changed.
 */
import type { DataProvider } from './types';

/**
 * A provider that serves `provider`'s reads only: query, count, ETags, media reads and service
 * operations (the application's own code: leave out those that write) pass through; create,
 * update, delete, link, writeMedia and transaction are left out.
 */
export function readOnlyProvider(provider: DataProvider): DataProvider {
  const { operations } = provider;
  return Object.freeze({
    query: (request, context) => provider.query(request, context),
    ...(provider.count === undefined ? {} : { count: provider.count.bind(provider) }),
    ...(provider.etag === undefined ? {} : { etag: provider.etag.bind(provider) }),
    ...(provider.readMedia === undefined ? {} : { readMedia: provider.readMedia.bind(provider) }),
    ...(provider.mediaOf === undefined ? {} : { mediaOf: provider.mediaOf.bind(provider) }),
    ...(operations === undefined ? {} : { operations }),
  } satisfies DataProvider);
}
