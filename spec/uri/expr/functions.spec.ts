/**
 * The built-in function table: its contents, and every overload parsed and type-checked with
 * arguments of exactly its parameter types (expr-test.xml names a property after each type).
 */
import {
  arities,
  BUILTIN_FUNCTIONS,
  checkExpression,
  describeType,
  formatSignature,
  FUNCTION_NAMES,
  parseExpression,
  type FunctionSignature,
} from '../../../lib/uri/expr';
import { catchODataError, Item, testModel } from './support';

describe('BUILTIN_FUNCTIONS', () => {
  it('lists exactly the OData 2.0 functions', () => {
    expect([...FUNCTION_NAMES].sort()).toEqual(
      [
        'substringof',
        'endswith',
        'startswith',
        'length',
        'indexof',
        'replace',
        'substring',
        'tolower',
        'toupper',
        'trim',
        'concat',
        'day',
        'hour',
        'minute',
        'month',
        'second',
        'year',
        'round',
        'floor',
        'ceiling',
        'isof',
        'cast',
      ].sort(),
    );
  });

  it.each([
    ['substring', [2, 3]],
    ['isof', [1, 2]],
    ['cast', [1, 2]],
    ['replace', [3]],
    ['length', [1]],
  ] as const)('%s takes %j arguments', (name, expected) => {
    expect(arities(BUILTIN_FUNCTIONS[name])).toEqual(expected);
  });

  it('formats signatures for messages', () => {
    expect(BUILTIN_FUNCTIONS.substring.signatures.map((s) => formatSignature('substring', s))).toEqual([
      'substring(Edm.String, Edm.Int32)',
      'substring(Edm.String, Edm.Int32, Edm.Int32)',
    ]);
  });
});

/** An argument of the parameter's type, spelled as an Item property (or a type name). */
function argument(parameter: FunctionSignature['parameters'][number], oneArgument: boolean): string {
  if (parameter === 'TypeName') return oneArgument ? "'ExprTest.SpecialItem'" : "'Edm.Decimal'";
  if (parameter === 'Any') return 'Int32';
  return parameter.slice('Edm.'.length);
}

const OVERLOADS = FUNCTION_NAMES.flatMap((name) =>
  BUILTIN_FUNCTIONS[name].signatures.map((signature) => {
    const args = signature.parameters.map((p) => argument(p, signature.parameters.length === 1));
    const returns = signature.returns === 'TypeArgument' ? (args.length === 1 ? 'ExprTest.SpecialItem' : 'Edm.Decimal') : signature.returns;
    return [`${name}(${args.join(', ')})`, returns] as const;
  }),
);

describe('every overload type-checks with arguments of its parameter types', () => {
  it.each(OVERLOADS)('%s : %s', (text, returns) => {
    const call = parseExpression(text);
    expect(call.kind).toBe('Call');
    // cast to an entity type is not sortable: check it inside a comparison with null.
    const checked = returns.startsWith('ExprTest.')
      ? checkExpression(parseExpression(`${text} eq null`), Item, testModel)
      : checkExpression(call, Item, testModel);
    const node = checked.kind === 'Binary' ? checked.left : checked;
    expect(describeType(node.type)).toBe(returns);
  });
});

describe('arity errors for every function', () => {
  const cases = FUNCTION_NAMES.map((name) => {
    const counts = arities(BUILTIN_FUNCTIONS[name]);
    const tooMany = counts[counts.length - 1] + 1;
    return [name, tooMany, counts.join(' or ')] as const;
  });

  it.each(cases)('%s with %i arguments -> FILTER_ARITY (expects %s)', (name, count, expected) => {
    const args = Array.from({ length: count }, (_, i) => (i === count - 1 && (name === 'isof' || name === 'cast') ? "'Edm.Int32'" : '1'));
    const text = `Price gt ${name}(${args.join(',')})`;
    const error = catchODataError(() => parseExpression(text));
    expect([error.code, error.position]).toEqual(['FILTER_ARITY', 9]);
    expect(error.message).toContain(`'${name}' takes ${expected} argument(s), got ${count}`);
  });
});
