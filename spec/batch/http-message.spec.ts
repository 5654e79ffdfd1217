import { readEmbeddedRequest, readRequestMessage, utf16ByteCount, writeEmbeddedResponse } from '../../lib/batch/http-message';
import type { MimePart } from '../../lib/batch/multipart-reader';
import { DEFAULT_BATCH_LIMITS } from '../../lib/batch/types';
import { catchODataError, outer } from './helpers';

function message(text: string | Buffer, maxHeaderBytes = 4096) {
  const content = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  const result = readRequestMessage(content, 'part 1', maxHeaderBytes);
  return { method: result.method, target: result.target, headers: { ...result.headers }, body: result.body?.toString('utf8') };
}

describe('readRequestMessage: request line (RFC 7230 §3.1.1)', () => {
  it.each([
    ['GET Products HTTP/1.1\r\n\r\n', 'GET', 'Products'],
    ['GET Products HTTP/1.1', 'GET', 'Products'],
    ['MERGE Products(1) HTTP/1.0\r\n', 'MERGE', 'Products(1)'],
    ['GET  Products\tHTTP/1.1\r\n', 'GET', 'Products'],
    ['\r\n\r\nGET Products HTTP/1.1\r\n', 'GET', 'Products'],
    ['\n\nGET Products HTTP/1.1\n', 'GET', 'Products'],
    ['get Products HTTP/1.1', 'get', 'Products'],
  ])('%j -> %s %s', (text, method, target) => {
    expect(message(text)).toMatchObject({ method, target });
  });

  it.each([
    ['', 'part 1: the part contains no request (expected METHOD target HTTP/1.1)'],
    ['\r\n\r\n', 'the part contains no request'],
    ['GET Products', "part 1: 'GET Products' is not a request line (expected METHOD target HTTP/1.1)"],
    ['GET Products HTTP/1.1 extra', "'GET Products HTTP/1.1 extra' is not a request line"],
    ['GET Prod ucts HTTP/1.1', "the request target in 'GET Prod ucts HTTP/1.1' contains whitespace"],
    ["GET Products?$filter=Name eq 'x' HTTP/1.1", 'contains whitespace; percent-encode spaces as %20'],
    ['GET Products HTTP/2.0', "unsupported HTTP version 'HTTP/2.0' (expected HTTP/1.1)"],
    ['GET Products http/1.1', "unsupported HTTP version 'http/1.1'"],
    ['G(T Products HTTP/1.1', "'G(T' is not an HTTP method"],
    ['Content-Type: application/json', "'Content-Type: application/json' is not a request line"],
    ['\u0000\u0001\u0002', "'???' is not a request line"],
  ])('refuses %j with BATCH_SYNTAX', (text, detail) => {
    const error = catchODataError(() => message(text));
    expect([error.status, error.code]).toEqual([400, 'BATCH_SYNTAX']);
    expect(error.message).toContain(detail);
  });
});

