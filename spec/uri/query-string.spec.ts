import { findQueryOption, parseQueryString } from '../../lib/uri/query-string';
import { catchODataError } from './uri-fixtures';

describe('parseQueryString', () => {
  it.each<[string, [string, string][]]>([
    ['', []],
    ['?', []],
    ['$top=2', [['$top', '2']]],
    ['?$top=2', [['$top', '2']]],
    [
      '$top=2&$skip=3',
      [
        ['$top', '2'],
        ['$skip', '3'],
      ],
    ],
    // `+` is a space, `%2B` a plus.
    ['$filter=Name+eq+%27Milk%27', [['$filter', "Name eq 'Milk'"]]],
    ['$filter=Price%20gt%2020m', [['$filter', 'Price gt 20m']]],
    ["$filter=d+eq+datetimeoffset'2020-01-01T00:00:00%2B01:00'", [['$filter', "d eq datetimeoffset'2020-01-01T00:00:00+01:00'"]]],
    // `''` inside a string literal is kept for the literal parser.
    ["$filter=Name eq 'O''Neil'", [['$filter', "Name eq 'O''Neil'"]]],
    ['$filter=Name%20eq%20%27O%27%27Neil%27', [['$filter', "Name eq 'O''Neil'"]]],
    // The first `=` separates; later ones belong to the value.
    ['$filter=a eq b=c', [['$filter', 'a eq b=c']]],
    ['x=%3D%26', [['x', '=&']]],
    // Empty parts and empty names are skipped; a part without `=` has an empty value.
    [
      'a=1&&b=2&',
      [
        ['a', '1'],
        ['b', '2'],
      ],
    ],
    ['=x&a', [['a', '']]],
    ['flag', [['flag', '']]],
    ['a=', [['a', '']]],
    // Names are case-sensitive and decoded.
    [
      '$Filter=x&%24filter=y',
      [
        ['$Filter', 'x'],
        ['$filter', 'y'],
      ],
    ],
    [
      'sap-client=001&sap-language=EN',
      [
        ['sap-client', '001'],
        ['sap-language', 'EN'],
      ],
    ],
    // Repeated names are kept in order; deciding about duplicates is the caller's job.
    [
      'a=1&a=2',
      [
        ['a', '1'],
        ['a', '2'],
      ],
    ],
    ['name=%C3%A4%E2%82%AC', [['name', 'ä€']]],
  ])('%j', (raw, expected) => {
    expect(parseQueryString(raw)).toEqual(expected);
  });

  it.each<[string, string]>([
    ['$filter=%ZZ', "Bad percent-encoding in '$filter=%ZZ'."],
    ['a=1&b=%', "Bad percent-encoding in 'b=%'."],
    ['%E0%A4=1', "Bad percent-encoding in '%E0%A4=1'."],
    ['x=%C3%28', "Bad percent-encoding in 'x=%C3%28'."],
  ])('rejects %j', (raw, message) => {
    const error = catchODataError(() => parseQueryString(raw));
    expect([error.code, error.status, error.message]).toEqual(['URI_PERCENT_ENCODING', 400, message]);
  });
});

describe('findQueryOption', () => {
  it.each<[string, string | undefined]>([
    ['$format=json', 'json'],
    ['?$top=1&$format=json', 'json'],
    ['%24format=application%2Fjson', 'application/json'],
    ['$format=a+b', 'a b'],
    ['$format', ''],
    ['$format=json&$format=xml', 'json'],
    ['$formats=json', undefined],
    ['$Format=json', undefined],
    ['', undefined],
    // never fails: bad escapes elsewhere do not matter, its own make it unreadable
    ['$filter=%ZZ&$format=json', 'json'],
    ['$format=%ZZ', undefined],
  ])('$format in %j is %j', (raw, expected) => {
    expect(findQueryOption(raw, '$format')).toBe(expected);
  });
});
