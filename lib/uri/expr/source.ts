/**
 * Where an expression came from, for error messages: the parser records the text of each root it
 * returns, so the type checker can quote it with positions. Also the error builders of this folder.
 */
import { ODataError } from '../../errors';
import type { ExprNode } from './ast';

const SOURCES = new WeakMap<ExprNode, ExpressionSource>();

/** The text an expression was parsed from and the query option it belongs to. */
export interface ExpressionSource {
  readonly text: string;
  /** `$filter` or `$orderby`: the error's `target`. */
  readonly target: string;
}

/** Remember the source of a parsed root. @internal */
export function recordSource(node: ExprNode, source: ExpressionSource): void {
  SOURCES.set(node, source);
}

/** The source of a root returned by `parseExpression`/`parseOrderBy`, if it was parsed from text. */
export function sourceOf(node: ExprNode): ExpressionSource | undefined {
  return SOURCES.get(node);
}

/** 400 FILTER_SYNTAX at `position` in `source`. */
export function syntaxError(source: ExpressionSource, position: number, detail: string): ODataError {
  return ODataError.fromCode(
    'FILTER_SYNTAX',
    { position, text: source.text, detail },
    { target: source.target, position },
  );
}

/** 400 FILTER_TYPE at `position` in `source`. */
export function typeError(source: ExpressionSource, position: number, detail: string): ODataError {
  return ODataError.fromCode('FILTER_TYPE', { position, text: source.text, detail }, { target: source.target, position });
}

/** 400 QUERY_LIMIT_EXCEEDED: the expression nests deeper than allowed. */
export function depthError(source: ExpressionSource, position: number, limit: number): ODataError {
  return ODataError.fromCode(
    'QUERY_LIMIT_EXCEEDED',
    {
      option: source.target,
      limit,
      detail: `the expression is nested too deeply at position ${position} in '${source.text}'`,
    },
    { target: source.target, position },
  );
}

/** Quote a piece of source text for a message, shortened when long. */
export function quote(text: string): string {
  return `'${text.length > 40 ? text.slice(0, 37) + '...' : text}'`;
}
