/**
 * Every value a reader accepts can be written by every writer and reads back equal (issue 11,
 * items 1 and 2). Readers: verbose JSON (`\/Date(ms)\/`, ISO 8601 and xs:duration strings inside a
 * JSON body), Atom/XML text, URI literals (keys, `$filter`, service-operation parameters) and raw
 * `$value` bodies. Writers: the JSON and Atom value writers (the general ones and the compiled fast
 * paths), URI literals (percent-encoded, as in edit links), `$skiptoken` next links and `$value`.
 * Inputs are generated around the boundaries: years 0001 and 9999 with every offset, `\/Date(ms)\/`
 * next to the first and last writable millisecond, Edm.Time up to .NET's TimeSpan range, and
 * strings with surrogate pairs, unpaired surrogates and reversed pairs. A value outside what the
 * writers can write must be refused by every reader with a 400.
 */
import { ODataError } from '../../lib/errors';
import {
  convertLiteral,
  encodeLiteral,
  formatRawValue,
  fromJsonValue,
  jsonValueText,
  parseAtomValue,
  parseLiteral,
  parseRawValue,
  printLiteral,
} from '../../lib/edm';
import { formatAtomValue } from '../../lib/edm/payload-values';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../lib/edm/primitives';
import { END_WRITABLE_TIME, MAX_TIME_MILLISECONDS, MIN_WRITABLE_TIME } from '../../lib/edm/temporal-text';
import { compileJsonValue } from '../../lib/format/json/value-writer';
import { parseJsonBody } from '../../lib/format/json/json-body';
import { decodeBodyText } from '../../lib/format/body-text';
import { compileXmlElement } from '../../lib/format/xml/value-writer';
import { parseXml } from '../../lib/format/xml/safe-sax';
import { escapeXmlText } from '../../lib/format/xml/escape';
import { encodeQueryValue } from '../../lib/handlers/paging';
import { percentDecode } from '../../lib/uri/segments';
import { parseQueryString } from '../../lib/uri/query-string';
import { DEMO_MODEL } from '../helpers/demo';
import { seededRandom } from '../helpers/random';

type Reader = (text: string) => PrimitiveValue;
type Writer = (value: PrimitiveValue) => PrimitiveValue;

const D = 'xmlns:d="http://schemas.microsoft.com/ado/2007/08/dataservices" xmlns:m="http://schemas.microsoft.com/ado/2007/08/dataservices/metadata"';
const READ_CONTEXT = { model: DEMO_MODEL, serviceRoot: 'http://host/odata/' };

/** A value from a JSON body `{"P": <json>}`: the body-level checks (surrogates) and the value reader. */
function fromJsonBody(type: EdmPrimitiveTypeName, jsonText: string): PrimitiveValue {
  const body = parseJsonBody(`{"P":${jsonText}}`, READ_CONTEXT) as { P: unknown };
  return fromJsonValue(type, body.P, 'P');
}

/**
 * The bytes a client sends for a text: UTF-8, with an unpaired surrogate as the three bytes a
 * careless encoder (WTF-8) makes of it. Only bytes reach the Atom, `$value` and URI readers.
 */
