import { existsSync, readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { writeBatchResponse } from '../../lib/batch/multipart-writer';
import type { BatchResponsePart, BufferedResponse } from '../../lib/batch/types';
import { countingBoundaries, readLikeCloudSdk, readLikeDatajs } from './helpers';

const GOLDEN = join(__dirname, '..', 'golden', 'batch');

function golden(name: string, actual: Buffer): void {
  const file = join(GOLDEN, name);
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) writeFileSync(file, actual);
  expect(actual.toString('latin1')).toBe(readFileSync(file).toString('latin1'));
}

const entry = Buffer.from('{"d":{"__metadata":{"uri":"http://localhost:4004/odata/Categories(3)"},"ID":3,"Name":"Grüße 😀"}}', 'utf8');

const PARTS: BatchResponsePart[] = [
  {
    kind: 'response',
    contentId: undefined,
    response: { status: 200, headers: { 'content-type': 'application/json;charset=utf-8', dataserviceversion: '1.0;' }, body: Buffer.from('{"d":{"ID":1}}') },
  },
  {
    kind: 'changeset',
    responses: [
      {
        contentId: '1',
        response: {
          status: 201,
          headers: { 'content-type': 'application/json;charset=utf-8', location: 'http://localhost:4004/odata/Categories(3)', dataserviceversion: '1.0;' },
          body: entry,
        },
      },
      { contentId: '2', response: { status: 204, headers: { dataserviceversion: '1.0;' }, body: undefined } },
    ],
  },
  {
    kind: 'response',
    contentId: undefined,
    response: {
      status: 404,
      headers: { 'content-type': 'application/xml;charset=utf-8', dataserviceversion: '1.0;' },
      body: Buffer.from('<?xml version="1.0" encoding="utf-8"?><m:error xmlns:m="x"><m:code>RESOURCE_NOT_FOUND</m:code></m:error>'),
    },
  },
];

