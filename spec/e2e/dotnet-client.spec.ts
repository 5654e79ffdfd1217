/**
 * The .NET WCF Data Services clients, byte for byte (issue 10): `DataServiceContext` of .NET 4.0
 * (System.Data.Services.Client) and of the 5.x line (Microsoft.Data.Services.Client over ODataLib
 * 5, with DataServiceProtocolVersion.V2). The bodies below are written by hand as those clients
 * write them, with a note on the client code each line comes from; every request goes to the demo
 * over a real port, and every batch response is read by the rules of the client's own reader.
 *
 * .NET 4.0, SaveChanges(SaveChangesOptions.Batch) (SaveResult.GenerateBatchRequest):
 *   --batch_<guid> / Content-Type: multipart/mixed; boundary=changeset_<guid> / (empty)
 *   per change: --changeset_<guid>, the MIME headers Content-Type: application/http and
 *   Content-Transfer-Encoding: binary, an empty line, `METHOD <absolute URI> HTTP/1.1`,
 *   DataServiceVersion only for a type that is not V1-compatible, Content-ID: <change order>,
 *   Content-Type (not on DELETE), If-Match (when the entity has an ETag), Content-Length: <n>,
 *   an empty line, the body. CreateRequestData(..., newline: true) appends Environment.NewLine
 *   to the body *before* its length is taken, and the next delimiter follows at once: the
 *   Content-Length counts the line break that RFC 2046 gives to the delimiter (2 bytes on
 *   Windows, 1 where Environment.NewLine is "\n", as on Mono). Links (AddLink, SetLink) are
 *   `<uri xmlns="…/dataservices/metadata">` bodies; the Content-ID goes inside the embedded request.
 * .NET 5.x (ODataBatchWriter): the same framing, no Content-Length on operations, the body
 *   followed by the CRLF that belongs to the delimiter, Content-ID inside the embedded request.
 */
import { EXPRESS_VERSIONS, startDemo } from '../helpers/demo';
import type { RunningServer } from '../helpers/server';
import { type HttpResult, batchBoundaryOf, send } from '../helpers/batch-http';
import { readLikeWcfClient } from '../batch/helpers';
import type { ClientPart, ClientResponse } from '../batch/helpers';

const ATOM = 'http://www.w3.org/2005/Atom';
const DATA = 'http://schemas.microsoft.com/ado/2007/08/dataservices';
const METADATA = 'http://schemas.microsoft.com/ado/2007/08/dataservices/metadata';
const SCHEME = 'http://schemas.microsoft.com/ado/2007/08/dataservices/scheme';
const XML_DECLARATION = '<?xml version="1.0" encoding="utf-8" standalone="yes"?>';
const BATCH = 'batch_4f1d1c4b-07b0-4d0e-9d3a-1d5e2f6a7b8c';
const CHANGESET = 'changeset_b2a7e9c0-5a1f-4c6d-8e3b-9f0a1b2c3d4e';

/** The headers DataServiceContext 4.0 puts on every request it sends itself (CreateRequest). */
const NET4_HEADERS = {
  'user-agent': 'Microsoft ADO.NET Data Services',
  dataserviceversion: '1.0;NetFx',
  maxdataserviceversion: '2.0;NetFx',
  accept: 'application/atom+xml,application/xml',
  'accept-charset': 'UTF-8',
};

/** `<uri xmlns="…/metadata">` as CreateRequestData(LinkDescriptor) writes it (XmlWriter, UTF-8 without BOM). */
function linkBody(uri: string): string {
  return `${XML_DECLARATION}<uri xmlns="${METADATA}">${uri}</uri>`;
}

/** A Category entry as CreateRequestData(EntityDescriptor) writes it for AddObject (no EPM: title, author, updated, an empty id). */
function categoryEntry(id: number, name: string): string {
  return (
    `${XML_DECLARATION}<entry xmlns:d="${DATA}" xmlns:m="${METADATA}" xmlns="${ATOM}">` +
    `<category scheme="${SCHEME}" term="ODataDemo.Category" /><title /><author><name /></author>` +
    `<updated>2026-01-02T03:04:05.6780000Z</updated><id />` +
    `<content type="application/xml"><m:properties><d:ID m:type="Edm.Int32">${id}</d:ID><d:Name>${name}</d:Name></m:properties></content></entry>`
  );
}

