/**
 * The type checker: member resolution (declared, inherited, complex, navigation, dynamic), numeric
 * promotion (including WCF's exact reading of `20.5` against a Decimal), function overloads,
 * isof/cast, and every type error with its code, position and message.
 */
import { checkExpression, checkFilter, describeType, parseExpression, printBraced, walkExpression } from '../../../lib/uri/expr';
import type { ExprNode, LiteralNode, MemberNode } from '../../../lib/uri/expr/ast';
import type { EdmEntityType, EdmModel } from '../../../lib/edm/model';
import { catchODataError, demoModel, Item, Person, Product, Supplier, testModel } from './support';

function check(text: string, type: EdmEntityType = Item, model: EdmModel = type === Product || type === Supplier ? demoModel : testModel): ExprNode {
  return checkFilter(parseExpression(text), type, model);
}

/** `braced form` with each node's type: `{Price:Edm.Decimal gt 20:Edm.Int32}:Edm.Boolean`. */
function typed(node: ExprNode): string {
  const type = describeType(node.type);
  switch (node.kind) {
    case 'Binary':
      return `{${typed(node.left)} ${node.operator} ${typed(node.right)}}:${type}`;
    case 'Unary':
      return `{${node.operator === 'not' ? 'not ' : '-'}${typed(node.operand)}}:${type}`;
    case 'Call':
      return `${node.name}(${node.args.map(typed).join(', ')}):${type}`;
    default:
      return `${printBraced(node)}:${type}`;
  }
}

function typedExpression(text: string, type: EdmEntityType = Item): string {
  const model = type === Product || type === Supplier ? demoModel : testModel;
  return typed(checkExpression(parseExpression(text, { target: '$orderby' }), type, model));
}

