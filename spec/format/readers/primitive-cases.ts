/**
 * One table for every EDM primitive type, shared by the Atom and JSON entry specs: the Atom text,
 * the verbose JSON value(s) real clients send, and the value in its JS representation (primitives.ts).
 */

/** [property of WriteTest.Item, m:type, Atom text, JSON forms, expected (binary as { binary: base64 })]. */
export const PRIMITIVE_CASES: readonly (readonly [string, string, string, readonly unknown[], unknown])[] = [
  ['PBinary', 'Edm.Binary', 'AQID/w==', ['AQID/w=='], { binary: 'AQID/w==' }],
  ['PBoolean', 'Edm.Boolean', 'true', [true], true],
  ['PBoolean', 'Edm.Boolean', 'false', [false], false],
  ['PByte', 'Edm.Byte', '255', [255], 255],
  ['PSByte', 'Edm.SByte', '-128', [-128], -128],
  ['PInt16', 'Edm.Int16', '-32768', [-32768], -32768],
  ['PInt32', 'Edm.Int32', '2147483647', [2147483647], 2147483647],
  // Int64 as SAPUI5 / SAP Cloud SDK send it (a string), and as datajs may (a safe number).
  ['PInt64', 'Edm.Int64', '9223372036854775807', ['9223372036854775807'], '9223372036854775807'],
  ['PInt64', 'Edm.Int64', '-42', ['-42', -42], '-42'],
  ['PDecimal', 'Edm.Decimal', '12345678.50', ['12345678.50'], '12345678.5'],
  ['PDecimal', 'Edm.Decimal', '-0.25', ['-0.25', -0.25], '-0.25'],
  ['PDouble', 'Edm.Double', '1.5E+10', [1.5e10], 15000000000],
  ['PDouble', 'Edm.Double', '-0.5', [-0.5], -0.5],
  ['PSingle', 'Edm.Single', '1.5', [1.5], 1.5],
  ['PDateTime', 'Edm.DateTime', '2010-01-02T03:04:05', ['/Date(1262401445000)/', '2010-01-02T03:04:05'], new Date(Date.UTC(2010, 0, 2, 3, 4, 5))],
  ['PDateTime', 'Edm.DateTime', '2010-01-02T03:04:05.123', ['/Date(1262401445123)/'], new Date(Date.UTC(2010, 0, 2, 3, 4, 5, 123))],
  [
    'PDateTimeOffset',
    'Edm.DateTimeOffset',
    '2010-01-02T03:04:05+01:00',
    ['/Date(1262397845000+0060)/', '2010-01-02T03:04:05+01:00'],
    new Date(Date.UTC(2010, 0, 2, 2, 4, 5)),
  ],
  ['PDateTimeOffset', 'Edm.DateTimeOffset', '2010-01-02T03:04:05Z', ['/Date(1262401445000)/'], new Date(Date.UTC(2010, 0, 2, 3, 4, 5))],
  ['PTime', 'Edm.Time', 'PT13H20M', ['PT13H20M'], 'PT13H20M'],
  ['PGuid', 'Edm.Guid', '0123ABCD-89AB-CDEF-0123-456789ABCDEF', ['0123abcd-89ab-cdef-0123-456789abcdef'], '0123abcd-89ab-cdef-0123-456789abcdef'],
  ['PString', 'Edm.String', 'héllo 𝄞', ['héllo 𝄞'], 'héllo 𝄞'],
  ['PString', 'Edm.String', '  spaced  ', ['  spaced  '], '  spaced  '],
];

/** [property, Atom text (null: every text is valid), JSON value]: values that are not of the property's type. */
export const BAD_VALUE_CASES: readonly (readonly [string, string | null, unknown])[] = [
  ['PBinary', '***', 12],
  ['PBoolean', 'yes', 1],
  ['PByte', '256', 256],
  ['PSByte', '-129', -129],
  ['PInt16', '40000', 40000],
  ['PInt32', '1.5', 1.5],
  ['PInt64', '9223372036854775808', '9223372036854775808'],
  ['PDecimal', '1.2.3', true],
  ['PDouble', 'abc', 'abc'],
  ['PSingle', '1e39', 'x'],
  ['PDateTime', 'yesterday', '/Date(x)/'],
  ['PDateTimeOffset', 'soon', '/Date(1x)/'],
  ['PTime', 'noon', 'noon'],
  ['PGuid', 'not-a-guid', 'not-a-guid'],
  ['PString', null, 42],
];
