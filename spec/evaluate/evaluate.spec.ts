/**
 * The evaluator's semantics: every operator and function, null propagation, exact Int64 and
 * Decimal, .NET integer division, navigation, complex values, dynamic properties, isof/cast.
 */
import type { EdmEntityType, EdmNavigationProperty } from '../../lib/edm/model';
import { compileExpression, compileFilter, evaluate, type NavigationAccess } from '../../lib/evaluate/evaluate';
import type { Entity } from '../../lib/provider/types';
import { checkExpression, checkFilter, parseExpression } from '../../lib/uri/expr';
import { catchODataError, Item, Person, SpecialItem, testModel } from '../uri/expr/support';

const ann: Entity = { ID: 7, Name: 'Ann', Nickname: 'annie' };
const bob: Entity = { ID: 8, Name: 'Bob' };

const ITEMS: readonly Entity[] = [
  {
    ID: 1,
    Binary: new Uint8Array([1, 2]),
    Boolean: true,
    Byte: 200,
    SByte: -5,
    Int16: 300,
    Int32: 10,
    Int64: '9007199254740993',
    Decimal: '0.2',
    Single: 2.5,
    Double: 1.5,
    DateTime: new Date('2020-02-29T13:45:30.250Z'),
    DateTimeOffset: new Date('2020-03-01T00:00:00Z'),
    Time: 'PT13H20M15S',
    Guid: '01234567-89ab-cdef-0123-456789abcdef',
    String: 'Alpha',
    Address: { Street: 'Main 1', City: 'Berlin', Geo: { Lat: 52.5, Lon: 13.4 } },
    Owner: ann,
  },
  {
    ID: 2,
    Binary: null,
    Boolean: null,
    Byte: null,
    SByte: null,
    Int16: null,
    Int32: null,
    Int64: null,
    Decimal: null,
    Single: null,
    Double: null,
    DateTime: null,
    DateTimeOffset: null,
    Time: null,
    Guid: null,
    String: null,
    Address: { Street: null, City: null, Geo: { Lat: null, Lon: null } },
    Owner: null,
  },
  {
    ID: 3,
    Binary: new Uint8Array([1]),
    Boolean: false,
    Byte: 0,
    SByte: 127,
    Int16: -300,
    Int32: -7,
    Int64: '9007199254740992',
    Decimal: '-12.345',
    Single: -1,
    Double: -0.5,
    DateTime: new Date('1999-12-31T23:59:59Z'),
    DateTimeOffset: new Date('1999-12-31T23:00:00Z'),
    Time: 'PT1H',
    Guid: 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
    String: 'beta',
    Address: { Street: 'Side 2', City: 'Paris', Geo: { Lat: 48.8, Lon: 2.3 } },
    Owner: bob,
  },
  {
    ID: 4,
    Binary: new Uint8Array([]),
    Boolean: false,
    Byte: 1,
    SByte: 0,
    Int16: 0,
    Int32: 0,
    Int64: '-1',
    Decimal: '100',
    Single: 0,
    Double: NaN,
    DateTime: new Date('2020-01-01T00:00:00Z'),
    DateTimeOffset: new Date('2020-01-01T00:00:00Z'),
    Time: 'P1DT2H',
    Guid: null,
    String: '  Spaced  ',
    Address: { Street: null, City: 'Rome', Geo: { Lat: 41.9, Lon: 12.5 } },
    Owner: null,
    Extra: 'x',
    Bonus: 5,
  },
];

const PEOPLE: readonly Entity[] = [
  {
    ID: 1,
    Name: 'Ann',
    Age: 30,
    Score: '12.50',
    Nickname: 'a',
    Flag: true,
    Born: new Date('1990-05-01T00:00:00Z'),
    Token: '01234567-89ab-cdef-0123-456789abcdef',
    Span: 'PT1H',
    Big: '9007199254740993',
  },
  { ID: 2, Name: 'Bob', Age: 41.5, Score: null, Flag: false },
  { ID: 3, Name: 'Cy', Age: '30', Nickname: null },
];