describe('checkFilter: promotions and result types', () => {
  it.each([
    // Binary numeric promotion (MS-ODATA §2.2.3.6.1.1.1).
    ['Byte add Byte', 'Edm.Int32'],
    ['SByte add Byte', 'Edm.Int32'],
    ['Int16 add Byte', 'Edm.Int32'],
    ['Int16 mul Int32', 'Edm.Int32'],
    ['Int32 add Int64', 'Edm.Int64'],
    ['Int64 add Decimal', 'Edm.Decimal'],
    ['Int32 add Single', 'Edm.Single'],
    ['Int64 add Double', 'Edm.Double'],
    ['Decimal add Single', 'Edm.Single'],
    ['Decimal add Double', 'Edm.Double'],
    ['Single add Double', 'Edm.Double'],
    ['Int32 div 2', 'Edm.Int32'],
    ['Int32 mod 2L', 'Edm.Int64'],
    ['Decimal mul 2', 'Edm.Decimal'],
    ['-Byte', 'Edm.Int32'],
    ['-Int64', 'Edm.Int64'],
    ['-Decimal', 'Edm.Decimal'],
    ['Int32 add null', 'Edm.Int32'],
    ['null add null', 'null'],
    ['Address/Geo/Lat', 'Edm.Double'],
    ["concat(String, 'x')", 'Edm.String'],
    ['length(String)', 'Edm.Int32'],
    ['round(Decimal)', 'Edm.Decimal'],
    ['round(Int32)', 'Edm.Decimal'],
    ['round(Int64)', 'Edm.Decimal'],
    ['round(Double)', 'Edm.Double'],
    ['floor(Single)', 'Edm.Double'],
    ['ceiling(2.5)', 'Edm.Double'],
    ['hour(Time)', 'Edm.Int32'],
    ['year(DateTimeOffset)', 'Edm.Int32'],
    ["cast(Int32, 'Edm.Decimal')", 'Edm.Decimal'],
    ["cast(Double, 'Edm.Int16')", 'Edm.Int16'],
    ["cast(DateTime, 'Edm.DateTimeOffset')", 'Edm.DateTimeOffset'],
    ["cast(null, 'Edm.Guid')", 'Edm.Guid'],
    ["cast('ExprTest.SpecialItem')/Bonus", 'Edm.Int32'],
    ["cast(Owner, 'ExprTest.Person')/Name", 'Edm.String'],
  ])('%s : %s', (text, type) => {
    expect(describeType(checkExpression(parseExpression(text), Item, testModel).type)).toBe(type);
  });

  it.each([
    ['Price gt 20', Product, '{Price:Edm.Decimal gt 20:Edm.Int32}:Edm.Boolean'],
    // WCF reads an unsuffixed double literal met by a Decimal exactly from its digits.
    ['Price gt 20.5', Product, '{Price:Edm.Decimal gt 20.5M:Edm.Decimal}:Edm.Boolean'],
    ['20.5 lt Price', Product, '{20.5M:Edm.Decimal lt Price:Edm.Decimal}:Edm.Boolean'],
    ['Price gt 2.05E1', Product, '{Price:Edm.Decimal gt 20.5M:Edm.Decimal}:Edm.Boolean'],
    ['Price eq 0.1f', Product, '{Price:Edm.Decimal eq 0.1M:Edm.Decimal}:Edm.Boolean'],
    ['Price add 0.1 eq 0.3', Product, '{{Price:Edm.Decimal add 0.1M:Edm.Decimal}:Edm.Decimal eq 0.3M:Edm.Decimal}:Edm.Boolean'],
    // INF has no decimal form: Decimal with Double promotes to Double.
    ['Price lt INF', Product, '{Price:Edm.Decimal lt INF:Edm.Double}:Edm.Boolean'],
    ['Rating gt 2.5', Product, '{Rating:Edm.Int32 gt 2.5:Edm.Double}:Edm.Boolean'],
    ['Name eq null', Product, '{Name:Edm.String eq null:null}:Edm.Boolean'],
    ['Category eq null', Product, '{Category:ODataDemo.Category eq null:null}:Edm.Boolean'],
    ['null ne Address', Supplier, '{null:null ne Address:ODataDemo.Address}:Edm.Boolean'],
    ['Boolean', Item, 'Boolean:Edm.Boolean'],
    ['Boolean and null', Item, '{Boolean:Edm.Boolean and null:null}:Edm.Boolean'],
    ['not Boolean', Item, '{not Boolean:Edm.Boolean}:Edm.Boolean'],
    [
      "DateTime lt datetimeoffset'2000-01-01T00:00:00Z'",
      Item,
      "{DateTime:Edm.DateTime lt datetimeoffset'2000-01-01T00:00:00Z':Edm.DateTimeOffset}:Edm.Boolean",
    ],
    ["Time ge time'PT1H'", Item, "{Time:Edm.Time ge time'PT1H':Edm.Time}:Edm.Boolean"],
    ["Guid eq guid'01234567-89ab-cdef-0123-456789abcdef'", Item, "{Guid:Edm.Guid eq guid'01234567-89ab-cdef-0123-456789abcdef':Edm.Guid}:Edm.Boolean"],
    ["Binary eq X'00'", Item, "{Binary:Edm.Binary eq X'00':Edm.Binary}:Edm.Boolean"],
    ['Int64 eq 9007199254740993L', Item, '{Int64:Edm.Int64 eq 9007199254740993L:Edm.Int64}:Edm.Boolean'],
    ['Byte eq 255', Item, '{Byte:Edm.Byte eq 255:Edm.Int32}:Edm.Boolean'],
    ["substring(String, Byte) eq 'x'", Item, "{substring(String:Edm.String, Byte:Edm.Byte):Edm.String eq 'x':Edm.String}:Edm.Boolean"],
    ['substringof(null, String)', Item, 'substringof(null:null, String:Edm.String):Edm.Boolean'],
    ["isof('ExprTest.SpecialItem')", Item, "isof('ExprTest.SpecialItem':ExprTest.SpecialItem):Edm.Boolean"],
    ["cast('ExprTest.SpecialItem') ne null", Item, "{cast('ExprTest.SpecialItem':ExprTest.SpecialItem):ExprTest.SpecialItem ne null:null}:Edm.Boolean"],
    ["isof(Int32, 'Edm.Int64')", Item, "isof(Int32:Edm.Int32, 'Edm.Int64':Edm.Int64):Edm.Boolean"],
    ["isof(Owner, 'ExprTest.Person')", Item, "isof(Owner:ExprTest.Person, 'ExprTest.Person':ExprTest.Person):Edm.Boolean"],
    // An unrelated entity type is no error: nothing is of it (MS-ODATA isof/cast; WCF answers false / null).
    ["isof('ExprTest.Person')", Item, "isof('ExprTest.Person':ExprTest.Person):Edm.Boolean"],
    ["cast(Owner, 'ExprTest.Tag') eq null", Item, "{cast(Owner:ExprTest.Person, 'ExprTest.Tag':ExprTest.Tag):ExprTest.Tag eq null:null}:Edm.Boolean"],
    ["Nickname eq 'x'", Person, "{Nickname:a dynamic property eq 'x':Edm.String}:Edm.Boolean"],
    ['Score add 1 gt 2', Person, '{{Score:a dynamic property add 1:Edm.Int32}:a dynamic property gt 2:Edm.Int32}:Edm.Boolean'],
    ['Flag', Person, 'Flag:a dynamic property'],
  ])('%s on %s', (text, type, expected) => {
    expect(typed(check(text, type))).toBe(expected);
  });

  it('resolves every step of a member path', () => {
    const complex = check('Address/Geo/Lat gt 1') as ExprNode & { left: MemberNode };
    expect(complex.left.steps?.map((s) => [s.kind, s.name])).toEqual([
      ['Property', 'Address'],
      ['Property', 'Geo'],
      ['Property', 'Lat'],
    ]);
    const navigation = check("Owner/Name eq 'Ann'") as ExprNode & { left: MemberNode };
    expect(navigation.left.steps?.map((s) => s.kind)).toEqual(['Navigation', 'Property']);
    const step = navigation.left.steps?.[0];
    expect(step?.kind === 'Navigation' && step.property.target.qualifiedName).toBe('ExprTest.Person');
    const dynamic = check("Owner/Nickname/First eq 'A'") as ExprNode & { left: MemberNode };
    expect(dynamic.left.steps?.map((s) => s.kind)).toEqual(['Navigation', 'Dynamic', 'Dynamic']);
    const inherited = checkFilter(parseExpression('ID eq 1 and Bonus gt 2'), testModel.entityTypes.get('ExprTest.SpecialItem') as EdmEntityType, testModel);
    expect(printBraced(inherited)).toBe('{{ID eq 1} and {Bonus gt 2}}');
  });

  it('returns new nodes and leaves the parsed tree untouched', () => {
    const parsed = parseExpression('Price gt 20.5');
    const checked = checkFilter(parsed, Product, demoModel);
    expect(checked).not.toBe(parsed);
    let typedNodes = 0;
    walkExpression(parsed, { enter: (node) => void (node.type === undefined || typedNodes++) });
    expect(typedNodes).toBe(0);
    expect((parsed as ExprNode & { right: LiteralNode }).right.literalType).toBe('Edm.Double');
    expect((checked as ExprNode & { right: LiteralNode }).right).toMatchObject({ literalType: 'Edm.Decimal', value: '20.5', loc: { start: 9, end: 13 } });
  });

  it('marks an entity-type name with its EdmEntityType', () => {
    const call = check("isof('ExprTest.SpecialItem')");
    expect(call.kind === 'Call' && call.args[0].kind === 'TypeName' && call.args[0].entityType?.name).toBe('SpecialItem');
  });

  it.each([
    ["isof('ExprTest.SpecialItem')", undefined],
    ["isof('ExprTest.Item')", undefined],
    ["isof('ExprTest.Person')", true],
    ["isof(Owner, 'ExprTest.Person')", undefined],
    ["isof(Owner, 'ExprTest.Tag')", true],
  ])("marks the type name of %s as neverMatches=%s when it is outside the subject's hierarchy", (text, marked) => {
    const call = check(text);
    const typeName = call.kind === 'Call' ? call.args[call.args.length - 1] : undefined;
    expect(typeName?.kind === 'TypeName' ? typeName.neverMatches : 'not a type name').toBe(marked);
  });
});

