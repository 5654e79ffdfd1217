/**
 * `$batch` for the changeset cases: a body builder (CRLF, one changeset or retrieve per part) and
 * a reader of the answer's top-level parts with the status of each embedded response.
 */
import { fail, show } from './check';
import type { HttpAnswer, ServiceClient } from './client';
import { encodePath } from './client';

/** One request of a changeset (a JSON body, a Content-ID). */
export interface BatchRequest {
  readonly method: string;
  readonly path: string;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
  readonly contentId?: string;
}

/** A top-level part: a changeset of requests, or a retrieve (GET). */
export type BatchPart = { readonly changeset: readonly BatchRequest[] } | { readonly get: string };

/** What the answer holds per top-level part: the statuses of a committed changeset, or one status. */
export type BatchAnswerPart = { readonly statuses: readonly number[]; readonly text: string };

function request(operation: BatchRequest): string {
  const mime = [
    'Content-Type: application/http',
    'Content-Transfer-Encoding: binary',
    ...(operation.contentId === undefined ? [] : [`Content-ID: ${operation.contentId}`]),
  ];
  const body = operation.body === undefined ? '' : JSON.stringify(operation.body);
  const headers = Object.entries({ ...(body === '' ? {} : { 'Content-Type': 'application/json' }), Accept: 'application/json', ...operation.headers }).map(
    ([name, value]) => `${name}: ${value}`,
  );
  return [...mime, '', `${operation.method} ${encodePath(operation.path)} HTTP/1.1`, ...headers, '', body].join('\r\n');
}

/** The body of a `$batch` request with `parts`. */
function batchBody(parts: readonly BatchPart[]): { body: Buffer; contentType: string } {
  const boundary = 'batch_conformance';
  const text = parts
    .map((part, index) => {
      if ('get' in part) return `--${boundary}\r\n${request({ method: 'GET', path: part.get })}\r\n`;
      const inner = `changeset_${index}`;
      const operations = part.changeset.map((operation) => `--${inner}\r\n${request(operation)}\r\n`).join('');
      return `--${boundary}\r\nContent-Type: multipart/mixed; boundary=${inner}\r\n\r\n${operations}--${inner}--\r\n`;
    })
    .join('');
  return { body: Buffer.from(`${text}--${boundary}--\r\n`, 'utf8'), contentType: `multipart/mixed; boundary=${boundary}` };
}

function boundaryOf(contentType: string | undefined): string {
  const match = /boundary=("?)([^";]+)\1/i.exec(contentType ?? '');
  if (match === null) fail(`a multipart answer without a boundary: ${show(contentType)}`);
  return match[2];
}

/** The parts between the delimiters of `boundary` in `text`. */
function partsOf(text: string, boundary: string): string[] {
  const pieces = text.split(`--${boundary}`);
  return pieces.slice(1, -1).map((piece) => piece.replace(/^\r?\n/, ''));
}

function statusesOf(part: string): number[] {
  return [...part.matchAll(/^HTTP\/1\.1 (\d{3})/gm)].map((match) => Number(match[1]));
}

/** Send a `$batch` and read its top-level parts: each one's statuses in order. */
export async function sendBatch(service: ServiceClient, parts: readonly BatchPart[]): Promise<{ answer: HttpAnswer; parts: BatchAnswerPart[] }> {
  const { body, contentType } = batchBody(parts);
  const answer = await service.send('POST', '$batch', { headers: { 'content-type': contentType }, body });
  if (answer.status !== 202) fail(`POST $batch answered ${answer.status}, expected 202: ${answer.text.slice(0, 300)}`);
  const read = partsOf(answer.text, boundaryOf(answer.headers['content-type'])).map((part) => {
    const nested = /^Content-Type:\s*multipart\/mixed;[^\r\n]*/im.exec(part.split(/\r?\n\r?\n/)[0] ?? '');
    if (nested === null) return { statuses: statusesOf(part), text: part };
    return { statuses: partsOf(part, boundaryOf(nested[0])).flatMap(statusesOf), text: part };
  });
  if (read.length !== parts.length) fail(`POST $batch answered ${read.length} parts for ${parts.length}: ${answer.text.slice(0, 300)}`);
  return { answer, parts: read };
}