function ids(text: string, type: EdmEntityType = Item, data: readonly Entity[] = type === Person ? PEOPLE : ITEMS, access?: NavigationAccess): unknown[] {
  const predicate = compileFilter(checkFilter(parseExpression(text), type, testModel), access);
  return data.filter(predicate).map((entity) => entity.ID);
}

function value(text: string, entity: Entity = ITEMS[0]): unknown {
  return evaluate(checkExpression(parseExpression(text), Item, testModel), entity);
}

describe('comparison and null semantics', () => {
  it.each([
    ['Int32 gt 0', [1]],
    ['Int32 ge 0', [1, 4]],
    ['Int32 lt 0', [3]],
    ['Int32 le 0', [3, 4]],
    ['Int32 eq 10', [1]],
    ['Int32 ne 10', [2, 3, 4]],
    ['Int32 eq null', [2]],
    ['null eq Int32', [2]],
    ['Int32 ne null', [1, 3, 4]],
    ['Int32 gt null', []],
    ['null lt Int32', []],
    ['Int32 ge null', []],
    ['null eq null', [1, 2, 3, 4]],
    ['null ne null', []],
    ['not (Int32 gt null)', [1, 2, 3, 4]],
    ['Int32 add null eq null', [1, 2, 3, 4]],
    ['Int32 add 1 eq null', [2]],
    ['Int32 add 1 gt 0', [1, 4]],
    ['Boolean', [1]],
    ['not Boolean', [3, 4]],
    ['Boolean eq false', [3, 4]],
    ['Boolean eq null', [2]],
    ['Boolean or Int32 eq 0', [1, 4]],
    ['Boolean and null', []],
    ['Boolean or null', [1]],
    ['not (Boolean and null)', [3, 4]],
    ['not (Boolean or null)', []],
    ["substringof('a', String) eq null", [2]],
    ['length(String) eq null', [2]],
  ])('%s -> %j', (text, expected) => {
    expect(ids(text)).toEqual(expected);
  });
});