// ------------------------------------------------------------------------------------------------
// Errors: [text, entity type, code, position, message fragment]
// ------------------------------------------------------------------------------------------------

const ERRORS: readonly [string, EdmEntityType, string, number, string][] = [
  ['Name eq 1', Product, 'FILTER_TYPE', 0, "the operator 'eq' cannot compare Edm.String with Edm.Int32"],
  ["Price gt 'a'", Product, 'FILTER_TYPE', 0, 'cannot compare Edm.Decimal with Edm.String'],
  ["ID eq 1 and ReleaseDate eq 'x'", Product, 'FILTER_TYPE', 12, 'Edm.DateTime with Edm.String'],
  ["Guid eq 'abc'", Item, 'FILTER_TYPE', 0, 'Edm.Guid with Edm.String'],
  ['DateTime eq 1', Item, 'FILTER_TYPE', 0, 'Edm.DateTime with Edm.Int32'],
  ["Binary lt X'00'", Item, 'FILTER_TYPE', 0, "the operator 'lt' cannot compare Edm.Binary with Edm.Binary"],
  ['Boolean eq 1', Item, 'FILTER_TYPE', 0, 'Edm.Boolean with Edm.Int32'],
  ['Address eq Address', Item, 'FILTER_TYPE', 0, 'ExprTest.Address with ExprTest.Address'],
  ['Owner eq Owner', Item, 'FILTER_TYPE', 0, 'ExprTest.Person with ExprTest.Person'],
  ['Owner gt null', Item, 'FILTER_TYPE', 0, "'gt' cannot compare ExprTest.Person with null"],
  ['Address eq 1', Item, 'FILTER_TYPE', 0, 'ExprTest.Address with Edm.Int32'],
  ['Nme eq 1', Product, 'FILTER_UNKNOWN_PROPERTY', 0, "No property 'Nme' exists in type 'ODataDemo.Product' at position 0 in 'Nme eq 1'. Did you mean 'Name'?"],
  ["Category/Nam eq 'x'", Product, 'FILTER_UNKNOWN_PROPERTY', 9, "type 'ODataDemo.Category' at position 9"],
  ["Category / Nam eq 'x'", Product, 'FILTER_UNKNOWN_PROPERTY', 11, 'position 11'],
  ['Address/Zip eq 1', Supplier, 'FILTER_UNKNOWN_PROPERTY', 8, "type 'ODataDemo.Address'"],
  ["Extra eq 'x'", Item, 'FILTER_UNKNOWN_PROPERTY', 0, "declared on the derived type 'ExprTest.SpecialItem': use cast('ExprTest.SpecialItem')/Extra"],
  ['Category/Products/ID eq 1', Product, 'FILTER_TYPE', 9, "the navigation property 'Products' leads to many ODataDemo.Product entities"],
  ["Tags/Label eq 'a'", Item, 'FILTER_TYPE', 0, 'only single-valued navigation properties'],
  ['Name/Length eq 1', Product, 'FILTER_TYPE', 5, "'Name' is of type Edm.String and has no member 'Length'"],
  ['Name', Product, 'FILTER_TYPE', 0, 'the expression must be of type Edm.Boolean, but it is Edm.String'],
  ['Price add 1', Product, 'FILTER_TYPE', 0, 'but it is Edm.Decimal'],
  ['null', Product, 'FILTER_TYPE', 0, 'but it is null'],
  ['Category', Product, 'FILTER_TYPE', 0, 'but it is ODataDemo.Category'],
  ['Name and true', Product, 'FILTER_TYPE', 0, "the operator 'and' needs Edm.Boolean operands, but this one is Edm.String"],
  ['true or Rating', Product, 'FILTER_TYPE', 8, "'or' needs Edm.Boolean operands"],
  ['not Name', Product, 'FILTER_TYPE', 4, "'not' needs Edm.Boolean operands"],
  ["Name add 'x' eq 'y'", Product, 'FILTER_TYPE', 0, "the operator 'add' needs numeric operands, but this one is Edm.String"],
  ['-Name eq 1', Product, 'FILTER_TYPE', 1, "the operator '-' needs numeric operands"],
  ['Rating mul ReleaseDate eq 1', Product, 'FILTER_TYPE', 11, 'but this one is Edm.DateTime'],
  ['length(1) eq 1', Product, 'FILTER_TYPE', 0, "no overload of 'length' takes (Edm.Int32); expected length(Edm.String)"],
  ['substringof(Name, 1)', Product, 'FILTER_TYPE', 0, 'expected substringof(Edm.String, Edm.String)'],
  ["substring(Name, 1L) eq 'a'", Product, 'FILTER_TYPE', 0, 'takes (Edm.String, Edm.Int64)'],
  ['year(Name) eq 1', Product, 'FILTER_TYPE', 0, 'expected year(Edm.DateTime) or year(Edm.DateTimeOffset)'],
  ['day(Time) eq 1', Item, 'FILTER_TYPE', 0, 'takes (Edm.Time)'],
  ["round('a') eq 1", Product, 'FILTER_TYPE', 0, 'expected round(Edm.Decimal) or round(Edm.Double)'],
  ["isof('Foo.Bar')", Product, 'FILTER_TYPE', 5, "unknown type 'Foo.Bar'"],
  ["isof(Price, 'Edm.Decmal')", Product, 'FILTER_TYPE', 12, "Did you mean 'Edm.Decimal'?"],
  ["isof('Edm.Int32')", Product, 'FILTER_TYPE', 5, 'ODataDemo.Product cannot be tested for the primitive type Edm.Int32'],
  ["cast(Name, 'Edm.Int32') eq 1", Product, 'FILTER_TYPE', 0, 'cannot cast Edm.String to Edm.Int32'],
  ["cast(Rating, 'Edm.String') eq '1'", Product, 'FILTER_TYPE', 0, 'cannot cast Edm.Int32 to Edm.String'],
  ["cast(Name, 'ODataDemo.Product') eq null", Product, 'FILTER_TYPE', 11, 'Edm.String cannot be cast to the entity type ODataDemo.Product'],
  ["cast(Category, 'Edm.Int32') eq 1", Product, 'FILTER_TYPE', 15, 'ODataDemo.Category cannot be cast to the primitive type Edm.Int32'],
  ["cast(Price, 'Edm.Double')/X eq 1", Product, 'FILTER_TYPE', 0, 'Edm.Double has no properties'],
  ["cast('ODataDemo.Product')/Nope eq 1", Product, 'FILTER_UNKNOWN_PROPERTY', 26, "No property 'Nope'"],
];