describe('writeBatchResponse', () => {
  it('writes retrieves, committed changesets and errors byte for byte (golden)', () => {
    const written = writeBatchResponse(PARTS, countingBoundaries());
    expect(written.contentType).toBe('multipart/mixed; boundary=batch_1');
    golden('response.txt', written.body);
  });

  it.each([
    ['part', 'Content-ID: 7\r\n\r\nHTTP/1.1 204 No Content\r\nDataServiceVersion: 1.0;\r\n\r\n'],
    ['message', '\r\nHTTP/1.1 204 No Content\r\nDataServiceVersion: 1.0;\r\nContent-ID: 7\r\n\r\n'],
    ['both', 'Content-ID: 7\r\n\r\nHTTP/1.1 204 No Content\r\nDataServiceVersion: 1.0;\r\nContent-ID: 7\r\n\r\n'],
  ] as const)('echoes a Content-ID read from the %s where it was read (MS-ODATA §2.2.7.6.6)', (placement, expected) => {
    const parts: BatchResponsePart[] = [
      {
        kind: 'changeset',
        responses: [{ contentId: '7', contentIdPlacement: placement, response: { status: 204, headers: { dataserviceversion: '1.0;' }, body: undefined } }],
      },
    ];
    const text = writeBatchResponse(parts, countingBoundaries()).body.toString('latin1');
    expect(text).toBe(
      'Content-Type: multipart/mixed; boundary=changesetresponse_2\r\n\r\n'.replace(/^/, '--batch_1\r\n') +
        '--changesetresponse_2\r\nContent-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n' +
        expected +
        '\r\n--changesetresponse_2--\r\n--batch_1--\r\n',
    );
  });

  it('writes text bodies as UTF-8, byte for byte as the same bodies given as bytes', () => {
    const asText = (part: BatchResponsePart): BatchResponsePart => {
      const text = (response: BufferedResponse): BufferedResponse => ({
        ...response,
        body: response.body === undefined ? undefined : response.body.toString(),
      });
      return part.kind === 'response'
        ? { ...part, response: text(part.response) }
        : { ...part, responses: part.responses.map((r) => ({ ...r, response: text(r.response) })) };
    };
    const bytes = writeBatchResponse(PARTS, countingBoundaries()).body;
    expect(writeBatchResponse(PARTS.map(asText), countingBoundaries()).body.equals(bytes)).toBe(true);
  });

  it('checks a boundary against the bytes a head becomes (a character above U+00FF is written as its low byte)', () => {
    // U+012D is written as 0x2D ('-'): this header value becomes the bytes '--batch_1'.
    const sneaky: BatchResponsePart = {
      kind: 'response',
      contentId: undefined,
      response: { status: 204, headers: { 'x-note': '\u012d\u012dbatch_1' }, body: undefined },
    };
    const written = writeBatchResponse([sneaky], countingBoundaries());
    expect(written.contentType).toBe('multipart/mixed; boundary=batch_2');
    expect(written.body.toString('latin1')).toContain('X-Note: --batch_1\r\n');
  });

  it('counts bytes in every embedded Content-Length', () => {
    const text = writeBatchResponse(PARTS, countingBoundaries()).body.toString('utf8');
    const created = text.indexOf('HTTP/1.1 201 Created');
    expect(text.slice(created).includes(`Content-Length: ${entry.length}\r\n`)).toBe(true);
    expect(entry.length).toBeGreaterThan(entry.toString('utf8').length);
  });

  it('uses CRLF only', () => {
    const body = writeBatchResponse(PARTS, countingBoundaries()).body;
    for (let i = 0; i < body.length; i++) {
      if (body[i] === 0x0a) expect([i, body[i - 1]]).toEqual([i, 0x0d]);
    }
  });

  it('is read back by a datajs-style reader (SAPUI5 v2)', () => {
    const written = writeBatchResponse(PARTS, countingBoundaries());
    expect(readLikeDatajs(written.body.toString('utf8'), 'batch_1')).toEqual([
      {
        status: 200,
        headers: { 'content-type': 'application/json;charset=utf-8', dataserviceversion: '1.0;', 'content-length': '14' },
        body: '{"d":{"ID":1}}',
      },
      {
        changeset: [
          {
            status: 201,
            headers: {
              'content-type': 'application/json;charset=utf-8',
              location: 'http://localhost:4004/odata/Categories(3)',
              dataserviceversion: '1.0;',
              'content-length': String(entry.length),
            },
            body: entry.toString('utf8'),
          },
          { status: 204, headers: { dataserviceversion: '1.0;' }, body: '' },
        ],
      },
      {
        status: 404,
        headers: { 'content-type': 'application/xml;charset=utf-8', dataserviceversion: '1.0;', 'content-length': '104' },
        body: '<?xml version="1.0" encoding="utf-8"?><m:error xmlns:m="x"><m:code>RESOURCE_NOT_FOUND</m:code></m:error>',
      },
    ]);
  });

  it('is read back by a SAP Cloud SDK-style reader', () => {
    const written = writeBatchResponse(PARTS, countingBoundaries());
    expect(readLikeCloudSdk(written.body.toString('utf8'), written.contentType)).toEqual([
      { httpCode: 200, body: '{"d":{"ID":1}}' },
      [
        { httpCode: 201, body: entry.toString('utf8') },
        { httpCode: 204, body: '' },
      ],
      { httpCode: 404, body: '<?xml version="1.0" encoding="utf-8"?><m:error xmlns:m="x"><m:code>RESOURCE_NOT_FOUND</m:code></m:error>' },
    ]);
  });

  it('writes an empty batch as a close delimiter only', () => {
    expect(writeBatchResponse([], countingBoundaries()).body.toString()).toBe('--batch_1--\r\n');
  });

  it('picks another boundary when a body contains the candidate delimiter', () => {
    const tricky: BatchResponsePart[] = [
      { kind: 'response', contentId: undefined, response: { status: 200, headers: {}, body: Buffer.from('x\r\n--batch_1\r\ny') } },
    ];
    const written = writeBatchResponse(tricky, countingBoundaries());
    expect(written.contentType).toBe('multipart/mixed; boundary=batch_2');
  });

  it('never nests a changeset boundary that clashes with the batch boundary', () => {
    const candidates = ['x', 'x', 'x-', 'y'];
    const written = writeBatchResponse([{ kind: 'changeset', responses: [] }], () => candidates.shift() ?? 'z');
    expect(written.body.toString()).toBe('--x\r\nContent-Type: multipart/mixed; boundary=y\r\n\r\n--y--\r\n--x--\r\n');
  });

  it('gives up with an internal error when the factory keeps producing clashing boundaries', () => {
    expect(() => writeBatchResponse([{ kind: 'changeset', responses: [] }], () => 'same')).toThrow('Could not find a multipart boundary');
  });

  it('uses random boundaries by default', () => {
    const a = writeBatchResponse([], undefined).contentType;
    const b = writeBatchResponse([], undefined).contentType;
    expect(a).toMatch(/^multipart\/mixed; boundary=batch_[0-9a-f-]{36}$/);
    expect(a).not.toBe(b);
  });
});
