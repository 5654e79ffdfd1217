/**
 * processBatch end to end with a fake pipeline: the request bodies SAPUI5, SAP Cloud SDK, datajs
 * and Olingo send (spec/fixtures/batch), with LF and CRLF line ends; the responses read back the
 * way datajs and SAP Cloud SDK read them.
 */
import { readFileSync } from 'fs';
import { join } from 'path';
import { processBatch, resolveBatchLimits } from '../../lib/batch';
import type { ODataRequest } from '../../lib/protocol/message';
import { SERVICE_ROOT, countingBoundaries, crlf, fakeService, fixture, outer, readLikeCloudSdk, readLikeDatajs, rejectsWithODataError } from './helpers';

const LINE_ENDS = ['lf', 'crlf'] as const;

async function process(body: Buffer, contentType: string, service = fakeService(), overrides: Partial<Parameters<typeof processBatch>[0]> = {}) {
  const response = await processBatch({
    body,
    contentType,
    outer: outer(),
    handle: service.handle,
    transaction: service.transaction,
    createBoundary: countingBoundaries(),
    ...overrides,
  });
  return { response, service, text: response.body.toString('utf8') };
}

describe.each(LINE_ENDS)('client batch bodies with %s line ends', (lineEnds) => {
  it('SAPUI5 v2 (datajs writer, SAP modifications)', async () => {
    const { response, service, text } = await process(fixture('sapui5-v2.txt', lineEnds), 'multipart/mixed;boundary=batch_d0dc-21c0-39f6');
    expect(service.calls.map((c) => [c.method, c.path, c.query, c.body, c.contentIds])).toEqual([
      ['GET', 'Products', '$skip=0&$top=2', undefined, undefined],
      ['MERGE', 'Products(1)', '', '{"Name":"Kaffee ☕","Description":"😀"}', {}],
      ['POST', 'Categories', '', '{"ID":9,"Name":"Drinks"}', {}],
      [
        'POST',
        'Categories(100)/Products',
        '',
        '{"ID":77,"Name":"Mate","ReleaseDate":"\\/Date(1700000000000)\\/","Rating":3,"Price":"2.5"}',
        { 'id-1700000000000-12': 'Categories(100)' },
      ],
    ]);
    expect(service.calls[1].headers).toMatchObject({
      'content-length': '42',
      'content-type': 'application/json',
      'x-csrf-token': 'AiP09zm0osLOCW9m16G1kg==',
      'accept-language': 'de-DE',
      maxdataserviceversion: '2.0',
    });
    expect(service.log).toEqual(['GET Products', 'begin', 'MERGE Products(1)', 'POST Categories', 'POST Categories(100)/Products', 'commit']);
    const parts = readLikeDatajs(text, 'batch_1');
    expect(parts.map((p) => ('changeset' in p ? p.changeset.map((r) => r.status) : p.status))).toEqual([200, [204, 201, 201]]);
    expect('changeset' in parts[1] && parts[1].changeset[2].headers['location']).toBe(`${SERVICE_ROOT}Categories(100)/Products(101)`);
    expect(response.status).toBe(202);
  });

  it('SAP Cloud SDK (absolute paths, Content-Id MIME headers, UUID references)', async () => {
    const root = 'http://localhost:4004/sap/opu/odata/sap/API_COMMON_SRV/';
    const { service, text, response } = await process(
      fixture('sap-cloud-sdk.txt', lineEnds),
      'multipart/mixed; boundary=batch_fixed_boundary_for_testing',
      fakeService(),
      { outer: { ...outer(), serviceRoot: root, servicePath: undefined } },
    );
    expect(service.calls.map((c) => [c.method, c.path, c.query, c.body])).toEqual([
      ['POST', 'A_CommonEntity', '', '{"KeyPropertyGuid":"guidId","KeyPropertyString":"strId","StringProperty":"value"}'],
      ['POST', 'A_CommonEntity(100)/to_Children', '', '{"ChildName":"first"}'],
      ['PATCH', "A_CommonEntity(KeyPropertyGuid=guidId,KeyPropertyString='old')", '', '{"StringProperty":"value"}'],
      ['DELETE', "A_CommonEntity(KeyPropertyGuid=testId,KeyPropertyString='test')", '', undefined],
      ['GET', 'A_CommonEntity', "$format=json&$filter=(StringProperty%20eq%20'test')", undefined],
    ]);
    expect(service.calls[2].headers['if-match']).toBe(`W/"datetime'2024-01-01T00%3A00%3A00'"`);
    const parsed = readLikeCloudSdk(text, response.headers['content-type']);
    expect(parsed.map((p) => (Array.isArray(p) ? p.map((r) => r.httpCode) : p.httpCode))).toEqual([[201, 201, 204, 204], 200]);
    expect(text).toContain('Content-ID: 2cbf3f2b-0b1e-4a6a-9d3e-0c1e5c1d8a10\r\n');
  });

  it('datajs (no Content-Length, UTF-8 body)', async () => {
    const { service, text } = await process(fixture('datajs.txt', lineEnds), 'multipart/mixed; boundary=batch_5d2a-93c1-0f7e');
    expect(service.calls.map((c) => [c.method, c.path, c.query, c.body])).toEqual([
      ['GET', "Customers('ALFKI')", '$expand=Orders', undefined],
      ['POST', 'Customers', '', '{"CustomerID":"NEWCO","CompanyName":"Ünïcödé & Co"}'],
      ['DELETE', "Customers('OLDCO')", '', undefined],
    ]);
    expect(service.calls[1].bodyBytes).toEqual(Buffer.from('{"CustomerID":"NEWCO","CompanyName":"Ünïcödé & Co"}', 'utf8'));
    expect(readLikeDatajs(text, 'batch_1').map((p) => ('changeset' in p ? p.changeset.map((r) => r.status) : p.status))).toEqual([200, [201, 204]]);
  });

  it('Olingo (Atom bodies, Content-ID MIME headers, $1 in path and body)', async () => {
    const { service } = await process(fixture('olingo-atom.txt', lineEnds), 'multipart/mixed; boundary=batch_8194-cf13-1f56');
    expect(service.calls.map((c) => [c.method, c.path, c.contentIds])).toEqual([
      ['GET', 'Employees', undefined],
      ['POST', 'Employees', {}],
      ['PUT', 'Employees(100)/EmployeeName', { 1: 'Employees(100)' }],
      ['PUT', 'Employees(100)/$links/ne_Room', { 1: 'Employees(100)', 2: 'Employees(100)/EmployeeName' }],
    ]);
    const atom = service.calls[1].body ?? '';
    expect([atom.startsWith('<?xml version="1.0" encoding="utf-8"?>'), atom.endsWith('</entry>')]).toEqual([true, true]);
    expect(service.calls[3].body).toBe('<uri xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">$1</uri>');
  });

  it('the curl example of docs/batch.md', async () => {
    const { service, text } = await process(fixture('curl-example.txt', lineEnds), 'multipart/mixed; boundary=batch_1');
    expect(service.calls.map((c) => `${c.method} ${c.path}${c.query ? `?${c.query}` : ''}`)).toEqual([
      'GET Products(1)?$select=ID,Name',
      'POST Categories',
      'POST Categories(100)/Products',
      'GET Products(999)',
    ]);
    expect(readLikeDatajs(text, 'batch_1').length).toBe(3);
  });
});

