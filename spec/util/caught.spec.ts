/**
 * describeCaught, caughtProperty, ownDataProperty, ownDataKeys and isInstanceOf: total over
 * anything that can be thrown (each hostile value of spec/helpers/hostile-values.ts), and exact
 * for the ordinary errors they are mostly given.
 */
import { ODataError, isODataError, normalizeError } from '../../lib/errors';
import { caughtProperty, describeCaught, isInstanceOf, ownDataKeys, ownDataProperty } from '../../lib/util';
import { HOSTILE_VALUES } from '../helpers/hostile-values';

describe('every helper is total over hostile values', () => {
  it.each(HOSTILE_VALUES)('%s: nothing throws', (_, make) => {
    const value = make();
    const described = describeCaught(value);
    expect(typeof described.name).toBe('string');
    expect(typeof described.summary).toBe('string');
    expect(() => caughtProperty(value, 'message')).not.toThrow();
    expect(() => ownDataProperty(value, 'message')).not.toThrow();
    expect(() => ownDataKeys(value)).not.toThrow();
    expect(isInstanceOf(value, Error)).toBe(isInstanceOf(value, Error));
    expect(() => isODataError(value)).not.toThrow();
    expect(() => normalizeError(value)).not.toThrow();
  });
});

describe('describeCaught', () => {
  const cause = new Error('the cause');
  const withCode = Object.assign(new Error('connection refused'), { code: 'ECONNREFUSED', cause });
  const aggregate = new AggregateError([withCode, new Error('second')], 'every address failed');

  it.each<[string, unknown, Partial<ReturnType<typeof describeCaught>>]>([
    ['an Error', new TypeError('boom'), { name: 'TypeError', message: 'boom', code: undefined, summary: 'TypeError: boom' }],
    [
      'an Error with a code and a cause',
      withCode,
      { name: 'Error', message: 'connection refused', code: 'ECONNREFUSED', cause, summary: 'Error: connection refused' },
    ],
    ['an AggregateError', aggregate, { name: 'AggregateError', errors: [withCode, aggregate.errors[1]], summary: 'AggregateError: every address failed' }],
    [
      'an error-like object',
      { name: 'DriverError', message: 'x', code: '57P01' },
      { name: 'DriverError', message: 'x', code: '57P01', summary: 'DriverError: x' },
    ],
    ['an object with a numeric code', { code: 42 }, { name: 'object', message: undefined, code: undefined, summary: 'object' }],
    ['a string', 'plain text', { name: 'string', message: 'plain text', summary: 'string: plain text' }],
    ['a symbol', Symbol('s'), { name: 'symbol', message: 'Symbol(s)', summary: 'symbol: Symbol(s)' }],
    ['a bigint', 12n, { name: 'bigint', message: '12', summary: 'bigint: 12' }],
    ['null', null, { name: 'null', message: undefined, summary: 'null' }],
    ['undefined', undefined, { name: 'undefined', message: undefined, summary: 'undefined' }],
    [
      'a Proxy whose every trap throws',
      HOSTILE_VALUES[0][1](),
      { name: 'object', message: undefined, code: undefined, stack: undefined, cause: undefined, errors: [], summary: 'object' },
    ],
    ['a revoked Proxy', HOSTILE_VALUES[3][1](), { name: 'object', message: undefined, errors: [], summary: 'object' }],
    ['a function', function named() {}, { name: 'named', summary: 'named' }],
  ])('describes %s', (_, value, expected) => {
    expect(describeCaught(value)).toMatchObject(expected);
  });

  it('gives the stack of an error', () => {
    expect(describeCaught(new Error('x')).stack).toMatch(/^Error: x\n\s+at /);
  });
});

describe('isInstanceOf', () => {
  it.each<[string, unknown, abstract new (...args: never[]) => unknown, boolean]>([
    ['an instance', new ODataError(400, 'X', 'y'), ODataError, true],
    ['an instance of a subclass', new TypeError('x'), Error, true],
    ['an instance of another class', new Error('x'), ODataError, false],
    ['a Proxy of an instance (its getPrototypeOf is never asked)', new Proxy(new ODataError(400, 'X', 'y'), {}), ODataError, false],
    ['an object whose prototype chain holds a throwing Proxy', Object.create(HOSTILE_VALUES[0][1]() as object) as unknown, ODataError, false],
    ['a primitive', 'ODataError', ODataError, false],
  ])('%s', (_, value, Class, expected) => {
    expect(isInstanceOf(value, Class)).toBe(expected);
  });
});

describe('ownDataProperty and ownDataKeys', () => {
  it('read data properties, never a getter, never a Proxy', () => {
    let called = 0;
    const object = Object.defineProperties({ plain: 1 }, { computed: { get: () => ++called, enumerable: true } });
    expect([ownDataProperty(object, 'plain'), ownDataProperty(object, 'computed'), ownDataProperty(object, 'missing'), called]).toEqual([
      1,
      undefined,
      undefined,
      0,
    ]);
    expect(ownDataKeys(object)).toEqual(['plain', 'computed']);
    expect([ownDataProperty(new Proxy({ plain: 1 }, {}), 'plain'), ownDataKeys(new Proxy({ plain: 1 }, {}))]).toEqual([undefined, undefined]);
  });
});

describe('isODataError and normalizeError on tampered values', () => {
  it.each(HOSTILE_VALUES)('%s: a 500 INTERNAL whose message is the fixed one', (_, make) => {
    const value = make();
    expect(isODataError(value) && normalizeError(value) === value).toBe(false);
    const masked = normalizeError(value);
    expect([masked.status, masked.code, masked.message]).toEqual([500, 'INTERNAL', 'An internal error occurred.']);
    expect(masked.headers).toEqual({});
  });

  it('keeps a sound ODataError as it is, details and headers included', () => {
    const error = ODataError.fromCode(
      'FORBIDDEN',
      { detail: 'no' },
      { headers: { 'x-a': 'b' }, details: [{ code: 'C', message: 'm', target: 't', severity: 'error' }] },
    );
    expect(normalizeError(error)).toBe(error);
  });

  it.each<[string, (error: ODataError) => void]>([
    ['a status outside 400-599', (error) => Object.assign(error, { status: 200 })],
    ['a code that is not a string', (error) => Object.assign(error, { code: 7 })],
    ['a header value that is not a string', (error) => Object.assign(error, { headers: { 'x-a': 1 } })],
    ['details that are not a list of details', (error) => Object.assign(error, { details: [{ code: 'C' }] })],
    ['a getter for the message', (error) => Object.defineProperty(error, 'message', { get: () => 'changing' })],
    ['a getter for the target, however harmless its first answer', (error) => Object.defineProperty(error, 'target', { get: () => undefined })],
    [
      'a detail whose severity is a getter',
      (error) => Object.assign(error, { details: [Object.defineProperty({ code: 'C', message: 'm' }, 'severity', { get: () => 'error', enumerable: true })] }),
    ],
    ['a Proxy for a detail', (error) => Object.assign(error, { details: [new Proxy({ code: 'C', message: 'm' }, {})] })],
  ])('masks an ODataError with %s', (_, tamper) => {
    const error = ODataError.fromCode('FORBIDDEN', { detail: 'no' });
    tamper(error);
    expect(normalizeError(error).code).toBe('INTERNAL');
  });
});
