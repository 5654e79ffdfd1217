/**
 * `$batch` end to end, bytes as clients send them: multi-byte UTF-8 with byte-counting
 * Content-Lengths, the bodies of real clients (spec/fixtures/batch), the x-csrf-token handshake and
 * the examples of docs/batch.md, byte for byte.
 * The demo app runs on a real port, on Express 4 and 5, and every response is read byte for byte
 * (spec/helpers/batch-http.ts checks the framing, CRLF line ends and that each part's Content-Length
 * counts bytes); retrieve parts are compared with the same request sent on its own.
 */
import { request as httpRequest } from 'http';
import { readFileSync } from 'fs';
import { join } from 'path';
import { readLikeCloudSdk, readLikeDatajs } from '../batch/helpers';
import {
  type HttpResult,
  type LineEnds,
  batchBody,
  batchBoundaryOf,
  changeset,
  changesetOf,
  jsonOf,
  operation,
  readBatchResponse,
  send,
  single,
  statuses,
  toCrlf,
} from '../helpers/batch-http';
import { ATOM_WRITE, FIXTURES, JSON_HEADERS, JSON_TYPE, JSON_WRITE, LINE_ENDS, jsonError, productAtom, productJson, useBatchDemo } from '../helpers/batch-demo';
import { EXPRESS_VERSIONS } from '../helpers/demo';

