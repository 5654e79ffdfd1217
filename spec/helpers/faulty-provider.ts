/**
 * A fault-injecting provider for the atomicity specs: it wraps a MemoryProvider and, per request,
 * misbehaves the way a careless provider does after its write reached the store. Each fault makes
 * the request fail after the write; the service must leave nothing of it behind.
 */
import type { EdmEntityType } from '../../lib/edm/model';
import type { MemoryProvider } from '../../lib';
import type { DataProvider, Entity, OperationHandler } from '../../lib';
import type { RequestContext } from '../../lib/protocol/message';

export const FAULTS = [
  // The provider's write method throws after the store has taken the write.
  'throw-after-write',
  // etag() throws while the answer is built (after the write).
  'etag-throws',
  // etag() returns a value with a line break: the answer's headers cannot be written.
  'etag-line-break',
  // The write returns an entity a writer cannot write (a number for an Edm.String): the answer cannot be written.
  'unwritable-result',
  // mediaOf() throws while the answer of a media link entry is written.
  'media-of-throws',
  // The transaction's commit fails after its work resolved.
  'commit-fails',
] as const;

export type Fault = (typeof FAULTS)[number] | 'none';

/** Replace a string property (or a key) of a written entity with a value no writer accepts. */
function unwritable(entity: Entity, type: EdmEntityType): Entity {
  const text = type.properties.find((property) => property.type.kind === 'Primitive' && property.type.name === 'Edm.String');
  return text === undefined ? { ...entity, [type.key[0].name]: Number.NaN } : { ...entity, [text.name]: 42 };
}

export class FaultyProvider implements DataProvider {
  /** The fault of the next request; `none` behaves like the wrapped provider. */
  fault: Fault = 'none';
  readonly operations: Readonly<Record<string, OperationHandler>>;

  constructor(readonly inner: MemoryProvider) {
    this.operations = {
      // A service operation invoked by POST that writes through the provider.
      AddAlbum: async ({ parameters, functionImport }, context) => {
        const entitySet = functionImport.entitySet;
        if (entitySet === undefined) throw new Error('AddAlbum has no entity set');
        const created = await this.create(
          {
            entitySet,
            entityType: entitySet.entityType,
            values: { ID: parameters.ID, Name: parameters.Name },
            sent: new Set(['ID', 'Name']),
            bindings: [],
            inline: [],
            parent: undefined,
            media: undefined,
          },
          context,
        );
        return created;
      },
    };
  }

  private async afterWrite<T>(written: T, type: EdmEntityType | undefined): Promise<T> {
    if (this.fault === 'throw-after-write') throw new Error('the provider failed after it wrote');
    if (this.fault === 'unwritable-result' && type !== undefined && written !== undefined) return unwritable(written as Entity, type) as T;
    return written;
  }

  query: DataProvider['query'] = (request, context) => this.inner.query(request, context);
  count: NonNullable<DataProvider['count']> = (request, context) => this.inner.count(request, context);
  readMedia: NonNullable<DataProvider['readMedia']> = (reference, context) => this.inner.readMedia(reference, context);

  etag(): string | undefined {
    if (this.fault === 'etag-throws') throw new Error('etag() failed');
    if (this.fault === 'etag-line-break') return 'v1\r\nX-Injected: yes';
    return undefined;
  }

  mediaOf(entity: Entity, type: EdmEntityType): { readonly contentType: string } | undefined {
    if (this.fault === 'media-of-throws' && type.hasStream) throw new Error('mediaOf() failed');
    return this.inner.mediaOf(entity, type);
  }

  create: NonNullable<DataProvider['create']> = async (request, context) => this.afterWrite(await this.inner.create(request, context), request.entityType);
  update: NonNullable<DataProvider['update']> = async (request, context) => this.afterWrite(await this.inner.update(request, context), request.entityType);
  delete: NonNullable<DataProvider['delete']> = async (request, context) => this.afterWrite(await this.inner.delete(request, context), undefined);
  link: NonNullable<DataProvider['link']> = async (request, context) => this.afterWrite(await this.inner.link(request, context), undefined);
  writeMedia: NonNullable<DataProvider['writeMedia']> = async (reference, media, precondition, context) =>
    this.afterWrite(await this.inner.writeMedia(reference, media, precondition, context), reference.entitySet.entityType);

  async transaction<T>(work: () => Promise<T>, context: RequestContext): Promise<T> {
    return this.inner.transaction(async () => {
      const result = await work();
      if (this.fault === 'commit-fails') throw new Error('the commit was refused');
      return result;
    }, context);
  }
}