/** One changeset operation of the 4.0 client; `body` gets the newline the client appends, and is counted. */
function net4Operation(
  nl: string,
  method: string,
  uri: string,
  contentId: number,
  options: { contentType?: string; body?: string; ifMatch?: string; version2?: boolean } = {},
): string {
  const lines = [`--${CHANGESET}`, 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', '', `${method} ${uri} HTTP/1.1`];
  if (options.version2 === true) lines.push('DataServiceVersion: 2.0;NetFx');
  lines.push(`Content-ID: ${contentId}`);
  if (options.contentType !== undefined) lines.push(`Content-Type: ${options.contentType}`);
  if (options.ifMatch !== undefined) lines.push(`If-Match: ${options.ifMatch}`);
  const body = options.body === undefined ? undefined : options.body + nl;
  if (body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(body, 'utf8')}`);
  // text.WriteLine() ends the headers; the body (with its newline) is copied right after.
  return lines.join(nl) + nl + nl + (body ?? '');
}

/** A whole SaveChanges(Batch) body of the 4.0 client: one changeset, closed by the two close delimiters. */
function net4Batch(nl: string, operations: string[]): Buffer {
  const head = [`--${BATCH}`, `Content-Type: multipart/mixed; boundary=${CHANGESET}`, ''].join(nl) + nl;
  return Buffer.from(head + operations.join('') + `--${CHANGESET}--${nl}--${BATCH}--${nl}`, 'utf8');
}

/** One changeset operation of the 5.x client (ODataBatchWriter): headers of the message, no Content-Length, CRLF before the next delimiter. */
function net5Operation(method: string, uri: string, contentId: number, headers: Record<string, string>, body?: string): string {
  const lines = [
    `--${CHANGESET}`,
    'Content-Type: application/http',
    'Content-Transfer-Encoding: binary',
    '',
    `${method} ${uri} HTTP/1.1`,
    `Content-ID: ${contentId}`,
  ];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return lines.join('\r\n') + '\r\n\r\n' + (body ?? '') + '\r\n';
}

function net5Batch(operations: string[]): Buffer {
  return Buffer.from(
    `--${BATCH}\r\nContent-Type: multipart/mixed; boundary=${CHANGESET}\r\n\r\n` + operations.join('') + `--${CHANGESET}--\r\n--${BATCH}--\r\n`,
    'utf8',
  );
}

function changesetOf(parts: ClientPart[]): ClientResponse[] {
  const [only] = parts;
  if (parts.length !== 1 || only === undefined || !('changeset' in only)) throw new Error(`expected one committed changeset, got ${JSON.stringify(parts)}`);
  return only.changeset;
}

describe.each(EXPRESS_VERSIONS)('the .NET WCF Data Services clients on %s', (_name, expressModule) => {
  let demo: RunningServer;
  beforeEach(async () => {
    demo = await startDemo(expressModule);
  });
  afterEach(() => demo.close());

  const root = () => `${demo.url}/odata/`;
  const getJson = async (path: string): Promise<{ status: number; d: Record<string, unknown> | undefined }> => {
    const result = await send(root() + path, 'GET', { accept: 'application/json' });
    return { status: result.status, d: result.body.length === 0 ? undefined : (JSON.parse(result.body.toString('utf8')) as { d: Record<string, unknown> }).d };
  };
  const postBatch = (body: Buffer): Promise<HttpResult> =>
    send(`${root()}$batch`, 'POST', { ...NET4_HEADERS, 'content-type': `multipart/mixed; boundary=${BATCH}` }, body);
  const readAsWcfClient = (result: HttpResult): ClientPart[] => {
    if (result.status !== 202) throw new Error(`expected 202, got ${result.status}: ${result.body.toString('utf8')}`);
    return readLikeWcfClient(result.body.toString('utf8'), batchBoundaryOf(result.headers['content-type']));
  };

  describe('$links bodies in the metadata namespace (AddLink, SetLink)', () => {
    it('AddLink: POST $links with <uri xmlns="…/metadata"> is 204 and adds the link (4.0 and 5.x write the same element)', async () => {
      const body = linkBody(`${root()}Products(1)`);
      const response = await send(
        `${root()}Categories(0)/$links/Products`,
        'POST',
        { ...NET4_HEADERS, 'content-type': 'application/xml', 'content-length': String(Buffer.byteLength(body)) },
        body,
      );
      expect([response.status, response.body.length]).toEqual([204, 0]);
      expect((await getJson('Products(1)/Category')).d).toMatchObject({ ID: 0 });
    });

    it('SetLink: PUT $links with <uri xmlns="…/metadata"> is 204 and replaces the link', async () => {
      const body = `<?xml version="1.0" encoding="utf-8"?><uri xmlns="${METADATA}">${root()}Suppliers(1)</uri>`;
      const response = await send(`${root()}Products(2)/$links/Supplier`, 'PUT', { ...NET4_HEADERS, 'content-type': 'application/xml' }, body);
      expect(response.status).toBe(204);
      expect((await getJson('Products(2)/Supplier')).d).toMatchObject({ ID: 1 });
    });

    it('still refuses another element with 400 BODY_INVALID', async () => {
      const body = `${XML_DECLARATION}<link xmlns="${METADATA}">${root()}Products(1)</link>`;
      const response = await send(
        `${root()}Categories(0)/$links/Products`,
        'POST',
        { ...NET4_HEADERS, accept: 'application/json', 'content-type': 'application/xml' },
        body,
      );
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body.toString('utf8')).error.code).toBe('BODY_INVALID');
    });
  });

  describe.each([
    ['CRLF (Windows: Environment.NewLine is "\\r\\n")', '\r\n'],
    ['LF (Mono: Environment.NewLine is "\\n")', '\n'],
  ])('.NET 4.0 SaveChanges(SaveChangesOptions.Batch) with %s', (_what, nl) => {
    it('runs a changeset whose Content-Lengths count the line break before the next delimiter', async () => {
      const link = linkBody('$1');
      const body = net4Batch(nl, [
        net4Operation(nl, 'POST', `${root()}Categories`, 1, { contentType: 'application/atom+xml;type=entry', body: categoryEntry(3, 'Snacks') }),
        net4Operation(nl, 'PUT', `${root()}Products(2)/$links/Category`, 2, { contentType: 'application/xml', body: link }),
        net4Operation(nl, 'POST', `$1/$links/Products`, 3, { contentType: 'application/xml', body: linkBody(`${root()}Products(3)`) }),
        net4Operation(nl, 'DELETE', `${root()}Products(8)`, 4),
      ]);
      // What the server used to refuse: a Content-Length one line break longer than the part.
      const declared = /Content-Length: (\d+)/.exec(body.toString('utf8'))?.[1];
      expect(Number(declared)).toBe(Buffer.byteLength(categoryEntry(3, 'Snacks')) + nl.length);

      const responses = changesetOf(readAsWcfClient(await postBatch(body)));
      expect(responses.map((response) => [response.status, response.headers['content-id']])).toEqual([
        [201, '1'],
        [204, '2'],
        [204, '3'],
        [204, '4'],
      ]);
      expect(responses[0].headers['location']).toBe(`${root()}Categories(3)`);
      expect(responses[0].body).toContain('<d:Name>Snacks</d:Name>');
      expect((await getJson('Categories(3)')).d).toMatchObject({ ID: 3, Name: 'Snacks' });
      expect((await getJson('Products(2)/Category')).d).toMatchObject({ ID: 3 });
      expect((await getJson('Products(3)/Category')).d).toMatchObject({ ID: 3 });
      expect((await getJson('Products(8)')).status).toBe(404);
    });

    it('sends If-Match and DataServiceVersion 2.0 inside an operation; a stale tag fails the changeset as one 412', async () => {
      const supplier = (name: string) =>
        `${XML_DECLARATION}<entry xmlns:d="${DATA}" xmlns:m="${METADATA}" xmlns="${ATOM}"><category scheme="${SCHEME}" term="ODataDemo.Supplier" /><title /><author><name /></author>` +
        `<updated>2026-01-02T03:04:05.6780000Z</updated><id>${root()}Suppliers(0)</id><content type="application/xml"><m:properties>` +
        `<d:ID m:type="Edm.Int32">0</d:ID><d:Name>${name}</d:Name><d:Concurrency m:type="Edm.Int32">0</d:Concurrency></m:properties></content></entry>`;
      const stale = net4Batch(nl, [
        net4Operation(nl, 'MERGE', `${root()}Suppliers(0)`, 1, { contentType: 'application/atom+xml;type=entry', ifMatch: 'W/"9"', body: supplier('Stale') }),
      ]);
      const [failed] = readAsWcfClient(await postBatch(stale));
      expect(failed).toMatchObject({ status: 412, headers: { 'content-id': '1' } });
      const fresh = net4Batch(nl, [
        net4Operation(nl, 'MERGE', `${root()}Suppliers(0)`, 1, {
          contentType: 'application/atom+xml;type=entry',
          ifMatch: 'W/"0"',
          body: supplier('Fresh'),
          version2: true,
        }),
      ]);
      const [merged] = changesetOf(readAsWcfClient(await postBatch(fresh)));
      expect(merged).toMatchObject({ status: 204, headers: { 'content-id': '1', etag: 'W/"1"' } });
      expect((await getJson('Suppliers(0)')).d).toMatchObject({ Name: 'Fresh', Concurrency: 1 });
    });

    it('still refuses a Content-Length that overruns the part, and runs nothing', async () => {
      const entry = categoryEntry(4, 'Overrun');
      const operation = net4Operation(nl, 'POST', `${root()}Categories`, 1, { contentType: 'application/atom+xml;type=entry', body: entry }).replace(
        `Content-Length: ${Buffer.byteLength(entry) + nl.length}`,
        `Content-Length: ${Buffer.byteLength(entry) + nl.length + 3}`,
      );
      const [refused] = readAsWcfClient(await postBatch(net4Batch(nl, [operation])));
      expect(refused).toMatchObject({ status: 400, body: expect.stringContaining('<m:code>BATCH_SYNTAX</m:code>') });
      expect((await getJson('Categories(4)')).status).toBe(404);
    });
  });

  it('.NET 4.0 ExecuteBatch of queries: GET parts with absolute URIs', async () => {
    const body = Buffer.from(
      [
        `--${BATCH}`,
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        '',
        `GET ${root()}Products(1) HTTP/1.1`,
        '',
        `--${BATCH}--`,
        '',
      ].join('\r\n'),
      'utf8',
    );
    const [product] = readAsWcfClient(await postBatch(body));
    expect(product).toMatchObject({ status: 200, headers: { 'content-type': 'application/atom+xml;charset=utf-8' } });
    expect((product as ClientResponse).body).toContain(`<id>${root()}Products(1)</id>`);
  });

  it('.NET 5.x SaveChanges(Batch): Content-ID inside the embedded request is echoed inside the embedded response, never as a MIME header', async () => {
    const headers = {
      DataServiceVersion: '1.0;NetFx',
      MaxDataServiceVersion: '2.0;NetFx',
      Accept: 'application/atom+xml,application/xml',
      'Accept-Charset': 'UTF-8',
    };
    const body = net5Batch([
      net5Operation('POST', `${root()}Categories`, 1, { ...headers, 'Content-Type': 'application/atom+xml;type=entry' }, categoryEntry(5, 'Five')),
      net5Operation(
        'POST',
        '$1/$links/Products',
        2,
        { ...headers, 'Content-Type': 'application/xml' },
        `<?xml version="1.0" encoding="utf-8"?><uri xmlns="${METADATA}">${root()}Products(4)</uri>`,
      ),
      net5Operation('DELETE', `${root()}Products(8)`, 3, headers),
    ]);
    const result = await postBatch(body);
    // Exactly two MIME headers per operation part: the 5.x reader fails on anything more.
    expect(result.body.toString('utf8')).not.toContain('Content-Transfer-Encoding: binary\r\nContent-ID');
    const responses = changesetOf(readAsWcfClient(result));
    expect(responses.map((response) => [response.status, response.headers['content-id']])).toEqual([
      [201, '1'],
      [204, '2'],
      [204, '3'],
    ]);
    expect((await getJson('Products(4)/Category')).d).toMatchObject({ ID: 5 });
  });

  it('echoes a MIME-header Content-ID as a MIME header, and one sent in both places in both', async () => {
    const body = Buffer.from(
      [
        `--${BATCH}`,
        `Content-Type: multipart/mixed; boundary=${CHANGESET}`,
        '',
        `--${CHANGESET}`,
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        'Content-ID: mime-only',
        '',
        'DELETE Products(8) HTTP/1.1',
        '',
        '',
        `--${CHANGESET}`,
        'Content-Type: application/http',
        'Content-Transfer-Encoding: binary',
        'Content-ID: both',
        '',
        'DELETE Products(7) HTTP/1.1',
        'Content-ID: both',
        '',
        '',
        `--${CHANGESET}--`,
        `--${BATCH}--`,
        '',
      ].join('\r\n'),
      'utf8',
    );
    const text = (await postBatch(body)).body.toString('utf8');
    const operations = text.split(/\r\n--changesetresponse_[^\r]+\r\n/).slice(1);
    expect(operations[0]).toMatch(
      /^Content-Type: application\/http\r\nContent-Transfer-Encoding: binary\r\nContent-ID: mime-only\r\n\r\nHTTP\/1\.1 204 No Content\r\nDataServiceVersion: 1\.0;\r\n\r\n$/,
    );
    expect(operations[1]).toMatch(
      /^Content-Type: application\/http\r\nContent-Transfer-Encoding: binary\r\nContent-ID: both\r\n\r\nHTTP\/1\.1 204 No Content\r\nDataServiceVersion: 1\.0;\r\nContent-ID: both\r\n/,
    );
  });

  it('LoadProperty of a null single-valued navigation: 204, which the client reads as null', async () => {
    expect((await send(`${root()}Products(1)/$links/Category`, 'DELETE', NET4_HEADERS)).status).toBe(204);
    const response = await send(`${root()}Products(1)/Category`, 'GET', NET4_HEADERS);
    expect([response.status, response.body.length]).toEqual([204, 0]);
  });
});
