/**
 * The body of the 202 batch response (MS-ODATA §2.2.7.6): `multipart/mixed` with one
 * `application/http` part per retrieve or failed changeset, and one nested `multipart/mixed` part
 * per committed changeset. CRLF line ends, Content-Length in bytes, Content-ID echoed.
 */
import { randomUUID } from 'crypto';
import { writeEmbeddedResponse } from './http-message';
import type { BatchOperationResponse, BatchResponsePart } from './types';

/** Makes a fresh boundary from a prefix (`batch_`, `changesetresponse_`). */
export type BoundaryFactory = (prefix: string) => string;

/** The written batch response body. */
export interface WrittenBatch {
  /** `multipart/mixed; boundary=batch_...`, boundary last and unquoted (SAP Cloud SDK reads everything after `boundary=`). */
  readonly contentType: string;
  readonly body: Buffer;
}

/** A random boundary: a UUID has only boundary-safe characters. */
export const randomBoundary: BoundaryFactory = (prefix) => prefix + randomUUID();

const CRLF = '\r\n';

interface WrittenPart {
  readonly contentId: string | undefined;
  readonly message: Buffer;
}

/** Write the parts in order; each boundary is checked against the bytes it delimits, so it cannot occur inside them. */
export function writeBatchResponse(parts: readonly BatchResponsePart[], createBoundary: BoundaryFactory = randomBoundary): WrittenBatch {
  const written = parts.map((part) =>
    part.kind === 'response' ? writeOperation(part) : { changeset: part.responses.map(writeOperation) },
  );
  const everything = written.flatMap((part) => ('changeset' in part ? part.changeset.map((op) => op.message) : [part.message]));
  const batchBoundary = pickBoundary('batch_', everything, createBoundary);
  const chunks: Buffer[] = [];
  for (const part of written) {
    chunks.push(text(`--${batchBoundary}${CRLF}`));
    if ('changeset' in part) {
      const changesetBoundary = pickBoundary('changesetresponse_', part.changeset.map((op) => op.message), createBoundary, batchBoundary);
      chunks.push(text(`Content-Type: multipart/mixed; boundary=${changesetBoundary}${CRLF}${CRLF}`));
      for (const operation of part.changeset) {
        chunks.push(text(`--${changesetBoundary}${CRLF}`));
        pushOperation(chunks, operation);
      }
      chunks.push(text(`--${changesetBoundary}--${CRLF}`));
    } else {
      pushOperation(chunks, part);
    }
  }
  chunks.push(text(`--${batchBoundary}--${CRLF}`));
  return { contentType: `multipart/mixed; boundary=${batchBoundary}`, body: Buffer.concat(chunks) };
}

function writeOperation(response: BatchOperationResponse): WrittenPart {
  return { contentId: response.contentId, message: writeEmbeddedResponse(response.response) };
}

// body-part := MIME-part-headers [CRLF *OCTET], then the CRLF that starts the next delimiter.
function pushOperation(chunks: Buffer[], part: WrittenPart): void {
  let headers = `Content-Type: application/http${CRLF}Content-Transfer-Encoding: binary${CRLF}`;
  if (part.contentId !== undefined) headers += `Content-ID: ${part.contentId}${CRLF}`;
  chunks.push(text(headers + CRLF), part.message, text(CRLF));
}

/** A boundary whose delimiter occurs in none of `contents` and does not clash with the enclosing boundary. */
function pickBoundary(prefix: string, contents: readonly Buffer[], createBoundary: BoundaryFactory, enclosing?: string): string {
  for (let attempt = 0; attempt < 8; attempt++) {
    const boundary = createBoundary(prefix);
    const delimiter = `--${boundary}`;
    const clashes =
      enclosing !== undefined && (`${delimiter}--`.includes(`--${enclosing}`) || `--${enclosing}--`.includes(delimiter));
    if (!clashes && !contents.some((content) => content.includes(delimiter, 0, 'latin1'))) return boundary;
  }
  throw new Error('Could not find a multipart boundary that does not occur in the response parts.');
}

function text(value: string): Buffer {
  return Buffer.from(value, 'latin1');
}
