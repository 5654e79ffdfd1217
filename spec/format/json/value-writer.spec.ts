/** The compiled JSON value writers (with their fast paths) write what edm/payload-values writes. */
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../../lib/edm/primitives';
import { jsonValueText } from '../../../lib/edm/payload-values';
import { compileJsonValue } from '../../../lib/format/json/value-writer';

const SAMPLES: ReadonlyArray<readonly [EdmPrimitiveTypeName, readonly PrimitiveValue[]]> = [
  ['Edm.String', ['', 'Milk', 'quote " and \\ backslash', 'line\nbreak', 'caf\u00e9 \u{1f600}']],
  ['Edm.Int32', [0, -1, 2147483647]],
  ['Edm.Int16', [-32768, 7]],
  ['Edm.Byte', [0, 255]],
  ['Edm.SByte', [-128, 127]],
  ['Edm.Boolean', [true, false]],
  ['Edm.Decimal', ['0', '2.5', '-0.001', '12345678901234567890.123456789', 7, 2.5]],
  ['Edm.Guid', ['0d9c1f9e-8d6a-4b61-9b39-5a0e8d3f4a11']],
  ['Edm.Int64', ['9007199254740993', '-1', 5]],
  ['Edm.Double', [1.5, -0, Number.NaN, Number.POSITIVE_INFINITY]],
  ['Edm.DateTime', [new Date('1992-01-01T00:00:00Z'), new Date(-1)]],
  ['Edm.DateTimeOffset', [new Date('2020-02-29T12:34:56.789Z')]],
];

describe('compileJsonValue', () => {
  it.each(SAMPLES)('writes %s values as jsonValueText does, and null as null', (type, values) => {
    const write = compileJsonValue({ kind: 'Primitive', name: type }, `T/${type}`);
    for (const value of values) expect([value, write(value)]).toEqual([value, jsonValueText(type, value)]);
    expect([write(null), write(undefined)]).toEqual(['null', 'null']);
  });
});

/** Provider values no writer can write faithfully: each is a TypeError (the service logs it and answers 500). */
const UNWRITABLE: ReadonlyArray<readonly [EdmPrimitiveTypeName, readonly unknown[]]> = [
  ['Edm.Int32', [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5, 2147483648, '7']],
  ['Edm.Int16', [32768, -32769, Number.NaN]],
  ['Edm.Byte', [256, -1]],
  ['Edm.SByte', [128]],
  ['Edm.Decimal', ['abc', '1","x":"y', '1e5', '', '.5', Number.NaN, Number.POSITIVE_INFINITY]],
  ['Edm.Int64', ['1e3', '9223372036854775808', '1.5', 2 ** 60, Number.NaN]],
  ['Edm.Single', [1e39, -1e39]],
  ['Edm.Guid', ['not-a-guid', '0d9c1f9e-8d6a-4b61-9b39-5a0e8d3f4a1"']],
  ['Edm.Time', ['abc', 'P1Y']],
  ['Edm.DateTime', [new Date(Number.NaN), new Date(253402300800000)]],
];

describe('compileJsonValue refuses what it cannot write faithfully', () => {
  it.each(UNWRITABLE)('%s', (type, values) => {
    const write = compileJsonValue({ kind: 'Primitive', name: type }, `T/${type}`);
    for (const value of values) {
      expect(() => write(value)).toThrow(TypeError);
      expect(() => jsonValueText(type, value as PrimitiveValue)).toThrow(TypeError);
    }
  });

  it.each([
    ['Edm.Double', Number.NaN, '"NaN"'],
    ['Edm.Double', Number.POSITIVE_INFINITY, '"INF"'],
    ['Edm.Double', Number.NEGATIVE_INFINITY, '"-INF"'],
    ['Edm.Single', Number.NaN, '"NaN"'],
    ['Edm.Single', Number.NEGATIVE_INFINITY, '"-INF"'],
  ] as const)('writes the %s special value %s in its V2 form %s', (type, value, text) => {
    expect(compileJsonValue({ kind: 'Primitive', name: type }, 'T')(value)).toBe(text);
  });
});
