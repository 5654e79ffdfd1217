import { readBatchBody, splitMultipart } from '../../lib/batch/multipart-reader';
import { DEFAULT_BATCH_LIMITS, type BatchLimits } from '../../lib/batch/types';
import { isODataError } from '../../lib/errors';
import { catchODataError, crlf, fixture } from './helpers';

/** The parts of `body` as latin1 strings (bytes one to one). */
function split(body: string | Buffer, boundary = 'b', maxParts = 100): string[] {
  const buffer = typeof body === 'string' ? Buffer.from(body, 'latin1') : body;
  return splitMultipart(buffer, boundary, maxParts, 'parts', 'the batch body').map((range) => buffer.toString('latin1', range.start, range.end));
}

describe('splitMultipart: where a delimiter is recognised (RFC 2046 §5.1.1)', () => {
  it.each([
    ['at offset 0, no preamble (SAP Cloud SDK)', '--b\r\nA\r\n--b\r\nB\r\n--b--\r\n', ['A', 'B']],
    ['after a leading CRLF (datajs, SAPUI5)', '\r\n--b\r\nA\r\n--b--\r\n', ['A']],
    ['after a preamble, which is ignored', 'This is a preamble.\r\nmore\r\n--b\r\nA\r\n--b--', ['A']],
    ['with bare LF line ends', '--b\nA\n--b\nB\n--b--\n', ['A', 'B']],
    ['with mixed line ends', '--b\r\nA\n--b\nB\r\n--b--', ['A', 'B']],
    ['with transport padding after the delimiter', '--b \t \r\nA\r\n--b  \r\nB\r\n--b-- \t\r\n', ['A', 'B']],
    ['with the close delimiter at the very end, no line break', '--b\r\nA\r\n--b--', ['A']],
    ['with an epilogue, which is ignored', '--b\r\nA\r\n--b--\r\nepilogue --b\r\n--b\r\nnot a part', ['A']],
    ['with garbage right after the close delimiter line', '--b\r\nA\r\n--b--\r\n\u0000\u00ff', ['A']],
    ['with an empty part', '--b\r\n--b\r\nB\r\n--b--', ['', 'B']],
    ['with a part that is only a line break', '--b\r\n\r\n--b--', ['']],
    ['with no part at all', '--b--', []],
    ['only one line break belongs to the delimiter', '--b\r\nA\r\n\r\n--b\r\nB\n\n--b--', ['A\r\n', 'B\n']],
    ['"--b" inside a line is content', '--b\r\nx --b y\r\nz--b\r\n--b--', ['x --b y\r\nz--b']],
    ['"--bx" at a line start is content (another boundary)', '--b\r\n--bx\r\n--b2--\r\n--b--', ['--bx\r\n--b2--']],
    ['"--b--x" is content, not a close delimiter', '--b\r\nA\r\n--b--x\r\n--b--', ['A\r\n--b--x']],
    ['a preamble line "--bx" is not the first delimiter', '--bx\r\n--b\r\nA\r\n--b--', ['A']],
    ['a CR before LF that is part of a CRLF only', '--b\r\nA\r\r\n--b--', ['A\r']],
  ])('%s', (_name, body, parts) => {
    expect(split(body)).toEqual(parts);
  });

  it.each([
    ['a.b(c)', '--a.b(c)\r\nA\r\n--a.b(c)--'],
    ['a b', '--a b\r\nA\r\n--a b--'],
    ["'()+_,-./:=?", "--'()+_,-./:=?\r\nA\r\n--'()+_,-./:=?--"],
  ])('treats the boundary %j literally', (boundary, body) => {
    expect(split(body, boundary)).toEqual(['A']);
  });

  it('reports the line break each delimiter owns (RFC 2046 §5.1.1): CRLF 2, LF 1', () => {
    const body = Buffer.from('--b\r\nA\r\n--b\nB\n--b\r\n\r\n--b--');
    expect(splitMultipart(body, 'b', 10, 'parts', 'the batch body').map((r) => [body.toString('latin1', r.start, r.end), r.delimiterBreak])).toEqual([
      ['A', 2],
      ['B', 1],
      ['', 2],
    ]);
  });

  it('keeps binary bytes and multi-byte UTF-8 unchanged', () => {
    const binary = Buffer.from([0x00, 0x0d, 0xff, 0x0a, 0x2d, 0x2d, 0x62, 0x78, 0x0d, 0x0a, 0x80]);
    const utf8 = Buffer.from('Grüße 😀 ☕ 中文', 'utf8');
    const body = Buffer.concat([Buffer.from('--b\r\n'), binary, Buffer.from('\r\n--b\r\n'), utf8, Buffer.from('\r\n--b--')]);
    const ranges = splitMultipart(body, 'b', 10, 'parts', 'the batch body');
    expect(ranges.map((r) => body.subarray(r.start, r.end))).toEqual([binary, utf8]);
  });

  it.each([
    ['no delimiter at all', 'hello world', "the batch body: no delimiter line '--b' found; does the boundary match the body?"],
    ['an empty body', '', "no delimiter line '--b' found"],
    ['a delimiter of another boundary', '--c\r\nA\r\n--c--', "no delimiter line '--b' found"],
    ['a delimiter only inside lines', 'x--b\r\n', "no delimiter line '--b' found"],
    ['no close delimiter', '--b\r\nA\r\n', "the batch body: the closing delimiter '--b--' is missing"],
    ['a body that ends after a delimiter', '--b\r\nA\r\n--b', "the closing delimiter '--b--' is missing"],
    ['a truncated close delimiter', '--b\r\nA\r\n--b-', "the closing delimiter '--b--' is missing"],
  ])('refuses %s with BATCH_SYNTAX', (_name, body, detail) => {
    const error = catchODataError(() => split(body));
    expect([error.status, error.code]).toEqual([400, 'BATCH_SYNTAX']);
    expect(error.message).toContain(`The batch request is malformed: the batch body: `);
    expect(error.message).toContain(detail);
  });

  it('refuses more parts than the limit with BATCH_PART_LIMIT, and accepts exactly the limit', () => {
    const body = `--b\r\n${['1', '2', '3'].join('\r\n--b\r\n')}\r\n--b--`;
    expect(split(body, 'b', 3)).toEqual(['1', '2', '3']);
    const error = catchODataError(() => split(body, 'b', 2));
    expect([error.status, error.code, error.message]).toEqual([400, 'BATCH_PART_LIMIT', 'The batch request has more than 2 parts.']);
  });

  it('reads a body full of near-delimiters as the one part it is', () => {
    const body = `--b\r\n${'--b-x\n'.repeat(200_000)}\r\n--b--`;
    expect(split(body)).toEqual(['--b-x\n'.repeat(200_000)]);
  });
});