function bytesAsSent(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      bytes.push(...Buffer.from(text.slice(i, i + 2), 'utf8'));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    } else {
      bytes.push(...Buffer.from(text[i], 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

/** The percent-encoded URI form a client sends for a text. */
function percentEncodeAsSent(text: string): string {
  return [...bytesAsSent(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
}

/** The URI literal a client writes for a text: `datetime'...'`, `time'...'`, `'...'` with `''`. */
function literalOf(type: EdmPrimitiveTypeName, text: string): string {
  switch (type) {
    case 'Edm.DateTime':
      return `datetime'${text}'`;
    case 'Edm.DateTimeOffset':
      return `datetimeoffset'${text}'`;
    case 'Edm.Time':
      return `time'${text}'`;
    default:
      return `'${text.replace(/'/g, "''")}'`;
  }
}

/** Readers of one type, by name: each takes the text a client sends. */
function readers(type: EdmPrimitiveTypeName): Record<string, Reader> {
  return {
    JSON: (text) => fromJsonBody(type, JSON.stringify(text)),
    Atom: (text) => parseAtomValue(type, xmlText(bytesAsSent(`<d:P>${text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</d:P>`)), 'P'),
    $value: (text) => parseRawValue(type, bytesAsSent(text), 'P'),
    'URI literal': (text) => {
      const value = convertLiteral(parseLiteral(percentDecode(percentEncodeAsSent(literalOf(type, text)))), type);
      if (value === undefined || value === null) throw ODataError.fromCode('URI_LITERAL_SYNTAX', { literal: text, detail: 'not of the type' });
      return value;
    },
  };
}

/** Element text of a `<d:P>` element (text, or the bytes a client sent), read through the safe XML reader. */
function xmlText(element: string | Buffer): string {
  const text = typeof element === 'string' ? element : decodeBodyText(element, undefined);
  const root = parseXml(text.replace('<d:P', `<d:P ${D}`));
  return root.children.filter((child): child is string => typeof child === 'string').join('');
}

/** Writers of one type: each writes a value and reads it back with the matching reader. */
function writers(type: EdmPrimitiveTypeName): Record<string, Writer> {
  const jsonWriter = compileJsonValue({ kind: 'Primitive', name: type }, 'P');
  const xmlWriter = compileXmlElement('d:P', { kind: 'Primitive', name: type });
  return {
    JSON: (value) => fromJsonBody(type, jsonValueText(type, value)),
    'JSON (compiled)': (value) => fromJsonBody(type, jsonWriter(value)),
    Atom: (value) => parseAtomValue(type, xmlText(`<d:P>${escapeXmlText(formatAtomValue(type, value))}</d:P>`), 'P'),
    'Atom (compiled)': (value) => parseAtomValue(type, xmlText(xmlWriter(value)), 'P'),
    'URI literal': (value) => convertLiteral(parseLiteral(percentDecode(encodeLiteral(printLiteral(type, value)))), type) as PrimitiveValue,
    $skiptoken: (value) => {
      const [[, token]] = parseQueryString(`$skiptoken=${encodeQueryValue(printLiteral(type, value))}`);
      return convertLiteral(parseLiteral(token), type) as PrimitiveValue;
    },
    $value: (value) => {
      const raw = formatRawValue(type, value);
      return parseRawValue(type, Buffer.from(typeof raw === 'string' ? raw : raw), 'P');
    },
  };
}

function same(a: PrimitiveValue, b: PrimitiveValue): boolean {
  return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : a === b;
}

function show(value: PrimitiveValue): string {
  return value instanceof Date ? `Date(${value.getTime()})` : JSON.stringify(value);
}

/**
 * Read each text with each reader; every accepted value must survive every writer. Returns the
 * failures (empty when the property holds) and how many texts each reader accepted.
 */
function roundTrip(type: EdmPrimitiveTypeName, texts: readonly string[], only?: readonly string[]): { failures: string[]; accepted: Record<string, number> } {
  const failures: string[] = [];
  const accepted: Record<string, number> = {};
  const out = writers(type);
  for (const [readerName, read] of Object.entries(readers(type))) {
    if (only !== undefined && !only.includes(readerName)) continue;
    accepted[readerName] = 0;
    for (const text of texts) {
      let value: PrimitiveValue;
      try {
        value = read(text);
      } catch (error) {
        if (!(error instanceof ODataError) || error.status !== 400) failures.push(`${readerName} ${JSON.stringify(text)}: threw ${String(error)}`);
        continue;
      }
      accepted[readerName]++;
      for (const [writerName, write] of Object.entries(out)) {
        try {
          const again = write(value);
          if (!same(again, value)) failures.push(`${readerName} ${JSON.stringify(text)} -> ${writerName}: ${show(value)} came back as ${show(again)}`);
        } catch (error) {
          failures.push(`${readerName} ${JSON.stringify(text)} -> ${writerName}: ${show(value)} could not be written: ${String(error)}`);
        }
      }
    }
  }
  return { failures, accepted };
}

const random = seededRandom(11);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
const two = (n: number): string => String(n).padStart(2, '0');

/** xs:dateTime texts around the ends of years 0001..9999, with and without offsets. */
function dateTimeTexts(count: number, withOffset: boolean): string[] {
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const year = pick(['0000', '0001', '0001', '0002', '1969', '1970', '2000', '9998', '9999', '9999', '10000']);
    const [month, day] = pick([
      [1, 1],
      [1, 2],
      [2, 28],
      [2, 29],
      [12, 30],
      [12, 31],
      [6, 15],
    ]);
    const time = pick(['00:00', '00:00:00', '00:13:59', '23:59', '23:59:59', '23:59:59.9', '23:59:59.999', '23:59:59.9999999', '12:00:00.5']);
    const offset =
      withOffset || random() < 0.3
        ? pick([
            'Z',
            '+00:00',
            '-00:00',
            `+${two(Math.floor(random() * 15))}:${two(Math.floor(random() * 60))}`,
            `-${two(Math.floor(random() * 15))}:${two(Math.floor(random() * 60))}`,
            '+14:00',
            '-14:00',
            '-00:01',
            '+00:01',
          ])
        : '';
    texts.push(`${year}-${two(month)}-${two(day)}T${time}${offset}`);
  }
  return texts;
}

/** `/Date(ms)/` and `/Date(ms+hhmm)/` next to the first and last writable millisecond. */
function jsonDateTexts(count: number): string[] {
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    const base = pick([MIN_WRITABLE_TIME, END_WRITABLE_TIME, 0, 8.64e15, -8.64e15]);
    const ms = Math.round(base + pick([-1, 0, 1, -1000, 999, Math.floor((random() - 0.5) * 1e9)]));
    const offset = pick(['', '', '+0000', '-0060', '+0120', `+${String(Math.floor(random() * 10000)).padStart(4, '0')}`]);
    texts.push(`/Date(${ms}${offset})/`);
  }
  return texts;
}

/** xs:duration and clock texts up to and past .NET's TimeSpan range. */
function timeTexts(count: number): string[] {
  const maxSeconds = Math.floor(MAX_TIME_MILLISECONDS / 1000);
  const texts = [
    'PT0S',
    'P10675199DT2H48M5.477S',
    'P10675199DT2H48M5.478S',
    '-P10675199DT2H48M5.477S',
    `PT${maxSeconds}S`,
    `PT${maxSeconds + 1}S`,
    'PT23H59M59.999S',
    '23:59:59.999',
    '00:00',
    '24:00',
  ];
  for (let i = 0; i < count; i++) {
    const days = pick(['', `${Math.floor(random() * 20000000)}D`, '10675199D', '1D']);
    const time = pick(['', 'T1H', `T${Math.floor(random() * 1e6)}M`, `T${Math.floor(random() * 1e12)}S`, 'T0.5S', 'T2H48M5.4775807S']);
    if (days === '' && time === '') continue;
    texts.push(`${random() < 0.2 ? '-' : ''}P${days}${time}`);
  }
  return texts;
}

/** Strings of pieces: ASCII, quotes, escapes, BMP and astral characters, unpaired and reversed surrogates. */
function stringTexts(count: number): string[] {
  const pieces = [
    'a',
    'Z',
    ' ',
    "'",
    "''",
    '%',
    '%25',
    '&',
    '<',
    '"',
    '\\',
    'é',
    '中',
    '𝄞',
    '😀',
    '\ud800',
    '\udbff',
    '\udc00',
    '\udfff',
    '\udc00\ud800',
    '\ud83d',
    '\u0000',
    '\ufffd',
    '\uffff',
  ];
  const texts: string[] = ['', '\ud800', 'a\udc00b', '𝄞', '\ud834\udd1e'];
  for (let i = 0; i < count; i++) {
    let text = '';
    for (let j = Math.floor(random() * 6); j >= 0; j--) text += pick(pieces);
    texts.push(text);
  }
  return texts;
}

describe('every value a reader accepts round-trips through every writer', () => {
  it.each([
    ['Edm.DateTime', false],
    ['Edm.DateTimeOffset', true],
  ] as const)('%s: xs:dateTime texts around years 0001 and 9999 with offsets', (type, withOffset) => {
    const { failures, accepted } = roundTrip(type, dateTimeTexts(400, withOffset));
    expect(failures).toEqual([]);
    // The property is not vacuous: every reader accepted some of them.
    for (const count of Object.values(accepted)) expect(count).toBeGreaterThan(50);
  });

  it.each(['Edm.DateTime', 'Edm.DateTimeOffset'] as const)('%s: \\/Date(ms)\\/ next to the first and last writable millisecond', (type) => {
    const { failures, accepted } = roundTrip(type, jsonDateTexts(400), ['JSON']);
    expect(failures).toEqual([]);
    expect(accepted.JSON).toBeGreaterThan(50);
  });

  it('Edm.Time: durations up to and past the TimeSpan range', () => {
    const { failures, accepted } = roundTrip('Edm.Time', timeTexts(300));
    expect(failures).toEqual([]);
    for (const count of Object.values(accepted)) expect(count).toBeGreaterThan(50);
  });

  it('Edm.String: surrogate pairs round-trip; every reader refuses unpaired surrogates and what XML cannot carry', () => {
    const texts = stringTexts(400);
    const carried = texts.filter(
      (text) => !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text),
    );
    const { failures, accepted } = roundTrip('Edm.String', texts);
    expect(failures).toEqual([]);
    expect(accepted).toEqual({ JSON: carried.length, Atom: carried.length, $value: carried.length, 'URI literal': carried.length });
    expect(carried.length).toBeGreaterThan(100);
    expect(carried.length).toBeLessThan(texts.length - 100);
  });

  it.each([
    ['an escaped one', '{"Name":"\\ud800"}'],
    ['an escaped U+0000', '{"Name":"a\\u0000"}'],
    ['a backspace escape', '{"Name":"a\\bc"}'],
    ['a raw U+FFFF', '{"Name":"a\uffff"}'],
    ['a reversed pair', '{"Name":"\\udc00\\ud800"}'],
    ['a raw one in a string body', '{"Name":"a\ud800"}'],
    ['a high surrogate before a non-surrogate escape', '{"Name":"\\ud800\\u0041"}'],
  ])('a JSON body with a string that is not text every format carries, %s, is a 400', (_case, body) => {
    expect(() => parseJsonBody(body, READ_CONTEXT)).toThrow(
      expect.objectContaining({ status: 400, code: 'BODY_INVALID', message: expect.stringContaining('text must be valid Unicode that XML can carry') }),
    );
  });

  it('a JSON body with escaped and raw surrogate pairs, tabs and line breaks is read', () => {
    expect(parseJsonBody('{"Name":"\\ud834\\udd1e \ud834\udd1e\\t\\n\\r\\u0009"}', READ_CONTEXT)).toEqual({ Name: '𝄞 𝄞\t\n\r\t' });
  });

  it.each([
    ['the last writable millisecond', '/Date(253402300799999)/', 'accepted'],
    ["year 10000 (the issue's request)", '/Date(253402300800000)/', 'refused'],
    ['the first writable millisecond', '/Date(-62135596800000)/', 'accepted'],
    ['one millisecond before year 0001', '/Date(-62135596800001)/', 'refused'],
    ['an ISO text moved into year 10000 by its offset', '9999-12-31T23:59:59-00:01', 'refused'],
    ['an ISO text moved before year 0001 by its offset', '0001-01-01T00:00:00+00:01', 'refused'],
  ])('JSON: %s is %s', (_case, text, outcome) => {
    const read = (): PrimitiveValue => fromJsonBody('Edm.DateTime', JSON.stringify(text));
    if (outcome === 'accepted') expect(read()).toBeInstanceOf(Date);
    else expect(read).toThrow(expect.objectContaining({ status: 400, code: 'VALUE_INVALID', message: expect.stringContaining("property 'P'") }));
  });

  it.each([
    ["datetime'9999-12-31T23:59:59.999'", 'accepted'],
    ["datetime'9999-12-31T23:59:59-01:00'", 'refused'],
    ["datetimeoffset'0001-01-01T00:30:00+01:00'", 'refused'],
    ["time'P10675199DT2H48M5.477S'", 'accepted'],
    ["time'P10675200D'", 'refused'],
  ])('URI literal %s is %s', (text, outcome) => {
    if (outcome === 'accepted') expect(parseLiteral(text).value).not.toBeNull();
    else expect(() => parseLiteral(text)).toThrow(expect.objectContaining({ status: 400, code: 'URI_LITERAL_SYNTAX' }));
  });

  it('refuses a $value body that is not UTF-8 with 400 naming the property, instead of storing U+FFFD', () => {
    expect(() => parseRawValue('Edm.String', Buffer.from([0x61, 0xed, 0xa0, 0x80]), 'Name')).toThrow(
      expect.objectContaining({
        status: 400,
        code: 'VALUE_INVALID',
        message: "Invalid value for property 'Name' of type Edm.String: the body is not valid UTF-8 text.",
      }),
    );
  });
});
