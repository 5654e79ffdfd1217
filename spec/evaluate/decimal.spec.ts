/** Exact decimal arithmetic: parsing, canonical text, and every operation on values a double gets wrong. */
import { seededRandom } from '../helpers/random';
import {
  addDecimal,
  ceilingDecimal,
  compareDecimal,
  decimalFromNumber,
  divideDecimal,
  floorDecimal,
  formatDecimal,
  moduloDecimal,
  multiplyDecimal,
  parseDecimal,
  roundDecimal,
  shortDecimalNumber,
  subtractDecimal,
  type ExactDecimal,
} from '../../lib/evaluate/decimal';

function d(text: string): ExactDecimal {
  const value = parseDecimal(text);
  if (value === undefined) throw new Error(`bad decimal ${text}`);
  return value;
}

describe('parseDecimal / formatDecimal', () => {
  it.each([
    ['0', '0'],
    ['-0', '0'],
    ['2.50', '2.5'],
    ['+2.5', '2.5'],
    ['.5', '0.5'],
    ['5.', '5'],
    ['-0.001', '-0.001'],
    ['1E3', '1000'],
    ['1.5e-3', '0.0015'],
    ['12345678901234567890.123456789012345678', '12345678901234567890.123456789012345678'],
    ['007', '7'],
  ])('%s -> %s', (text, canonical) => {
    expect(formatDecimal(d(text))).toBe(canonical);
  });

  it.each(['', '-', '.', 'abc', '1.2.3', '1e', '1e99999', '1,5', ' 1', '0x10', 'NaN'])('refuses %j', (text) => {
    expect(parseDecimal(text)).toBeUndefined();
  });

  it('reads a double by its shortest text, not its binary expansion', () => {
    expect(formatDecimal(decimalFromNumber(0.1) as ExactDecimal)).toBe('0.1');
    expect(formatDecimal(decimalFromNumber(1e21) as ExactDecimal)).toBe('1000000000000000000000');
    expect(decimalFromNumber(NaN)).toBeUndefined();
    expect(decimalFromNumber(-Infinity)).toBeUndefined();
  });
});

describe('arithmetic', () => {
  it.each([
    ['add', '0.1', '0.2', '0.3'],
    ['add', '9007199254740993', '0.000000000000000001', '9007199254740993.000000000000000001'],
    ['sub', '0.3', '0.1', '0.2'],
    ['sub', '1', '1.000', '0'],
    ['mul', '0.1', '3', '0.3'],
    ['mul', '-1.5', '1.5', '-2.25'],
    ['div', '1', '3', '0.3333333333333333333333333333'],
    ['div', '2', '3', '0.6666666666666666666666666667'],
    ['div', '-2', '3', '-0.6666666666666666666666666667'],
    ['div', '10', '4', '2.5'],
    ['div', '0.1', '0.0001', '1000'],
    ['mod', '5.5', '2', '1.5'],
    ['mod', '-5.5', '2', '-1.5'],
    ['mod', '5.5', '-2', '1.5'],
  ] as const)('%s(%s, %s) = %s', (operation, a, b, expected) => {
    const operations = { add: addDecimal, sub: subtractDecimal, mul: multiplyDecimal, div: divideDecimal, mod: moduloDecimal };
    expect(formatDecimal(operations[operation](d(a), d(b)) as ExactDecimal)).toBe(expected);
  });

  it('has no quotient or remainder for a zero divisor', () => {
    expect(divideDecimal(d('1'), d('0.000'))).toBeUndefined();
    expect(moduloDecimal(d('1'), d('0'))).toBeUndefined();
  });

  it.each([
    ['2.5', '3', '2', '3'],
    ['-2.5', '-3', '-3', '-2'],
    ['2.4', '2', '2', '3'],
    ['-2.4', '-2', '-3', '-2'],
    ['7', '7', '7', '7'],
    ['0.5', '1', '0', '1'],
  ])('round/floor/ceiling(%s) = %s/%s/%s', (value, round, floor, ceiling) => {
    expect(formatDecimal(roundDecimal(d(value)))).toBe(round);
    expect(formatDecimal(floorDecimal(d(value)))).toBe(floor);
    expect(formatDecimal(ceilingDecimal(d(value)))).toBe(ceiling);
  });

  it.each([
    ['1', '1.000', 0],
    ['0.1', '0.09999999999999999999', 1],
    ['-1', '0', -1],
    ['9007199254740993', '9007199254740992', 1],
  ])('compare(%s, %s) = %i', (a, b, expected) => {
    expect(compareDecimal(d(a), d(b))).toBe(expected);
  });
});