describe.each(EXPRESS_VERSIONS)('$batch as clients send it, on the demo service on %s', (_name, expressModule) => {
  const demo = useBatchDemo(expressModule);
  const { root, postBatch, runBatch, getJson, expectSameAsSingleRequest, expectSameResponse } = demo;

  describe('UTF-8 and bytes', () => {
    const NAME = 'Grüner Tee ☕';
    const DESCRIPTION = 'Matcha 🍵 — 抹茶, süß';

    it('writes and reads back multi-byte UTF-8 unchanged, every Content-Length counting bytes', async () => {
      const body = productJson(50, NAME, { Description: DESCRIPTION });
      expect(Buffer.byteLength(body)).toBeGreaterThan(body.length);
      const parts = await runBatch([
        changeset('changeset_utf8', operation('POST', 'Products', { headers: JSON_WRITE, body, contentLength: true, contentId: '1' })),
        operation('GET', 'Products(50)?$select=Name,Description', { headers: JSON_HEADERS }),
        operation('GET', 'Products(50)?$select=Name,Description', { headers: { Accept: 'application/atom+xml' } }),
      ]);
      expect(statuses(parts)).toEqual([[201], 200, 200]);
      const [created] = changesetOf(parts, 0);
      const createdText = created.body.toString('utf8');
      expect(created.headers['Content-Length']).toBe(String(Buffer.byteLength(createdText, 'utf8')));
      expect(Number(created.headers['Content-Length'])).toBeGreaterThan(createdText.length);
      expect(jsonOf(created)).toMatchObject({ d: { ID: 50, Name: NAME, Description: DESCRIPTION } });
      expect(jsonOf(single(parts, 1))).toEqual({
        d: { __metadata: { uri: `${root()}Products(50)`, type: 'ODataDemo.Product' }, Name: NAME, Description: DESCRIPTION },
      });
      expect(single(parts, 2).body.toString('utf8')).toContain(`<title type="text">${NAME}</title><summary type="text">${DESCRIPTION}</summary>`);
      await expectSameAsSingleRequest(single(parts, 1), 'Products(50)?$select=Name,Description', { accept: JSON_TYPE });
      await expectSameAsSingleRequest(single(parts, 2), 'Products(50)?$select=Name,Description', { accept: 'application/atom+xml' });
    });

    it('reads a multi-byte Atom body and a $value text body in a changeset', async () => {
      const parts = await runBatch([
        changeset(
          'changeset_utf8',
          operation('POST', 'Products', { headers: ATOM_WRITE, body: productAtom(51, NAME), contentLength: true, contentId: '1' }),
          operation('PUT', '$1/Description/$value', { headers: { 'Content-Type': 'text/plain;charset=utf-8' }, body: DESCRIPTION, contentLength: true }),
        ),
        operation('GET', 'Products(51)/Description/$value'),
        operation('GET', 'Products(51)/Name', { headers: { Accept: 'application/xml' } }),
      ]);
      expect(statuses(parts)).toEqual([[201, 204], 200, 200]);
      const value = single(parts, 1);
      expect(value.headers).toEqual({
        DataServiceVersion: '1.0;',
        'Content-Type': 'text/plain;charset=utf-8',
        'Content-Length': String(Buffer.byteLength(DESCRIPTION)),
      });
      expect(value.body.equals(Buffer.from(DESCRIPTION, 'utf8'))).toBe(true);
      expect(single(parts, 2).body.toString('utf8')).toContain(`>${NAME}</d:Name>`);
    });
  });

  describe('bodies shaped like real clients (spec/fixtures/batch)', () => {
    it.each(LINE_ENDS)('SAPUI5 v2 ODataModel (datajs writer) with %s line ends: every part answers, datajs reads the response', async (lineEnds) => {
      const stored = readFileSync(join(FIXTURES, 'sapui5-v2.txt'));
      const readAlone = await send(`${root()}Products?$skip=0&$top=2`, 'GET', { accept: JSON_TYPE, dataserviceversion: '2.0', maxdataserviceversion: '2.0' });
      const result = await postBatch(lineEnds === 'LF' ? stored : toCrlf(stored), 'multipart/mixed;boundary=batch_d0dc-21c0-39f6');
      const parts = readBatchResponse(result);
      expect(statuses(parts)).toEqual([200, [204, 201, 201]]);
      expectSameResponse(single(parts, 0), readAlone);
      const [merge, category, product] = changesetOf(parts, 1);
      expect(merge.headers).toEqual({ DataServiceVersion: '1.0;' });
      // The Content-ID came inside the embedded request; the response echoes it there (datajs reads
      // only the embedded headers of a response part).
      expect(category.mime).toEqual({ 'Content-Type': 'application/http', 'Content-Transfer-Encoding': 'binary' });
      expect(category.headers['Content-ID']).toBe('id-1700000000000-12');
      expect([category.headers['Location'], product.headers['Location']]).toEqual([`${root()}Categories(9)`, `${root()}Products(77)`]);
      expect(jsonOf(product)).toMatchObject({ d: { ID: 77, Name: 'Mate' } });

      const datajs = readLikeDatajs(result.body.toString('utf8'), batchBoundaryOf(result.headers['content-type']));
      expect(datajs.map((part) => ('changeset' in part ? part.changeset.map((response) => response.status) : part.status))).toEqual([200, [204, 201, 201]]);
      expect(datajs[0]).toMatchObject({ body: single(parts, 0).body.toString('utf8') });

      expect((await getJson('Products(1)?$select=Name,Description')).json).toMatchObject({ d: { Name: 'Kaffee ☕', Description: '😀' } });
      expect((await getJson('Products(77)/Category')).json).toMatchObject({ d: { ID: 9, Name: 'Drinks' } });
    });

    it('SAPUI5 v2 ODataModel remove() inside a changeset: 204 No Content, which datajs resolves (a 200 left the promise pending)', async () => {
      const ui5 = { Accept: JSON_TYPE, 'Accept-Language': 'en', DataServiceVersion: '2.0', MaxDataServiceVersion: '2.0' };
      const result = await postBatch(
        batchBody([
          changeset(
            'changeset_9a1e-77d2-03bc',
            operation('DELETE', 'Products(8)', { headers: ui5 }),
            operation('DELETE', 'Products(7)/Description/$value', { headers: ui5 }),
          ),
        ]),
      );
      const parts = readBatchResponse(result);
      expect(statuses(parts)).toEqual([[204, 204]]);
      for (const response of changesetOf(parts, 0)) {
        expect(response.statusLine).toBe('HTTP/1.1 204 No Content');
        expect(response.headers).toEqual({ DataServiceVersion: '1.0;' });
        expect(response.body.length).toBe(0);
      }
      const datajs = readLikeDatajs(result.body.toString('utf8'), batchBoundaryOf(result.headers['content-type']));
      expect(datajs).toEqual([{ changeset: [expect.objectContaining({ status: 204, body: '' }), expect.objectContaining({ status: 204, body: '' })] }]);
      expect((await getJson('Products(8)')).status).toBe(404);
    });

    /** The Cloud SDK body with the demo's service path, sets and keys in place of API_COMMON_SRV's. */
    const cloudSdkBody = (lineEnds: LineEnds): Buffer => {
      let text = readFileSync(join(FIXTURES, 'sap-cloud-sdk.txt'), 'utf8');
      const replacements: [string, string, number][] = [
        ['/sap/opu/odata/sap/API_COMMON_SRV/', '/odata/', 4],
        ['POST /odata/A_CommonEntity HTTP/1.1', 'POST /odata/Categories HTTP/1.1', 1],
        ['{"KeyPropertyGuid":"guidId","KeyPropertyString":"strId","StringProperty":"value"}', '{"ID":3,"Name":"value"}', 1],
        ['/to_Children HTTP/1.1', '/Products HTTP/1.1', 1],
        ['{"ChildName":"first"}', productJson(42, 'first'), 1],
        ["PATCH /odata/A_CommonEntity(KeyPropertyGuid=guidId,KeyPropertyString='old')", 'PATCH /odata/Suppliers(ID=0)', 1],
        ['If-Match: W/"datetime\'2024-01-01T00%3A00%3A00\'"', 'If-Match: W/"0"', 1],
        ['{"StringProperty":"value"}', '{"Name":"value"}', 1],
        ["DELETE /odata/A_CommonEntity(KeyPropertyGuid=testId,KeyPropertyString='test')", 'DELETE /odata/Products(ID=8)', 1],
        ["/odata/A_CommonEntity?$format=json&$filter=(StringProperty%20eq%20'test')", "/odata/Categories?$format=json&$filter=(Name%20eq%20'value')", 1],
      ];
      for (const [from, to, count] of replacements) {
        expect([from, text.split(from).length - 1]).toEqual([from, count]);
        text = text.split(from).join(to);
      }
      expect(text).not.toContain('A_CommonEntity');
      const bytes = Buffer.from(text, 'utf8');
      return lineEnds === 'LF' ? bytes : toCrlf(bytes);
    };

    it.each(LINE_ENDS)(
      'SAP Cloud SDK (absolute paths, UUID Content-Ids, If-Match) with %s line ends: every part answers, the SDK parser reads the response',
      async (lineEnds) => {
        const result = await postBatch(cloudSdkBody(lineEnds), 'multipart/mixed; boundary=batch_fixed_boundary_for_testing');
        const parts = readBatchResponse(result);
        // A DELETE answers 204 No Content (MS-ODATA §2.2.7.4.1), like the PATCH.
        expect(statuses(parts)).toEqual([[201, 201, 204, 204], 200]);
        const [category, product, patch, remove] = changesetOf(parts, 0);
        expect([category, product, patch, remove].map((response) => response.mime['Content-ID'])).toEqual([
          '2cbf3f2b-0b1e-4a6a-9d3e-0c1e5c1d8a10',
          '7a4e1c55-93b2-4a51-8f0e-6a1d2c3b4e5f',
          '9f1d2e3c-4b5a-4c6d-8e7f-0a1b2c3d4e5f',
          '0b6a7c8d-1e2f-4a3b-9c4d-5e6f7a8b9c0d',
        ]);
        expect([category.headers['Location'], product.headers['Location']]).toEqual([`${root()}Categories(3)`, `${root()}Products(42)`]);
        expect(patch.headers).toEqual({ DataServiceVersion: '1.0;', ETag: 'W/"1"' });
        expect(remove.statusLine).toBe('HTTP/1.1 204 No Content');
        expect(remove.headers).toEqual({ DataServiceVersion: '1.0;' });
        await expectSameAsSingleRequest(single(parts, 1), "Categories?$format=json&$filter=(Name%20eq%20'value')", {});

        const sdk = readLikeCloudSdk(result.body.toString('utf8'), result.headers['content-type']);
        const [changesetRead, retrieveRead] = sdk;
        if (!Array.isArray(changesetRead) || Array.isArray(retrieveRead)) throw new Error(`the SDK parser read ${JSON.stringify(sdk)}`);
        expect(changesetRead.map((read) => read.httpCode)).toEqual([201, 201, 204, 204]);
        expect(changesetRead.slice(0, 3).map((read) => read.body)).toEqual([category.body.toString('utf8'), product.body.toString('utf8'), '']);
        expect(retrieveRead).toEqual({ httpCode: 200, body: single(parts, 1).body.toString('utf8') });
        expect(JSON.parse(single(parts, 1).body.toString('utf8'))).toMatchObject({ d: { results: [{ ID: 3, Name: 'value' }] } });

        expect((await getJson('Suppliers(0)')).json).toMatchObject({ d: { Name: 'value', Concurrency: 1 } });
        expect((await getJson('Products(8)')).status).toBe(404);
        expect((await getJson('Products(42)/Category')).json).toMatchObject({ d: { ID: 3 } });
      },
    );
  });

  describe('the x-csrf-token handshake', () => {
    it('with csrf on, refuses a batch without the token (403, nothing processed) and runs it with the fetched token', async () => {
      await demo.restart({ csrf: true });
      const body = readFileSync(join(FIXTURES, 'sapui5-v2.txt'));
      const contentType = 'multipart/mixed;boundary=batch_d0dc-21c0-39f6';
      const refused = await postBatch(toCrlf(body), contentType, { accept: JSON_TYPE });
      expect([refused.status, refused.headers['x-csrf-token']]).toEqual([403, 'Required']);
      expect(JSON.parse(refused.body.toString('utf8'))).toEqual(jsonError('CSRF_TOKEN_REQUIRED', 'CSRF token validation failed.'));
      expect((await getJson('Categories(9)')).status).toBe(404);

      const fetched = await send(root(), 'GET', { 'x-csrf-token': 'Fetch' });
      const token = fetched.headers['x-csrf-token'];
      const cookie = (fetched.headers['set-cookie'] ?? '').split(';')[0];
      expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(cookie).toBe(`odata_csrf=${token}`);
      // The parts carry a stale token of their own (as SAPUI5 sends it): only the outer request's counts.
      const accepted = await postBatch(toCrlf(body), contentType, { 'x-csrf-token': token, cookie });
      expect(statuses(readBatchResponse(accepted))).toEqual([200, [204, 201, 201]]);
      expect((await getJson('Categories(9)')).status).toBe(200);
    });
  });

  describe('docs/batch.md', () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'batch.md'), 'utf8');
    const blocks = [...doc.matchAll(/```http\n([\s\S]*?)```/g)].map((match) => toCrlf(Buffer.from(match[1], 'utf8')).toString('utf8'));
    /** POST the curl example as curl sends it to `localhost:4004` (the Host header decides every URI the server writes). */
    const postAsCurl = (): Promise<HttpResult> =>
      new Promise((resolve, reject) => {
        const body = readFileSync(join(FIXTURES, 'curl-example.txt'));
        const { port } = new URL(demo.url());
        const outgoing = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: '/odata/$batch',
            headers: { host: 'localhost:4004', 'content-type': 'multipart/mixed; boundary=batch_1', 'content-length': body.length },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => {
              const headers: Record<string, string> = {};
              for (const [name, value] of Object.entries(response.headers)) if (typeof value === 'string') headers[name] = value;
              resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
            });
          },
        );
        outgoing.on('error', reject);
        outgoing.end(body);
      });
    /** The response text with the server's random boundaries replaced by the ones the doc shows. */
    const withDocBoundaries = (result: HttpResult, block: string): string => {
      let text = result.body.toString('utf8');
      text = text.split(batchBoundaryOf(result.headers['content-type'])).join(/^--(batch_[0-9a-f-]+)\r\n/.exec(block)?.[1] ?? 'missing');
      const changesetBoundary = /changesetresponse_[0-9a-f-]{36}/.exec(text);
      const documented = /changesetresponse_[0-9a-f-]{36}/.exec(block);
      if (changesetBoundary !== null && documented !== null) text = text.split(changesetBoundary[0]).join(documented[0]);
      return text;
    };

    it('shows, byte for byte, what the server answers to its curl example', async () => {
      const result = await postAsCurl();
      expect([result.status, result.headers['dataserviceversion']]).toEqual([202, '1.0;']);
      expect(withDocBoundaries(result, blocks[1])).toBe(blocks[1]);
    });

    it('shows, byte for byte, the part that answers the changeset when the category already exists', async () => {
      await postAsCurl();
      const again = await postAsCurl();
      const parts = readBatchResponse(again);
      expect(statuses(parts)).toEqual([200, 409, 404]);
      const text = withDocBoundaries(again, blocks[2]);
      const boundary = /^--(batch_[0-9a-f-]+)\r\n/.exec(text)?.[1] ?? 'missing';
      const failedPart = text.split(`\r\n--${boundary}\r\n`)[1];
      expect(`--${boundary}\r\n${failedPart}\r\n--${boundary}--\r\n`).toBe(blocks[2]);
    });
  });
});
