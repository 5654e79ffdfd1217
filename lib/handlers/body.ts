/**
 * Reading request bodies: pick the reader by Content-Type (MS-ODATA §2.2.5.1), and the shared
 * checks (a body is present, its media type is one we read).
 */
import { ODataError } from '../errors';
import type { EntryBody, EntryTarget, LinkBody, LinkTarget, PropertyBody, PropertyTarget, ReadContext } from '../format/entry-body';
import { mediaTypeOf } from '../protocol/media-type';
import { readAtomEntry, readJsonEntry, readJsonLink, readJsonProperty, readRawValue, readXmlLink, readXmlProperty } from '../format/readers';
import type { HandlerContext } from './context';

type BodyFormat = 'atom' | 'json' | 'xml';

function formatOf(contentType: string | undefined, allowed: readonly BodyFormat[]): BodyFormat {
  const media = mediaTypeOf(contentType);
  const format: BodyFormat | undefined =
    media === 'application/json' ? 'json' : media === 'application/atom+xml' ? 'atom' : media === 'application/xml' || media === 'text/xml' ? 'xml' : undefined;
  // An entry in application/xml is how some clients label Atom; accept it as Atom.
  const effective = format === 'xml' && !allowed.includes('xml') && allowed.includes('atom') ? 'atom' : format;
  if (effective === undefined || !allowed.includes(effective)) {
    throw ODataError.fromCode('UNSUPPORTED_MEDIA_TYPE', {
      contentType: contentType ?? '(none)',
      detail: `this request takes ${allowed.map((f) => (f === 'json' ? 'application/json' : f === 'atom' ? 'application/atom+xml' : 'application/xml')).join(' or ')}`,
    });
  }
  return effective;
}

/** The body bytes, or 400 when the request has none. */
export function requireBody(context: HandlerContext): Buffer {
  const { body } = context.request;
  if (body === undefined || body.length === 0) throw ODataError.fromCode('BODY_MISSING');
  return body;
}

function readContext(context: HandlerContext): ReadContext {
  return {
    model: context.config.options.model,
    serviceRoot: context.request.serviceRoot,
    contentIds: context.request.contentIds,
    contentType: context.request.headers['content-type'],
  };
}

/** An entry body in Atom or verbose JSON. */
export function readEntryBody(context: HandlerContext, target: EntryTarget): EntryBody {
  const body = requireBody(context);
  const format = formatOf(context.request.headers['content-type'], ['atom', 'json']);
  return format === 'json' ? readJsonEntry(body, target, readContext(context)) : readAtomEntry(body, target, readContext(context));
}

/** A property body in XML or JSON. */
export function readPropertyBody(context: HandlerContext, target: PropertyTarget): PropertyBody {
  const body = requireBody(context);
  const format = formatOf(context.request.headers['content-type'], ['xml', 'json']);
  return format === 'json' ? readJsonProperty(body, target, readContext(context)) : readXmlProperty(body, target, readContext(context));
}

/** A raw `$value` body of a primitive property, checked against its Content-Type (415 otherwise). */
export function readRawValueBody(context: HandlerContext, target: PropertyTarget): PropertyBody {
  return readRawValue(requireBody(context), target, { contentType: context.request.headers['content-type'] });
}

/** A link body (`<uri>` or `{"uri":...}`). */
export function readLinkBody(context: HandlerContext, target: LinkTarget): LinkBody {
  const body = requireBody(context);
  const format = formatOf(context.request.headers['content-type'], ['xml', 'json']);
  return format === 'json' ? readJsonLink(body, target, readContext(context)) : readXmlLink(body, target, readContext(context));
}
