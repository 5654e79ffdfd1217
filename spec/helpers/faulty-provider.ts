/**
 * A fault-injecting provider for the atomicity and survival specs: it wraps a MemoryProvider and,
 * per request, misbehaves the way a careless provider does after its write reached the store
 * (each fault makes the request fail after the write; the service must leave nothing of it
 * behind), or throws a hostile value (hostile-values.ts) from one of its methods instead of doing
 * its work (the service must answer a clean 500, settle the request and stay up).
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import type { EdmEntityType } from '../../lib/edm/model';
import { loadEdmx, MemoryProvider } from '../../lib';
import { storeOf } from '../../lib/providers/memory';
import type { DataProvider, EdmModel, Entity, OperationHandler } from '../../lib';
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

/**
 * Where `throwing` throws from: each provider method, an operation handler, and the transaction
 * before its work starts (`transaction`) or after it resolved (`commit`).
 */
export const THROWING_METHODS = [
  'query',
  'count',
  'readMedia',
  'create',
  'update',
  'delete',
  'link',
  'writeMedia',
  'etag',
  'mediaOf',
  'operation',
  'transaction',
  'commit',
] as const;

export type ThrowingMethod = (typeof THROWING_METHODS)[number];

/** What the provider throws, and from where. */
export interface Throwing {
  readonly method: ThrowingMethod;
  readonly make: () => unknown;
}

/** Replace a string property (or a key) of a written entity with a value no writer accepts. */
function unwritable(entity: Entity, type: EdmEntityType): Entity {
  const text = type.properties.find((property) => property.type.kind === 'Primitive' && property.type.name === 'Edm.String');
  return text === undefined ? { ...entity, [type.key[0].name]: Number.NaN } : { ...entity, [text.name]: 42 };
}

/** The Gallery model the fault specs serve: media (Photos), links, an open type and a service operation (AddAlbum). */
export const GALLERY_MODEL: EdmModel = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'e2e', 'faults.xml'), 'utf8'));

/** A FaultyProvider over a fresh Gallery store. */
export function galleryProvider(): FaultyProvider {
  const inner = new MemoryProvider(GALLERY_MODEL, {
    Albums: [
      { ID: 1, Name: 'One' },
      { ID: 2, Name: 'Two' },
      { ID: 3, Name: 'Three' },
    ],
    Photos: [
      { ID: 1, Title: 'a', Version: 0, Album: 1 },
      { ID: 2, Title: 'b', Version: 0, Album: 1 },
      { ID: 3, Title: 'c', Version: 0, Album: 2 },
      { ID: 4, Title: 'd', Version: 0 },
    ],
    Owners: [{ ID: 1 }, { ID: 2 }],
    Notes: [{ ID: 1, Text: 'first', Owner: 1 }],
  });
  return new FaultyProvider(inner);
}

/** Everything the store holds: records (values as JSON), links, media resources. */
export function storeSnapshot(provider: FaultyProvider): string {
  const store = storeOf(provider.inner);
  const parts: unknown[] = [];
  for (const set of GALLERY_MODEL.entitySets.values()) {
    for (const values of store.all(set)) {
      const key = store.locate(values)?.key ?? '?';
      const links = set.entityType.navigationProperties.map((property) => [property.name, [...store.relatedKeys(set, key, property)].sort()]);
      const media = store.media(set, key);
      parts.push([set.name, key, values, links, media === undefined ? null : [media.contentType, media.body.toString('base64')]]);
    }
  }
  return JSON.stringify(parts);
}

export class FaultyProvider implements DataProvider {
  /** The fault of the next request; `none` behaves like the wrapped provider. */
  fault: Fault = 'none';
  /** A value to throw from one method instead of its work (none: behave). */
  throwing: Throwing | undefined;
  readonly operations: Readonly<Record<string, OperationHandler>>;

  constructor(readonly inner: MemoryProvider) {
    this.operations = {
      // A service operation invoked by POST that writes through the provider.
      AddAlbum: async ({ parameters, functionImport }, context) => {
        this.maybeThrow('operation');
        const entitySet = functionImport.entitySet;
        if (entitySet === undefined) throw new Error('AddAlbum has no entity set');
        const created = await this.create(
          {
            entitySet,
            entityType: entitySet.entityType,
            values: { ID: parameters.ID, Name: parameters.Name },
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

  /** Throw the hostile value when `method` is where it is to come from. */
  private maybeThrow(method: ThrowingMethod): void {
    if (this.throwing?.method === method) throw this.throwing.make();
  }

  private async afterWrite<T>(written: T, type: EdmEntityType | undefined): Promise<T> {
    if (this.fault === 'throw-after-write') throw new Error('the provider failed after it wrote');
    if (this.fault === 'unwritable-result' && type !== undefined && written !== undefined) return unwritable(written as Entity, type) as T;
    return written;
  }

  query: DataProvider['query'] = async (request, context) => {
    this.maybeThrow('query');
    return this.inner.query(request, context);
  };
  count: NonNullable<DataProvider['count']> = async (request, context) => {
    this.maybeThrow('count');
    return this.inner.count(request, context);
  };
  readMedia: NonNullable<DataProvider['readMedia']> = async (reference, context) => {
    this.maybeThrow('readMedia');
    return this.inner.readMedia(reference, context);
  };

  etag(): string | undefined {
    this.maybeThrow('etag');
    if (this.fault === 'etag-throws') throw new Error('etag() failed');
    if (this.fault === 'etag-line-break') return 'v1\r\nX-Injected: yes';
    return undefined;
  }

  mediaOf(entity: Entity, type: EdmEntityType): { readonly contentType: string } | undefined {
    if (type.hasStream) this.maybeThrow('mediaOf');
    if (this.fault === 'media-of-throws' && type.hasStream) throw new Error('mediaOf() failed');
    return this.inner.mediaOf(entity, type);
  }

  create: NonNullable<DataProvider['create']> = async (request, context) => {
    this.maybeThrow('create');
    return this.afterWrite(await this.inner.create(request, context), request.entityType);
  };
  update: NonNullable<DataProvider['update']> = async (request, context) => {
    this.maybeThrow('update');
    return this.afterWrite(await this.inner.update(request, context), request.entityType);
  };
  delete: NonNullable<DataProvider['delete']> = async (request, context) => {
    this.maybeThrow('delete');
    return this.afterWrite(await this.inner.delete(request, context), undefined);
  };
  link: NonNullable<DataProvider['link']> = async (request, context) => {
    this.maybeThrow('link');
    return this.afterWrite(await this.inner.link(request, context), undefined);
  };
  writeMedia: NonNullable<DataProvider['writeMedia']> = async (reference, media, precondition, context) => {
    this.maybeThrow('writeMedia');
    return this.afterWrite(await this.inner.writeMedia(reference, media, precondition, context), reference.entitySet.entityType);
  };

  async transaction<T>(work: () => Promise<T>, context: RequestContext): Promise<T> {
    this.maybeThrow('transaction');
    // MemoryProvider's transaction runs `work` under the store's write lock: what is thrown in it passes through the lock.
    return this.inner.transaction(async () => {
      const result = await work();
      this.maybeThrow('commit');
      if (this.fault === 'commit-fails') throw new Error('the commit was refused');
      return result;
    }, context);
  }
}
