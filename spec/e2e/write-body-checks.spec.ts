/**
 * The service owns the checks of a write's shape: a request that breaks one is answered with a 4xx
 * before any write method of the provider runs, so a provider relies on them (the contract in
 * lib/provider/types.ts, CreateRequest and UpdateRequest) instead of repeating them. A spy
 * provider around MemoryProvider records every write call; each refused request must leave it
 * empty, and one accepted request of each kind proves that the spy sees calls.
 */
import express from 'express';
import { readFileSync } from 'fs';
import { join } from 'path';
import request from 'supertest';
import { loadEdmx, MemoryProvider, odata } from '../../lib';
import type {
  CreateRequest,
  DataProvider,
  DeleteRequest,
  EdmEntityType,
  EdmModel,
  Entity,
  EntityReference,
  LinkRequest,
  MediaContent,
  Precondition,
  UpdateRequest,
} from '../../lib';
import type { RequestContext } from '../../lib/protocol/message';
import { startServer, type RunningServer } from '../helpers/server';

const MODEL: EdmModel = loadEdmx(readFileSync(join(__dirname, '..', 'fixtures', 'e2e', 'faults.xml'), 'utf8'));
const JSON_TYPE = 'application/json';
const ATOM_TYPE = 'application/atom+xml';

/** MemoryProvider with every write method recorded before it runs. */
class SpyProvider implements DataProvider {
  readonly calls: string[] = [];
  constructor(private readonly inner: MemoryProvider) {}
  query: DataProvider['query'] = (query, context) => this.inner.query(query, context);
  transaction<T>(work: () => Promise<T>, context: RequestContext): Promise<T> {
    return this.inner.transaction(work, context);
  }
  create(create: CreateRequest, context: RequestContext): Promise<Entity> {
    this.calls.push('create');
    return this.inner.create(create, context);
  }
  update(update: UpdateRequest, context: RequestContext): Promise<Entity> {
    this.calls.push('update');
    return this.inner.update(update, context);
  }
  delete(deletion: DeleteRequest, context: RequestContext): Promise<void> {
    this.calls.push('delete');
    return this.inner.delete(deletion, context);
  }
  link(link: LinkRequest, context: RequestContext): Promise<void> {
    this.calls.push('link');
    return this.inner.link(link, context);
  }
  readMedia(reference: EntityReference, context: RequestContext): Promise<MediaContent> {
    return this.inner.readMedia(reference, context);
  }
  writeMedia(reference: EntityReference, media: MediaContent, precondition: Precondition | undefined, context: RequestContext): Promise<Entity> {
    this.calls.push('writeMedia');
    return this.inner.writeMedia(reference, media, precondition, context);
  }
  mediaOf(entity: Entity, entityType: EdmEntityType): { readonly contentType: string } | undefined {
    return this.inner.mediaOf(entity, entityType);
  }
}

function freshProvider(): SpyProvider {
  return new SpyProvider(
    new MemoryProvider(MODEL, {
      Albums: [
        { ID: 1, Name: 'One' },
        { ID: 2, Name: 'Two' },
      ],
      Photos: [{ ID: 1, Title: 'a', Version: 0, Album: 1 }],
      Owners: [{ ID: 1 }, { ID: 2 }],
      Notes: [{ ID: 1, Text: 'first', Owner: 1 }],
    }),
  );
}

const link = (nav: string, href: string): string =>
  `<link rel="http://schemas.microsoft.com/ado/2007/08/dataservices/related/${nav}" type="application/atom+xml;type=entry" title="${nav}" href="${href}"/>`;
const atomEntry = (type: string, properties: string, links = ''): string =>
  '<?xml version="1.0" encoding="utf-8"?>' +
  '<entry xmlns="http://www.w3.org/2005/Atom" xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">' +
  `<category term="${type}" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"/>${links}` +
  `<content type="application/xml"><m:properties>${properties}</m:properties></content></entry>`;

