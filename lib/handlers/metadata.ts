/**
 * The service document and `$metadata`. Both are static per service: the EDMX bytes and their
 * entity tag are written once when the service is built, and `$metadata` answers a matching
 * If-None-Match with 304 (the document changes only with the model).
 */
import type { ServicePath } from '../uri/types';
import type { Handler } from './context';

export const readServiceDocument: Handler<ServicePath<'ServiceDocument'>> = async () => ({ result: { kind: 'ServiceDocument' } });

export const readMetadata: Handler<ServicePath<'Metadata'>> = async (context) => {
  const { document, etag, version } = context.config.metadata;
  const result = { kind: 'Metadata', document, version } as const;
  const ifNoneMatch = context.request.headers['if-none-match'];
  if (ifNoneMatch !== undefined && ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === '*')) {
    return { result, status: 304, headers: { etag } };
  }
  return { result, headers: { etag } };
};