describe('readRequestMessage: headers and body (RFC 7230 §3.3.3)', () => {
  it.each([
    ['headers end at the part end: no body', 'GET A HTTP/1.1\r\nAccept: application/json', { accept: 'application/json' }, undefined],
    ['an empty line and nothing after it: no body', 'GET A HTTP/1.1\r\nAccept: x\r\n\r\n', { accept: 'x' }, undefined],
    ['no Content-Length: body to the part end', 'POST A HTTP/1.1\r\n\r\n{"a":1}', {}, '{"a":1}'],
    ['no Content-Length: one trailing CRLF is dropped (SAP Cloud SDK)', 'POST A HTTP/1.1\r\n\r\n{"a":1}\r\n', {}, '{"a":1}'],
    ['no Content-Length: one trailing LF is dropped', 'POST A HTTP/1.1\n\n{"a":1}\n', {}, '{"a":1}'],
    ['no Content-Length: only one line break is dropped', 'POST A HTTP/1.1\r\n\r\nline\r\n\r\n', {}, 'line\r\n'],
    ['no Content-Length: a lone line break is no body (SAP Cloud SDK DELETE)', 'DELETE A HTTP/1.1\r\n\r\n\r\n', {}, undefined],
    ['Content-Length: exact', 'POST A HTTP/1.1\r\nContent-Length: 7\r\n\r\n{"a":1}', { 'content-length': '7' }, '{"a":1}'],
    [
      'Content-Length: whitespace after the body is ignored',
      'POST A HTTP/1.1\r\nContent-Length: 7\r\n\r\n{"a":1}\r\n\r\n \t',
      { 'content-length': '7' },
      '{"a":1}',
    ],
    ['Content-Length: 0', 'POST A HTTP/1.1\r\nContent-Length: 0\r\n\r\n', { 'content-length': '0' }, undefined],
    ['Content-Length keeps a body that ends with CRLF', 'POST A HTTP/1.1\r\nContent-Length: 6\r\n\r\nline\r\n', { 'content-length': '6' }, 'line\r\n'],
    ['Content-Length counts bytes of multi-byte UTF-8', 'POST A HTTP/1.1\r\nContent-Length: 9\r\n\r\n"Grüße"\r\n', {}, '"Grüße"'],
    [
      "Content-Length as SAPUI5's datajs counts it (UTF-16 units)",
      'MERGE A HTTP/1.1\r\nContent-Length: 14\r\n\r\n{"x":"😀"}',
      { 'content-length': '14' },
      '{"x":"😀"}',
    ],
    ['folded header lines', 'GET A HTTP/1.1\r\nX-Long: a\r\n b\r\n\r\n', { 'x-long': 'a b' }, undefined],
  ])('%s', (_name, text, headers, body) => {
    const result = message(text);
    expect(result.headers).toMatchObject(headers);
    expect(result.body).toBe(body);
  });

  it('keeps binary bytes exactly, by Content-Length or to the part end', () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0x2d, 0x2d]);
    const withLength = Buffer.concat([
      Buffer.from(`PUT Photos(1)/$value HTTP/1.1\r\nContent-Type: image/png\r\nContent-Length: ${bytes.length}\r\n\r\n`),
      bytes,
    ]);
    expect(readRequestMessage(withLength, 'part 1', 4096).body).toEqual(bytes);
    const withoutLength = Buffer.concat([Buffer.from('PUT Photos(1)/$value HTTP/1.1\r\n\r\n'), bytes]);
    expect(readRequestMessage(withoutLength, 'part 1', 4096).body).toEqual(bytes);
  });

  it.each([
    [
      'a truncated body',
      'POST A HTTP/1.1\r\nContent-Length: 50\r\n\r\n{"a":1}',
      'part 1: the body is truncated: Content-Length is 50 but the part holds 7 bytes',
    ],
    ['bytes after the body', 'POST A HTTP/1.1\r\nContent-Length: 3\r\n\r\n{"a":1}', 'part 1: 4 bytes follow the 3-byte body given by Content-Length'],
    ['a non-numeric Content-Length', 'POST A HTTP/1.1\r\nContent-Length: ten\r\n\r\n{}', "Content-Length 'ten' is not a number of bytes"],
    ['a negative Content-Length', 'POST A HTTP/1.1\r\nContent-Length: -1\r\n\r\n{}', "Content-Length '-1' is not a number of bytes"],
    ['two Content-Length fields', 'POST A HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}', "Content-Length '2, 2' is not a number of bytes"],
    [
      'Transfer-Encoding',
      'POST A HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n',
      "Transfer-Encoding 'chunked' is not supported inside a batch",
    ],
    ['a bad header', 'GET A HTTP/1.1\r\nAccept application/json\r\n\r\n', "'Accept application/json' is not a header field"],
  ])('refuses %s with BATCH_SYNTAX', (_name, text, detail) => {
    const error = catchODataError(() => message(text));
    expect([error.status, error.code]).toEqual([400, 'BATCH_SYNTAX']);
    expect(error.message).toContain(detail);
  });

  it.each([
    ['CRLF', 2, '\r\n'],
    ['LF', 1, '\n'],
  ])('accepts a Content-Length that counts the %s before the next delimiter (the .NET 4.0 client), and nothing more', (_name, delimiterBreak, nl) => {
    const entry = '<entry/>';
    const content = Buffer.from(`POST A HTTP/1.1${nl}Content-Length: ${entry.length + delimiterBreak}${nl}${nl}${entry}`);
    expect(readRequestMessage(content, 'part 1', 4096, undefined, delimiterBreak).body?.toString()).toBe(entry);
    // Without the delimiter's break (a part that ends the body), the same count is an overrun.
    expect(catchODataError(() => readRequestMessage(content, 'part 1', 4096, undefined, 0)).message).toContain(
      `Content-Length is ${entry.length + delimiterBreak} but the part holds ${entry.length} bytes`,
    );
    const overrun = Buffer.from(`POST A HTTP/1.1${nl}Content-Length: ${entry.length + delimiterBreak + 1}${nl}${nl}${entry}`);
    const error = catchODataError(() => readRequestMessage(overrun, 'part 1', 4096, undefined, delimiterBreak));
    expect([error.code, error.message]).toEqual([
      'BATCH_SYNTAX',
      `The batch request is malformed: part 1: the body is truncated: Content-Length is ${entry.length + delimiterBreak + 1} but the part holds ${entry.length} bytes`,
    ]);
  });

  it('counts the request line and the headers against maxBatchPartHeaderBytes', () => {
    expect(message('GET A HTTP/1.1\r\nB: 1\r\n\r\n', 20).method).toBe('GET');
    const error = catchODataError(() => message('GET A HTTP/1.1\r\nB: 12\r\n\r\n', 20));
    expect([error.code, error.message]).toEqual(['BATCH_PART_LIMIT', 'The batch request has more than 20 bytes in the headers of part 1.']);
    const longLine = catchODataError(() => message(`GET ${'A'.repeat(100)} HTTP/1.1\r\n\r\n`, 20));
    expect(longLine.code).toBe('BATCH_PART_LIMIT');
  });
});

