/**
 * One function-name type for every interpreter of calls: the parser and type checker read the
 * built-in table (lib/uri/expr/functions.ts), and the evaluator and the SQL compiler are tables
 * typed `FunctionTable<…>` over its names, so an interpreter that misses a function does not
 * compile. `npm run typecheck` compiles this file: each `@ts-expect-error` line must fail to
 * compile (tsc reports an unused one), and the assignments without it must compile. Jest runs the
 * same tables at run time.
 */
import { FUNCTION_EVALUATORS } from '../../../lib/evaluate/builtins';
import { FUNCTION_TRANSLATIONS } from '../../../lib/sql/compile/functions';
import type { CallNode } from '../../../lib/uri/expr/ast';
import { BUILTIN_FUNCTIONS, FUNCTION_NAMES, isFunctionName, type FunctionName, type FunctionTable } from '../../../lib/uri/expr/functions';

// Every interpreter's table is a complete function table.
const evaluators: FunctionTable<unknown> = FUNCTION_EVALUATORS;
const translations: FunctionTable<unknown> = FUNCTION_TRANSLATIONS;
const signatures: FunctionTable<unknown> = BUILTIN_FUNCTIONS;

// An interpreter without one function is not one.
const { substringof: _evaluated, ...evaluatorWithoutSubstringof } = FUNCTION_EVALUATORS;
// @ts-expect-error: an evaluator without `substringof` is not a function table
const incompleteEvaluator: FunctionTable<unknown> = evaluatorWithoutSubstringof;

const { year: _translated, ...compilerWithoutYear } = FUNCTION_TRANSLATIONS;
// @ts-expect-error: an SQL compiler without `year` is not a function table (an untranslated function is an entry that says why)
const incompleteCompiler: FunctionTable<unknown> = compilerWithoutYear;

// A table names only the language's functions, and a call names one of them.
// @ts-expect-error: `contains` is an OData 4 function, not one of OData 2.0
const unknownName: FunctionName = 'contains';
// @ts-expect-error: a CallNode's name is a FunctionName, not any string
const unknownCall: CallNode = { kind: 'Call', name: 'substringOf', args: [] };

describe('the function tables', () => {
  it.each([
    ['the evaluator', evaluators],
    ['the SQL compiler', translations],
    ['the type checker', signatures],
  ])('%s has an entry for exactly the built-in functions', (_name, table) => {
    expect(Object.keys(table).sort()).toEqual([...FUNCTION_NAMES].sort());
  });

  it('refuses at compile time exactly the tables that lack a function', () => {
    expect(FUNCTION_NAMES.filter((name) => !(name in incompleteEvaluator))).toEqual(['substringof']);
    expect(FUNCTION_NAMES.filter((name) => !(name in incompleteCompiler))).toEqual(['year']);
  });

  it('narrows a name from a request to a function name by own names only', () => {
    expect(FUNCTION_NAMES.every(isFunctionName)).toBe(true);
    expect([unknownName, unknownCall.name, 'constructor', '__proto__', 'toString', 'SubstringOf'].filter(isFunctionName)).toEqual([]);
  });
});