describe('checkFilter: errors', () => {
  it.each(ERRORS)('%s on %s -> %s at %i', (text, type, code, position, fragment) => {
    const error = catchODataError(() => check(text, type));
    expect([error.code, error.status, error.position, error.target]).toEqual([code, 400, position, '$filter']);
    expect(error.message).toContain(fragment);
    expect(error.message).toContain(`'${text}'`);
  });

  it('quotes the caller-given text and target for trees not parsed from text', () => {
    const ast = parseExpression('Name eq 1');
    const error = catchODataError(() => checkFilter(ast, Product, demoModel, { text: '  Name eq 1', target: '$custom' }));
    expect(error.message).toBe("Type error at position 0 in '  Name eq 1': the operator 'eq' cannot compare Edm.String with Edm.Int32");
    expect(error.target).toBe('$custom');
  });

  it('prints a hand-built tree to quote it', () => {
    const error = catchODataError(() => checkFilter({ kind: 'Member', path: ['Nope'] }, Product, demoModel));
    expect(error.message).toContain("in 'Nope'");
  });
});

describe('checkExpression ($orderby)', () => {
  it.each([
    ['Name', Product, 'Name:Edm.String'],
    ['Category/Name', Product, 'Category/Name:Edm.String'],
    ['length(Name)', Product, 'length(Name:Edm.String):Edm.Int32'],
    ['Price mul 2', Product, '{Price:Edm.Decimal mul 2:Edm.Int32}:Edm.Decimal'],
    ['Nickname', Person, 'Nickname:a dynamic property'],
  ])('%s on %s', (text, type, expected) => {
    expect(typedExpression(text, type)).toBe(expected);
  });

  it.each([
    ['Address', Supplier, 'cannot sort by ODataDemo.Address'],
    ['Category', Product, 'cannot sort by ODataDemo.Category'],
  ])('refuses %s', (text, type, fragment) => {
    const error = catchODataError(() => typedExpression(text, type));
    expect([error.code, error.target]).toEqual(['FILTER_TYPE', '$orderby']);
    expect(error.message).toContain(fragment);
  });
});
