import { ERROR_CODES, ODataError, formatMessage, normalizeError } from '../../lib/errors';

describe('ODataError', () => {
  it('builds status, code and message from the catalogue', () => {
    const error = ODataError.fromCode('ENTITY_NOT_FOUND', { key: '(7)', entitySet: 'Products' });
    expect(error.status).toBe(404);
    expect(error.code).toBe('ENTITY_NOT_FOUND');
    expect(error.message).toBe("No entity with the key (7) exists in 'Products'.");
  });

  it('keeps the cause off the wire', () => {
    const cause = new Error('secret connection string');
    const error = ODataError.fromCode('INTERNAL', {}, { cause });
    expect(error.cause).toBe(cause);
    expect(JSON.stringify(error)).toBe('{"code":"INTERNAL","message":"An internal error occurred."}');
  });

  it('masks foreign errors as 500 INTERNAL', () => {
    const masked = normalizeError(new TypeError('x is undefined'));
    expect([masked.status, masked.code, masked.message]).toEqual([500, 'INTERNAL', 'An internal error occurred.']);
    const own = ODataError.fromCode('BAD_REQUEST', { detail: 'no' });
    expect(normalizeError(own)).toBe(own);
  });

  it('leaves unknown template holes visible', () => {
    expect(formatMessage('{a} and {b}', { a: 1 })).toBe('1 and {b}');
  });

  it('uses only 4xx and 5xx statuses in the catalogue', () => {
    for (const [code, definition] of Object.entries(ERROR_CODES)) {
      expect([code, definition.status >= 400 && definition.status < 600]).toEqual([code, true]);
    }
  });
});