describe('numbers', () => {
  it.each([
    // Decimal is exact, and a double literal met by a Decimal is read from its digits (WCF).
    ['Decimal add 0.1M eq 0.3M', [1]],
    ['Decimal add 0.1 eq 0.3', [1]],
    ['Decimal mul 3 eq 0.6', [1]],
    ['Decimal eq 0.20M', [1]],
    ['Decimal gt 0.1', [1, 4]],
    ['Decimal lt -12.3', [3]],
    ['Decimal div 3M eq 0.0666666666666666666666666667M', [1]],
    ['Decimal mod 0.15M eq 0.05M', [1]],
    ['-Decimal eq 12.345', [3]],
    ['Decimal sub Int32 eq 100', [4]],
    // Short values compare as doubles (the fast path); one side past 15 digits takes the exact path.
    ['Decimal gt 0.19999999999999999999M', [1, 4]],
    ['Decimal lt 0.20000000000000000001M', [1, 3]],
    ['Decimal eq 0.200000000000000000000M', [1]],
    ['Decimal ge 0.2M and Decimal le 100', [1, 4]],
    ['Decimal ne 100.0M', [1, 2, 3]], // null ne 100 is true: null equals only null
    ['Decimal eq null', [2]],
    ['Decimal gt -12.3451', [1, 3, 4]],
    // Int64 is exact past 2^53.
    ['Int64 eq 9007199254740993L', [1]],
    ['Int64 gt 9007199254740992L', [1]],
    ['Int64 eq 9007199254740992', [3]],
    ['Int64 add 1L eq 9007199254740994L', [1]],
    ['Int64 mul 2L eq 18014398509481986L', [1]],
    ['Int64 lt 0', [4]],
    ['Int64 add 9223372036854775807L lt 0L', [1, 3]],
    // MS-ODATA promotes Int64 with Double to Double: both values then round to 2^53.
    ['Int64 eq 9007199254740993.0', [1, 3]],
    // Integer division truncates toward zero; mod keeps the dividend's sign (.NET).
    ['Int32 div 3 eq 3', [1]],
    ['Int32 div 2 eq -3', [3]],
    ['Int32 mod 3 eq -1', [3]],
    ['Int32 mod 3 eq 1', [1]],
    ['Int32 div 4.0 eq 2.5', [1]],
    ['Byte add Byte eq 400', [1]],
    ['SByte add Int16 eq 295', [1]],
    ['-Int32 eq -10', [1]],
    ['Single mul 2 eq 5', [1]],
    // Doubles follow IEEE 754: x div 0 is infinite, NaN equals nothing.
    ['Double div 0 eq INF', [1]],
    ['Double div 0 eq -INF', [3]],
    ['Double eq NaN', []],
    ['Double ne NaN', [1, 2, 3, 4]],
    ['Double lt 0', [3]],
    ['Double gt 1', [1]],
  ])('%s -> %j', (text, expected) => {
    expect(ids(text)).toEqual(expected);
  });

  it.each([
    ['1 add 2 mul 3', 7],
    ['7 div 2', 3],
    ['-7 div 2', -3],
    ['-7 mod 2', -1],
    ['7 mod -2', 1],
    ['7.5 div 2', 3.75],
    ['2147483647 add 1', -2147483648],
    ['-2147483648 sub 1', 2147483647],
    ['65536 mul 65536', 0],
    ['Int64 add 1L', '9007199254740994'],
    ['9223372036854775807L add 1L', '-9223372036854775808'],
    ['-9223372036854775808L div -1L', '-9223372036854775808'],
    ['-7L div 2L', '-3'],
    ['-7L mod 2L', '-1'],
    ['1M div 3M', '0.3333333333333333333333333333'],
    ['2M div 3', '0.6666666666666666666666666667'],
    ['Decimal add 0.1M', '0.3'],
    ['5.5M mod 2M', '1.5'],
    ['Int32 add Decimal', '10.2'],
    ['Byte add Byte', 400],
    ['Single mul 3', 7.5],
    ['-Decimal', '-0.2'],
    ['- 5', -5],
    ['-Int64', '-9007199254740993'],
    ['Double add Decimal', 1.7],
  ])('%s = %j', (text, expected) => {
    expect(value(text)).toEqual(expected);
  });

  it.each([
    ['Int32 div 0 eq 1', "Division by zero while evaluating 'Int32 div 0'."],
    ['Int32 mod 0 eq 1', "'Int32 mod 0'"],
    ['Int64 div 0L eq 1', "'Int64 div 0L'"],
    ['Decimal div 0M eq 1', "'Decimal div 0M'"],
    ['Decimal mod 0.0M eq 1', "'Decimal mod 0.0M'"],
  ])('%s -> 400 FILTER_DIVISION_BY_ZERO', (text, fragment) => {
    const error = catchODataError(() => ids(text));
    expect([error.code, error.status]).toEqual(['FILTER_DIVISION_BY_ZERO', 400]);
    expect(error.message).toContain(fragment);
  });

  it('does not divide when an operand is null', () => {
    expect(ids('Int32 div 0 eq 1', Item, [ITEMS[1]])).toEqual([]);
  });
});

