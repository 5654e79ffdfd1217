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