interface Case {
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: string | Buffer | object;
  /** Photos carry a concurrency token: a write to one needs If-Match. */
  readonly ifMatch?: string;
}

/** The answer a refused request gets: status, error code and message, and `Allow` on a 405. */
interface Refusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly allow?: string;
}

const REFUSED: readonly (readonly [string, Case, Refusal])[] = [
  [
    'two bindings for a single-valued navigation property (Atom)',
    {
      method: 'POST',
      path: 'Notes',
      contentType: ATOM_TYPE,
      body: atomEntry('Gallery.Note', '<d:ID m:type="Edm.Int32">5</d:ID>', link('Owner', 'Owners(1)') + link('Owner', 'Owners(2)')),
    },
    { status: 400, code: 'BODY_INVALID', message: "The request body is invalid: the single-valued navigation property 'Owner' is given more than once." },
  ],
  [
    'several bindings for a single-valued navigation property (JSON)',
    {
      method: 'POST',
      path: 'Notes',
      contentType: JSON_TYPE,
      body: { ID: 5, Owner: [{ __metadata: { uri: 'Owners(1)' } }, { __metadata: { uri: 'Owners(2)' } }] },
    },
    { status: 400, code: 'BODY_INVALID', message: "The request body is invalid: the single-valued navigation property 'Owner' cannot hold an array." },
  ],
  [
    'a binding into another set than the navigation property targets',
    { method: 'POST', path: 'Notes', contentType: JSON_TYPE, body: { ID: 5, Owner: { __metadata: { uri: 'Albums(1)' } } } },
    {
      status: 400,
      code: 'BODY_INVALID',
      message: "The request body is invalid: the link 'Albums(1)' addresses the entity set 'Albums', but 'Owner' links to entries of 'Owners'.",
    },
  ],
  [
    'a binding into another set in an update',
    { method: 'MERGE', path: 'Photos(1)', contentType: JSON_TYPE, body: { Album: { __metadata: { uri: 'Owners(1)' } } } },
    {
      status: 400,
      code: 'BODY_INVALID',
      message: "The request body is invalid: the link 'Owners(1)' addresses the entity set 'Owners', but 'Album' links to entries of 'Albums'.",
    },
  ],
  [
    'two inline entries for a single-valued navigation property',
    { method: 'POST', path: 'Notes', contentType: JSON_TYPE, body: { ID: 5, Owner: [{ ID: 7 }, { ID: 8 }] } },
    { status: 400, code: 'BODY_INVALID', message: "The request body is invalid: the single-valued navigation property 'Owner' cannot hold an array." },
  ],
  [
    'an inline entry of another type than the navigation property targets',
    { method: 'POST', path: 'Albums', contentType: JSON_TYPE, body: { ID: 5, Photos: [{ __metadata: { type: 'Gallery.Owner' }, ID: 7 }] } },
    {
      status: 400,
      code: 'BODY_INVALID',
      message: "The request body is invalid: the entity type 'Gallery.Owner' is not 'Gallery.Photo' or a type derived from it.",
    },
  ],
  [
    'a media resource POSTed to a type without m:HasStream',
    { method: 'POST', path: 'Albums', contentType: 'image/png', body: Buffer.from([0x89, 0x50]) },
    {
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: "Unsupported content type 'image/png': this request takes application/atom+xml or application/json",
    },
  ],
  [
    'a media resource PUT to a type without m:HasStream',
    { method: 'PUT', path: 'Albums(1)/$value', contentType: 'image/png', body: Buffer.from([0x89, 0x50]) },
    {
      status: 400,
      code: 'URI_INVALID_SEGMENT',
      message: "The segment '$value' is not valid here: the entity type 'Gallery.Album' has no media resource (m:HasStream)",
    },
  ],
  [
    'new inline entries in an update (deep update), many-valued',
    { method: 'PUT', path: 'Albums(1)', contentType: JSON_TYPE, body: { Name: 'x', Photos: [{ ID: 9, Title: 'new', Version: 0 }] } },
    {
      status: 400,
      code: 'BODY_INVALID',
      message:
        "The request body is invalid: 'Photos' holds new inline entries, but an update does not create entries (no deep update in OData 2.0): POST them, or link existing entries by their URI.",
    },
  ],
  [
    'a new inline entry in an update (deep update), single-valued',
    { method: 'MERGE', path: 'Notes(1)', contentType: JSON_TYPE, body: { Owner: { ID: 9 } } },
    {
      status: 400,
      code: 'BODY_INVALID',
      message:
        "The request body is invalid: 'Owner' holds new inline entries, but an update does not create entries (no deep update in OData 2.0): POST them, or link existing entries by their URI.",
    },
  ],
  [
    'null for a required (multiplicity 1) navigation property in an update',
    { method: 'MERGE', path: 'Notes(1)', contentType: JSON_TYPE, body: { Owner: null } },
    {
      status: 400,
      code: 'BODY_INVALID',
      message:
        "The request body is invalid: the navigation property 'Owner' is required (multiplicity 1): it cannot be set to null; link another entry instead.",
    },
  ],
  [
    'a key in the body that differs from the URL',
    { method: 'PUT', path: 'Albums(1)', contentType: JSON_TYPE, body: { ID: 2, Name: 'x' } },
    { status: 400, code: 'KEY_MISMATCH', message: 'The key in the request body does not match the key in the URL.' },
  ],
  [
    'a property the type does not declare',
    { method: 'POST', path: 'Albums', contentType: JSON_TYPE, body: { ID: 5, Nmae: 'x' } },
    { status: 400, code: 'BODY_INVALID', message: "The request body is invalid: the type 'Gallery.Album' has no property 'Nmae'." },
  ],
  [
    'a value that breaks a facet',
    { method: 'POST', path: 'Albums', contentType: JSON_TYPE, body: { ID: 5, Name: 'x'.repeat(21) } },
    {
      status: 400,
      code: 'VALUE_INVALID',
      message: "Invalid value for property 'Name' of type Edm.String: the length is 21 characters, more than the MaxLength of 20.",
    },
  ],
  [
    '$links: replace (PUT) on a many-valued navigation property',
    { method: 'PUT', path: 'Albums(1)/$links/Photos(1)', contentType: JSON_TYPE, body: { uri: 'Photos(1)' } },
    { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'The method PUT is not allowed on this resource (a single link).', allow: 'GET, DELETE' },
  ],
  [
    '$links: add (POST) to a single-valued navigation property',
    { method: 'POST', path: 'Photos(1)/$links/Album', contentType: JSON_TYPE, body: { uri: 'Albums(2)' } },
    { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'The method POST is not allowed on this resource (a single link).', allow: 'GET, PUT, DELETE' },
  ],
  [
    '$links: remove without naming the link of a many-valued navigation property',
    { method: 'DELETE', path: 'Albums(1)/$links/Photos' },
    {
      status: 405,
      code: 'METHOD_NOT_ALLOWED',
      message: 'The method DELETE is not allowed on this resource (the links of a navigation property).',
      allow: 'GET, POST',
    },
  ],
  [
    '$links: a target in another set',
    { method: 'POST', path: 'Albums(1)/$links/Photos', contentType: JSON_TYPE, body: { uri: 'Owners(1)' } },
    {
      status: 400,
      code: 'BODY_INVALID',
      message: "The request body is invalid: the link 'Owners(1)' addresses the entity set 'Owners', but 'Photos' links to entries of 'Photos'.",
    },
  ],
  [
    '$links: a target in another set (replace)',
    { method: 'PUT', path: 'Photos(1)/$links/Album', contentType: JSON_TYPE, body: { uri: 'Owners(1)' } },
    {
      status: 400,
      code: 'BODY_INVALID',
      message: "The request body is invalid: the link 'Owners(1)' addresses the entity set 'Owners', but 'Album' links to entries of 'Albums'.",
    },
  ],
];

