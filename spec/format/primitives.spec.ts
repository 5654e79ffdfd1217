/**
 * Every EDM primitive type in Atom and JSON: golden entries with values, with extreme values and
 * with nulls, and the parsed forms checked one by one.
 */
import { writeAtomEntry, writeJsonEntry } from '../../lib/format';
import type { Entity } from '../../lib/provider/types';
import { ALL, context, expectGolden, text } from './support';
import { PRIMITIVE_TYPES, testModel } from './test-model';
import { attr, one, parseTree } from './xml-tree';

const set = testModel.entitySets.get('Everything');
if (set === undefined) throw new Error('no Everything set');
const everything = set;

const values: Entity = {
  Id: 1,
  Binary: new Uint8Array([0, 1, 2, 254, 255]),
  Boolean: true,
  Byte: 255,
  DateTime: new Date('2000-01-02T03:04:05.678Z'),
  DateTimeOffset: new Date('2000-01-02T03:04:05Z'),
  Decimal: '-1234567890.0123456789',
  Double: -0.5,
  Guid: '01234567-89ab-cdef-0123-456789abcdef',
  Int16: -32768,
  Int32: 2147483647,
  Int64: '-9223372036854775808',
  SByte: -128,
  Single: 2.5,
  String: 'text',
  Time: 'PT13H20M',
};

const extremes: Entity = { ...values, Id: 2, Double: Number.POSITIVE_INFINITY, Single: Number.NaN, Boolean: false, String: '', Binary: new Uint8Array([]) };
const nulls: Entity = Object.fromEntries([['Id', 3], ...PRIMITIVE_TYPES.map((type) => [type.slice(4), null])]);

function atom(entity: Entity): string {
  return text(
    writeAtomEntry({ kind: 'Entry', entitySet: everything, entityType: everything.entityType, entity, selectExpand: ALL }, context('2.0', testModel)),
  );
}

function json(entity: Entity): string {
  return text(
    writeJsonEntry({ kind: 'Entry', entitySet: everything, entityType: everything.entityType, entity, selectExpand: ALL }, context('2.0', testModel)),
  );
}

describe('every primitive type', () => {
  it.each([
    ['values', values],
    ['extremes', extremes],
    ['nulls', nulls],
  ])('golden Atom and JSON entries with %s', (name, entity) => {
    expectGolden(`atom/primitives-${name}.entry.xml`, atom(entity));
    expectGolden(`json/primitives-${name}.entry.json`, json(entity));
  });

  it.each([
    ['Binary', 'Edm.Binary', 'AAEC/v8='],
    ['Boolean', 'Edm.Boolean', 'true'],
    ['Byte', 'Edm.Byte', '255'],
    ['DateTime', 'Edm.DateTime', '2000-01-02T03:04:05.678'],
    ['DateTimeOffset', 'Edm.DateTimeOffset', '2000-01-02T03:04:05Z'],
    ['Decimal', 'Edm.Decimal', '-1234567890.0123456789'],
    ['Double', 'Edm.Double', '-0.5'],
    ['Guid', 'Edm.Guid', '01234567-89ab-cdef-0123-456789abcdef'],
    ['Int16', 'Edm.Int16', '-32768'],
    ['Int32', 'Edm.Int32', '2147483647'],
    ['Int64', 'Edm.Int64', '-9223372036854775808'],
    ['SByte', 'Edm.SByte', '-128'],
    ['Single', 'Edm.Single', '2.5'],
    ['String', undefined, 'text'],
    ['Time', 'Edm.Time', 'PT13H20M'],
  ])('Atom writes %s with m:type %s as %s', (name, type, expected) => {
    const element = one(parseTree(atom(values)), `atom:content/m:properties/d:${name}`);
    expect(attr(element, 'm:type')).toBe(type);
    expect(element.text).toBe(expected);
  });

  it('writes m:null with the m:type for null values in Atom, and null in JSON', () => {
    const properties = one(parseTree(atom(nulls)), 'atom:content/m:properties').children.slice(1);
    expect(properties.every((p) => attr(p, 'm:null') === 'true' && p.text === '')).toBe(true);
    expect(properties.map((p) => attr(p, 'm:type'))).toEqual(PRIMITIVE_TYPES.map((t) => (t === 'Edm.String' ? undefined : t)));
    const body = JSON.parse(json(nulls)) as { d: Record<string, unknown> };
    expect(PRIMITIVE_TYPES.map((t) => body.d[t.slice(4)])).toEqual(PRIMITIVE_TYPES.map(() => null));
  });

  it('keeps Int64 and Decimal exact (JSON strings) and dates as \\/Date(ms)\\/ in JSON', () => {
    const body = JSON.parse(json(values)) as { d: Record<string, unknown> };
    expect(body.d.Int64).toBe('-9223372036854775808');
    expect(body.d.Decimal).toBe('-1234567890.0123456789');
    expect(body.d.DateTime).toBe('/Date(946782245678)/');
    expect(body.d.Int32).toBe(2147483647);
    expect(body.d.Boolean).toBe(true);
  });
});