describe('utf16ByteCount', () => {
  it.each([
    ['abc', 3],
    ['é', 2],
    ['☕', 3],
    ['😀', 6],
  ])('%s counts %i the way datajs does', (text, count) => {
    expect(utf16ByteCount(Buffer.from(text, 'utf8'))).toBe(count);
  });
});

function mimePart(content: string, headers: Record<string, string> = {}): MimePart {
  return {
    headers: { 'content-type': 'application/http', 'content-transfer-encoding': 'binary', ...headers },
    content: Buffer.from(content, 'utf8'),
    label: 'part 2, operation 1',
  };
}

describe('readEmbeddedRequest', () => {
  const batchOuter = outer({
    headers: {
      'content-type': 'multipart/mixed; boundary=batch_1',
      accept: 'multipart/mixed',
      authorization: 'Basic dXNlcjpwYXNz',
      dataserviceversion: '1.0',
      maxdataserviceversion: '2.0',
      'accept-language': 'de-DE',
      'x-csrf-token': 'token',
    },
  });

  it('builds the ODataRequest with the outer service root and the same context object', () => {
    const operation = readEmbeddedRequest(
      mimePart('POST /odata/Products?$format=json HTTP/1.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n\r\n{"ID":1}\r\n'),
      batchOuter,
      '/odata',
      DEFAULT_BATCH_LIMITS,
    );
    expect(operation.kind).toBe('request');
    if (operation.kind !== 'request') return;
    const { request } = operation;
    expect([request.method, request.path, request.query, request.body?.toString(), request.serviceRoot]).toEqual([
      'POST',
      'Products',
      '$format=json',
      '{"ID":1}',
      'http://localhost:4004/odata/',
    ]);
    expect(request.context).toBe(batchOuter.context);
    expect({ ...request.headers }).toEqual({
      'content-type': 'application/json',
      accept: 'application/json',
      'content-length': '8',
      dataserviceversion: '1.0',
      maxdataserviceversion: '2.0',
      'accept-language': 'de-DE',
    });
  });

  it('lets the part override inherited headers, and inherits neither Accept nor Authorization', () => {
    const operation = readEmbeddedRequest(mimePart('GET Products HTTP/1.1\r\nMaxDataServiceVersion: 1.0\r\n\r\n'), batchOuter, '/odata', DEFAULT_BATCH_LIMITS);
    expect(operation.kind === 'request' && { ...operation.request.headers }).toEqual({
      dataserviceversion: '1.0',
      maxdataserviceversion: '1.0',
      'accept-language': 'de-DE',
    });
  });

  it('sets content-length to the bytes it read (SAPUI5 miscounts astral characters)', () => {
    const operation = readEmbeddedRequest(mimePart('MERGE A HTTP/1.1\r\nContent-Length: 14\r\n\r\n{"x":"😀"}'), batchOuter, '/odata', DEFAULT_BATCH_LIMITS);
    expect(operation.kind === 'request' && [operation.request.headers['content-length'], operation.request.body?.length]).toEqual(['12', 12]);
  });

  it.each([
    [
      'a MIME Content-ID (MS-ODATA, SAP Cloud SDK)',
      'POST A HTTP/1.1\r\n\r\n{}',
      { 'content-id': '2cbf3f2b-0b1e-4a6a-9d3e-0c1e5c1d8a10' },
      '2cbf3f2b-0b1e-4a6a-9d3e-0c1e5c1d8a10',
      undefined,
    ],
    [
      'a Content-ID inside the request (SAPUI5, WCF Data Services)',
      'POST A HTTP/1.1\r\nContent-ID: id-1700000000000-12\r\n\r\n{}',
      {},
      'id-1700000000000-12',
      'message',
    ],
    ['both: the MIME header wins', 'POST A HTTP/1.1\r\nContent-ID: inner\r\n\r\n{}', { 'content-id': 'outer' }, 'outer', 'both'],
    ['none', 'POST A HTTP/1.1\r\n\r\n{}', {}, undefined, undefined],
  ])('reads %s, and where it was (to echo it there)', (_name, content, headers, contentId, placement) => {
    const operation = readEmbeddedRequest(mimePart(content, headers), batchOuter, '/odata', DEFAULT_BATCH_LIMITS);
    expect([operation.kind, operation.contentId, operation.contentIdPlacement]).toEqual(['request', contentId, placement]);
  });

  it('records the headers a part inherited from the outer request, and none it sent itself', () => {
    const own = readEmbeddedRequest(mimePart('GET A HTTP/1.1\r\nDataServiceVersion: 2.0\r\n\r\n'), batchOuter, '/odata', DEFAULT_BATCH_LIMITS);
    expect(own.kind === 'request' && [...(own.request.inheritedHeaders ?? [])]).toEqual(['maxdataserviceversion', 'accept-language']);
    const alone = readEmbeddedRequest(mimePart('GET A HTTP/1.1\r\n\r\n'), outer(), '/odata', DEFAULT_BATCH_LIMITS);
    expect(alone.kind === 'request' && alone.request.inheritedHeaders).toBeUndefined();
  });

  it.each([
    ['a garbage request line', 'HELLO', {}, 'BATCH_SYNTAX', "part 2, operation 1: 'HELLO' is not a request line"],
    ['a nested $batch', 'POST $batch HTTP/1.1\r\n\r\n', {}, 'BATCH_NOT_ALLOWED', 'part 2, operation 1: a batch cannot contain another $batch request'],
    [
      'a bad Content-ID',
      'POST A HTTP/1.1\r\n\r\n',
      { 'content-id': 'a/b' },
      'BATCH_CONTENT_ID',
      "the Content-ID 'a/b' may contain only visible ASCII characters",
    ],
    ['a bad target', 'GET A#b HTTP/1.1\r\n\r\n', {}, 'BATCH_SYNTAX', "contains '#'"],
  ])('turns %s into an invalid operation, not a throw', (_name, content, headers, code, detail) => {
    const operation = readEmbeddedRequest(mimePart(content, headers), batchOuter, '/odata', DEFAULT_BATCH_LIMITS);
    expect(operation.kind).toBe('invalid');
    if (operation.kind !== 'invalid') return;
    expect([operation.error.code, operation.error.status, operation.label]).toEqual([code, 400, 'part 2, operation 1']);
    expect(operation.error.message).toContain(detail);
    expect(operation.request.context).toBe(batchOuter.context);
  });

  it("keeps the part's Accept on an invalid operation, so its error comes in the format the part asked for", () => {
    const operation = readEmbeddedRequest(mimePart('GET A#b HTTP/1.1\r\nAccept: application/json\r\n\r\n'), batchOuter, '/odata', DEFAULT_BATCH_LIMITS);
    expect(operation.request.headers['accept']).toBe('application/json');
  });

  it('lets a header limit refuse the whole batch', () => {
    const error = catchODataError(() =>
      readEmbeddedRequest(mimePart(`GET A HTTP/1.1\r\nX: ${'x'.repeat(200)}\r\n\r\n`), batchOuter, '/odata', {
        ...DEFAULT_BATCH_LIMITS,
        maxBatchPartHeaderBytes: 100,
      }),
    );
    expect(error.code).toBe('BATCH_PART_LIMIT');
  });
});