const HTTP = 'Content-Type: application/http\r\nContent-Transfer-Encoding: binary\r\n\r\n';

function batch(...parts: string[]): Buffer {
  return Buffer.from(`--b\r\n${parts.join('\r\n--b\r\n')}\r\n--b--\r\n`, 'utf8');
}

function changeset(boundary: string, ...operations: string[]): string {
  return `Content-Type: multipart/mixed; boundary=${boundary}\r\n\r\n--${boundary}\r\n${operations.join(`\r\n--${boundary}\r\n`)}\r\n--${boundary}--`;
}

function summary(body: Buffer, limits: Partial<BatchLimits> = {}) {
  return readBatchBody(body, 'b', { ...DEFAULT_BATCH_LIMITS, ...limits }).map((part) => {
    switch (part.kind) {
      case 'operation':
        return { operation: part.part.label, content: part.part.content.toString('utf8'), headers: { ...part.part.headers } };
      case 'changeset':
        return { changeset: part.label, operations: part.operations.map((op) => [op.label, op.content.toString('utf8')]) };
      case 'broken':
        return { broken: part.label, changeset: part.changeset, code: part.error.code, message: part.error.message };
    }
  });
}

describe('readBatchBody: operations and changesets (MS-ODATA §2.2.7.6)', () => {
  it('sorts application/http parts into operations and multipart/mixed parts into changesets', () => {
    const body = batch(`${HTTP}GET A HTTP/1.1\r\n`, changeset('cs', `${HTTP}POST B HTTP/1.1\r\n\r\n{}`, `${HTTP}DELETE C HTTP/1.1\r\n`));
    expect(summary(body)).toEqual([
      {
        operation: 'part 1',
        content: 'GET A HTTP/1.1\r\n',
        headers: { 'content-type': 'application/http', 'content-transfer-encoding': 'binary' },
      },
      {
        changeset: 'part 2',
        operations: [
          ['part 2, operation 1', 'POST B HTTP/1.1\r\n\r\n{}'],
          ['part 2, operation 2', 'DELETE C HTTP/1.1\r\n'],
        ],
      },
    ]);
  });

  it('accepts a changeset body with a preamble and an epilogue', () => {
    const body = batch(`Content-Type: multipart/mixed; boundary="cs"\r\n\r\npreamble\r\n--cs\r\n${HTTP}POST B HTTP/1.1\r\n--cs--\r\nepilogue`);
    expect(summary(body)).toEqual([{ changeset: 'part 1', operations: [['part 1, operation 1', 'POST B HTTP/1.1']] }]);
  });

  it('accepts a part without Content-Transfer-Encoding, and 7bit/8bit', () => {
    const body = batch(
      'Content-Type: application/http\r\n\r\nGET A HTTP/1.1',
      'Content-Type: application/http\r\nContent-Transfer-Encoding: 8BIT\r\n\r\nGET B HTTP/1.1',
    );
    expect(summary(body).map((p) => ('operation' in p ? p.content : p))).toEqual(['GET A HTTP/1.1', 'GET B HTTP/1.1']);
  });

  it.each([
    ['no Content-Type', 'X-Other: 1\r\n\r\nGET A HTTP/1.1', false, 'BATCH_SYNTAX', 'part 1 has no Content-Type; expected application/http or multipart/mixed'],
    [
      'another Content-Type',
      'Content-Type: text/plain\r\n\r\nGET A HTTP/1.1',
      false,
      'BATCH_SYNTAX',
      "part 1 has Content-Type 'text/plain'; expected application/http or multipart/mixed",
    ],
    ['a bad Content-Type', 'Content-Type: application\r\n\r\nx', false, 'BATCH_SYNTAX', "expected '/' after the type"],
    [
      'base64 encoding',
      'Content-Type: application/http\r\nContent-Transfer-Encoding: base64\r\n\r\nR0VU',
      false,
      'BATCH_SYNTAX',
      "part 1 has Content-Transfer-Encoding 'base64'; only binary is supported",
    ],
    [
      'a bad MIME header',
      'Content-Type application/http\r\n\r\nGET A HTTP/1.1',
      false,
      'BATCH_SYNTAX',
      "part 1: 'Content-Type application/http' is not a header field",
    ],
    [
      'a changeset without boundary',
      'Content-Type: multipart/mixed\r\n\r\n--cs--',
      true,
      'BATCH_SYNTAX',
      "the boundary parameter is missing in 'multipart/mixed'",
    ],
    [
      'a changeset whose boundary is not found',
      changeset('cs', `${HTTP}POST B HTTP/1.1`).replace('boundary=cs', 'boundary=other'),
      true,
      'BATCH_SYNTAX',
      "changeset part 1: no delimiter line '--other' found",
    ],
    [
      'a changeset without close delimiter',
      changeset('cs', `${HTTP}POST B HTTP/1.1`).replace('--cs--', ''),
      true,
      'BATCH_SYNTAX',
      "changeset part 1: the closing delimiter '--cs--' is missing",
    ],
    [
      'a nested changeset',
      changeset('cs', changeset('inner', `${HTTP}POST B HTTP/1.1`)),
      true,
      'BATCH_NOT_ALLOWED',
      'part 1, operation 1: changesets cannot be nested',
    ],
    [
      'a GET-less changeset part with another type',
      changeset('cs', `Content-Type: text/plain\r\n\r\nx`),
      true,
      'BATCH_SYNTAX',
      "part 1, operation 1 has Content-Type 'text/plain'",
    ],
  ])('answers a part with %s by one error (%s)', (_name, part, isChangeset, code, detail) => {
    const [result] = summary(batch(part));
    expect(result).toMatchObject({ broken: 'part 1', changeset: isChangeset, code });
    expect('message' in result && result.message).toContain(detail);
  });

  it('keeps the other parts when one is broken', () => {
    const body = batch(`${HTTP}GET A HTTP/1.1`, 'Content-Type: text/plain\r\n\r\nx', `${HTTP}GET C HTTP/1.1`);
    expect(summary(body).map((p) => Object.keys(p)[0])).toEqual(['operation', 'broken', 'operation']);
  });

  it('reads the client fixtures, with LF and with CRLF', () => {
    for (const lineEnds of ['lf', 'crlf'] as const) {
      const shapes = [
        ['sapui5-v2.txt', 'batch_d0dc-21c0-39f6', ['operation', 'changeset:3']],
        ['sap-cloud-sdk.txt', 'batch_fixed_boundary_for_testing', ['changeset:4', 'operation']],
        ['datajs.txt', 'batch_5d2a-93c1-0f7e', ['operation', 'changeset:2']],
        ['olingo-atom.txt', 'batch_8194-cf13-1f56', ['operation', 'changeset:3']],
        ['curl-example.txt', 'batch_1', ['operation', 'changeset:2', 'operation']],
      ] as const;
      for (const [name, boundary, expected] of shapes) {
        const parts = readBatchBody(fixture(name, lineEnds), boundary, DEFAULT_BATCH_LIMITS);
        expect([name, parts.map((p) => (p.kind === 'changeset' ? `changeset:${p.operations.length}` : p.kind))]).toEqual([name, expected]);
      }
    }
  });
});

