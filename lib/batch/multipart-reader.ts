/**
 * The MIME layer of `$batch`: splits a whole, size-checked body into parts (RFC 2046 §5.1.1) and
 * sorts them into operations and changesets. Part contents stay bytes (subarrays, never copied or
 * decoded). No HTTP here: embedded requests are read by http-message.ts.
 */
import { ODataError, isODataError } from '../errors';
import { parseMediaType } from '../protocol/media-type';
import { parseMultipartBoundary } from './content-type';
import { type HeaderMap, readHeaderText } from './headers';
import type { BatchLimits } from './types';

/** One body part: its MIME headers and content bytes. */
export interface MimePart {
  readonly headers: HeaderMap;
  readonly content: Buffer;
  /** `part 2` or `part 2, operation 1`: names the part in messages. */
  readonly label: string;
  /** The content decoded as ISO-8859-1 (offsets are byte offsets), when the reader has it. */
  readonly contentText?: string;
  /** Bytes of the line break after the content that belong to the next delimiter (2 for CRLF, 1 for LF). */
  readonly delimiterBreak?: number;
}

/** A top-level part of the batch body, sorted by its Content-Type. */
type BatchMimePart =
  | { readonly kind: 'operation'; readonly part: MimePart }
  | { readonly kind: 'changeset'; readonly label: string; readonly operations: readonly MimePart[] }
  | { readonly kind: 'broken'; readonly label: string; readonly error: ODataError; readonly changeset: boolean };

/** Byte range [start, end) of one part's headers and content inside a multipart body. */
interface PartRange {
  readonly start: number;
  readonly end: number;
  /** Bytes between `end` and the next delimiter's `--`: its line break (RFC 2046 §5.1.1), 0 to 2. */
  readonly delimiterBreak: number;
}

const CR = 0x0d;
const LF = 0x0a;
const DASH = 0x2d;

/**
 * multipart-body := [preamble CRLF] dash-boundary transport-padding CRLF body-part
 *                   *encapsulation close-delimiter transport-padding [CRLF epilogue]
 * encapsulation  := delimiter transport-padding CRLF body-part
 * delimiter      := CRLF dash-boundary;  dash-boundary := "--" boundary      (RFC 2046 §5.1.1)
 * A delimiter is recognised at the start of `body` or after CRLF or a bare LF; the line break
 * before it belongs to the delimiter, not to the part. Transport padding (SP / HTAB) is skipped.
 * A line that only starts like a delimiter (`--batch_1x`) is content. Preamble and epilogue are
 * ignored. More than `maxParts` parts throws BATCH_PART_LIMIT; no delimiter or no close delimiter
 * throws BATCH_SYNTAX naming `where`.
 */
export function splitMultipart(body: Buffer, boundary: string, maxParts: number, what: string, where: string): PartRange[] {
  const dashBoundary = Buffer.from(`--${boundary}`, 'latin1');
  const ranges: PartRange[] = [];
  let partStart = -1;
  let pos = 0;
  for (;;) {
    const at = body.indexOf(dashBoundary, pos);
    if (at < 0) break;
    let lineStart: number;
    if (at === 0) lineStart = 0;
    else if (body[at - 1] === LF) lineStart = at >= 2 && body[at - 2] === CR ? at - 2 : at - 1;
    else {
      pos = at + 1;
      continue;
    }
    let cursor = at + dashBoundary.length;
    const close = body[cursor] === DASH && body[cursor + 1] === DASH;
    if (close) cursor += 2;
    while (body[cursor] === 0x20 || body[cursor] === 0x09) cursor++;
    let next: number;
    if (cursor >= body.length) next = body.length;
    else if (body[cursor] === CR && body[cursor + 1] === LF) next = cursor + 2;
    else if (body[cursor] === LF) next = cursor + 1;
    else {
      pos = at + 1;
      continue;
    }
    if (partStart >= 0) {
      if (ranges.length >= maxParts) throw ODataError.fromCode('BATCH_PART_LIMIT', { limit: maxParts, what });
      // An empty part right after a delimiter line has no line break of its own before the next one.
      const end = Math.max(lineStart, partStart);
      ranges.push({ start: partStart, end, delimiterBreak: at - end });
    }
    if (close) return ranges;
    partStart = next;
    pos = next;
  }
  if (partStart < 0) {
    throw ODataError.fromCode('BATCH_SYNTAX', { detail: `${where}: no delimiter line '--${boundary}' found; does the boundary match the body?` });
  }
  throw ODataError.fromCode('BATCH_SYNTAX', { detail: `${where}: the closing delimiter '--${boundary}--' is missing` });
}

