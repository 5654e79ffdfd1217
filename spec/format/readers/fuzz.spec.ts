/**
 * Totality of the body readers: random mutations of valid bodies always end in an EntryBody (or
 * PropertyBody / LinkBody) or a 4xx ODataError — never another exception, never a hang.
 * A fixed-seed generator keeps failures reproducible; the failing input is printed.
 */
import { ODataError } from '../../../lib/errors';
import { formatAtomValue, jsonValueText, printLiteral } from '../../../lib/edm';
import type { EdmPropertyTypeRef } from '../../../lib/edm/model';
import type { PrimitiveValue, PropertyValue } from '../../../lib/edm/primitives';
import type { EntryBody } from '../../../lib/format/readers';
import { readAtomEntry, readJsonEntry, readJsonLink, readJsonProperty, readXmlLink, readXmlProperty } from '../../../lib/format/readers';
import type { ReadContext } from '../../../lib/format/readers';
import { ATOM_NAMESPACES, atomEntry, contextFor, linkTargetOf, propertyOf, related, targetOf, writeModel } from './reader-fixtures';
import { seededRandom } from '../../helpers/random';

const generator = seededRandom;

function isEntryBody(value: unknown): value is EntryBody {
  return typeof value === 'object' && value !== null && 'entityType' in value && 'properties' in value;
}

const FRAGMENTS = [
  '<',
  '>',
  '/>',
  '</',
  '&',
  '&amp;',
  '&#0;',
  '"',
  "'",
  '=',
  ' ',
  '\n',
  '{',
  '}',
  '[',
  ']',
  ':',
  ',',
  'null',
  'true',
  '-1',
  '1e999',
  '"\\u0000"',
  '\\',
  '$1',
  '(',
  ')',
  '%',
  '%zz',
  'm:null="true"',
  'm:type="Edm.Int64"',
  '<!DOCTYPE x>',
  '<![CDATA[',
  ']]>',
  '__metadata',
  '__deferred',
  '"uri":',
  '"results":',
  'xml:base="::"',
  '\u00ff',
  '\ud800',
  '𝄞',
  '<d:ID>',
  '</d:ID>',
  'Items(1)',
  '/Date(',
  ')/',
  // Issue 11: values the writers could not write back, and bodies bigger by structure than the model.
  '/Date(253402300800000)/',
  '/Date(-62135596800001)/',
  '/Date(8640000000000000)/',
  '9999-12-31T23:59:59-01:00',
  '0001-01-01T00:00:00+00:30',
  '10000-01-01T00:00:00',
  'P10675200D',
  'PT922337203685478S',
  '\\ud800',
  '\\udc00\\ud800',
  '\\ud83d\\ude00',
  '\\b',
  '\\uffff',
  '&#xD800;',
  '&#x1F600;',
  ' a="1" b="2"',
  ',"X1":1,"X2":2,"X3":3',
];

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

/** A primitive a reader accepted must be writable by the JSON and Atom writers (issue 11: no input poisons the store). */
function assertWritable(type: EdmPropertyTypeRef, value: PropertyValue, name: string): void {
  if (value === null) return;
  if (type.kind === 'Complex') {
    for (const member of type.type.properties) {
      const inner = (value as Record<string, PropertyValue>)[member.name];
      if (inner !== undefined) assertWritable(member.type, inner, member.name);
    }
    return;
  }
  const primitive = value as PrimitiveValue;
  try {
    JSON.parse(jsonValueText(type.name, primitive));
    formatAtomValue(type.name, primitive);
    printLiteral(type.name, primitive);
  } catch (error) {
    throw new Error(`the reader accepted ${String(primitive)} for '${name}' (${type.name}), which a writer refuses: ${String(error)}`, { cause: error });
  }
}

/** Every value of an accepted entry (and of its inline entries) can be written back. */
function assertEntryWritable(entry: EntryBody): void {
  for (const [name, value] of entry.properties) {
    const type = entry.entityType.propertiesByName.get(name)?.type ?? entry.dynamicTypes?.get(name);
    if (type !== undefined) assertWritable(type, value, name);
  }
  for (const inline of entry.inline) for (const child of inline.entries) assertEntryWritable(child);
}

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
        const result = read(bytes);
        if (isEntryBody(result)) assertEntryWritable(result);
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
    expect(fuzz(ATOM_SEEDS, (body) => readAtomEntry(body, items, context), 1, 1500)).toEqual([]);
  });

  it('JSON entries: every mutant gives an EntryBody or a 4xx ODataError', () => {
    expect(fuzz(JSON_SEEDS, (body) => readJsonEntry(body, items, context), 2, 1500)).toEqual([]);
  });

  it('property and link bodies: every mutant gives a result or a 4xx ODataError', () => {
    const address = { kind: 'Property', property: propertyOf(writeModel, 'Items', 'Address') } as const;
    const owner = linkTargetOf(writeModel, 'Items', 'Owner');
    const D = 'xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices"';
    expect(
      fuzz([`<d:Address ${D}><d:Street>s</d:Street><d:Geo><d:Lat>1</d:Lat></d:Geo></d:Address>`], (b) => readXmlProperty(b, address, context), 3, 500),
    ).toEqual([]);
    expect(fuzz(['{"d":{"Address":{"Street":"s","Geo":{"Lat":1}}}}'], (b) => readJsonProperty(b, address, context), 4, 500)).toEqual([]);
    expect(
      fuzz(
        [`<uri xmlns="http://schemas.microsoft.com/ado/2007/08/dataservices">http://localhost:4004/odata/People(1)</uri>`],
        (b) => readXmlLink(b, owner, context),
        5,
        500,
      ),
    ).toEqual([]);
    expect(fuzz(['{"d":{"uri":"People(1)"}}'], (b) => readJsonLink(b, owner, context), 6, 500)).toEqual([]);
  });
});

