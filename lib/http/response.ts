/**
 * Write an ODataResponse to a Node response, streaming async bodies with backpressure. A failure
 * before the headers are out (a header value Node refuses, a body iterator that throws before its
 * first chunk) is thrown to the caller, which still owes the client an OData error; after that the
 * connection is destroyed, the only honest signal left for a response that is already on its way.
 */
import type { ServerResponse } from 'http';
import type { ODataResponse } from '../protocol/message';

/** Thrown by `sendResponse` when the response failed after its headers were sent (the socket is destroyed). */
export class ResponseCutOffError extends Error {
  constructor(readonly reason: unknown) {
    super('The response failed after its headers were sent; the connection was closed.');
    this.name = 'ResponseCutOffError';
  }
}

export async function sendResponse(response: ServerResponse, result: ODataResponse): Promise<void> {
  response.statusCode = result.status;
  const headers = result.headers;
  // for-in over the plain header object: no entries array per response.
  for (const name in headers) response.setHeader(name, headers[name]);
  const { body } = result;
  if (body === undefined) {
    response.end();
    return;
  }
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    response.setHeader('content-length', Buffer.byteLength(body));
    response.end(body);
    return;
  }
  try {
    for await (const chunk of body) {
      if (response.destroyed) return;
      if (!response.write(chunk)) await drained(response);
    }
    response.end();
  } catch (error) {
    if (!response.headersSent) throw error;
    // Without the closing tags the client sees a broken answer, never a short valid one. No error
    // is passed on to the socket: the caller logs `error` (which may be anything a provider threw).
    response.destroy();
    throw new ResponseCutOffError(error);
  }
}

/** Settles when the socket can take more, or is gone (a client that left must not hold the body's producer for ever). */
function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.on('drain', done);
    response.on('close', done);
  });
}

/** Forget every header set so far, so a failed response can be replaced by an error response. */
export function clearHeaders(response: ServerResponse): void {
  for (const name of response.getHeaderNames()) response.removeHeader(name);
}
