/**
 * The pushdown split: a `$filter` cut into the part a provider translates into its store's query
 * and a residual the service (or the evaluator) applies to the rows that part keeps. Exact under
 * OData's three-valued logic (MS-ODATA §2.2.3.6.1.1.2: `and` is true only when both sides are
 * true, and `$filter` keeps an entity only when the expression is true), because it only cuts
 * along the top-level `and`: a row passes `pushed and residual` exactly when it passes every
 * conjunct, which is when it passes the original. A part of an `or` or of a `not` is never pushed
 * alone: `not (A and B)` pushed as `not A` would drop rows the original keeps.
 */
import type { EdmEntitySet, EdmModel, EdmNavigationProperty } from '../edm/model';
import type { ExprNode } from '../uri/expr/ast';
import { childrenOf, walkExpression } from '../uri/expr/walk';
import type { ExpandItem } from '../uri/types';
import { binary } from './nodes';

/** A `$filter` split by `splitFilter`. */
export interface FilterSplit {
  /** The conjuncts the provider translates, joined by `and`; undefined when none (or no filter). */
  readonly pushed: ExprNode | undefined;
  /** The conjuncts it cannot translate, joined by `and`; undefined when it translates all of them. */
  readonly residual: ExprNode | undefined;
}

/** The top-level conjuncts of a filter, in order: `A and (B and C)` gives A, B, C; anything else is one conjunct. */
export function conjuncts(filter: ExprNode): ExprNode[] {
  const parts: ExprNode[] = [];
  const visit = (node: ExprNode): void => {
    if (node.kind === 'Binary' && node.operator === 'and') {
      visit(node.left);
      visit(node.right);
    } else {
      parts.push(node);
    }
  };
  visit(filter);
  return parts;
}

/** `A and B and ...` as a type-checked tree (Edm.Boolean); undefined for no parts. */
export function conjunction(parts: readonly ExprNode[]): ExprNode | undefined {
  return parts.reduce<ExprNode | undefined>((all, part) => (all === undefined ? part : binary('and', all, part)), undefined);
}

/** True when the predicate holds for the node and every node below it (pre-order, stops at the first false). */
function everyNode(node: ExprNode, canTranslate: (node: ExprNode) => boolean): boolean {
  return canTranslate(node) && childrenOf(node).every((child) => everyNode(child, canTranslate));
}

/** A `$filter` split by `translateFilter`: the translations of the conjuncts a provider translates, and the residual. */
export interface TranslatedFilter<T> {
  /** The translation of each translated conjunct, in order (all of them must hold); empty when none (or no filter). */
  readonly pushed: readonly T[];
  /** The conjuncts left untranslated, joined by `and`; undefined when every conjunct translated. */
  readonly residual: ExprNode | undefined;
}

/**
 * The pushdown split for a translator that finds out by trying: `translate` gets each top-level
 * conjunct and returns its translation (a SQL condition, a query object...), or undefined to leave
 * the whole conjunct to the residual. The same split as `splitFilter`, with the same guarantee:
 * a row that meets every translation and `residual` is exactly a row `filter` keeps. The residual is
 * the original tree when no conjunct translated.
 */
export function translateFilter<T>(filter: ExprNode | undefined, translate: (conjunct: ExprNode) => T | undefined): TranslatedFilter<T> {
  if (filter === undefined) return { pushed: [], residual: undefined };
  const pushed: T[] = [];
  const residual: ExprNode[] = [];
  for (const part of conjuncts(filter)) {
    const translation = translate(part);
    if (translation === undefined) residual.push(part);
    else pushed.push(translation);
  }
  return { pushed, residual: pushed.length === 0 ? filter : conjunction(residual) };
}

/**
 * Split a type-checked `$filter` into what `canTranslate` accepts and a residual. `canTranslate` is
 * asked about every node of each top-level conjunct (members with their navigation steps, literals,
 * operators, calls and their `TypeName` arguments); a conjunct goes to `pushed` only when it
 * accepts all of them, else the whole conjunct goes to the residual. For every entity,
 * `pushed and residual` keeps it exactly when `filter` does, so a provider that returns the rows
 * `pushed` keeps, with `residual` in `QueryResult.applied`, gives the same answer as one that
 * translates everything. Conjuncts keep their order on each side.
 */
export function splitFilter(filter: ExprNode | undefined, canTranslate: (node: ExprNode) => boolean): FilterSplit {
  const { pushed, residual } = translateFilter(filter, (part) => (everyNode(part, canTranslate) ? part : undefined));
  // The original tree when nothing is left over: a translator sees what the parser produced.
  return { pushed: residual === undefined ? filter : conjunction(pushed), residual };
}

interface ExpansionNode {
  readonly property: EdmNavigationProperty;
  readonly children: Map<string, ExpansionNode>;
}

/**
 * The `$expand` tree (every property of each related entity) of the single-valued navigation paths
 * the expressions read (`Category/Name`, `Supplier/Address/City`): what a provider puts on the
 * entities it returns with a residual filter or an order it leaves to the service, so that the
 * evaluator can read through those paths. Empty when they read no navigation.
 */
export function navigationExpansion(expressions: readonly ExprNode[], entitySet: EdmEntitySet, model: EdmModel): ExpandItem[] {
  const root = new Map<string, ExpansionNode>();
  for (const expression of expressions) {
    walkExpression(expression, {
      Member(node) {
        // A path after `cast(...)` starts at the same entity; only navigation steps need loading.
        let level = root;
        for (const step of node.steps ?? []) {
          if (step.kind !== 'Navigation') break;
          let child = level.get(step.name);
          if (child === undefined) {
            child = { property: step.property, children: new Map() };
            level.set(step.name, child);
          }
          level = child.children;
        }
      },
    });
  }
  const items = (level: ReadonlyMap<string, ExpansionNode>, source: EdmEntitySet): ExpandItem[] =>
    [...level.values()].flatMap((node) => {
      const target = model.navigationTarget(source, node.property);
      return target === undefined ? [] : [{ property: node.property, entitySet: target, select: undefined, expand: items(node.children, target) }];
    });
  return items(root, entitySet);
}
