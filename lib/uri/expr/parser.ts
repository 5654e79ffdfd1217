/**
 * The `$filter`/`$orderby` parser (MS-ODATA §2.2.3.6.1.1 "Common Expression Syntax"): text -> AST,
 * or 400 with the position. Total and bounded: nesting deeper than `maxDepth`, or a tree deeper
 * than `maxTreeDepth`, is refused before any recursion could exhaust the stack. No model here:
 * names stay unresolved until the type checker.
 */
import { ODataError } from '../../errors';
import type { BinaryOperator, CallNode, ExprNode, LiteralNode, MemberNode, SourceRange, TypeNameNode } from './ast';
import { arities, BUILTIN_FUNCTIONS, FUNCTION_NAMES, isFunctionName, takesTypeName, type FunctionName } from './functions';
import { Lexer, type Token } from './lexer';
import { clip, depthError, excerpt, recordSource, suggest, syntaxError, type ExpressionSource } from './source';

/** Limits of the parser. */
interface ParseOptions {
  /** Deepest nesting of parentheses, function calls and unary operators. Default 100. */
  readonly maxDepth?: number;
  /** Deepest tree (a chain `a or b or c...` adds one level per operator). Default 1000. */
  readonly maxTreeDepth?: number;
  /** The query option the text came from, named in errors. Default `$filter` (`$orderby` for parseOrderBy). */
  readonly target?: string;
}

/** One `$orderby` item before type checking. */
interface ParsedOrderByItem {
  readonly expression: ExprNode;
  readonly direction: 'asc' | 'desc';
}

const DEFAULT_MAX_DEPTH = 100;
const DEFAULT_MAX_TREE_DEPTH = 1000;

/** Binding power of each binary operator (MS-ODATA §2.2.3.6.1.1.2 "Operator Precedence"), lowest first. */
export const BINARY_PRECEDENCE: Readonly<Record<BinaryOperator, number>> = {
  or: 1,
  and: 2,
  eq: 3,
  ne: 3,
  lt: 3,
  le: 3,
  gt: 3,
  ge: 3,
  add: 4,
  sub: 4,
  mul: 5,
  div: 5,
  mod: 5,
};

const OPERATOR_WORDS = new Set<string>([...Object.keys(BINARY_PRECEDENCE), 'not']);

function binaryOperator(token: Token): BinaryOperator | undefined {
  if (token.kind !== 'Identifier') return undefined;
  return Object.prototype.hasOwnProperty.call(BINARY_PRECEDENCE, token.text) ? (token.text as BinaryOperator) : undefined;
}

/** A node and the depth of the tree below it (a leaf is 1). */
type Parsed = readonly [ExprNode, number];

/**
 * Parse a `$filter` expression (or any single common expression).
 *
 *   commonExpression = orExpression ; precedence climbs from "or" to primary, see Parser
 */
export function parseExpression(text: string, options: ParseOptions = {}): ExprNode {
  const source: ExpressionSource = { text, target: options.target ?? '$filter' };
  const parser = new Parser(source, options);
  const node = parser.parseRoot();
  parser.expectEnd('an operator');
  recordSource(node, source);
  return node;
}

/**
 * Parse a `$orderby` value (MS-ODATA §2.2.3.6.1.6).
 *
 *   orderby     = orderbyItem *( [WSP] "," [WSP] orderbyItem )
 *   orderbyItem = commonExpression [ WSP ( "asc" / "desc" ) ]
 */
export function parseOrderBy(text: string, options: ParseOptions = {}): ParsedOrderByItem[] {
  const source: ExpressionSource = { text, target: options.target ?? '$orderby' };
  const parser = new Parser(source, options);
  const items: ParsedOrderByItem[] = [];
  for (;;) {
    const expression = parser.parseRoot();
    recordSource(expression, source);
    const direction = parser.direction();
    items.push({ expression, direction });
    if (!parser.comma()) break;
  }
  parser.expectEnd(items.length === 0 ? 'an expression' : "',' or 'asc'/'desc'");
  return items;
}

class Parser {
  private readonly lexer: Lexer;
  private readonly maxDepth: number;
  private readonly maxTreeDepth: number;
  private nesting = 0;

  constructor(
    private readonly source: ExpressionSource,
    options: ParseOptions,
  ) {
    this.lexer = new Lexer(source);
    this.maxDepth = options.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxTreeDepth = options.maxTreeDepth ?? DEFAULT_MAX_TREE_DEPTH;
  }

  parseRoot(): ExprNode {
    return this.binary(1)[0];
  }

  /** After an orderby item: `asc` / `desc` (default asc). */
  direction(): 'asc' | 'desc' {
    const token = this.lexer.peek();
    if (token.kind === 'Identifier' && (token.text === 'asc' || token.text === 'desc')) {
      this.lexer.next();
      return token.text;
    }
    return 'asc';
  }

