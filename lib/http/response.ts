/** Write an ODataResponse to a Node response, streaming async bodies with backpressure. */
import type { ServerResponse } from 'http';
import { once } from 'events';
import type { ODataResponse } from '../protocol/message';

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
      if (!response.write(chunk)) await once(response, 'drain');
    }
    response.end();
  } catch (error) {
    // Headers are gone already: the only honest signal left is a broken connection.
    response.destroy(error instanceof Error ? error : new Error(String(error)));
  }
}
