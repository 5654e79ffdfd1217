/**
 * Error bodies (MS-ODATA §2.2.8.1, "Error Response"): `<m:error>` with code, message
 * (`xml:lang="en-US"`) and an optional `innererror`, or `{"error":{...}}` in verbose JSON. Only
 * whitelisted fields reach the wire: the code, the message, and the details a provider attached
 * for clients (`innererror.errordetails`, which SAPUI5 shows as messages). The stack and the cause
 * chain (`message`, `type`, `stacktrace`, `internalexception`, as WCF Data Services named them)
 * are written only when the service runs with `debug: true`.
 */
import type { ODataError, ODataErrorDetail } from '../errors';
import type { ErrorFormat } from '../protocol/negotiate';
import { describeCaught } from '../util';
import { MESSAGE_LANG, METADATA_NS, XML_DECLARATION } from './names';
import { escapeXmlText } from './xml/escape';

/** The Content-Type of an error body in each format. */
export function errorContentType(format: ErrorFormat): string {
  return format === 'json' ? 'application/json;charset=utf-8' : 'application/xml;charset=utf-8';
}

/** Options of `writeError`. */
interface ErrorBodyOptions {
  /** Include the stack trace and cause chain in `innererror` (never in production). */
  readonly debug: boolean;
}

/** What `innererror` says about one exception in debug mode. */
interface ExceptionInfo {
  readonly message: string;
  readonly type: string;
  readonly stacktrace: string;
  readonly inner: ExceptionInfo | undefined;
}

/** Causes followed at most (a cycle or a runaway chain stops here). */
const MAX_CAUSE_DEPTH = 8;

/** A thrown object that is not an error, as JSON (debug output only; guarded: its getters and a Proxy's traps may throw). */
function dataText(value: unknown): string | undefined {
  if (typeof value !== 'object') return undefined;
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** The exception and its causes, read through describeCaught (a thrown value may be a Proxy whose every trap throws). */
function describeException(value: unknown, seen: Set<unknown>): ExceptionInfo | undefined {
  if (value === undefined || value === null || seen.has(value) || seen.size >= MAX_CAUSE_DEPTH) return undefined;
  seen.add(value);
  const described = describeCaught(value);
  return {
    message: described.message ?? dataText(value) ?? described.summary,
    type: described.name,
    stacktrace: described.stack ?? '',
    inner: describeException(described.cause, seen),
  };
}

/** Write an error body in XML or verbose JSON. */
export function writeError(error: ODataError, format: ErrorFormat, options: ErrorBodyOptions): string {
  const debugInfo = options.debug ? describeException(error, new Set()) : undefined;
  return format === 'json' ? jsonError(error, debugInfo) : xmlError(error, debugInfo);
}

function xmlError(error: ODataError, debugInfo: ExceptionInfo | undefined): string {
  let out = XML_DECLARATION + `<m:error xmlns:m="${METADATA_NS}">`;
  out += `<m:code>${escapeXmlText(error.code)}</m:code>`;
  out += `<m:message xml:lang="${MESSAGE_LANG}">${escapeXmlText(error.message)}</m:message>`;
  if (error.details.length > 0 || debugInfo !== undefined) {
    out += '<m:innererror>';
    if (error.details.length > 0) out += `<m:errordetails>${error.details.map(xmlDetail).join('')}</m:errordetails>`;
    if (debugInfo !== undefined) out += xmlException(debugInfo);
    out += '</m:innererror>';
  }
  return out + '</m:error>';
}

function xmlDetail(detail: ODataErrorDetail): string {
  let out = `<m:errordetail><m:code>${escapeXmlText(detail.code)}</m:code><m:message>${escapeXmlText(detail.message)}</m:message>`;
  if (detail.target !== undefined) out += `<m:target>${escapeXmlText(detail.target)}</m:target>`;
  return out + `<m:severity>${detail.severity ?? 'error'}</m:severity></m:errordetail>`;
}

function xmlException(info: ExceptionInfo): string {
  let out = `<m:message>${escapeXmlText(info.message)}</m:message><m:type>${escapeXmlText(info.type)}</m:type>`;
  out += `<m:stacktrace>${escapeXmlText(info.stacktrace)}</m:stacktrace>`;
  if (info.inner !== undefined) out += `<m:internalexception>${xmlException(info.inner)}</m:internalexception>`;
  return out;
}

function jsonError(error: ODataError, debugInfo: ExceptionInfo | undefined): string {
  let out = `{"error":{"code":${JSON.stringify(error.code)},"message":{"lang":"${MESSAGE_LANG}","value":${JSON.stringify(error.message)}}`;
  if (error.details.length > 0 || debugInfo !== undefined) {
    const parts: string[] = [];
    if (error.details.length > 0) parts.push(`"errordetails":[${error.details.map(jsonDetail).join(',')}]`);
    if (debugInfo !== undefined) parts.push(jsonException(debugInfo));
    out += `,"innererror":{${parts.join(',')}}`;
  }
  return out + '}}';
}

function jsonDetail(detail: ODataErrorDetail): string {
  let out = `{"code":${JSON.stringify(detail.code)},"message":${JSON.stringify(detail.message)}`;
  if (detail.target !== undefined) out += `,"target":${JSON.stringify(detail.target)}`;
  return out + `,"severity":${JSON.stringify(detail.severity ?? 'error')}}`;
}

function jsonException(info: ExceptionInfo): string {
  let out = `"message":${JSON.stringify(info.message)},"type":${JSON.stringify(info.type)},"stacktrace":${JSON.stringify(info.stacktrace)}`;
  if (info.inner !== undefined) out += `,"internalexception":{${jsonException(info.inner)}}`;
  return out;
}