  comma(): boolean {
    if (this.lexer.peek().kind !== 'Comma') return false;
    this.lexer.next();
    return true;
  }

  expectEnd(expected: string): void {
    const token = this.lexer.peek();
    if (token.kind !== 'End') throw this.unexpected(token, expected);
  }

  /**
   * Binary operators by precedence climbing, all left-associative:
   *
   *   orExpression   = andExpression *( WSP "or" WSP andExpression )
   *   andExpression  = relExpression *( WSP "and" WSP relExpression )
   *   relExpression  = addExpression *( WSP ( "eq" / "ne" / "lt" / "le" / "gt" / "ge" ) WSP addExpression )
   *   addExpression  = mulExpression *( WSP ( "add" / "sub" ) WSP mulExpression )
   *   mulExpression  = unaryExpression *( WSP ( "mul" / "div" / "mod" ) WSP unaryExpression )
   */
  private binary(minPrecedence: number): Parsed {
    let [left, depth] = this.unary();
    for (;;) {
      const token = this.lexer.peek();
      const operator = binaryOperator(token);
      if (operator === undefined || BINARY_PRECEDENCE[operator] < minPrecedence) return [left, depth];
      this.lexer.next();
      const [right, rightDepth] = this.binary(BINARY_PRECEDENCE[operator] + 1);
      depth = this.treeDepth(Math.max(depth, rightDepth) + 1, token.start);
      left = { kind: 'Binary', operator, left, right, loc: span(left, right) };
    }
  }

  /**
   *   negateExpression = "-" [WSP] unaryExpression
   *   notExpression    = "not" WSP unaryExpression      ; also "not(" as WCF accepts
   */
  private unary(): Parsed {
    const token = this.lexer.peek();
    const isNot = token.kind === 'Identifier' && token.text === 'not';
    if (token.kind !== 'Minus' && !isNot) return this.primary();
    this.lexer.next();
    this.enter(token.start);
    const [operand, depth] = this.unary();
    this.nesting--;
    const node: ExprNode = {
      kind: 'Unary',
      operator: isNot ? 'not' : 'negate',
      operand,
      loc: { start: token.start, end: end(operand, token.end) },
    };
    return [node, this.treeDepth(depth + 1, token.start)];
  }

  /**
   *   primary          = parenExpression / literalExpression / methodCallExpression [ "/" memberPath ] / memberPath
   *   parenExpression  = "(" [WSP] commonExpression [WSP] ")"
   */
  private primary(): Parsed {
    const token = this.lexer.peek();
    switch (token.kind) {
      case 'OpenParen': {
        this.lexer.next();
        this.enter(token.start);
        const inner = this.binary(1);
        this.nesting--;
        this.expect('CloseParen', "')'");
        return inner;
      }
      case 'Literal': {
        this.lexer.next();
        const node: LiteralNode = {
          kind: 'Literal',
          literalType: token.literalType ?? null,
          value: token.value ?? null,
          text: token.text,
          loc: { start: token.start, end: token.end },
        };
        return [node, 1];
      }
      case 'Identifier':
        if (OPERATOR_WORDS.has(token.text)) throw this.unexpected(token, 'an expression');
        if (this.lexer.peek(1).kind === 'OpenParen') return this.call();
        return [this.memberPath(undefined), 1];
      case 'QualifiedName':
        throw syntaxError(
          this.source,
          token.start,
          `a qualified name such as '${clip(token.text)}' is only allowed as the type argument of isof or cast (write it quoted)`,
        );
      default:
        throw this.unexpected(token, 'an expression');
    }
  }

  /**
   *   memberPath = identifier *( [WSP] "/" [WSP] identifier )
   * `base` is the cast a path continues from (`cast('NS.T')/Prop`).
   */
  private memberPath(base: ExprNode | undefined): MemberNode {
    const first = this.propertyName();
    const path: string[] = [first.text];
    let last = first;
    while (this.lexer.peek().kind === 'Slash') {
      this.lexer.next();
      last = this.propertyName();
      path.push(last.text);
    }
    const start = base?.loc?.start ?? first.start;
    const node: MemberNode = { kind: 'Member', path, loc: { start, end: last.end } };
    return base === undefined ? node : { ...node, base };
  }

  private propertyName(): Token {
    const token = this.lexer.next();
    if (token.kind !== 'Identifier' || OPERATOR_WORDS.has(token.text)) throw this.unexpected(token, 'a property name');
    return token;
  }

