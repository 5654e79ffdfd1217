/**
 * Read a whole batch body into parts: the MIME structure (multipart-reader.ts) with each
 * `application/http` part read into an ODataRequest (http-message.ts). Everything is read before
 * anything runs, so a limit refuses the batch with nothing processed.
 */
import { inheritedHeaders, placeholderRequest, readEmbeddedRequest } from './http-message';
import { readBatchBody } from './multipart-reader';
import { servicePathOf } from './request-target';
import type { BatchLimits, BatchRequestPart, OuterRequest } from './types';

/** The parts of a batch body delimited by `boundary`, in request order. Throws only batch-level ODataErrors. */
export function readBatchRequest(body: Buffer, boundary: string, outer: OuterRequest, limits: BatchLimits): BatchRequestPart[] {
  const servicePath = outer.servicePath ?? servicePathOf(outer.serviceRoot);
  return readBatchBody(body, boundary, limits).map((mime): BatchRequestPart => {
    switch (mime.kind) {
      case 'operation':
        return { kind: 'operation', operation: readEmbeddedRequest(mime.part, outer, servicePath, limits) };
      case 'changeset':
        return { kind: 'changeset', operations: mime.operations.map((part) => readEmbeddedRequest(part, outer, servicePath, limits)) };
      case 'broken': {
        const request = placeholderRequest(outer, inheritedHeaders(outer));
        return mime.changeset
          ? { kind: 'invalid-changeset', error: mime.error, request }
          : { kind: 'operation', operation: { kind: 'invalid', error: mime.error, request, contentId: undefined, label: mime.label } };
      }
    }
  });
}
