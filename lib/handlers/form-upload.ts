/**
 * An HTML form upload (`multipart/form-data`, RFC 7578) creating a media link entry: the first file
 * field is the media resource. Parsed with busboy, bounded by the body already read.
 */
import Busboy from 'busboy';
import { Readable } from 'stream';
import { ODataError } from '../errors';
import type { MediaContent } from '../provider/types';
import { describeCaught } from '../util';

export function readFormUpload(body: Buffer, contentType: string): Promise<MediaContent> {
  return new Promise((resolve, reject) => {
    let parser: Busboy.Busboy;
    try {
      parser = Busboy({ headers: { 'content-type': contentType }, limits: { files: 1, fields: 20 } });
    } catch (error) {
      reject(ODataError.fromCode('BODY_SYNTAX', { format: 'multipart/form-data', detail: describeCaught(error).message ?? 'unreadable' }));
      return;
    }
    let found: MediaContent | undefined;
    let slug: string | undefined;
    parser.on('field', (name, value) => {
      if (name.toLowerCase() === 'slug') slug = value;
    });
    parser.on('file', (_name, stream, info) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (found === undefined) found = { contentType: info.mimeType || 'application/octet-stream', body: Buffer.concat(chunks), slug: info.filename };
      });
    });
    parser.on('error', (error: unknown) =>
      reject(ODataError.fromCode('BODY_SYNTAX', { format: 'multipart/form-data', detail: describeCaught(error).message ?? 'unreadable' })),
    );
    parser.on('close', () => {
      if (found === undefined) reject(ODataError.fromCode('BODY_INVALID', { detail: 'the form has no file field' }));
      else resolve(slug !== undefined ? { ...found, slug } : found);
    });
    Readable.from([body]).pipe(parser);
  });
}