let provider: SpyProvider;
let server: RunningServer;

beforeAll(async () => {
  provider = freshProvider();
  const app = express();
  app.use('/odata', odata({ model: MODEL, provider }));
  server = await startServer(app);
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  provider.calls.length = 0;
});

function send(spec: Case): request.Test {
  const agent = request(server.url);
  const target = `/odata/${spec.path}`;
  // MERGE tunnelled through POST, as SAPUI5 and the .NET client send it.
  let test = (spec.method === 'PUT' ? agent.put(target) : spec.method === 'DELETE' ? agent.delete(target) : agent.post(target)).set('accept', JSON_TYPE);
  if (spec.method === 'MERGE') test = test.set('x-http-method', 'MERGE');
  if (spec.contentType !== undefined) test = test.set('content-type', spec.contentType);
  if (spec.ifMatch !== undefined) test = test.set('if-match', spec.ifMatch);
  if (spec.body !== undefined) test = test.send(Buffer.isBuffer(spec.body) || typeof spec.body === 'string' ? spec.body : JSON.stringify(spec.body));
  return test;
}

describe('the service refuses a malformed write before the provider is called', () => {
  it.each(REFUSED)('%s', async (_name, spec, refusal) => {
    const response = await send(spec);
    const body = JSON.parse(response.text) as { error: { code: string; message: { value: string } } };
    expect({ status: response.status, code: body.error.code, message: body.error.message.value, allow: response.headers.allow }).toEqual({
      allow: undefined,
      ...refusal,
    });
    expect(provider.calls).toEqual([]);
  });
});

