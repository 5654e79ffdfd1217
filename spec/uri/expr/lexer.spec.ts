/** The lexer: token kinds and offsets, literals delegated to edm/literals, and its errors. */
import { Lexer, type Token } from '../../../lib/uri/expr/lexer';
import { catchODataError } from './support';

function tokens(text: string): string[] {
  const lexer = new Lexer({ text, target: '$filter' });
  const out: string[] = [];
  for (let token: Token = lexer.next(); token.kind !== 'End'; token = lexer.next()) {
    out.push(`${token.kind}:${token.text}@${token.start}-${token.end}` + (token.kind === 'Literal' ? `:${token.literalType}` : ''));
  }
  return out;
}

describe('Lexer', () => {
  it.each([
    ['Price gt 20', ['Identifier:Price@0-5', 'Identifier:gt@6-8', 'Literal:20@9-11:Edm.Int32']],
    [" a/b eq 'x y' ", ['Identifier:a@1-2', 'Slash:/@2-3', 'Identifier:b@3-4', 'Identifier:eq@5-7', "Literal:'x y'@8-13:Edm.String"]],
    ['f(1,2)', ['Identifier:f@0-1', 'OpenParen:(@1-2', 'Literal:1@2-3:Edm.Int32', 'Comma:,@3-4', 'Literal:2@4-5:Edm.Int32', 'CloseParen:)@5-6']],
    ['-5 - 5 -x', ['Literal:-5@0-2:Edm.Int32', 'Minus:-@3-4', 'Literal:5@5-6:Edm.Int32', 'Minus:-@7-8', 'Identifier:x@8-9']],
    ['-INF INF NaN', ['Literal:-INF@0-4:Edm.Double', 'Literal:INF@5-8:Edm.Double', 'Literal:NaN@9-12:Edm.Double']],
    ['INFO NaNa nulls', ['Identifier:INFO@0-4', 'Identifier:NaNa@5-9', 'Identifier:nulls@10-15']],
    ['null true false', ['Literal:null@0-4:null', 'Literal:true@5-9:Edm.Boolean', 'Literal:false@10-15:Edm.Boolean']],
    ["datetime'2000-01-01T00:00' X'0A'", ["Literal:datetime'2000-01-01T00:00'@0-26:Edm.DateTime", "Literal:X'0A'@27-32:Edm.Binary"]],
    [
      '12L 2.5M 2.5 1E5 2f 3d',
      [
        'Literal:12L@0-3:Edm.Int64',
        'Literal:2.5M@4-8:Edm.Decimal',
        'Literal:2.5@9-12:Edm.Double',
        'Literal:1E5@13-16:Edm.Double',
        'Literal:2f@17-19:Edm.Single',
        'Literal:3d@20-22:Edm.Double',
      ],
    ],
    ['Ns.Type a.b', ['QualifiedName:Ns.Type@0-7', 'QualifiedName:a.b@8-11']],
    ['café_1', ['Identifier:café_1@0-6']],
    ['\tx\r\n', ['Identifier:x@1-2']],
  ])('%j', (text, expected) => {
    expect(tokens(text)).toEqual(expected);
  });

  it('looks ahead without consuming', () => {
    const lexer = new Lexer({ text: 'a b c', target: '$filter' });
    expect(lexer.peek(2).text).toBe('c');
    expect(lexer.next().text).toBe('a');
    expect(lexer.peek().text).toBe('b');
  });

  it.each([
    ['#', 0, "unexpected character '#'"],
    ["'open", 0, 'closing quote is missing'],
    ['12x', 0, 'not a valid number'],
    ["foo'x'", 0, 'unknown literal prefix'],
    ['a.', 1, 'malformed literal'],
  ])('%j -> FILTER_SYNTAX at %i', (text, position, fragment) => {
    const error = catchODataError(() => tokens(text));
    expect([error.code, error.position]).toEqual(['FILTER_SYNTAX', position]);
    expect(error.message).toContain(fragment);
  });
});