describe('strings, dates, times and other types', () => {
  it.each([
    ["String eq 'Alpha'", [1]],
    ["String gt 'B'", [3]],
    ["String lt 'a'", [1, 4]],
    ["substringof('ph', String)", [1]],
    ["substringof('e', String)", [3, 4]],
    ["startswith(String, 'A')", [1]],
    ["endswith(String, 'ta')", [3]],
    ['length(String) eq 4', [3]],
    ["indexof(String, 'l') eq 1", [1]],
    ["indexof(String, 'z') eq -1", [1, 3, 4]],
    ["tolower(String) eq 'alpha'", [1]],
    ["toupper(String) eq 'BETA'", [3]],
    ["trim(String) eq 'Spaced'", [4]],
    ["concat(String, '!') eq 'beta!'", [3]],
    ["replace(String, 'a', 'o') eq 'beto'", [3]],
    ["substring(String, 1) eq 'lpha'", [1]],
    ["substring(String, 1, 2) eq 'et'", [3]],
    ['year(DateTime) eq 2020', [1, 4]],
    ['month(DateTime) eq 2', [1]],
    ['day(DateTime) eq 29', [1]],
    ['hour(DateTime) eq 13', [1]],
    ['hour(DateTime) eq 23', [3]],
    ['minute(DateTime) eq 45', [1]],
    ['second(DateTime) eq 30', [1]],
    ['year(DateTimeOffset) eq 1999', [3]],
    ["DateTime lt datetime'2000-01-01T00:00'", [3]],
    ["DateTime ge datetimeoffset'2020-01-01T01:00:00+01:00'", [1, 4]],
    ["DateTime eq datetime'2020-02-29T13:45:30.25'", [1]],
    ['DateTime gt DateTimeOffset', [3]],
    ['DateTime eq DateTimeOffset', [2, 4]],
    ['hour(Time) eq 13', [1]],
    ['minute(Time) eq 20', [1]],
    ['second(Time) eq 15', [1]],
    ['hour(Time) eq 2', [4]],
    ["Time gt time'PT2H'", [1, 4]],
    ["Time eq time'PT60M'", [3]],
    ['round(Decimal) eq 0', [1]],
    ['round(Decimal) eq -12', [3]],
    ['floor(Decimal) eq -13', [3]],
    ['ceiling(Decimal) eq 1', [1]],
    ['round(Double) eq 2', [1]],
    ['round(Double) eq -1', [3]],
    ['floor(Double) eq 1', [1]],
    ['ceiling(Double) eq 0', [3]],
    ["Guid eq guid'01234567-89ab-cdef-0123-456789abcdef'", [1]],
    ["Guid eq guid'ffffffff-ffff-ffff-ffff-ffffffffffff'", [3]],
    ["Binary eq X'0102'", [1]],
    ["Binary ne X'01'", [1, 2, 4]],
    ["Address/City eq 'Berlin'", [1]],
    ['Address/Geo/Lat gt 50', [1]],
    ['Address/City eq null', [2]],
    ['Address/Street eq null', [2, 4]],
  ])('%s -> %j', (text, expected) => {
    expect(ids(text)).toEqual(expected);
  });

  it.each([
    ["substring('hello', 1)", 'ello'],
    ["substring('hello', 1, 3)", 'ell'],
    ["substring('hello', 10)", ''],
    ["substring('hello', -2)", 'hello'],
    ["substring('hello', 2, 10)", 'llo'],
    ["substring('hello', 2, -1)", ''],
    ["indexof('hello', 'l')", 2],
    ["indexof('hello', 'z')", -1],
    ["indexof('hello', '')", 0],
    ["replace('a-b-c', '-', '+')", 'a+b+c'],
    ["replace('abc', '', 'x')", 'abc'],
    ["tolower('ÄbC')", 'äbc'],
    ["toupper('straße')", 'STRASSE'],
    ["trim('\t a b  ')", 'a b'],
    ["concat('a', concat('b', 'c'))", 'abc'],
    ["length('héllo')", 5],
    ["length('')", 0],
    ["substringof('ell', 'hello')", true],
    ["substringof('', 'hello')", true],
    ["startswith('hello', 'he')", true],
    ["endswith('hello', 'lo')", true],
    ["endswith('hello', 'x')", false],
    ["year(datetime'1999-12-31T23:59:59')", 1999],
    ["hour(datetimeoffset'2000-01-01T10:00:00+02:00')", 8],
    ["minute(time'PT13H20M')", 20],
    ['round(2.5M)', '3'],
    ['round(-2.5M)', '-3'],
    ['round(2.4M)', '2'],
    ['floor(-1.5M)', '-2'],
    ['ceiling(-1.5M)', '-1'],
    ['ceiling(1.2M)', '2'],
    ['round(2.5)', 3],
    ['round(-2.5)', -3],
    ['floor(1.7)', 1],
    ['ceiling(1.2)', 2],
    ['round(Int32)', '10'],
    ['round(Decimal)', '0'],
    ['floor(Single)', 2],
    ['round(INF)', Infinity],
  ])('%s = %j', (text, expected) => {
    expect(value(text)).toEqual(expected);
  });

  it.each([
    'length(String)',
    "concat(String, 'x')",
    'year(DateTime)',
    'hour(Time)',
    'round(Decimal)',
    'Int32 add 1',
    '-Int32',
    'substring(String, 1)',
    "substring('abc', Int32)",
    "cast(Int32, 'Edm.Decimal')",
    'Address/Geo/Lat',
    'Owner/Name',
  ])('%s is null when its input is null', (text) => {
    expect(value(text, ITEMS[1])).toBeNull();
  });
});

