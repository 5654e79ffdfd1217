/**
 * Where an expression came from, for error messages: the parser records the text of each root it
 * returns, so the type checker can quote it with positions. Also the error builders of this folder.
 */
import { ODataError } from '../../errors';
import { didYouMean } from '../../util';
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

/** Longest source text echoed whole in a message; longer texts are cut to a window around the position. */
const MAX_ECHO = 200;

/** The source text as a message quotes it: whole when short, else the part around `position`. */
export function excerpt(text: string, position: number): string {
  if (text.length <= MAX_ECHO) return text;
  const start = Math.max(0, Math.min(position - MAX_ECHO / 2, text.length - MAX_ECHO));
  return (start > 0 ? '...' : '') + text.slice(start, start + MAX_ECHO) + (start + MAX_ECHO < text.length ? '...' : '');
}

/** A name or token as a message quotes it, cut short when long. */
export function clip(text: string): string {
  return text.length > 60 ? text.slice(0, 57) + '...' : text;
}

/** " Did you mean 'x'?" for a misspelled name; nothing for absurdly long ones (the distance is quadratic). */
export function suggest(name: string, candidates: Iterable<string>): string {
  return name.length > 64 ? '' : didYouMean(name, candidates);
}

/** 400 FILTER_SYNTAX at `position` in `source`. */
export function syntaxError(source: ExpressionSource, position: number, detail: string): ODataError {
  return ODataError.fromCode('FILTER_SYNTAX', { position, text: excerpt(source.text, position), detail }, { target: source.target, position });
}

/** 400 FILTER_TYPE at `position` in `source`. */
export function typeError(source: ExpressionSource, position: number, detail: string): ODataError {
  return ODataError.fromCode('FILTER_TYPE', { position, text: excerpt(source.text, position), detail }, { target: source.target, position });
}

/** 400 QUERY_LIMIT_EXCEEDED: the expression nests deeper than allowed. */
export function depthError(source: ExpressionSource, position: number, limit: number): ODataError {
  return ODataError.fromCode(
    'QUERY_LIMIT_EXCEEDED',
    {
      option: source.target,
      limit,
      detail: `the expression is nested too deeply at position ${position} in '${excerpt(source.text, position)}'`,
    },
    { target: source.target, position },
  );
}
