/**
 * odataClientErrorHandler: requests Node's HTTP parser refuses, sent as raw bytes to a real
 * 127.0.0.1 server. A method it does not know (`FOO`) gets 501 with an OData error body in the
 * format the request asks for; every other parse error gets Node's own bare answer.
 */
import { createServer, type Server } from 'http';
import type { AddressInfo } from 'net';
import { connect } from 'net';
import { odataClientErrorHandler } from '../../lib';

/** Send raw bytes, read until the server closes. */
function raw(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    let out = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (out += chunk));
    socket.on('close', () => resolve(out));
    socket.on('error', reject);
  });
}

function split(response: string): { statusLine: string; headers: Record<string, string>; body: string } {
  const end = response.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = response.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
  return { statusLine, headers, body: response.slice(end + 4) };
}

describe('odataClientErrorHandler', () => {
  let server: Server;
  let port: number;
  let served: string[];

  beforeAll(async () => {
    served = [];
    server = createServer((request, response) => {
      served.push(`${request.method} ${request.url}`);
      response.end('ok');
    });
    server.on('clientError', odataClientErrorHandler());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('answers an unknown method 501 Not Implemented with an XML OData error body by default', async () => {
    const response = split(await raw(port, 'FOO /odata/Products HTTP/1.1\r\nHost: x\r\n\r\n'));
    expect(response.statusLine).toBe('HTTP/1.1 501 Not Implemented');
    expect(response.headers).toEqual({
      'content-type': 'application/xml;charset=utf-8',
      dataserviceversion: '1.0;',
      'content-length': String(Buffer.byteLength(response.body)),
      connection: 'close',
    });
    expect(response.body).toBe(
      '<?xml version="1.0" encoding="utf-8" standalone="yes"?><m:error xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata">' +
        '<m:code>METHOD_NOT_IMPLEMENTED</m:code><m:message xml:lang="en-US">The HTTP method FOO is not implemented by this service; it serves GET, HEAD, POST, PUT, MERGE, PATCH and DELETE.</m:message></m:error>',
    );
    expect(served).toEqual([]);
  });

  it.each([
    ['an Accept header', 'FOO /odata/Products HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n'],
    ['$format=json', 'FOO /odata/Products?$format=json HTTP/1.1\r\nHost: x\r\n\r\n'],
  ])('answers in verbose JSON when the request asks for JSON with %s', async (_what, bytes) => {
    const response = split(await raw(port, bytes));
    expect(response.statusLine).toBe('HTTP/1.1 501 Not Implemented');
    expect(response.headers['content-type']).toBe('application/json;charset=utf-8');
    expect(JSON.parse(response.body)).toEqual({
      error: {
        code: 'METHOD_NOT_IMPLEMENTED',
        message: { lang: 'en-US', value: 'The HTTP method FOO is not implemented by this service; it serves GET, HEAD, POST, PUT, MERGE, PATCH and DELETE.' },
      },
    });
  });

  it.each([
    ['a malformed request line', 'GET/odata HTTP/1.1\r\n\r\n', 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'],
    ['a bad header', 'GET /odata HTTP/1.1\r\nBad Header\r\n\r\n', 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'],
    [
      'a head over the header limit',
      `GET /odata HTTP/1.1\r\nX: ${'a'.repeat(20000)}\r\n\r\n`,
      'HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n',
    ],
  ])('leaves %s to Node: its own bare answer', async (_what, bytes, expected) => {
    expect(await raw(port, bytes)).toBe(expected);
  });

  it('keeps serving well-formed requests', async () => {
    const response = await raw(port, 'GET /odata/Products HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(response.startsWith('HTTP/1.1 200 OK')).toBe(true);
  });
});