describe('readBatchBody: limits refuse the whole batch', () => {
  it('refuses more top-level parts than maxBatchParts', () => {
    const error = catchODataError(() => summary(batch(`${HTTP}GET A HTTP/1.1`, `${HTTP}GET B HTTP/1.1`), { maxBatchParts: 1 }));
    expect([error.code, error.message]).toEqual(['BATCH_PART_LIMIT', 'The batch request has more than 1 parts.']);
  });

  it('refuses more changeset operations than maxChangesetOperations', () => {
    const body = batch(changeset('cs', `${HTTP}POST A HTTP/1.1`, `${HTTP}POST B HTTP/1.1`, `${HTTP}POST C HTTP/1.1`));
    expect(summary(body, { maxChangesetOperations: 3 })).toHaveLength(1);
    const error = catchODataError(() => summary(body, { maxChangesetOperations: 2 }));
    expect([error.code, error.message]).toEqual(['BATCH_PART_LIMIT', 'The batch request has more than 2 operations in one changeset.']);
  });

  it('refuses MIME headers longer than maxBatchPartHeaderBytes, also inside a changeset', () => {
    const long = `X-Padding: ${'p'.repeat(100)}\r\n`;
    const top = catchODataError(() => summary(batch(`${long}${HTTP}GET A HTTP/1.1`), { maxBatchPartHeaderBytes: 64 }));
    expect([top.code, top.message]).toEqual(['BATCH_PART_LIMIT', 'The batch request has more than 64 bytes in the headers of part 1.']);
    const inner = catchODataError(() => summary(batch(changeset('cs', `${long}${HTTP}POST A HTTP/1.1`)), { maxBatchPartHeaderBytes: 64 }));
    expect(inner.message).toBe('The batch request has more than 64 bytes in the headers of part 1, operation 1.');
  });
});