describe('navigation, inheritance and type functions', () => {
  it.each([
    ["Owner/Name eq 'Ann'", [1]],
    ['Owner eq null', [2, 4]],
    ['Owner ne null', [1, 3]],
    ["Owner/Name ne 'Ann'", [2, 3, 4]],
    ["Owner/Nickname eq 'annie'", [1]],
    ['Owner/Nickname eq null', [2, 3, 4]],
    ["isof('ExprTest.SpecialItem')", [4]],
    ["isof('ExprTest.Item')", [1, 2, 3, 4]],
    ["cast('ExprTest.SpecialItem')/Bonus eq 5", [4]],
    ["cast('ExprTest.SpecialItem') eq null", [1, 2, 3]],
    ["isof(Int32, 'Edm.Int32')", [1, 3, 4]],
    ["isof(Int32, 'Edm.Int64')", []],
    ["isof(Owner, 'ExprTest.Person')", [1, 3]],
    // Types outside the subject's hierarchy: no entity is of them, whatever properties it has.
    ["isof('ExprTest.Person')", []],
    ["isof('ExprTest.Tag')", []],
    ["not isof('ExprTest.Tag')", [1, 2, 3, 4]],
    ["isof(Owner, 'ExprTest.Tag')", []],
    ["cast('ExprTest.Person') eq null", [1, 2, 3, 4]],
    ["cast('ExprTest.Person')/Name eq 'Ann'", []],
    ["cast(Int32, 'Edm.Decimal') eq 10M", [1]],
    ["cast(Double, 'Edm.Int32') eq 1", [1]],
    ["cast(Double, 'Edm.Int32') eq 0", [3]],
    ["cast(Int16, 'Edm.Byte') eq null", [1, 2, 3]],
    ["cast(Int64, 'Edm.Int32') eq -1", [4]],
    ["cast(Int64, 'Edm.Decimal') eq 9007199254740993M", [1]],
    ["cast(DateTime, 'Edm.DateTimeOffset') lt datetimeoffset'2000-01-01T00:00:00Z'", [3]],
  ])('%s -> %j', (text, expected) => {
    expect(ids(text)).toEqual(expected);
  });

  it.each([
    ["cast(Double, 'Edm.Single')", 1.5],
    ["cast(Int32, 'Edm.Int64')", '10'],
    ["cast(Int32, 'Edm.Double')", 10],
    ["cast(2.5M, 'Edm.Double')", 2.5],
    ["cast(-0.5, 'Edm.Int32')", 0],
    ["cast(300, 'Edm.Byte')", null],
    ["cast(INF, 'Edm.Int32')", null],
    ["cast(0.1, 'Edm.Decimal')", '0.1'],
    ["cast(String, 'Edm.String')", 'Alpha'],
  ])('%s = %j', (text, expected) => {
    expect(value(text)).toEqual(expected);
  });

  it('resolves navigation through the given NavigationAccess', () => {
    const owners = new Map<unknown, Entity>([[3, ann]]);
    const calls: string[] = [];
    const access: NavigationAccess = (entity: Entity, property: EdmNavigationProperty) => {
      calls.push(`${String(entity.ID)}.${property.name}`);
      return owners.get(entity.ID);
    };
    expect(ids("Owner/Name eq 'Ann'", Item, ITEMS, access)).toEqual([3]);
    expect(calls).toEqual(['1.Owner', '2.Owner', '3.Owner', '4.Owner']);
  });

  it('asks typeOf for the type of an entity when given', () => {
    const filter = checkFilter(parseExpression("isof('ExprTest.SpecialItem')"), Item, testModel);
    const predicate = compileFilter(filter, { typeOf: (entity) => (entity.ID === 1 ? SpecialItem : entity.ID === 2 ? Item : undefined) });
    // 1 is declared special; 2 is declared plain; 3 and 4 fall back to their properties.
    expect(ITEMS.filter(predicate).map((entity) => entity.ID)).toEqual([1, 4]);
  });

  it('gives null (not an error) for a path through a missing or primitive value', () => {
    const broken: Entity = { ID: 9, Address: 'not an object' };
    expect(value('Address/City', broken)).toBeNull();
    expect(value('Address/Geo/Lat', { ID: 10 })).toBeNull();
  });
});

