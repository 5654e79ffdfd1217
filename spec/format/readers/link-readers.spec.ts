import { readJsonLink, readXmlLink } from '../../../lib/format/readers';
import type { LinkBody, LinkTarget } from '../../../lib/format/readers';
import { catchODataError, contextFor, demoModel, linkTargetOf, writeModel } from './reader-fixtures';

const D_URI = (uri: string): string => `<uri xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">${uri}</uri>`;
const METADATA = 'http://schemas.microsoft.com/ado/2007/08/dataservices/metadata';
const DATA = 'http://schemas.microsoft.com/ado/2007/08/dataservices';
const context = contextFor(writeModel, {
  contentIds: new Map([
    ['7', 'People(70)'],
    ['abs', 'http://localhost:4004/odata/People(71)'],
    ['root', '/odata/People(72)'],
  ]),
});
const owner = linkTargetOf(writeModel, 'Items', 'Owner');
const parts = linkTargetOf(writeModel, 'Items', 'Parts');

function plain(body: LinkBody): string {
  return `${body.entitySet.name}${JSON.stringify(body.key)}`;
}

describe('readXmlLink', () => {
  it.each<[string, string, LinkTarget, string]>([
    ['an absolute URI', D_URI('http://localhost:4004/odata/People(1)'), owner, 'People{"ID":1}'],
    ['surrounding whitespace', `<?xml version="1.0" encoding="utf-8"?>\n${D_URI('\n  People(2)\n')}`, owner, 'People{"ID":2}'],
    ['a prefixed element', '<d:uri xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices">/odata/People(3)</d:uri>', owner, 'People{"ID":3}'],
    ['a composite key', D_URI("Parts(PartNo='a',ItemID=1)"), parts, 'Parts{"ItemID":1,"PartNo":"a"}'],
    ['a Content-ID reference', D_URI('$7'), owner, 'People{"ID":70}'],
    ['a Content-ID mapped to an absolute URI', D_URI('$abs'), owner, 'People{"ID":71}'],
    ['a Content-ID mapped to a path-absolute URI, referenced absolutely', D_URI('http://localhost:4004/odata/$root'), owner, 'People{"ID":72}'],
    ['a path over a navigation with a key', D_URI('People(1)/Items(4)'), linkTargetOf(writeModel, 'People', 'Items'), 'Items{"ID":4}'],
    // The .NET clients write the uri element in the metadata namespace; WCF read both.
    ['uri in the metadata namespace', `<uri xmlns="${METADATA}">People(5)</uri>`, owner, 'People{"ID":5}'],
    ['a prefixed uri in the metadata namespace', `<m:uri xmlns:m="${METADATA}">People(6)</m:uri>`, owner, 'People{"ID":6}'],
    ['a links element with one uri', `<links xmlns="${DATA}"><uri>People(7)</uri></links>`, owner, 'People{"ID":7}'],
    ['links and uri in the metadata namespace', `<m:links xmlns:m="${METADATA}">\n  <m:uri>People(8)</m:uri>\n</m:links>`, owner, 'People{"ID":8}'],
  ])('%s', (_name, body, target, expected) => {
    expect(plain(readXmlLink(Buffer.from(body), target, context))).toBe(expected);
  });

  it('reads an ODataDemo link as WCF clients send it', () => {
    const body =
      '<?xml version="1.0" encoding="utf-8" standalone="yes"?><uri xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">http://localhost:4004/odata/Categories(1)</uri>';
    expect(plain(readXmlLink(body, linkTargetOf(demoModel, 'Products', 'Category'), contextFor(demoModel)))).toBe('Categories{"ID":1}');
  });

  it.each<[string, string, LinkTarget, number, string, string]>([
    ['an empty body', '', owner, 400, 'BODY_MISSING', 'required'],
    ['malformed XML', '<uri>', owner, 400, 'BODY_SYNTAX', 'XML'],
    ['a DOCTYPE', '<!DOCTYPE uri><uri/>', owner, 400, 'BODY_DOCTYPE', 'DOCTYPE'],
    ['no namespace', '<uri>People(1)</uri>', owner, 400, 'BODY_INVALID', "expected a 'uri' element"],
    [
      'another element',
      `<link xmlns="${DATA}">People(1)</link>`,
      owner,
      400,
      'BODY_INVALID',
      "found 'link' in http://schemas.microsoft.com/ado/2007/08/dataservices.",
    ],
    [
      'uri in the Atom namespace',
      '<uri xmlns="http://www.w3.org/2005/Atom">People(1)</uri>',
      owner,
      400,
      'BODY_INVALID',
      "expected a 'uri' element in the namespace http://schemas.microsoft.com/ado/2007/08/dataservices (or http://schemas.microsoft.com/ado/2007/08/dataservices/metadata), found 'uri' in http://www.w3.org/2005/Atom.",
    ],
    ['an empty links element', `<links xmlns="${DATA}"/>`, owner, 400, 'BODY_INVALID', 'exactly one'],
    ['two links in one body', `<links xmlns="${DATA}"><uri>People(1)</uri><uri>People(2)</uri></links>`, owner, 400, 'BODY_INVALID', 'one link per request'],
    ['a foreign element in links', `<links xmlns="${DATA}"><count>1</count></links>`, owner, 400, 'BODY_INVALID', "found 'count'"],
    ['text in links', `<links xmlns="${DATA}">People(1)</links>`, owner, 400, 'BODY_INVALID', "only 'uri' elements"],
    ['child elements', D_URI('<a/>'), owner, 400, 'BODY_INVALID', 'only the URI text'],
    ['an empty uri', D_URI(''), owner, 400, 'BODY_INVALID', 'is empty'],
    ['the wrong set', D_URI('FormerPeople(1)'), owner, 400, 'BODY_INVALID', "but 'Owner' links to entries of 'People'"],
    ['another type', D_URI('Items(1)'), owner, 400, 'BODY_INVALID', "addresses the entity set 'Items'"],
    ['another service', D_URI('http://localhost:4004/other/People(1)'), owner, 400, 'BODY_INVALID', 'does not address a resource of this service'],
    ['a collection', D_URI('People'), owner, 400, 'BODY_INVALID', 'does not address a single entry by its key'],
    ['a navigation without key', D_URI('Items(1)/Owner'), owner, 400, 'BODY_INVALID', 'does not address a single entry by its key'],
    ['a property', D_URI('People(1)/Name'), owner, 400, 'BODY_INVALID', 'does not address a single entry by its key'],
    [
      'an unknown set',
      D_URI('Peeple(1)'),
      owner,
      400,
      'BODY_INVALID',
      "does not address an entry: Resource not found for the segment 'Peeple(1)'. Did you mean 'People'?",
    ],
    ['a bad key', D_URI('People(x)'), owner, 400, 'BODY_INVALID', "the link 'People(x)' does not address an entry"],
    ['an unknown Content-ID', D_URI('$8'), owner, 400, 'BODY_INVALID', "Content-ID '8'"],
    ['a bad URI', D_URI('http://[x/People(1)'), owner, 400, 'BODY_INVALID', 'is not a valid URI'],
  ])('%s', (_name, body, target, status, code, fragment) => {
    const error = catchODataError(() => readXmlLink(body, target, context));
    expect([error.status, error.code]).toEqual([status, code]);
    expect(error.message).toContain(fragment);
  });
});