describe('shortDecimalNumber (the double fast path of Decimal comparisons)', () => {
  it.each<[unknown, number | undefined]>([
    ['20', 20],
    ['-0.5', -0.5],
    ['+2.50', 2.5],
    ['.5', 0.5],
    ['5.', 5],
    ['123456789012345', 123456789012345],
    ['0.12345678901234', 0.12345678901234],
    ['1234567890123456', undefined], // 16 digits
    ['0.0000000000000001', undefined],
    ['1E3', undefined],
    ['1.2.3', undefined],
    ['-', undefined],
    ['.', undefined],
    ['', undefined],
    [' 1', undefined],
    ['0x10', undefined],
    [20, 20],
    [-999999999999999, -999999999999999],
    [1e15, undefined],
    [0.1, 0.1],
    [1e-7, undefined],
    [Number.NaN, undefined],
    [Number.POSITIVE_INFINITY, undefined],
    [null, undefined],
    [true, undefined],
  ])('%p -> %p', (value, expected) => {
    expect(shortDecimalNumber(value)).toBe(expected);
  });

  it('is the double Number() reads from the same text (the fast path adds no rounding of its own)', () => {
    const random = seededRandom(5);
    for (let i = 0; i < 20000; i++) {
      const length = 1 + Math.floor(random() * 15);
      let digits = '';
      for (let d = 0; d < length; d++) digits += String(Math.floor(random() * 10));
      const point = Math.floor(random() * (length + 1));
      const text = `${['', '-', '+'][Math.floor(random() * 3)]}${digits.slice(0, point)}${point < length || random() < 0.2 ? '.' : ''}${digits.slice(point)}`;
      expect([text, shortDecimalNumber(text)]).toEqual([text, Number(text)]);
    }
  });

  it('orders and equates every pair of short decimals as the exact comparison does', () => {
    const random = seededRandom(11);
    const digits = (count: number): string => Array.from({ length: count }, () => String(Math.floor(random() * 10))).join('');
    // Neighbours at the 15th digit are where a lossy conversion would merge or swap two values.
    const texts = ['0.1', '0.10000000000001', '0.09999999999999', '999999999999999', '99999999999999.9', '-0.30000000000000', '0.3', '-0', '0'];
    for (let i = 0; i < 400; i++) {
      const whole = digits(1 + Math.floor(random() * 8));
      const text = `${random() < 0.3 ? '-' : ''}${whole}.${digits(Math.max(0, 15 - whole.length - Math.floor(random() * 4)))}`;
      texts.push(text, text.slice(0, -1) + String((Number(text.slice(-1)) + 1) % 10));
    }
    for (let i = 0; i < texts.length; i++) {
      for (let j = i; j < Math.min(texts.length, i + 30); j++) {
        const a = shortDecimalNumber(texts[i]);
        const b = shortDecimalNumber(texts[j]);
        if (a === undefined || b === undefined) throw new Error(`not short: ${texts[i]} or ${texts[j]}`);
        expect([texts[i], texts[j], Math.sign(a - b) || 0]).toEqual([texts[i], texts[j], compareDecimal(d(texts[i]), d(texts[j]))]);
      }
    }
  });
});
