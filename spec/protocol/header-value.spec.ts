/** Provider values bound for response headers: what HTTP can carry passes, the rest is a provider bug (TypeError). */
import { assertETagValue, assertHeaderValue, assertHeaderValues } from '../../lib/protocol';

describe('assertHeaderValue', () => {
  it.each(['W/"1"', 'image/png', 'text/plain; charset=utf-8', 'a\tb', 'caf\u00e9', ''])('accepts %j', (value) => {
    expect(() => assertHeaderValue('x', value)).not.toThrow();
  });

  it.each(['a\r\nX-Injected: 1', 'a\nb', 'a\u0000', '\u20ac', 'a\u007f'])('refuses %j', (value) => {
    expect(() => assertHeaderValue('etag', value)).toThrow(TypeError);
  });

  it('checks every value of a map', () => {
    expect(() => assertHeaderValues({ a: 'ok', b: 'bad\r\n' })).toThrow(
      'The response header \'b\' would carry "bad\\r\\n", which is not a valid HTTP field value.',
    );
  });
});

describe('assertETagValue', () => {
  it.each(['1', 'r42', 'abc!#$%', 'x\u0080', ''])('accepts %j (W/"" is a valid tag)', (value) => {
    expect(() => assertETagValue(value)).not.toThrow();
  });

  it.each(['a"b', 'a b', 'a\r\nb'])('refuses %j', (value) => {
    expect(() => assertETagValue(value)).toThrow(TypeError);
  });
});