describe('dynamic properties of an open type', () => {
  it.each([
    ['Age gt 29', [1, 2, 3]],
    ['Age lt 35', [1, 3]],
    ['Age eq 30', [1, 3]],
    ['Score eq 12.5M', [1]],
    ['Score gt 12', [1]],
    ["Nickname eq 'a'", [1]],
    ['Nickname eq null', [2, 3]],
    ['Flag', [1]],
    ['not Flag', [2]],
    ['Flag eq true', [1]],
    ['constructor eq null', [1, 2, 3]],
    ['toString eq null', [1, 2, 3]],
    ['__proto__ eq null', [1, 2, 3]],
    ['Age add 1 eq 31', [1, 3]],
    ["Age eq 'x'", []],
    ["Age ne 'x'", [1, 2, 3]],
    ["Age gt 'x'", []],
    ["Born lt datetime'2000-01-01T00:00'", [1]],
    ["isof(Age, 'Edm.Int32')", [1]],
    ["isof(Age, 'Edm.Double')", [2]],
    ["isof(Score, 'Edm.Decimal')", [1]],
    ["cast(Age, 'Edm.Int32') eq 41", [2]],
    ['-Age eq -30', [1]],
    ['Age add Flag eq 1', []],
    ["Name eq 'Ann' and Missing eq null", [1]],
    ["Token eq guid'01234567-89AB-CDEF-0123-456789ABCDEF'", [1]],
    ["Span lt time'PT2H'", [1]],
    ["Span gt time'PT2H'", []],
    ['Big eq 9007199254740993L', [1]],
    ['Big gt 9007199254740992L', [1]],
    ["Born lt datetimeoffset'2000-01-01T00:00:00Z'", [1]],
  ])('%s -> %j', (text, expected) => {
    expect(ids(text, Person)).toEqual(expected);
  });
});

describe('untyped trees and evaluate()', () => {
  it('evaluates a parsed tree without type checking by reading values', () => {
    const predicate = compileFilter(parseExpression("Int32 gt 5 and substringof('lph', String)"));
    expect(ITEMS.filter(predicate).map((entity) => entity.ID)).toEqual([1]);
  });

  it('returns primitives and null for entities and complex values', () => {
    const owner = checkFilter(parseExpression('Owner ne null'), Item, testModel);
    expect(owner.kind === 'Binary' && evaluate(owner.left, ITEMS[0])).toBeNull();
    expect(compileExpression(owner.kind === 'Binary' ? owner.left : owner)(ITEMS[0])).toBe(ann);
    expect(value('Decimal')).toBe('0.2');
  });

  it('compiles once: the closure reads no AST', () => {
    const tree = checkFilter(parseExpression('Int32 gt 5'), Item, testModel);
    const predicate = compileFilter(tree);
    // Poison the tree: a compiled predicate must not look at it again.
    Object.defineProperty(tree, 'operator', {
      get: () => {
        throw new Error('AST read at run time');
      },
    });
    expect(ITEMS.filter(predicate).map((entity) => entity.ID)).toEqual([1]);
  });
});
