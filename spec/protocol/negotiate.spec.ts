import { negotiateErrorFormat, negotiateFormat } from '../../lib/protocol/negotiate';
import type { NegotiationInput, PayloadKind } from '../../lib/protocol/negotiate';
import { failureOf as failure } from '../helpers/odata-error';

function input(kind: PayloadKind, accept?: string, format?: string, acceptCharset?: string, mediaType?: string): NegotiationInput {
  return { kind, accept, format, acceptCharset, mediaType };
}

const ATOM = 'application/atom+xml;charset=utf-8';
const ATOMSVC = 'application/atomsvc+xml;charset=utf-8';
const JSON_CT = 'application/json;charset=utf-8';
const XML = 'application/xml;charset=utf-8';
const TEXT_XML = 'text/xml;charset=utf-8';
const TEXT = 'text/plain;charset=utf-8';

describe('negotiateFormat chooses a format', () => {
  it.each<[string, NegotiationInput, string, string]>([
    // defaults without Accept (MS-ODATA: Atom)
    ['feed, no accept', input('feed'), 'atom', ATOM],
    ['entry, no accept', input('entry'), 'atom', ATOM],
    ['service document, no accept', input('serviceDocument'), 'atom', ATOMSVC],
    ['property, no accept', input('property'), 'xml', XML],
    ['links, no accept', input('links'), 'xml', XML],
    ['collection, no accept', input('collection'), 'xml', XML],
    ['metadata, no accept', input('metadata'), 'xml', XML],
    ['count, no accept', input('count'), 'text', TEXT],
    ['empty accept is no accept', input('feed', '  '), 'atom', ATOM],
    // Accept
    ['feed, */*', input('feed', '*/*'), 'atom', ATOM],
    ['feed, application/*', input('feed', 'application/*'), 'atom', ATOM],
    ['feed, json', input('feed', 'application/json'), 'json', JSON_CT],
    ['feed, json verbose', input('feed', 'application/json;odata=verbose'), 'json', JSON_CT],
    ['feed, JSON VERBOSE upper-case', input('feed', 'Application/Json; OData=Verbose'), 'json', JSON_CT],
    ['feed, atom', input('feed', 'application/atom+xml'), 'atom', ATOM],
    ['feed, atom type=feed', input('feed', 'application/atom+xml;type=feed'), 'atom', ATOM],
    ['feed, application/xml only', input('feed', 'application/xml'), 'atom', XML],
    ['feed, UI5 Atom accept', input('feed', 'application/atom+xml,application/atomsvc+xml,application/xml'), 'atom', ATOM],
    ['feed, browser accept', input('feed', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'), 'atom', XML],
    ['feed, json preferred by q', input('feed', 'application/atom+xml;q=0.5, application/json'), 'json', JSON_CT],
    ['feed, atom preferred by q', input('feed', 'application/json;q=0.1, */*;q=0.2'), 'atom', ATOM],
    ['feed, JSON light refused, atom next', input('feed', 'application/json;odata=minimalmetadata, application/atom+xml;q=0.8'), 'atom', ATOM],
    ['feed, more specific range decides', input('feed', 'application/*;q=0.1, application/json'), 'json', JSON_CT],
    ['feed, json excluded by q=0, wildcard', input('feed', 'application/json;q=0, */*'), 'atom', ATOM],
    ['feed, atom excluded by q=0', input('feed', 'application/atom+xml;q=0, */*;q=0.5'), 'json', JSON_CT],
    ['service document, json', input('serviceDocument', 'application/json'), 'json', JSON_CT],
    ['service document, application/xml', input('serviceDocument', 'application/xml'), 'atom', XML],
    ['property, json', input('property', 'application/json'), 'json', JSON_CT],
    ['property, text/xml', input('property', 'text/xml'), 'xml', TEXT_XML],
    ['property, UI5 Atom accept', input('property', 'application/atom+xml,application/atomsvc+xml,application/xml'), 'xml', XML],
    ['links, */*', input('links', '*/*'), 'xml', XML],
    ['error, json', input('error', 'application/json'), 'json', JSON_CT],
    // fixed kinds ignore a mismatching Accept
    ['metadata, json accept', input('metadata', 'application/json'), 'xml', XML],
    ['count, json accept (SAP Cloud SDK sends it)', input('count', 'application/json'), 'text', TEXT],
    ['error, unknown accept', input('error', 'image/png'), 'xml', XML],
    // $format overrides Accept
    ['$format=json over atom accept', input('feed', 'application/atom+xml', 'json'), 'json', JSON_CT],
    ['$format=JSON', input('feed', undefined, 'JSON'), 'json', JSON_CT],
    ['$format=atom over json accept', input('feed', 'application/json', 'atom'), 'atom', ATOM],
    ['$format=xml on a feed', input('feed', undefined, 'xml'), 'atom', XML],
    ['$format=atom on a property', input('property', undefined, 'atom'), 'xml', XML],
    ['$format=atom on the service document', input('serviceDocument', undefined, 'atom'), 'atom', ATOMSVC],
    ['$format media type', input('entry', undefined, 'application/json;odata=verbose'), 'json', JSON_CT],
    ['$format=json on $count', input('count', undefined, 'json'), 'text', TEXT],
    ['$format=json on $metadata', input('metadata', undefined, 'json'), 'xml', XML],
    // raw values keep their own type
    ['raw text', input('raw', 'application/json', undefined, undefined, 'text/plain'), 'raw', 'text/plain;charset=utf-8'],
    ['raw image', input('raw', undefined, undefined, 'iso-8859-1', 'image/png'), 'raw', 'image/png'],
    ['raw with charset', input('raw', undefined, undefined, undefined, 'text/csv;charset=utf-8'), 'raw', 'text/csv;charset=utf-8'],
    ['raw without type', input('raw'), 'raw', 'application/octet-stream'],
    // Accept-Charset
    ['charset utf-8', input('feed', undefined, undefined, 'utf-8'), 'atom', ATOM],
    ['charset UTF-8 among others', input('feed', undefined, undefined, 'ISO-8859-1, UTF-8;q=0.7'), 'atom', ATOM],
    ['charset *', input('feed', undefined, undefined, '*'), 'atom', ATOM],
    ['charset iso and *', input('feed', undefined, undefined, 'iso-8859-1,*;q=0.3'), 'atom', ATOM],
    ['charset empty', input('feed', undefined, undefined, ''), 'atom', ATOM],
  ])('%s', (_name, given, format, contentType) => {
    expect(negotiateFormat(given)).toEqual({ format, contentType });
  });
});

describe('negotiateFormat refuses', () => {
  it.each<[string, NegotiationInput, string, number, string]>([
    ['an unknown $format', input('feed', undefined, 'csv'), 'UNSUPPORTED_FORMAT', 400, "Unsupported $format value 'csv'"],
    ['an empty $format', input('feed', undefined, ''), 'UNSUPPORTED_FORMAT', 400, "Unsupported $format value ''"],
    ['an unknown $format on $count', input('count', undefined, 'yaml'), 'UNSUPPORTED_FORMAT', 400, "'yaml'"],
    [
      'a feed as text/html',
      input('feed', 'text/html'),
      'NOT_ACCEPTABLE',
      406,
      "available as application/atom+xml, application/json, application/xml, but Accept is 'text/html'",
    ],
    ['a feed as JSON light only', input('feed', 'application/json;odata=fullmetadata'), 'NOT_ACCEPTABLE', 406, 'application/json;odata=fullmetadata'],
    ['a property as atom only', input('property', 'application/atom+xml'), 'NOT_ACCEPTABLE', 406, "Accept is 'application/atom+xml'"],
    ['everything at q=0', input('entry', '*/*;q=0'), 'NOT_ACCEPTABLE', 406, "Accept is '*/*;q=0'"],
    ['$format text/html', input('entry', 'application/json', 'text/html'), 'NOT_ACCEPTABLE', 406, "$format is 'text/html'"],
    ['a charset other than utf-8', input('feed', undefined, undefined, 'iso-8859-1'), 'NOT_ACCEPTABLE', 406, "Accept-Charset is 'iso-8859-1'"],
    ['utf-8 refused by q=0', input('feed', undefined, undefined, 'utf-8;q=0, *'), 'NOT_ACCEPTABLE', 406, 'utf-8'],
    ['charset on $metadata too', input('metadata', undefined, undefined, 'us-ascii'), 'NOT_ACCEPTABLE', 406, 'us-ascii'],
  ])('%s', (_name, given, code, status, detail) => {
    const [actualCode, actualStatus, message] = failure(() => negotiateFormat(given));
    expect([actualCode, actualStatus]).toEqual([code, status]);
    expect(message).toContain(detail);
  });
});

describe('negotiateErrorFormat (an error before or without negotiation)', () => {
  it.each<[string, string | undefined, string | undefined, 'json' | 'xml']>([
    ['no preference', undefined, undefined, 'xml'],
    ['json', 'application/json', undefined, 'json'],
    ['verbose json', 'application/json;odata=verbose', undefined, 'json'],
    ['JSON light still reads a JSON error best', 'application/json;odata=minimalmetadata', undefined, 'json'],
    ['json after another type', 'text/html, application/json', undefined, 'json'],
    ['atom first', 'application/atom+xml, application/json', undefined, 'xml'],
    ['UI5 Atom accept', 'application/atom+xml,application/atomsvc+xml,application/xml', undefined, 'xml'],
    ['text/xml', 'text/xml', undefined, 'xml'],
    ['wildcard', '*/*', undefined, 'xml'],
    ['json at lower quality than xml', 'application/json;q=0.5, application/xml', undefined, 'xml'],
    ['json refused', 'application/json;q=0, */*', undefined, 'xml'],
    ['nothing acceptable', 'image/png', undefined, 'xml'],
    ['$format=json', undefined, 'json', 'json'],
    ['$format=JSON over an xml accept', 'application/xml', 'JSON', 'json'],
    ['$format media type', undefined, 'application/json;odata=verbose', 'json'],
    ['$format=atom over a json accept', 'application/json', 'atom', 'xml'],
    ['$format=xml', 'application/json', 'xml', 'xml'],
    ['an unknown $format is passed over for Accept', 'application/json', 'csv', 'json'],
  ])('%s', (_name, accept, format, expected) => {
    expect(negotiateErrorFormat(accept, format)).toBe(expected);
  });
});