describe('readBatchBody: totality', () => {
  it('ends every truncation of a client body in parts or a 4xx ODataError', () => {
    for (const [name, boundary] of [
      ['sapui5-v2.txt', 'batch_d0dc-21c0-39f6'],
      ['sap-cloud-sdk.txt', 'batch_fixed_boundary_for_testing'],
    ] as const) {
      const whole = fixture(name, 'crlf');
      for (let end = 0; end <= whole.length; end++) {
        try {
          readBatchBody(whole.subarray(0, end), boundary, DEFAULT_BATCH_LIMITS);
        } catch (error) {
          expect([name, end, isODataError(error) && error.status]).toEqual([name, end, 400]);
        }
      }
    }
  });

  it('reads the same parts whatever the line ends', () => {
    const lf = summary(
      Buffer.from(
        batch(`${HTTP}GET A HTTP/1.1`, changeset('cs', `${HTTP}POST B HTTP/1.1\r\n\r\n{}`))
          .toString()
          .replace(/\r\n/g, '\n'),
      ),
    );
    const crlfParts = summary(crlf(batch(`${HTTP}GET A HTTP/1.1`, changeset('cs', `${HTTP}POST B HTTP/1.1\r\n\r\n{}`))));
    expect(lf.map((p) => Object.keys(p)[0])).toEqual(crlfParts.map((p) => Object.keys(p)[0]));
  });
});
