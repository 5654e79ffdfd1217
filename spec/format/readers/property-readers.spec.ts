import { readJsonProperty, readRawValue, readXmlProperty } from '../../../lib/format/readers';
import type { PropertyBody, PropertyTarget } from '../../../lib/format/readers';
import { catchODataError, contextFor, demoModel, plainValue, propertyOf, writeModel } from './reader-fixtures';

const D = 'xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices"';
const M = 'xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"';
const context = contextFor();

const declared = (name: string, set = 'Items'): PropertyTarget => ({ kind: 'Property', property: propertyOf(writeModel, set, name) });
/** A declared property with an `m:MimeType` facet. */
const withMimeType = (name: string, mimeType: string): PropertyTarget => ({
  kind: 'Property',
  property: { ...propertyOf(writeModel, 'Items', name), mimeType },
});
const dynamic = (name: string): PropertyTarget => ({ kind: 'Dynamic', name });

/** The body as a comparable value: binary as base64, the dynamic type by name. */
function plain(body: PropertyBody): unknown {
  const type = body.type === undefined ? undefined : body.type.kind === 'Primitive' ? body.type.name : body.type.type.qualifiedName;
  return type === undefined ? { value: plainValue(body.value) } : { value: plainValue(body.value), type };
}

describe('readXmlProperty', () => {
  it.each<[string, string, PropertyTarget, unknown]>([
    ['a string', `<d:PString ${D}>abc</d:PString>`, declared('PString'), { value: 'abc' }],
    [
      'with the XML declaration and m:type',
      `<?xml version="1.0" encoding="utf-8"?><d:PInt32 ${D} ${M} m:type="Edm.Int32">42</d:PInt32>`,
      declared('PInt32'),
      { value: 42 },
    ],
    [
      'a default-namespace element',
      '<PDecimal xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">1.50</PDecimal>',
      declared('PDecimal'),
      { value: '1.5' },
    ],
    ['null', `<d:PDateTime ${D} ${M} m:null="true"/>`, declared('PDateTime'), { value: null }],
    ['binary', `<d:PBinary ${D}>AQI=</d:PBinary>`, declared('PBinary'), { value: { binary: 'AQI=' } }],
    [
      'a complex value with nested members',
      `<d:Address ${D} ${M} m:type="WriteTest.Address"><d:Street>Main</d:Street><d:Geo><d:Lat>1</d:Lat></d:Geo></d:Address>`,
      declared('Address'),
      { value: { Street: 'Main', Geo: { Lat: 1 } } },
    ],
    ['a dynamic property, typed', `<d:Size ${D} ${M} m:type="Edm.Int64">7</d:Size>`, dynamic('Size'), { value: '7', type: 'Edm.Int64' }],
    ['a dynamic property, untyped', `<d:Color ${D}>red</d:Color>`, dynamic('Color'), { value: 'red', type: 'Edm.String' }],
  ])('%s', (_name, body, target, expected) => {
    expect(plain(readXmlProperty(Buffer.from(body), target, context))).toEqual(expected);
  });

  it('reads ODataDemo Product/Name', () => {
    const target: PropertyTarget = { kind: 'Property', property: propertyOf(demoModel, 'Products', 'Name') };
    expect(readXmlProperty(`<Name xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">Bread</Name>`, target, contextFor(demoModel)).value).toBe(
      'Bread',
    );
  });

  it.each<[string, string, PropertyTarget, number, string, string]>([
    ['an empty body', '', declared('PString'), 400, 'BODY_MISSING', 'required'],
    ['malformed XML', `<d:PString ${D}>x`, declared('PString'), 400, 'BODY_SYNTAX', 'not well-formed XML'],
    ['a DOCTYPE', `<!DOCTYPE x><d:PString ${D}/>`, declared('PString'), 400, 'BODY_DOCTYPE', 'DOCTYPE'],
    ['another property element', `<d:Code ${D}>x</d:Code>`, declared('PString'), 400, 'BODY_INVALID', "expected the element 'PString'"],
    ['no namespace', '<PString>x</PString>', declared('PString'), 400, 'BODY_INVALID', "found 'PString'"],
    ['a bad value', `<d:PInt32 ${D}>x</d:PInt32>`, declared('PInt32'), 400, 'VALUE_INVALID', "property 'PInt32' of type Edm.Int32"],
    ['a wrong m:type', `<d:PInt32 ${D} ${M} m:type="Edm.Int64">1</d:PInt32>`, declared('PInt32'), 400, 'VALUE_INVALID', 'does not match'],
    ['MaxLength', `<d:Code ${D}>ABCDE</d:Code>`, declared('Code'), 400, 'VALUE_INVALID', "'Code'"],
    ['Nullable', `<d:Code ${D} ${M} m:null="true"/>`, declared('Code'), 400, 'VALUE_INVALID', 'not nullable'],
    ['an unknown complex member', `<d:Address ${D}><d:Town>x</d:Town></d:Address>`, declared('Address'), 400, 'BODY_INVALID', "no property 'Town'"],
  ])('%s', (_name, body, target, status, code, fragment) => {
    const error = catchODataError(() => readXmlProperty(Buffer.from(body), target, context));
    expect([error.status, error.code]).toEqual([status, code]);
    expect(error.message).toContain(fragment);
  });
});

