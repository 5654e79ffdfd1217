/**
 * The body of the 202 batch response (MS-ODATA §2.2.7.6): `multipart/mixed` with one
 * `application/http` part per retrieve or failed changeset, and one nested `multipart/mixed` part
 * per committed changeset. CRLF line ends, Content-Length in bytes, Content-ID echoed.
 */
import { randomUUID } from 'crypto';
import { embeddedResponseParts } from './http-message';
import type { BatchOperationResponse, BatchResponsePart } from './types';

/** Makes a fresh boundary from a prefix (`batch_`, `changesetresponse_`). */
export type BoundaryFactory = (prefix: string) => string;

/** The written batch response body. */
interface WrittenBatch {
  /** `multipart/mixed; boundary=batch_...`, boundary last and unquoted (SAP Cloud SDK reads everything after `boundary=`). */
  readonly contentType: string;
  readonly body: Buffer;
}

/** A random boundary: a UUID has only boundary-safe characters. */
const randomBoundary: BoundaryFactory = (prefix) => prefix + randomUUID();

const CRLF = '\r\n';
const BEYOND_LATIN1 = /[^\u0000-\u00ff]/;

interface WrittenPart {
  /** The Content-ID to write as a MIME part header (the embedded head already holds one echoed there). */
  readonly contentId: string | undefined;
  /** Status line and headers of the embedded response (ISO-8859-1). */
  readonly head: string;
  /** Its body: bytes, or text written as UTF-8. */
  readonly body: Buffer | string | undefined;
}

/** Write the parts in order; each boundary is checked against the bytes it delimits, so it cannot occur inside them. */
export function writeBatchResponse(parts: readonly BatchResponsePart[], createBoundary: BoundaryFactory = randomBoundary): WrittenBatch {
  const written = parts.map((part) => (part.kind === 'response' ? writeOperation(part) : { changeset: part.responses.map(writeOperation) }));
  const everything = written.flatMap((part) => ('changeset' in part ? part.changeset : [part]));
  const batchBoundary = pickBoundary('batch_', everything, createBoundary);
  const body = new BodyAssembler();
  for (const part of written) {
    body.text(`--${batchBoundary}${CRLF}`);
    if ('changeset' in part) {
      const changesetBoundary = pickBoundary('changesetresponse_', part.changeset, createBoundary, batchBoundary);
      body.text(`Content-Type: multipart/mixed; boundary=${changesetBoundary}${CRLF}${CRLF}`);
      for (const operation of part.changeset) {
        body.text(`--${changesetBoundary}${CRLF}`);
        pushOperation(body, operation);
      }
      body.text(`--${changesetBoundary}--${CRLF}`);
    } else {
      pushOperation(body, part);
    }
  }
  body.text(`--${batchBoundary}--${CRLF}`);
  return { contentType: `multipart/mixed; boundary=${batchBoundary}`, body: body.toBuffer() };
}

/**
 * MS-ODATA §2.2.7.6.6: the response repeats the request's Content-ID. It goes where the request
 * had it: as a MIME part header, and/or among the embedded response's own headers. The .NET
 * clients (4.0 and 5.x) put it in the embedded request and refuse a response part with MIME
 * headers beyond Content-Type and Content-Transfer-Encoding, so their echo must stay inside.
 */
function writeOperation(response: BatchOperationResponse): WrittenPart {
  const { contentId } = response;
  const placement = response.contentIdPlacement ?? 'part';
  const inMessage = contentId !== undefined && placement !== 'part';
  const embedded = inMessage ? { ...response.response, headers: { ...response.response.headers, 'Content-ID': contentId } } : response.response;
  const { head, body } = embeddedResponseParts(embedded);
  return { contentId: placement === 'message' ? undefined : contentId, head, body };
}

// body-part := MIME-part-headers [CRLF *OCTET], then the CRLF that starts the next delimiter.
function pushOperation(body: BodyAssembler, part: WrittenPart): void {
  let headers = `Content-Type: application/http${CRLF}Content-Transfer-Encoding: binary${CRLF}`;
  if (part.contentId !== undefined) headers += `Content-ID: ${part.contentId}${CRLF}`;
  body.text(headers + CRLF + part.head);
  if (part.body !== undefined) body.content(part.body);
  body.text(CRLF);
}

/**
 * The batch body, filled once: framing text is ISO-8859-1, part bodies are UTF-8 text or bytes.
 * Pieces are kept until the end and copied into one buffer of the summed length, instead of a
 * buffer per piece and another for their concatenation.
 */
class BodyAssembler {
  private readonly pieces: (string | Buffer)[] = [];
  /** Per piece: whether a string is a body (UTF-8) rather than framing text (ISO-8859-1). */
  private readonly utf8: boolean[] = [];
  private length = 0;

  text(value: string): void {
    const last = this.pieces.length - 1;
    // Adjacent framing texts are joined, so there are about two pieces per part.
    if (last >= 0 && typeof this.pieces[last] === 'string' && !this.utf8[last]) this.pieces[last] += value;
    else {
      this.pieces.push(value);
      this.utf8.push(false);
    }
    this.length += value.length;
  }

  content(value: Buffer | string): void {
    this.pieces.push(value);
    this.utf8.push(true);
    this.length += typeof value === 'string' ? Buffer.byteLength(value, 'utf8') : value.length;
  }

  toBuffer(): Buffer {
    const out = Buffer.allocUnsafe(this.length);
    let at = 0;
    for (let i = 0; i < this.pieces.length; i++) {
      const piece = this.pieces[i];
      at += typeof piece === 'string' ? out.write(piece, at, this.utf8[i] ? 'utf8' : 'latin1') : piece.copy(out, at);
    }
    return out;
  }
}

/** A boundary whose delimiter occurs in none of the parts and does not clash with the enclosing boundary. */
function pickBoundary(prefix: string, parts: readonly WrittenPart[], createBoundary: BoundaryFactory, enclosing?: string): string {
  for (let attempt = 0; attempt < 8; attempt++) {
    const boundary = createBoundary(prefix);
    const delimiter = `--${boundary}`;
    const clashes = enclosing !== undefined && (`${delimiter}--`.includes(`--${enclosing}`) || `--${enclosing}--`.includes(delimiter));
    if (!clashes && !parts.some((part) => contains(part, delimiter))) return boundary;
  }
  throw new Error('Could not find a multipart boundary that does not occur in the response parts.');
}

/** Whether a part's written bytes contain `delimiter` (ASCII, so its text and UTF-8 forms are the same bytes). */
function contains(part: WrittenPart, delimiter: string): boolean {
  // The head is written as ISO-8859-1: a character above U+00FF becomes its low byte, so such a
  // (rare) head is checked as the bytes it becomes.
  const head = BEYOND_LATIN1.test(part.head) ? Buffer.from(part.head, 'latin1').toString('latin1') : part.head;
  if (head.includes(delimiter)) return true;
  const body = part.body;
  if (body === undefined) return false;
  return typeof body === 'string' ? body.includes(delimiter) : body.includes(delimiter, 0, 'latin1');
}
