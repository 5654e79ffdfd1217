import type { EdmPrimitiveTypeName, PropertyValue } from '../../lib/edm/primitives';
import { nextToken, tokenRule } from '../../lib/provider/tokens';

describe('the kit’s concurrency-token rule', () => {
  const at = (iso: string) => (): Date => new Date(iso);
  const never = (): Date => {
    throw new Error('a version token reads no clock');
  };

  it.each<[EdmPrimitiveTypeName, ReturnType<typeof tokenRule>]>([
    ['Edm.Byte', { kind: 'version', start: 0, max: 255n }],
    ['Edm.Int32', { kind: 'version', start: 0, max: 2147483647n }],
    ['Edm.Int64', { kind: 'version', start: 0, max: 9223372036854775807n }],
    ['Edm.DateTime', { kind: 'instant' }],
    ['Edm.DateTimeOffset', { kind: 'instant' }],
    ['Edm.String', undefined],
    ['Edm.Binary', undefined],
    ['Edm.Decimal', undefined],
  ])('%s: %o', (type, rule) => {
    expect(tokenRule(type)).toEqual(rule);
  });

  it.each<[EdmPrimitiveTypeName, PropertyValue | undefined, PropertyValue]>([
    ['Edm.Int32', undefined, 0],
    ['Edm.Int32', 41, 42],
    ['Edm.Int32', 2147483647, 0],
    ['Edm.Byte', 255, 0],
    ['Edm.Int64', undefined, '0'],
    ['Edm.Int64', '9007199254740993', '9007199254740994'],
    ['Edm.Int64', '9223372036854775807', '0'],
    ['Edm.Int64', 5, '0'],
  ])('a %s version after %p is %p', (type, previous, next) => {
    expect(nextToken(type, previous, never)).toEqual(next);
  });

  it('takes the write’s clock for an instant, strictly after the previous token', () => {
    expect(nextToken('Edm.DateTime', undefined, at('2024-01-01T00:00:00.005Z'))).toEqual(new Date('2024-01-01T00:00:00.005Z'));
    expect(nextToken('Edm.DateTime', new Date('2024-01-01T00:00:00.004Z'), at('2024-01-01T00:00:00.005Z'))).toEqual(new Date('2024-01-01T00:00:00.005Z'));
    expect(nextToken('Edm.DateTimeOffset', new Date('2024-01-01T00:00:00.005Z'), at('2024-01-01T00:00:00.005Z'))).toEqual(new Date('2024-01-01T00:00:00.006Z'));
    expect(nextToken('Edm.String', 'x', never)).toBeUndefined();
  });
});