/**
 * Read the top-level parts of a batch body (MS-ODATA §2.2.7.6): `application/http` parts are
 * operations, `multipart/mixed` parts are changesets of `application/http` operations. A part
 * that cannot be read becomes `broken` (answered by one error response); a limit or an unreadable
 * top-level structure throws, and then nothing is processed.
 */
export function readBatchBody(body: Buffer, boundary: string, limits: BatchLimits): BatchMimePart[] {
  const ranges = splitMultipart(body, boundary, limits.maxBatchParts, 'parts', 'the batch body');
  // Decoded once: header blocks and request lines are read from this text (its offsets are byte
  // offsets), not with a Buffer decode per line or block; bodies stay slices of `body`.
  const text = body.toString('latin1');
  return ranges.map((range, index) => readTopLevelPart(body, text, range, `part ${index + 1}`, limits));
}

function readTopLevelPart(body: Buffer, text: string, range: PartRange, label: string, limits: BatchLimits): BatchMimePart {
  let part: MimePart;
  let kind: 'http' | 'multipart';
  try {
    part = readMimePart(body, text, range, label, limits);
    kind = classify(part);
  } catch (error) {
    return broken(label, error, false);
  }
  if (kind === 'http') return { kind: 'operation', part };
  try {
    const boundary = parseMultipartBoundary(part.headers['content-type'], 'BATCH_SYNTAX');
    const ranges = splitMultipart(part.content, boundary, limits.maxChangesetOperations, 'operations in one changeset', `changeset ${label}`);
    let firstError: unknown;
    const operations: MimePart[] = [];
    ranges.forEach((inner, index) => {
      try {
        const operation = readMimePart(part.content, part.contentText ?? part.content.toString('latin1'), inner, `${label}, operation ${index + 1}`, limits);
        if (classify(operation) === 'multipart') {
          throw ODataError.fromCode('BATCH_NOT_ALLOWED', {
            detail: `${operation.label}: changesets cannot be nested (MS-ODATA §2.2.7.6: a changeset contains only application/http parts)`,
          });
        }
        operations.push(operation);
      } catch (error) {
        if (isLimit(error)) throw error;
        firstError ??= error;
      }
    });
    if (firstError !== undefined) return broken(label, firstError, true);
    return { kind: 'changeset', label, operations };
  } catch (error) {
    return broken(label, error, true);
  }
}

function readMimePart(body: Buffer, text: string, range: PartRange, label: string, limits: BatchLimits): MimePart {
  const block = readHeaderText(text, range.start, range.end, limits.maxBatchPartHeaderBytes, label);
  return {
    headers: block.headers,
    content: body.subarray(block.contentStart, range.end),
    label,
    contentText: text.slice(block.contentStart, range.end),
    delimiterBreak: range.delimiterBreak,
  };
}

/** `http` for application/http, `multipart` for multipart/mixed; anything else throws BATCH_SYNTAX. */
function classify(part: MimePart): 'http' | 'multipart' {
  const contentType = part.headers['content-type'];
  if (contentType === undefined) {
    throw ODataError.fromCode('BATCH_SYNTAX', { detail: `${part.label} has no Content-Type; expected application/http or multipart/mixed` });
  }
  // Nearly every part says exactly this: no need to parse it.
  const essence = contentType === 'application/http' ? contentType : parseMediaType(contentType, 'BATCH_SYNTAX').essence;
  if (essence === 'multipart/mixed') return 'multipart';
  if (essence !== 'application/http') {
    throw ODataError.fromCode('BATCH_SYNTAX', {
      detail: `${part.label} has Content-Type '${essence}'; expected application/http or multipart/mixed`,
    });
  }
  // MS-ODATA asks for `binary`; 7bit and 8bit are identity encodings too. base64 and
  // quoted-printable would change the bytes, and no OData client sends them.
  const encoding = part.headers['content-transfer-encoding'];
  if (encoding !== undefined && !['binary', '8bit', '7bit'].includes(encoding.toLowerCase())) {
    throw ODataError.fromCode('BATCH_SYNTAX', {
      detail: `${part.label} has Content-Transfer-Encoding '${encoding}'; only binary is supported`,
    });
  }
  return 'http';
}

function isLimit(error: unknown): boolean {
  return isODataError(error) && error.code === 'BATCH_PART_LIMIT';
}

function broken(label: string, error: unknown, changeset: boolean): BatchMimePart {
  // Limits refuse the whole batch; anything else (always an ODataError from the parsers) is the part's answer.
  if (isLimit(error) || !isODataError(error)) throw error;
  return { kind: 'broken', label, error, changeset };
}