  /**
   *   methodCallExpression = functionName [WSP] "(" [WSP] [ argument *( [WSP] "," [WSP] argument ) ] [WSP] ")"
   *   isofExpression       = "isof" [WSP] "(" [ commonExpression [WSP] "," [WSP] ] stringUriLiteral [WSP] ")"
   *   castExpression       = "cast" [WSP] "(" [ commonExpression [WSP] "," [WSP] ] stringUriLiteral [WSP] ")"
   */
  private call(): Parsed {
    const nameToken = this.lexer.next();
    const name = nameToken.text;
    if (!isFunctionName(name)) {
      throw ODataError.fromCode(
        'FILTER_UNKNOWN_FUNCTION',
        { name: clip(name), position: nameToken.start, text: excerpt(this.source.text, nameToken.start), suggestion: suggest(name, FUNCTION_NAMES) },
        { target: this.source.target, position: nameToken.start },
      );
    }
    const builtin = BUILTIN_FUNCTIONS[name];
    this.lexer.next(); // "("
    this.enter(nameToken.start);
    const args: ExprNode[] = [];
    let depth = 0;
    if (this.lexer.peek().kind !== 'CloseParen') {
      for (;;) {
        const [argument, argumentDepth] = this.argument(name);
        args.push(argument);
        depth = Math.max(depth, argumentDepth);
        if (this.lexer.peek().kind !== 'Comma') break;
        this.lexer.next();
      }
    }
    this.nesting--;
    const close = this.expect('CloseParen', args.length === 0 ? "an argument or ')'" : "',' or ')'");
    const counts = arities(builtin);
    if (!counts.includes(args.length)) {
      throw ODataError.fromCode(
        'FILTER_ARITY',
        { name, expected: counts.join(' or '), actual: args.length, position: nameToken.start, text: excerpt(this.source.text, nameToken.start) },
        { target: this.source.target, position: nameToken.start },
      );
    }
    if (takesTypeName(name)) this.checkTypeArguments(name, args);
    const call: CallNode = { kind: 'Call', name, args, loc: { start: nameToken.start, end: close.end } };
    const callDepth = this.treeDepth(depth + 1, nameToken.start);
    if (this.lexer.peek().kind !== 'Slash') return [call, callDepth];
    // memberExpression = commonExpression "/" property: only a cast yields something with members.
    const slash = this.lexer.next();
    if (name !== 'cast') throw syntaxError(this.source, slash.start, `'/' cannot follow a call of '${name}'; only cast(...)/Property is allowed`);
    return [this.memberPath(call), this.treeDepth(callDepth + 1, slash.start)];
  }

  /** An argument; in isof/cast a string literal or dotted name becomes a TypeName node. */
  private argument(functionName: FunctionName): Parsed {
    const token = this.lexer.peek();
    if (takesTypeName(functionName) && (token.kind === 'QualifiedName' || (token.kind === 'Literal' && token.literalType === 'Edm.String'))) {
      const following = this.lexer.peek(1).kind;
      if (following === 'CloseParen' || following === 'Comma') {
        this.lexer.next();
        const name = token.kind === 'QualifiedName' ? token.text : String(token.value);
        const node: TypeNameNode = { kind: 'TypeName', name, loc: { start: token.start, end: token.end } };
        return [node, 1];
      }
    }
    return this.binary(1);
  }

  /** The type name must be the last argument of isof/cast, and only there. */
  private checkTypeArguments(name: string, args: readonly ExprNode[]): void {
    args.forEach((argument, index) => {
      const last = index === args.length - 1;
      if (last !== (argument.kind === 'TypeName')) {
        throw syntaxError(
          this.source,
          argument.loc?.start ?? 0,
          last ? `the last argument of ${name} must be a quoted type name such as 'Edm.Int32'` : `only the last argument of ${name} is a type name`,
        );
      }
    });
  }

  private expect(kind: Token['kind'], expected: string): Token {
    const token = this.lexer.peek();
    if (token.kind !== kind) throw this.unexpected(token, expected);
    return this.lexer.next();
  }

  private enter(position: number): void {
    this.nesting++;
    if (this.nesting > this.maxDepth) throw depthError(this.source, position, this.maxDepth);
  }

  private treeDepth(depth: number, position: number): number {
    if (depth > this.maxTreeDepth) throw depthError(this.source, position, this.maxTreeDepth);
    return depth;
  }

  private unexpected(token: Token, expected: string): ODataError {
    if (token.kind === 'End') return syntaxError(this.source, token.start, `expected ${expected}, found the end of the expression`);
    let hint = '';
    const lower = token.text.toLowerCase();
    if (token.kind === 'Identifier' && lower !== token.text && OPERATOR_WORDS.has(lower)) {
      hint = ` (operators are lower-case: '${lower}')`;
    } else if (token.kind === 'Identifier' && OPERATOR_WORDS.has(token.text)) {
      hint = ` (the operator '${token.text}' needs an operand on each side)`;
    }
    return syntaxError(this.source, token.start, `expected ${expected}, found '${clip(token.text)}'${hint}`);
  }
}

function span(left: ExprNode, right: ExprNode): SourceRange | undefined {
  if (left.loc === undefined || right.loc === undefined) return undefined;
  return { start: left.loc.start, end: right.loc.end };
}

function end(node: ExprNode, fallback: number): number {
  return node.loc?.end ?? fallback;
}
