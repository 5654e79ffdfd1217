import { SafeXmlReader, attributeOf, deepTextOf, parseXml } from '../../../lib/format/xml/safe-sax';
import type { XmlElement } from '../../../lib/format/xml/safe-sax';
import { catchODataError } from './catch-odata-error';

/** `{uri}local[attrs](children)` — a compact picture of a tree. */
function picture(element: XmlElement): string {
  const attributes = [...element.attributes].map(([key, value]) => `${key}=${value}`).join(' ');
  const children = element.children.map((child) => (typeof child === 'string' ? JSON.stringify(child) : picture(child))).join(',');
  return `{${element.uri}}${element.local}[${attributes}](${children})`;
}

/** Parse `text` fed in two chunks split at `offset`. */
function parseSplit(text: string, offset: number): XmlElement {
  return new SafeXmlReader().write(text.slice(0, offset)).write(text.slice(offset)).close();
}

describe('parseXml: well-formed documents', () => {
  it.each([
    ['<a/>', '{}a[]()'],
    ['<?xml version="1.0" encoding="utf-8" standalone="yes"?>\n<a>x</a>\n', '{}a[]("x")'],
    ['<?xml version="1.0" encoding="UTF-8"?><a/>', '{}a[]()'],
    ['<a xmlns="urn:x"><b c="1"/></a>', '{urn:x}a[]({urn:x}b[c=1]())'],
    ['<p:a xmlns:p="urn:p" p:c="1" d="2"/>', '{urn:p}a[{urn:p}c=1 d=2]()'],
    ['<a xml:base="http://h/">t</a>', '{}a[{http://www.w3.org/XML/1998/namespace}base=http://h/]("t")'],
    ['<a>x<![CDATA[<y>&]]>z</a>', '{}a[]("x<y>&z")'],
    ['<a>&lt;&amp;&#65;&#x42;</a>', '{}a[]("<&AB")'],
    ['<a><!-- c --><?pi x?><b/></a>', '{}a[]({}b[]())'],
    ['<a>  <b/>  </a>', '{}a[]("  ",{}b[](),"  ")'],
  ])('%s', (text, expected) => {
    expect(picture(parseXml(text))).toBe(expected);
  });

  it('gives the same tree when the text arrives split at any offset', () => {
    const text = '<?xml version="1.0"?><e xmlns="urn:a" xmlns:m="urn:m"><m:p a="v&amp;w">one<![CDATA[two]]>&#x33;</m:p><f/></e>';
    const whole = picture(parseXml(text));
    for (let offset = 0; offset <= text.length; offset++) expect(picture(parseSplit(text, offset))).toBe(whole);
  });

  it('reads attributes and deep text through the helpers', () => {
    const root = parseXml('<a xmlns:m="urn:m" m:t="T" u="U"><b>x<c>y</c></b>z</a>');
    expect([attributeOf(root, 'urn:m', 't'), attributeOf(root, '', 'u'), attributeOf(root, '', 't')]).toEqual(['T', 'U', undefined]);
    expect(deepTextOf(root)).toBe('xyz');
  });
});

describe('parseXml: refused documents', () => {
  it.each([
    ['<a><b></a>', 400, 'BODY_SYNTAX', 'unexpected close tag at line 1'],
    ['<a>', 400, 'BODY_SYNTAX', 'unclosed tag'],
    ['', 400, 'BODY_SYNTAX', 'root element'],
    ['<a/><b/>', 400, 'BODY_SYNTAX', 'only one root'],
    ['<p:a/>', 400, 'BODY_SYNTAX', 'unbound namespace prefix'],
    ['<a>&nbsp;</a>', 400, 'BODY_SYNTAX', 'undefined entity'],
    ['<a b="1" b="2"/>', 400, 'BODY_SYNTAX', 'duplicate attribute'],
    ['text', 400, 'BODY_SYNTAX', 'line 1'],
    ['<!DOCTYPE a><a/>', 400, 'BODY_DOCTYPE', 'DOCTYPE'],
    ['<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>', 400, 'BODY_DOCTYPE', 'entity declarations'],
    ['<!DOCTYPE a SYSTEM "file:///etc/passwd"><a/>', 400, 'BODY_DOCTYPE', 'DOCTYPE'],
    ['<?xml version="1.0" encoding="ISO-8859-1"?><a/>', 415, 'UNSUPPORTED_MEDIA_TYPE', 'UTF-8'],
    ['<?xml version="1.0" encoding="utf-16"?><a/>', 415, 'UNSUPPORTED_MEDIA_TYPE', 'UTF-8'],
  ])('%s -> %i %s', (text, status, code, fragment) => {
    const error = catchODataError(() => parseXml(text));
    expect([error.status, error.code]).toEqual([status, code]);
    expect(error.message).toContain(fragment);
  });

  it('states the position of a syntax error without parser internals', () => {
    const error = catchODataError(() => parseXml('<a>\n  <b></c>\n</a>'));
    expect(error.message).toBe('The request body is not well-formed XML: unexpected close tag at line 2, column 10.');
    expect(error.position).toBe(13);
  });

  it('refuses a billion-laughs document for its DOCTYPE, before any expansion', () => {
    const entities = ['<!ENTITY lol "lol">'];
    for (let i = 1; i <= 9; i++) entities.push(`<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`);
    const text = `<?xml version="1.0"?><!DOCTYPE lolz [${entities.join('')}]><lolz>&lol9;</lolz>`;
    expect(catchODataError(() => parseXml(text)).code).toBe('BODY_DOCTYPE');
  });

  it('bounds the element depth', () => {
    const deep = '<a>'.repeat(101) + '</a>'.repeat(101);
    const error = catchODataError(() => parseXml(deep));
    expect([error.code, error.message]).toEqual(['BODY_INVALID', 'The request body is invalid: the XML elements are nested deeper than 100 levels (line 1).']);
    expect(parseXml('<a>'.repeat(100) + '</a>'.repeat(100)).local).toBe('a');
    expect(catchODataError(() => parseXml('<a><a><a/></a></a>', { maxDepth: 2 })).code).toBe('BODY_INVALID');
  });

  it('refuses a truncated document at every cut point with a 400', () => {
    const text = '<e xmlns="urn:a"><p a="1">x</p></e>';
    for (let cut = 0; cut < text.length; cut++) {
      expect(catchODataError(() => parseXml(text.slice(0, cut))).code).toBe('BODY_SYNTAX');
    }
  });
});