describe('writeEmbeddedResponse', () => {
  it('writes status line, canonical headers, a byte Content-Length and the body', () => {
    const body = Buffer.from('{"d":{"Name":"Grüße 😀"}}', 'utf8');
    const written = writeEmbeddedResponse({
      status: 201,
      headers: { 'content-type': 'application/json;charset=utf-8', location: 'http://host/odata/Products(1)', dataserviceversion: '2.0;', etag: 'W/"1"' },
      body,
    });
    expect(written.toString('utf8')).toBe(
      [
        'HTTP/1.1 201 Created',
        'Content-Type: application/json;charset=utf-8',
        'Location: http://host/odata/Products(1)',
        'DataServiceVersion: 2.0;',
        'ETag: W/"1"',
        `Content-Length: ${body.length}`,
        '',
        '{"d":{"Name":"Grüße 😀"}}',
      ].join('\r\n'),
    );
    expect(body.length).toBe(29);
  });

  it.each([
    [204, 'HTTP/1.1 204 No Content\r\nDataServiceVersion: 1.0;\r\n\r\n'],
    [304, 'HTTP/1.1 304 Not Modified\r\nDataServiceVersion: 1.0;\r\n\r\n'],
  ])('writes no Content-Length and no body for %i', (status, expected) => {
    const written = writeEmbeddedResponse({ status, headers: { dataserviceversion: '1.0;' }, body: Buffer.from('ignored') });
    expect(written.toString()).toBe(expected);
  });

  it('writes Content-Length: 0 for an empty 200, a reason for any status, and drops framing headers and bad names', () => {
    const written = writeEmbeddedResponse({
      status: 299,
      headers: { 'content-length': '99', 'transfer-encoding': 'chunked', connection: 'close', 'bad name': 'x', 'x-multi': 'a\r\nb' },
      body: undefined,
    });
    expect(written.toString()).toBe('HTTP/1.1 299 Unknown Status\r\nX-Multi: a b\r\nContent-Length: 0\r\n\r\n');
  });

  it('writes neither Content-Length nor a body for the answer to HEAD (RFC 7230 §3.3.2: its length would be the GET one)', () => {
    const written = writeEmbeddedResponse({ status: 200, headers: { 'content-type': 'application/json;charset=utf-8' }, body: undefined, head: true });
    expect(written.toString()).toBe('HTTP/1.1 200 OK\r\nContent-Type: application/json;charset=utf-8\r\n\r\n');
  });
});