describe('processBatch', () => {
  const simple = Buffer.from('--b\r\nContent-Type: application/http\r\n\r\nGET A HTTP/1.1\r\n\r\n\r\n--b--\r\n');

  it('answers 202 with multipart/mixed, a byte Content-Length and DataServiceVersion', async () => {
    const { response } = await process(simple, 'multipart/mixed; boundary=b');
    expect(response.headers).toEqual({
      'content-type': 'multipart/mixed; boundary=batch_1',
      'content-length': String(response.body.length),
      dataserviceversion: '1.0;',
    });
  });

  it.each([
    ['a wrong Content-Type', simple, 'application/json', 'BATCH_CONTENT_TYPE', 400],
    ['a missing Content-Type', simple, undefined, 'BATCH_CONTENT_TYPE', 400],
    ['a boundary that does not match', simple, 'multipart/mixed; boundary=zz', 'BATCH_SYNTAX', 400],
    [
      'a missing close delimiter',
      Buffer.from('--b\r\nContent-Type: application/http\r\n\r\nGET A HTTP/1.1\r\n'),
      'multipart/mixed; boundary=b',
      'BATCH_SYNTAX',
      400,
    ],
    ['an empty body', Buffer.alloc(0), 'multipart/mixed; boundary=b', 'BATCH_SYNTAX', 400],
  ])('refuses %s with nothing processed', async (_name, body, contentType, code, status) => {
    const service = fakeService();
    const error = await rejectsWithODataError(processBatch({ body, contentType, outer: outer(), handle: service.handle, transaction: service.transaction }));
    expect([error.code, error.status]).toEqual([code, status]);
    expect(service.log).toEqual([]);
  });

  it('refuses a body over maxBodyBytes with 413 BODY_TOO_LARGE', async () => {
    const service = fakeService();
    const error = await rejectsWithODataError(
      processBatch({
        body: simple,
        contentType: 'multipart/mixed; boundary=b',
        outer: outer(),
        handle: service.handle,
        transaction: service.transaction,
        limits: { maxBodyBytes: 10 },
      }),
    );
    expect([error.code, error.status, error.message]).toEqual(['BODY_TOO_LARGE', 413, 'The request body exceeds the limit of 10 bytes.']);
  });

  it('refuses the whole batch when a later part breaks a limit, before running the earlier ones', async () => {
    const body = Buffer.from(
      `--b\r\nContent-Type: application/http\r\n\r\nGET A HTTP/1.1\r\n\r\n\r\n--b\r\nContent-Type: application/http\r\n\r\nGET B HTTP/1.1\r\nX: ${'x'.repeat(300)}\r\n\r\n\r\n--b--`,
    );
    const service = fakeService();
    const error = await rejectsWithODataError(
      processBatch({
        body,
        contentType: 'multipart/mixed; boundary=b',
        outer: outer(),
        handle: service.handle,
        transaction: service.transaction,
        limits: { maxBatchPartHeaderBytes: 200 },
      }),
    );
    expect([error.code, error.message]).toEqual(['BATCH_PART_LIMIT', 'The batch request has more than 200 bytes in the headers of part 2.']);
    expect(service.log).toEqual([]);
  });

  it('takes ServiceLimits as they are and fills in defaults', () => {
    expect(resolveBatchLimits({ maxBodyBytes: 5, maxBatchParts: 2, maxChangesetOperations: 3, maxTop: undefined } as never)).toEqual({
      maxBodyBytes: 5,
      maxBatchParts: 2,
      maxChangesetOperations: 3,
      maxBatchPartHeaderBytes: 16384,
    });
    expect(resolveBatchLimits({ maxBatchParts: 0, maxBodyBytes: 1.5 })).toMatchObject({ maxBatchParts: 100, maxBodyBytes: 10 * 1024 * 1024 });
  });

  it('carries binary request and response bodies byte for byte', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x2d, 0x2d, 0x62, 0xff]);
    const service = fakeService((request: ODataRequest) =>
      request.method === 'GET' ? { status: 200, headers: { 'content-type': 'image/png' }, body: png } : undefined,
    );
    const body = Buffer.concat([
      Buffer.from(
        '--b\r\nContent-Type: multipart/mixed; boundary=cs\r\n\r\n--cs\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n',
      ),
      Buffer.from(`PUT Photos(1)/$value HTTP/1.1\r\nContent-Type: image/png\r\nContent-Length: ${png.length}\r\n\r\n`),
      png,
      Buffer.from('\r\n--cs--\r\n--b\r\nContent-Type: application/http\r\n\r\nGET Photos(1)/$value HTTP/1.1\r\n\r\n\r\n--b--\r\n'),
    ]);
    const { response } = await process(body, 'multipart/mixed; boundary=b', service);
    expect(service.calls[0].bodyBytes).toEqual(png);
    const head = Buffer.from(`Content-Type: image/png\r\nContent-Length: ${png.length}\r\n\r\n`);
    const at = response.body.indexOf(head);
    expect(at).toBeGreaterThan(0);
    expect(response.body.subarray(at + head.length, at + head.length + png.length)).toEqual(png);
    expect(response.body.subarray(at + head.length + png.length, at + head.length + png.length + 4).toString()).toBe('\r\n--');
  });
});

describe('docs/batch.md', () => {
  const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'batch.md'), 'utf8');
  const blocks = [...doc.matchAll(/```http\n([\s\S]*?)```/g)].map((match) => match[1]);

  it('shows the request body the specs run (spec/fixtures/batch/curl-example.txt)', () => {
    expect(blocks[0]).toBe(fixture('curl-example.txt', 'lf').toString('utf8'));
  });

  it('shows responses whose Content-Length values count the bytes of their bodies', () => {
    for (const [block, boundary] of [
      [blocks[1], 'batch_6c1f1a66-2ad2-4bd5-a2a3-1d4e8e0b7b55'],
      [blocks[2], 'batch_0d9e7c52-0d2f-4a57-9a2c-6f0a3b1e2f44'],
    ] as const) {
      const responses = readLikeDatajs(crlf(block).toString('utf8'), boundary).flatMap((part) => ('changeset' in part ? part.changeset : [part]));
      expect(responses.length).toBeGreaterThan(0);
      for (const response of responses) expect(response.headers['content-length']).toBe(String(Buffer.byteLength(response.body)));
    }
  });
});