describe('a well-formed write of each kind reaches the provider (the spy sees it)', () => {
  it.each<[string, Case, number, readonly string[]]>([
    [
      'a create with a binding',
      { method: 'POST', path: 'Notes', contentType: JSON_TYPE, body: { ID: 5, Owner: { __metadata: { uri: 'Owners(2)' } } } },
      201,
      ['create'],
    ],
    [
      'a create with inline entries (deep insert)',
      { method: 'POST', path: 'Albums', contentType: JSON_TYPE, body: { ID: 5, Photos: [{ ID: 9, Title: 'new', Version: 0 }] } },
      201,
      ['create'],
    ],
    [
      'a media link entry from its media resource',
      { method: 'POST', path: 'Photos', contentType: 'image/png', body: Buffer.from([0x89, 0x50]) },
      201,
      ['create'],
    ],
    [
      'an update echoing an expanded entry by its URI',
      {
        method: 'MERGE',
        path: 'Photos(1)',
        contentType: JSON_TYPE,
        body: { Title: 'b', Album: { __metadata: { uri: 'Albums(2)' }, ID: 2, Name: 'Two' } },
        ifMatch: '*',
      },
      204,
      ['update'],
    ],
    [
      'an update with an empty many-valued list',
      { method: 'MERGE', path: 'Albums(2)', contentType: JSON_TYPE, body: { Name: 'Deux', Photos: [] } },
      204,
      ['update'],
    ],
    [
      'a media resource',
      { method: 'PUT', path: 'Photos(1)/$value', contentType: 'image/png', body: Buffer.from([0x89, 0x50]), ifMatch: '*' },
      204,
      ['writeMedia'],
    ],
    ['$links add', { method: 'POST', path: 'Albums(2)/$links/Photos', contentType: JSON_TYPE, body: { uri: 'Photos(1)' } }, 204, ['link']],
    ['$links replace', { method: 'PUT', path: 'Photos(1)/$links/Album', contentType: JSON_TYPE, body: { uri: 'Albums(1)' } }, 204, ['link']],
    ['$links remove', { method: 'DELETE', path: 'Photos(1)/$links/Album' }, 204, ['link']],
  ])('%s', async (_name, spec, status, calls) => {
    const response = await send(spec);
    expect(response.status).toBe(status);
    expect(provider.calls).toEqual(calls);
  });
});
