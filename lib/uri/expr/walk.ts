/**
 * Traversals of the expression AST for provider authors: `walkExpression` visits nodes (pre-order,
 * per-kind callbacks), `foldExpression` computes a value bottom-up (the shape of a translator, e.g.
 * AST -> SQL), and `transformExpression` rebuilds a tree with some nodes replaced.
 */
import { assertNever } from '../../util';
import type { BinaryNode, CallNode, ExprNode, LiteralNode, MemberNode, TypeNameNode, UnaryNode } from './ast';

/**
 * Callbacks for `walkExpression`; all optional. Per node: `enter`, then the callback of its kind,
 * then its children left to right, then `leave`. `enter` returning false skips the node's children.
 */
export interface ExpressionVisitor {
  /** Called first for every node; return false to skip its children. */
  enter?(node: ExprNode, parent: ExprNode | undefined): boolean | void;
  /** Called last for every node, after its children. */
  leave?(node: ExprNode, parent: ExprNode | undefined): void;
  /** Literals (`20`, `'Milk'`, `datetime'2020-01-01T00:00'`): leaves. */
  Literal?(node: LiteralNode, parent: ExprNode | undefined): void;
  /** Member paths (`Name`, `Category/Name`). */
  Member?(node: MemberNode, parent: ExprNode | undefined): void;
  /** Binary operations (`Price gt 20`, `a and b`). */
  Binary?(node: BinaryNode, parent: ExprNode | undefined): void;
  /** Unary operations (`not Discontinued`, `-Price`). */
  Unary?(node: UnaryNode, parent: ExprNode | undefined): void;
  /** Function calls (`substringof('a', Name)`). */
  Call?(node: CallNode, parent: ExprNode | undefined): void;
  /** Type name arguments of `isof` and `cast` (`'ODataDemo.Product'`). */
  TypeName?(node: TypeNameNode, parent: ExprNode | undefined): void;
}

/** The children of a node, left to right. */
export function childrenOf(node: ExprNode): readonly ExprNode[] {
  switch (node.kind) {
    case 'Binary':
      return [node.left, node.right];
    case 'Unary':
      return [node.operand];
    case 'Call':
      return node.args;
    case 'Member':
      return node.base === undefined ? [] : [node.base];
    case 'Literal':
    case 'TypeName':
      return [];
    default:
      return assertNever(node, 'expression node');
  }
}

/** Visit every node, parents before children: `enter`, then the kind's callback, children, `leave`. */
export function walkExpression(node: ExprNode, visitor: ExpressionVisitor, parent?: ExprNode): void {
  if (visitor.enter?.(node, parent) === false) return;
  switch (node.kind) {
    case 'Literal':
      visitor.Literal?.(node, parent);
      break;
    case 'Member':
      visitor.Member?.(node, parent);
      break;
    case 'Binary':
      visitor.Binary?.(node, parent);
      break;
    case 'Unary':
      visitor.Unary?.(node, parent);
      break;
    case 'Call':
      visitor.Call?.(node, parent);
      break;
    case 'TypeName':
      visitor.TypeName?.(node, parent);
      break;
    default:
      assertNever(node, 'expression node');
  }
  for (const child of childrenOf(node)) walkExpression(child, visitor, node);
  visitor.leave?.(node, parent);
}

/** One function per node kind, each given its children's results: a bottom-up translator. */
export interface ExpressionFolder<T> {
  /** The result for a literal (a leaf). */
  Literal(node: LiteralNode): T;
  /** The result for a member path; `base` is the result of its `cast(...)` base, if any. */
  Member(node: MemberNode, base: T | undefined): T;
  /** The result for a binary operation, given its operands' results. */
  Binary(node: BinaryNode, left: T, right: T): T;
  /** The result for a unary operation, given its operand's result. */
  Unary(node: UnaryNode, operand: T): T;
  /** The result for a function call, given its arguments' results. */
  Call(node: CallNode, args: readonly T[]): T;
  /** The result for a type name argument of `isof` or `cast`. */
  TypeName(node: TypeNameNode): T;
}

/** Compute a value bottom-up (children first), e.g. an SQL fragment for every node. */
export function foldExpression<T>(node: ExprNode, folder: ExpressionFolder<T>): T {
  switch (node.kind) {
    case 'Literal':
      return folder.Literal(node);
    case 'Member':
      return folder.Member(node, node.base === undefined ? undefined : foldExpression(node.base, folder));
    case 'Binary':
      return folder.Binary(node, foldExpression(node.left, folder), foldExpression(node.right, folder));
    case 'Unary':
      return folder.Unary(node, foldExpression(node.operand, folder));
    case 'Call':
      return folder.Call(
        node,
        node.args.map((arg) => foldExpression(arg, folder)),
      );
    case 'TypeName':
      return folder.TypeName(node);
    default:
      return assertNever(node, 'expression node');
  }
}

/**
 * Rebuild a tree bottom-up: `replace` sees each node with its children already transformed and
 * returns it, or a replacement. Unchanged subtrees keep their identity.
 */
export function transformExpression(node: ExprNode, replace: (node: ExprNode) => ExprNode): ExprNode {
  let rebuilt: ExprNode = node;
  switch (node.kind) {
    case 'Binary': {
      const left = transformExpression(node.left, replace);
      const right = transformExpression(node.right, replace);
      if (left !== node.left || right !== node.right) rebuilt = { ...node, left, right };
      break;
    }
    case 'Unary': {
      const operand = transformExpression(node.operand, replace);
      if (operand !== node.operand) rebuilt = { ...node, operand };
      break;
    }
    case 'Call': {
      const args = node.args.map((arg) => transformExpression(arg, replace));
      if (args.some((arg, i) => arg !== node.args[i])) rebuilt = { ...node, args };
      break;
    }
    case 'Member': {
      if (node.base !== undefined) {
        const base = transformExpression(node.base, replace);
        if (base !== node.base) rebuilt = { ...node, base };
      }
      break;
    }
    case 'Literal':
    case 'TypeName':
      break;
    default:
      assertNever(node, 'expression node');
  }
  return replace(rebuilt);
}

/** Strip `loc` (and the literal `text`) everywhere: for comparing trees regardless of spelling. */
export function withoutLocations(node: ExprNode): ExprNode {
  return transformExpression(node, (current) => {
    if (current.loc === undefined && !(current.kind === 'Literal' && current.text !== undefined)) return current;
    const { loc: _loc, ...rest } = current;
    if (rest.kind === 'Literal') {
      const { text: _text, ...literal } = rest;
      return literal;
    }
    return rest;
  });
}