describe('readJsonProperty', () => {
  it.each<[string, unknown, PropertyTarget, unknown]>([
    ['{"d":{...}}', { d: { PString: 'abc' } }, declared('PString'), { value: 'abc' }],
    ['without the wrapper', { PString: 'abc' }, declared('PString'), { value: 'abc' }],
    ['Int64 as a string', { d: { PInt64: '9007199254740993' } }, declared('PInt64'), { value: '9007199254740993' }],
    ['a date', { PDateTime: '/Date(0)/' }, declared('PDateTime'), { value: new Date(0) }],
    ['null', { d: { PString: null } }, declared('PString'), { value: null }],
    [
      'a complex value',
      { d: { Address: { __metadata: { type: 'WriteTest.Address' }, City: 'X', Geo: { Lon: 2 } } } },
      declared('Address'),
      { value: { City: 'X', Geo: { Lon: 2 } } },
    ],
    ['a dynamic property', { d: { Count: 3 } }, dynamic('Count'), { value: 3, type: 'Edm.Int32' }],
  ])('%s', (_name, body, target, expected) => {
    expect(plain(readJsonProperty(Buffer.from(JSON.stringify(body)), target, context))).toEqual(expected);
  });

  it.each<[string, string, PropertyTarget, string, string]>([
    ['malformed JSON', '{"d":', declared('PString'), 'BODY_SYNTAX', 'JSON'],
    ['an empty body', ' ', declared('PString'), 'BODY_MISSING', 'required'],
    ['another member', '{"d":{"Code":"x"}}', declared('PString'), 'BODY_INVALID', "exactly the member 'PString', found 'Code'"],
    ['two members', '{"PString":"x","Code":"y"}', declared('PString'), 'BODY_INVALID', "found 'PString', 'Code'"],
    ['no member', '{}', declared('PString'), 'BODY_INVALID', 'found none'],
    ['an array', '["x"]', declared('PString'), 'BODY_INVALID', "a JSON object with the member 'PString'"],
    ['a bad value', '{"PInt32":"x"}', declared('PInt32'), 'VALUE_INVALID', "'PInt32'"],
    ['MaxLength', '{"PString":"12345678901"}', declared('PString'), 'VALUE_INVALID', "'PString'"],
  ])('%s -> 400 %s', (_name, body, target, code, fragment) => {
    const error = catchODataError(() => readJsonProperty(body, target, context));
    expect([error.status, error.code]).toEqual([400, code]);
    expect(error.message).toContain(fragment);
  });
});

describe('readRawValue', () => {
  it.each<[string, Buffer, PropertyTarget, string | undefined, unknown]>([
    ['text for a string', Buffer.from('héllo'), declared('PString'), 'text/plain;charset=utf-8', { value: 'héllo' }],
    ['an integer', Buffer.from('42'), declared('PInt32'), 'text/plain', { value: 42 }],
    ['a date', Buffer.from('2010-01-02T03:04:05'), declared('PDateTime'), 'TEXT/Plain ; charset="UTF-8"', { value: new Date(Date.UTC(2010, 0, 2, 3, 4, 5)) }],
    [
      'bytes for binary, whatever the charset',
      Buffer.from([0, 255, 1]),
      declared('PBinary'),
      'application/octet-stream;charset=latin1',
      { value: { binary: 'AP8B' } },
    ],
    ['the declared MIME type (m:MimeType)', Buffer.from('<b>x</b>'), withMimeType('PString', 'text/html'), 'text/html; charset=utf-8', { value: '<b>x</b>' }],
    ['text/plain for a property with a declared MIME type', Buffer.from('x'), withMimeType('PString', 'text/html'), 'text/plain', { value: 'x' }],
    ['bytes for binary with a declared MIME type', Buffer.from([1]), withMimeType('PBinary', 'image/png'), 'image/png', { value: { binary: 'AQ==' } }],
    ['a dynamic property as a string', Buffer.from('red'), dynamic('Color'), 'text/plain', { value: 'red', type: 'Edm.String' }],
  ])('%s', (_name, body, target, contentType, expected) => {
    expect(plain(readRawValue(body, target, { contentType }))).toEqual(expected);
  });

  it.each<[string, Buffer, PropertyTarget, string | undefined, number, string]>([
    ['a bad integer', Buffer.from('4x'), declared('PInt32'), 'text/plain', 400, 'VALUE_INVALID'],
    ['a complex property', Buffer.from('x'), declared('Address'), 'text/plain', 400, 'BODY_INVALID'],
    ['MaxLength', Buffer.from('ABCDE'), declared('Code'), 'text/plain', 400, 'VALUE_INVALID'],
    ['a text charset other than UTF-8', Buffer.from('x'), declared('PString'), 'text/plain;charset=iso-8859-1', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['no Content-Type', Buffer.from('42'), declared('PInt32'), undefined, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['a JSON body (it would be stored with its quotes)', Buffer.from('"abc"'), declared('PString'), 'application/json', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['XML for a string', Buffer.from('<x/>'), declared('PString'), 'application/xml', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['another media type than the declared one', Buffer.from('x'), withMimeType('PString', 'text/html'), 'text/csv', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['text/plain for binary', Buffer.from([1]), declared('PBinary'), 'text/plain', 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ])('%s', (_name, body, target, contentType, status, code) => {
    const error = catchODataError(() => readRawValue(body, target, { contentType }));
    expect([error.status, error.code]).toEqual([status, code]);
  });

  it('names the media types it takes', () => {
    const error = catchODataError(() => readRawValue(Buffer.from('"abc"'), declared('PString'), { contentType: 'application/json' }));
    expect(error.message).toBe("Unsupported content type 'application/json': the raw value of 'PString' (Edm.String) is sent as text/plain.");
    const missing = catchODataError(() => readRawValue(Buffer.from('1'), withMimeType('PBinary', 'image/png'), { contentType: undefined }));
    expect(missing.message).toBe(
      "Unsupported content type '(none)': the raw value of 'PBinary' (Edm.Binary) is sent as image/png or application/octet-stream.",
    );
  });
});
