/**
 * `$batch` end to end, what is refused: a failing part answers as its own part without disturbing
 * the others, and a batch refused as a whole (headers, body, limits, method) is one 4xx with nothing
 * processed.
 * The demo app runs on a real port, on Express 4 and 5, and every response is read byte for byte
 * (spec/helpers/batch-http.ts checks the framing, CRLF line ends and that each part's Content-Length
 * counts bytes); retrieve parts are compared with the same request sent on its own.
 */
import { batchBody, changeset, jsonOf, operation, readBatchResponse, send, single, statuses } from '../helpers/batch-http';
import { JSON_HEADERS, JSON_TYPE, JSON_UTF8, JSON_WRITE, jsonError, useBatchDemo } from '../helpers/batch-demo';
import { EXPRESS_VERSIONS } from '../helpers/demo';

describe.each(EXPRESS_VERSIONS)('failures and refusals of $batch on the demo service on %s', (_name, expressModule) => {
  const demo = useBatchDemo(expressModule);
  const { root, runBatch, getJson, snapshot, expectSameAsSingleRequest } = demo;

  describe('failing parts', () => {
    it('answers a failing retrieve as its own part without disturbing the others', async () => {
      const reads: [string, Record<string, string>][] = [
        ['Products(1)?$select=Name', { accept: JSON_TYPE }],
        ['Products(999)', { accept: JSON_TYPE }],
        ['Categories(77)/Products', { accept: JSON_TYPE }],
        ['Products(2)/Colour', { accept: 'application/atom+xml' }],
        ['Products?$filter=Price gt', { accept: JSON_TYPE }],
        ['Products(2)?$select=Name', { accept: 'application/atom+xml' }],
      ];
      const parts = await runBatch([
        ...reads.map(([path, headers]) => operation('GET', path.replace(/ /g, '%20'), { headers: { Accept: headers.accept } })),
        changeset('changeset_1', operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":3,"Name":"Snacks"}' })),
      ]);
      expect(statuses(parts)).toEqual([200, 404, 404, 404, 400, 200, [201]]);
      for (const [index, [path, headers]] of reads.entries()) await expectSameAsSingleRequest(single(parts, index), path.replace(/ /g, '%20'), headers);
      expect(jsonOf(single(parts, 1))).toEqual(jsonError('ENTITY_NOT_FOUND', "No entity with the key (999) exists in 'Products'."));
      expect((await getJson('Categories(3)')).status).toBe(200);
    });

    it('answers conditional, HEAD, $metadata, service document and $count retrieves like single requests', async () => {
      const reads: [string, string, Record<string, string>][] = [
        ['GET', 'Suppliers(0)', { 'If-None-Match': 'W/"0"' }],
        ['GET', 'Suppliers(1)', { 'If-None-Match': 'W/"5"', Accept: JSON_TYPE }],
        ['HEAD', 'Products(1)', { Accept: JSON_TYPE }],
        ['HEAD', 'Products(999)', { Accept: JSON_TYPE }],
        ['GET', '$metadata', {}],
        ['GET', '/odata/', { Accept: JSON_TYPE }],
        ['GET', 'Products/$count?$filter=Price%20gt%2020', {}],
        ['GET', 'Products(1)/Name/$value', {}],
      ];
      const parts = await runBatch(reads.map(([method, target, headers]) => operation(method, target, { headers })));
      expect(statuses(parts)).toEqual([304, 200, 200, 404, 200, 200, 200, 200]);
      expect(single(parts, 0).headers).toEqual({ ETag: 'W/"0"', DataServiceVersion: '1.0;' });
      // HEAD: the headers of the GET, no body, and no Content-Length (it would have to be the GET's, RFC 7230 §3.3.2).
      expect(single(parts, 2).headers).toEqual({ DataServiceVersion: '1.0;', 'Content-Type': JSON_UTF8 });
      expect(single(parts, 3).headers).toEqual({ 'Content-Type': JSON_UTF8, DataServiceVersion: '1.0;' });
      for (const index of [1, 4, 6, 7]) {
        const [, target, headers] = reads[index];
        const lower: Record<string, string> = {};
        for (const [name, value] of Object.entries(headers)) lower[name.toLowerCase()] = value;
        await expectSameAsSingleRequest(single(parts, index), target, lower);
      }
      await expectSameAsSingleRequest(single(parts, 5), '', { accept: JSON_TYPE });
      expect(single(parts, 6).body.toString()).toBe('5');
    });

    it('refuses a changeset that contains a GET, as one 400 response, before running any of it (MS-ODATA §2.2.7.6)', async () => {
      const before = await snapshot();
      const parts = await runBatch([
        operation('GET', 'Categories/$count'),
        changeset(
          'changeset_1',
          operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":3,"Name":"Snacks"}', contentId: '1' }),
          operation('GET', 'Products(1)', { headers: JSON_HEADERS, contentId: '2' }),
        ),
        operation('GET', 'Categories/$count'),
      ]);
      expect(statuses(parts)).toEqual([200, 400, 200]);
      const refused = single(parts, 1);
      expect(refused.mime).toEqual({ 'Content-Type': 'application/http', 'Content-Transfer-Encoding': 'binary', 'Content-ID': '2' });
      expect(refused.headers).toEqual({ 'Content-Type': JSON_UTF8, DataServiceVersion: '1.0;', 'Content-Length': String(refused.body.length) });
      expect(jsonOf(refused)).toEqual(
        jsonError(
          'BATCH_NOT_ALLOWED',
          'part 2, operation 2 is a GET request; a changeset may contain only POST, PUT, MERGE, PATCH and DELETE requests (MS-ODATA §2.2.7.6)',
        ),
      );
      expect([single(parts, 0).body.toString(), single(parts, 2).body.toString()]).toEqual(['3', '3']);
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a nested changeset, as one 400 response, before running any of it', async () => {
      const before = await snapshot();
      const parts = await runBatch([
        changeset(
          'changeset_outer',
          operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":3,"Name":"Snacks"}' }),
          changeset('changeset_inner', operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":4,"Name":"Sweets"}' })),
        ),
        operation('GET', 'Categories/$count'),
      ]);
      expect(statuses(parts)).toEqual([400, 200]);
      const refused = single(parts, 0);
      expect(refused.mime).toEqual({ 'Content-Type': 'application/http', 'Content-Transfer-Encoding': 'binary' });
      // No part of the refused changeset can say which format it wants: the error is in XML, the default.
      expect(refused.headers['Content-Type']).toBe('application/xml;charset=utf-8');
      expect(refused.body.toString('utf8')).toBe(
        '<?xml version="1.0" encoding="utf-8" standalone="yes"?><m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><m:code>BATCH_NOT_ALLOWED</m:code>' +
          '<m:message xml:lang="en-US">part 1, operation 2: changesets cannot be nested (MS-ODATA §2.2.7.6: a changeset contains only application/http parts)</m:message></m:error>',
      );
      expect(single(parts, 1).body.toString()).toBe('3');
      expect(await snapshot()).toEqual(before);
    });

    it('refuses a $batch inside a batch as its own part', async () => {
      const parts = await runBatch([
        operation('POST', '$batch', { headers: { 'Content-Type': 'multipart/mixed; boundary=x', Accept: JSON_TYPE } }),
        operation('GET', 'Categories/$count'),
      ]);
      expect(statuses(parts)).toEqual([400, 200]);
      expect(jsonOf(single(parts, 0))).toEqual(jsonError('BATCH_NOT_ALLOWED', 'part 1: a batch cannot contain another $batch request'));
    });

    it('refuses a percent-encoded %24batch inside a batch too, without running it', async () => {
      const inner = batchBody([operation('DELETE', 'Categories(0)')], { boundary: 'x' });
      const parts = await runBatch([
        operation('POST', '%24batch', { headers: { 'Content-Type': 'multipart/mixed; boundary=x', Accept: JSON_TYPE }, body: inner.toString('utf8') }),
        operation('GET', 'Categories/$count'),
      ]);
      expect(statuses(parts)).toEqual([400, 200]);
      expect(jsonOf(single(parts, 0))).toEqual(jsonError('BATCH_NOT_ALLOWED', 'a batch cannot contain another $batch request'));
      expect(single(parts, 1).body.toString()).toBe('3');
    });

    it('serves POST %24batch, the percent-encoded spelling, like $batch', async () => {
      const response = await send(
        `${root()}%24batch`,
        'POST',
        { 'content-type': 'multipart/mixed; boundary=batch_1' },
        batchBody([operation('GET', 'Categories/$count')]),
      );
      const parts = readBatchResponse(response);
      expect([response.status, statuses(parts), single(parts, 0).body.toString()]).toEqual([202, [200], '3']);
    });
  });

  describe('batch-level refusals: a 4xx and nothing processed', () => {
    /** A batch whose first part would write Categories(3). */
    const writing = (options: { boundary?: string; extraParts?: number; header?: string } = {}): Buffer =>
      batchBody(
        [
          changeset(
            'changeset_1',
            operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":3,"Name":"Snacks"}' }),
            operation('POST', 'Categories', { headers: JSON_WRITE, body: '{"ID":4,"Name":"Sweets"}' }),
          ),
          operation('GET', 'Categories/$count'),
          operation('GET', 'Categories/$count', { headers: options.header === undefined ? {} : { 'X-Long': options.header } }),
        ],
        { boundary: options.boundary },
      );
    const body = writing();
    const withoutClose = body.subarray(0, body.lastIndexOf('--batch_1--'));

    it.each<[string, string | undefined, Buffer, Record<string, number>, number, string, string]>([
      [
        'no Content-Type',
        undefined,
        body,
        {},
        400,
        'BATCH_CONTENT_TYPE',
        '$batch requires Content-Type multipart/mixed with a boundary: the Content-Type header is missing',
      ],
      [
        'Content-Type application/json',
        'application/json',
        body,
        {},
        400,
        'BATCH_CONTENT_TYPE',
        "$batch requires Content-Type multipart/mixed with a boundary: got 'application/json', expected 'multipart/mixed'",
      ],
      [
        'Content-Type multipart/form-data',
        'multipart/form-data; boundary=batch_1',
        body,
        {},
        400,
        'BATCH_CONTENT_TYPE',
        "$batch requires Content-Type multipart/mixed with a boundary: got 'multipart/form-data', expected 'multipart/mixed'",
      ],
      [
        'no boundary',
        'multipart/mixed',
        body,
        {},
        400,
        'BATCH_CONTENT_TYPE',
        "$batch requires Content-Type multipart/mixed with a boundary: the boundary parameter is missing in 'multipart/mixed'",
      ],
      [
        'an empty boundary',
        'multipart/mixed; boundary=',
        body,
        {},
        400,
        'BATCH_CONTENT_TYPE',
        "$batch requires Content-Type multipart/mixed with a boundary: expected a value for the parameter 'boundary' at position 26 in 'multipart/mixed; boundary='",
      ],
      [
        'a boundary with a character RFC 2046 forbids',
        'multipart/mixed; boundary=batch@1',
        body,
        {},
        400,
        'BATCH_CONTENT_TYPE',
        "$batch requires Content-Type multipart/mixed with a boundary: expected ';' before a parameter at position 31 in 'multipart/mixed; boundary=batch@1'",
      ],
      [
        'a boundary ending with a space',
        'multipart/mixed; boundary="batch_1 "',
        body,
        {},
        400,
        'BATCH_CONTENT_TYPE',
        "$batch requires Content-Type multipart/mixed with a boundary: the boundary 'batch_1 ' is not valid (RFC 2046 §5.1.1: 1 to 70 letters, digits or '()+_,-./:=? characters, no trailing space)",
      ],
      [
        'a boundary of 71 characters',
        `multipart/mixed; boundary=${'b'.repeat(71)}`,
        writing({ boundary: 'b'.repeat(71) }),
        {},
        400,
        'BATCH_CONTENT_TYPE',
        `$batch requires Content-Type multipart/mixed with a boundary: the boundary '${'b'.repeat(71)}' is not valid (RFC 2046 §5.1.1: 1 to 70 letters, digits or '()+_,-./:=? characters, no trailing space)`,
      ],
      [
        'two boundaries',
        'multipart/mixed; boundary=batch_1; boundary=batch_1',
        body,
        {},
        400,
        'BATCH_CONTENT_TYPE',
        "$batch requires Content-Type multipart/mixed with a boundary: the parameter 'boundary' is given twice at position 35 in 'multipart/mixed; boundary=batch_1; boundary=batch_1'",
      ],
      [
        'a boundary that is not in the body',
        'multipart/mixed; boundary=batch_2',
        body,
        {},
        400,
        'BATCH_SYNTAX',
        "The batch request is malformed: the batch body: no delimiter line '--batch_2' found; does the boundary match the body?",
      ],
      [
        'an empty body',
        'multipart/mixed; boundary=batch_1',
        Buffer.alloc(0),
        {},
        400,
        'BATCH_SYNTAX',
        "The batch request is malformed: the batch body: no delimiter line '--batch_1' found; does the boundary match the body?",
      ],
      [
        'no close delimiter',
        'multipart/mixed; boundary=batch_1',
        withoutClose,
        {},
        400,
        'BATCH_SYNTAX',
        "The batch request is malformed: the batch body: the closing delimiter '--batch_1--' is missing",
      ],
      [
        'more parts than maxBatchParts',
        'multipart/mixed; boundary=batch_1',
        body,
        { maxBatchParts: 2 },
        400,
        'BATCH_PART_LIMIT',
        'The batch request has more than 2 parts.',
      ],
      [
        'more operations than maxChangesetOperations',
        'multipart/mixed; boundary=batch_1',
        body,
        { maxChangesetOperations: 1 },
        400,
        'BATCH_PART_LIMIT',
        'The batch request has more than 1 operations in one changeset.',
      ],
      [
        'a part header block over maxBatchPartHeaderBytes',
        'multipart/mixed; boundary=batch_1',
        writing({ header: 'x'.repeat(300) }),
        { maxBatchPartHeaderBytes: 256 },
        400,
        'BATCH_PART_LIMIT',
        'The batch request has more than 256 bytes in the headers of part 3.',
      ],
      [
        'a body over maxBodyBytes',
        'multipart/mixed; boundary=batch_1',
        body,
        { maxBodyBytes: 512 },
        413,
        'BODY_TOO_LARGE',
        'The request body exceeds the limit of 512 bytes.',
      ],
    ])('refuses %s', async (_case, contentType, requestBody, limits, status, code, message) => {
      await demo.restart({ limits });
      const headers: Record<string, string> = { accept: JSON_TYPE };
      if (contentType !== undefined) headers['content-type'] = contentType;
      const response = await send(`${root()}$batch`, 'POST', headers, requestBody);
      expect([response.status, response.headers['content-type'], response.headers['dataserviceversion']]).toEqual([status, JSON_UTF8, '1.0;']);
      expect(JSON.parse(response.body.toString('utf8'))).toEqual(jsonError(code, message));
      expect((await getJson('Categories(3)')).status).toBe(404);
      expect((await getJson('Categories/$count')).body.toString()).toBe('3');
    });

    it('answers a batch-level error in XML when the outer request does not ask for JSON', async () => {
      const response = await send(`${root()}$batch`, 'POST', { 'content-type': 'multipart/mixed' }, body);
      expect([response.status, response.headers['content-type']]).toEqual([400, 'application/xml;charset=utf-8']);
      expect(response.body.toString('utf8')).toBe(
        '<?xml version="1.0" encoding="utf-8" standalone="yes"?><m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"><m:code>BATCH_CONTENT_TYPE</m:code>' +
          '<m:message xml:lang="en-US">$batch requires Content-Type multipart/mixed with a boundary: the boundary parameter is missing in \'multipart/mixed\'</m:message></m:error>',
      );
      expect((await getJson('Categories(3)')).status).toBe(404);
    });

    it.each(['GET', 'PUT', 'DELETE'])('refuses %s $batch with 405 and Allow: POST', async (method) => {
      const response = await send(
        `${root()}$batch`,
        method,
        { accept: JSON_TYPE, 'content-type': 'multipart/mixed; boundary=batch_1' },
        method === 'GET' ? undefined : body,
      );
      expect([response.status, response.headers['allow']]).toEqual([405, 'POST']);
      expect((await getJson('Categories(3)')).status).toBe(404);
    });
  });
});
