/**
 * The error response used when `processBatch` is given no `fail` function (the service passes its
 * own, which writes errors exactly like single requests do). Minimal on purpose: code and message
 * only, in verbose JSON when the part prefers JSON (as `service.fail` decides), else `<m:error>` XML.
 */
import { normalizeError } from '../errors';
import { errorContentType } from '../format';
import { preferredErrorFormat } from '../protocol';
import type { ODataRequest, ODataResponse } from '../protocol/message';

const METADATA_NS = 'http://schemas.microsoft.com/ado/2007/08/dataservices/metadata';

/** An error response for `request`; foreign errors become 500 INTERNAL without details. */
export function defaultErrorResponse(request: ODataRequest, thrown: unknown): ODataResponse {
  const error = normalizeError(thrown);
  const format = preferredErrorFormat(request);
  const body =
    format === 'json'
      ? JSON.stringify({ error: { code: error.code, message: { lang: 'en-US', value: error.message } } })
      : `<?xml version="1.0" encoding="utf-8"?><m:error xmlns:m="${METADATA_NS}"><m:code>${escapeXml(error.code)}</m:code>` +
        `<m:message xml:lang="en-US">${escapeXml(error.message)}</m:message></m:error>`;
  return {
    status: error.status,
    headers: {
      ...error.headers,
      'content-type': errorContentType(format),
      dataserviceversion: '1.0;',
    },
    body,
  };
}

function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : '&quot;'));
}
