/** The compiled XML property-element writers: fast paths agree with formatAtomValue, and refuse what it refuses. */
import { formatAtomValue } from '../../../lib/edm/payload-values';
import type { EdmPrimitiveTypeName, PrimitiveValue } from '../../../lib/edm/primitives';
import { compileXmlElement } from '../../../lib/format/xml/value-writer';

const element = (type: EdmPrimitiveTypeName) => compileXmlElement('d:P', { kind: 'Primitive', name: type });

describe('compileXmlElement', () => {
  it.each([
    ['Edm.Int32', [0, -2147483648, 2147483647]],
    ['Edm.Byte', [0, 255]],
    ['Edm.Double', [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 1.5]],
    ['Edm.Single', [Number.NaN, Number.NEGATIVE_INFINITY, 3.5]],
  ] as const)('writes %s values as formatAtomValue does (NaN, INF and -INF in their V2 forms)', (type, values) => {
    const write = element(type);
    const typeAttribute = type === 'Edm.Double' || type === 'Edm.Single' || type === 'Edm.Int32' || type === 'Edm.Byte' ? ` m:type="${type}"` : '';
    for (const value of values) expect(write(value)).toBe(`<d:P${typeAttribute}>${formatAtomValue(type, value as PrimitiveValue)}</d:P>`);
  });

  it.each([
    ['Edm.Int32', [Number.NaN, Number.NEGATIVE_INFINITY, 0.5, 2147483648]],
    ['Edm.Int16', [40000]],
    ['Edm.Byte', [-1, 256]],
    ['Edm.Decimal', ['1e5', '<x/>']],
    ['Edm.Single', [1e39]],
    ['Edm.Guid', ['x']],
  ] as const)('refuses %s values no client could read back with a TypeError', (type, values) => {
    const write = element(type);
    for (const value of values) expect(() => write(value)).toThrow(TypeError);
  });
});