describe('readJsonLink', () => {
  it.each<[string, unknown, string]>([
    ['{"uri": ...}', { uri: 'http://localhost:4004/odata/People(1)' }, 'People{"ID":1}'],
    ['{"d": {"uri": ...}}', { d: { uri: 'People(2)' } }, 'People{"ID":2}'],
    ['a query string and fragment are ignored', { uri: 'People(3)?$format=json#x' }, 'People{"ID":3}'],
    ['a percent-encoded key', { uri: 'People(%34)' }, 'People{"ID":4}'],
  ])('%s', (_name, body, expected) => {
    expect(plain(readJsonLink(JSON.stringify(body), owner, context))).toBe(expected);
  });

  it.each<[string, string, string, string]>([
    ['malformed JSON', '{"uri":', 'BODY_SYNTAX', 'JSON'],
    ['no uri', '{}', 'BODY_INVALID', 'expected a JSON object {"uri": "<entry URI>"}'],
    ['a uri that is not a string', '{"uri":1}', 'BODY_INVALID', 'expected a JSON object'],
    ['an array', '[{"uri":"People(1)"}]', 'BODY_INVALID', 'expected a JSON object'],
    ['an extra member', '{"uri":"People(1)","x":1}', 'BODY_INVALID', "unexpected member 'x'"],
    ['the wrong set', '{"uri":"FormerPeople(1)"}', 'BODY_INVALID', "addresses the entity set 'FormerPeople'"],
  ])('%s -> 400 %s', (_name, body, code, fragment) => {
    const error = catchODataError(() => readJsonLink(body, owner, context));
    expect([error.status, error.code]).toEqual([400, code]);
    expect(error.message).toContain(fragment);
  });
});
