/**
 * Expression printers: `printExpression` writes the shortest text that parses back to the same
 * tree (parentheses only where precedence needs them); `printBraced` wraps every operator in braces
 * (`{{a add b} mul c}`, as Olingo's tests do) to make precedence visible in tests and logs.
 */
import { printLiteral } from '../../edm/literals';
import { assertNever } from '../../util';
import type { ExprNode, LiteralNode } from './ast';
import { BINARY_PRECEDENCE } from './parser';

/** The expression as `$filter`/`$orderby` text (not percent-encoded). */
export function printExpression(node: ExprNode): string {
  return print(node, 0, false);
}

/** The expression with every binary and unary operation in braces: `{Price gt {2 mul 3}}`. */
export function printBraced(node: ExprNode): string {
  switch (node.kind) {
    case 'Binary':
      return `{${printBraced(node.left)} ${node.operator} ${printBraced(node.right)}}`;
    case 'Unary':
      return node.operator === 'not' ? `{not ${printBraced(node.operand)}}` : `{-${printBraced(node.operand)}}`;
    case 'Call':
      return `${node.name}(${node.args.map(printBraced).join(', ')})`;
    case 'Member':
      return node.base === undefined ? node.path.join('/') : `${printBraced(node.base)}/${node.path.join('/')}`;
    case 'Literal':
    case 'TypeName':
      return print(node, 0, false);
    default:
      return assertNever(node, 'expression node');
  }
}

/**
 * `parent` is the precedence of the enclosing binary operator (0 at the top); `rightOperand` says
 * the node is its right operand, which needs parentheses at equal precedence (left associativity).
 */
function print(node: ExprNode, parent: number, rightOperand: boolean): string {
  switch (node.kind) {
    case 'Literal':
      return printLiteralNode(node);
    case 'TypeName':
      return `'${node.name.replace(/'/g, "''")}'`;
    case 'Member':
      return node.base === undefined ? node.path.join('/') : `${print(node.base, 0, false)}/${node.path.join('/')}`;
    case 'Call':
      return `${node.name}(${node.args.map((arg) => print(arg, 0, false)).join(', ')})`;
    case 'Unary': {
      const operand = node.operand.kind === 'Binary' ? `(${print(node.operand, 0, false)})` : print(node.operand, 0, false);
      if (node.operator === 'not') return `not ${operand}`;
      // `- 5`, not `-5`: the latter is the literal minus five, a different tree.
      return node.operand.kind === 'Literal' ? `- ${operand}` : `-${operand}`;
    }
    case 'Binary': {
      const precedence = BINARY_PRECEDENCE[node.operator];
      const text = `${print(node.left, precedence, false)} ${node.operator} ${print(node.right, precedence, true)}`;
      return precedence < parent || (precedence === parent && rightOperand) ? `(${text})` : text;
    }
    default:
      return assertNever(node, 'expression node');
  }
}

/** The literal as written when it was parsed, else its canonical URI form. */
function printLiteralNode(node: LiteralNode): string {
  if (node.text !== undefined) return node.text;
  if (node.literalType === null || node.value === null) return 'null';
  return printLiteral(node.literalType, node.value);
}