/**
 * Structured fuzzing of values (issue 11): well-formed bodies whose property values come from a
 * pool of boundary and hostile values. Whatever a reader accepts must be writable again.
 */
describe('fuzzing property values of well-formed bodies', () => {
  const items = targetOf(writeModel, 'Items');
  const DATES = [
    '/Date(253402300799999)/',
    '/Date(253402300800000)/',
    '/Date(-62135596800000)/',
    '/Date(-62135596800001)/',
    '/Date(8640000000000000)/',
    '/Date(0+0060)/',
    '9999-12-31T23:59:59.999',
    '9999-12-31T23:59:59-00:01',
    '0001-01-01T00:00:00',
    '0001-01-01T00:00:00+00:01',
    '2000-02-29T12:00:00Z',
    '2000-02-30T00:00:00',
  ];
  const TIMES = ['PT0S', 'P10675199DT2H48M5.477S', 'P10675199DT2H48M5.478S', 'PT922337203685477S', '-P1D', '23:59:59.999', 'P1Y'];
  const STRINGS = ['plain', '\ud800', 'a\udc00', '\udc00\ud800', '😀', '\u0000', 'tab\there', '\uffff', 'x'.repeat(12), "'quoted'"];
  const NUMBERS = ['1', '-1', '2147483648', '1.5', 'NaN', 'INF', '-INF', '1e39', '3.4e38', '255', '256', '9223372036854775808', '12.345'];
  const pick = <T>(random: () => number, values: readonly T[]): T => values[Math.floor(random() * values.length)];

  function check(bodies: () => Buffer, read: (body: Buffer) => EntryBody, count: number): { failures: string[]; accepted: number } {
    const failures: string[] = [];
    let accepted = 0;
    for (let i = 0; i < count; i++) {
      const body = bodies();
      try {
        assertEntryWritable(read(body));
        accepted++;
      } catch (error) {
        if (!(error instanceof ODataError) || error.status !== 400) failures.push(`${String(error)} for ${JSON.stringify(body.toString('utf8'))}`);
      }
    }
    return { failures, accepted };
  }

  it('JSON: 1,500 bodies of boundary dates, durations, numbers and strings', () => {
    const random = generator(11);
    // Each property is there one time in three, so that bodies with one hostile value are common.
    const some = (values: Record<string, string>): Record<string, string> => Object.fromEntries(Object.entries(values).filter(() => random() < 0.34));
    const bodies = () =>
      Buffer.from(
        JSON.stringify({
          ID: 1,
          Code: 'A',
          Address: { Street: 's' },
          ...some({
            PDateTime: pick(random, DATES),
            PDateTimeOffset: pick(random, DATES),
            PTime: pick(random, TIMES),
            PString: pick(random, STRINGS),
            PInt32: pick(random, NUMBERS),
            PByte: pick(random, NUMBERS),
            PInt64: pick(random, NUMBERS),
            PDouble: pick(random, NUMBERS),
            PSingle: pick(random, NUMBERS),
          }),
        }),
      );
    const { failures, accepted } = check(bodies, (body) => readJsonEntry(body, items, context), 1500);
    expect(failures).toEqual([]);
    expect(accepted).toBeGreaterThan(100);
  });

  it('Atom: 1,500 bodies of the same values as element text', () => {
    const random = generator(12);
    const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
    const element = (name: string, text: string) => `<d:${name}>${escape(text)}</d:${name}>`;
    const maybe = (text: string): string => (random() < 0.34 ? text : '');
    const bodies = () =>
      Buffer.from(
        atomEntry(
          element('ID', '1') +
            element('Code', 'A') +
            '<d:Address><d:Street>s</d:Street></d:Address>' +
            maybe(element('PDateTime', pick(random, DATES))) +
            maybe(element('PDateTimeOffset', pick(random, DATES))) +
            maybe(element('PTime', pick(random, TIMES))) +
            maybe(element('PString', pick(random, STRINGS))) +
            maybe(element('PInt32', pick(random, NUMBERS))) +
            maybe(element('PDouble', pick(random, NUMBERS))) +
            maybe(element('PSingle', pick(random, NUMBERS))),
        ),
        'utf8',
      );
    const { failures, accepted } = check(bodies, (body) => readAtomEntry(body, items, context), 1500);
    expect(failures).toEqual([]);
    expect(accepted).toBeGreaterThan(100);
  });
});
