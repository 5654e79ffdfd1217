import { effectiveMethod } from '../../lib/protocol';
import { failureOf } from '../helpers/odata-error';

describe('effectiveMethod (X-HTTP-Method tunneling)', () => {
  it.each([
    ['GET', {}, 'GET'],
    ['post', {}, 'POST'],
    ['POST', { 'x-http-method': 'MERGE' }, 'MERGE'],
    ['POST', { 'x-http-method': ' put ' }, 'PUT'],
    ['POST', { 'x-http-method-override': 'PATCH' }, 'PATCH'],
    ['POST', { 'x-http-method': 'DELETE', 'x-http-method-override': 'delete' }, 'DELETE'],
  ])('%s with %j is %s', (method, headers, expected) => {
    expect(effectiveMethod(method, headers)).toBe(expected);
  });

  it.each([
    ['PUT', { 'x-http-method': 'MERGE' }, 'X-HTTP-Method is only allowed on POST requests, not on PUT.'],
    ['POST', { 'x-http-method': 'GET' }, "X-HTTP-Method 'GET' is not one of PUT, MERGE, PATCH, DELETE."],
    ['POST', { 'x-http-method': '' }, "X-HTTP-Method '' is not one of PUT, MERGE, PATCH, DELETE."],
    ['POST', { 'x-http-method': 'PUT', 'x-http-method-override': 'DELETE' }, "X-HTTP-Method 'PUT' and X-HTTP-Method-Override 'DELETE' disagree."],
  ])('refuses %s with %j', (method, headers, message) => {
    expect(failureOf(() => effectiveMethod(method, headers))).toEqual(['TUNNELING_INVALID', 400, message]);
  });
});
