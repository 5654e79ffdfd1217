/**
 * Totality of the body readers: random mutations of valid bodies always end in an EntryBody (or
 * PropertyBody / LinkBody) or a 4xx ODataError — never another exception, never a hang.
 * A fixed-seed generator keeps failures reproducible; the failing input is printed.
 */
import { ODataError } from '../../../lib/errors';
import { readAtomEntry, readJsonEntry, readJsonLink, readJsonProperty, readXmlLink, readXmlProperty } from '../../../lib/format/readers';
import type { ReadContext } from '../../../lib/format/readers';
import { ATOM_NAMESPACES, atomEntry, contextFor, linkTargetOf, propertyOf, related, targetOf, writeModel } from './reader-fixtures';
import { seededRandom } from '../../helpers/random';

const generator = seededRandom;

const FRAGMENTS = ['<', '>', '/>', '</', '&', '&amp;', '&#0;', '"', "'", '=', ' ', '\n', '{', '}', '[', ']', ':', ',', 'null', 'true', '-1',
  '1e999', '"\\u0000"', '\\', '$1', '(', ')', '%', '%zz', 'm:null="true"', 'm:type="Edm.Int64"', '<!DOCTYPE x>', '<![CDATA[', ']]>',
  '__metadata', '__deferred', '"uri":', '"results":', 'xml:base="::"', '\u00ff', '\ud800', '𝄞', '<d:ID>', '</d:ID>', 'Items(1)', '/Date(', ')/'];

/** One random edit: delete, insert a fragment, duplicate, or truncate. */
function mutate(text: string, random: () => number): string {
  const at = Math.floor(random() * (text.length + 1));
  switch (Math.floor(random() * 5)) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(random() * 8));
    case 1:
      return text.slice(0, at) + FRAGMENTS[Math.floor(random() * FRAGMENTS.length)] + text.slice(at);
    case 2: {
      const end = Math.min(text.length, at + Math.floor(random() * 40));
      return text.slice(0, end) + text.slice(at, end) + text.slice(end);
    }
    case 3:
      return text.slice(0, at);
    default:
      return text.slice(0, at) + String.fromCharCode(Math.floor(random() * 0x3000)) + text.slice(at + 1);
  }
}

const context: ReadContext = contextFor(writeModel, { contentIds: new Map([['1', 'People(1)']]) });

const ATOM_SEEDS = [
  atomEntry(
    '<d:ID m:type="Edm.Int32">1</d:ID><d:PInt64>5</d:PInt64><d:PDateTime>2010-01-02T03:04:05</d:PDateTime><d:PBinary>AQI=</d:PBinary><d:Address><d:Street>s</d:Street><d:Geo><d:Lat>1</d:Lat></d:Geo></d:Address>',
    `<category term="WriteTest.Item" scheme="http://schemas.microsoft.com/ado/2007/08/dataservices/scheme"/><title>T</title><link rel="${related('Owner')}" href="People(1)"/>` +
      `<link rel="${related('Parts')}" href="x"><m:inline><feed><entry><content type="application/xml"><m:properties><d:PartNo>a</d:PartNo></m:properties></content></entry></feed></m:inline></link>`,
  ),
  `<entry ${ATOM_NAMESPACES} xml:base="http://localhost:4004/odata/"><link rel="${related('Detail')}" href="$1"/><content src="x"/><m:properties><d:Code>A</d:Code></m:properties></entry>`,
];

const JSON_SEEDS = [
  JSON.stringify({
    d: {
      __metadata: { type: 'WriteTest.Item' },
      ID: 1,
      PInt64: '5',
      PDecimal: '1.5',
      PDateTime: '/Date(0)/',
      PGuid: '0123abcd-89ab-cdef-0123-456789abcdef',
      Address: { Street: 's', Geo: { Lat: 1 } },
      Owner: { __metadata: { uri: 'People(1)' } },
      Parts: { results: [{ PartNo: 'a', Item: { __deferred: { uri: 'Parts(1)/Item' } } }] },
      Detail: null,
    },
  }),
  JSON.stringify({ Code: 'A', Owner: { ID: 2, Items: [{ __metadata: { uri: '$1' } }] } }),
];

/** Run `read` on `count` mutants of each seed; collect anything but a result or a 4xx ODataError. */
function fuzz(seeds: readonly string[], read: (body: Buffer) => unknown, seed: number, count: number): string[] {
  const random = generator(seed);
  const failures: string[] = [];
  let accepted = 0;
  for (const original of seeds) {
    let text = original;
    for (let i = 0; i < count; i++) {
      // Chains of edits drift far from the seed; restart from it now and then.
      text = random() < 0.3 ? mutate(original, random) : mutate(text, random);
      const bytes = random() < 0.05 ? Buffer.from(text, 'latin1') : Buffer.from(text, 'utf8');
      try {
        read(bytes);
        accepted++;
      } catch (error) {
        if (!(error instanceof ODataError) || error.status < 400 || error.status > 499) {
          failures.push(`${String(error)} for ${JSON.stringify(text)}`);
        }
      }
    }
  }
  // Some mutants must still be valid, or the run only exercised the error paths.
  if (accepted === 0) failures.push('no mutant was accepted');
  return failures;
}

describe('fuzzing the body readers', () => {
  const items = targetOf(writeModel, 'Items');

  it('Atom entries: every mutant gives an EntryBody or a 4xx ODataError', () => {
    const started = Date.now();
    expect(fuzz(ATOM_SEEDS, (body) => readAtomEntry(body, items, context), 1, 1500)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10000);
  });

  it('JSON entries: every mutant gives an EntryBody or a 4xx ODataError', () => {
    const started = Date.now();
    expect(fuzz(JSON_SEEDS, (body) => readJsonEntry(body, items, context), 2, 1500)).toEqual([]);
    expect(Date.now() - started).toBeLessThan(10000);
  });

  it('property and link bodies: every mutant gives a result or a 4xx ODataError', () => {
    const address = { kind: 'Property', property: propertyOf(writeModel, 'Items', 'Address') } as const;
    const owner = linkTargetOf(writeModel, 'Items', 'Owner');
    const D = 'xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices"';
    expect(fuzz([`<d:Address ${D}><d:Street>s</d:Street><d:Geo><d:Lat>1</d:Lat></d:Geo></d:Address>`], (b) => readXmlProperty(b, address, context), 3, 500)).toEqual([]);
    expect(fuzz(['{"d":{"Address":{"Street":"s","Geo":{"Lat":1}}}}'], (b) => readJsonProperty(b, address, context), 4, 500)).toEqual([]);
    expect(fuzz([`<uri xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">http://localhost:4004/odata/People(1)</uri>`], (b) => readXmlLink(b, owner, context), 5, 500)).toEqual([]);
    expect(fuzz(['{"d":{"uri":"People(1)"}}'], (b) => readJsonLink(b, owner, context), 6, 500)).toEqual([]);
  });
});
