/**
 * The built-in functions of the OData 2.0 expression language (MS-ODATA §2.2.3.6.1.1 methodCallExpression,
 * isofExpression, castExpression) as a table: every name with its overloads. The parser checks names
 * and arities against it, the type checker picks the overload, and tests enumerate it.
 */
import type { EdmPrimitiveTypeName } from '../../edm/primitives';

/**
 * A parameter: a primitive type, `Any` (any single value: a primitive, an entity, a dynamic
 * property), or `TypeName` (a quoted qualified type name such as `'Edm.Int32'`).
 */
type FunctionParameterType = EdmPrimitiveTypeName | 'Any' | 'TypeName';

/** What an overload returns; `TypeArgument` means the type named by the `TypeName` argument (cast). */
type FunctionReturnType = EdmPrimitiveTypeName | 'TypeArgument';

/** One overload. */
export interface FunctionSignature {
  readonly parameters: readonly FunctionParameterType[];
  readonly returns: FunctionReturnType;
}

/** A built-in function and its overloads, in preference order (the first that fits wins). */
interface BuiltinFunction {
  readonly name: string;
  readonly category: 'string' | 'date' | 'math' | 'type';
  readonly signatures: readonly FunctionSignature[];
}

const S = 'Edm.String';
const B = 'Edm.Boolean';
const I = 'Edm.Int32';

function fn(name: string, category: BuiltinFunction['category'], ...signatures: FunctionSignature[]): BuiltinFunction {
  return { name, category, signatures };
}

function sig(returns: FunctionReturnType, ...parameters: FunctionParameterType[]): FunctionSignature {
  return { parameters, returns };
}

/** Date parts: DateTime and DateTimeOffset (all), Time (hour, minute, second). */
function datePart(name: string, onTime: boolean): BuiltinFunction {
  const signatures = [sig(I, 'Edm.DateTime'), sig(I, 'Edm.DateTimeOffset')];
  if (onTime) signatures.push(sig(I, 'Edm.Time'));
  return fn(name, 'date', ...signatures);
}

/** Decimal first: an integer argument promotes to Decimal, as MS-ODATA §2.2.3.6.1.1.1 prefers it over Double. */
function rounding(name: string): BuiltinFunction {
  return fn(name, 'math', sig('Edm.Decimal', 'Edm.Decimal'), sig('Edm.Double', 'Edm.Double'));
}

const TABLE: readonly BuiltinFunction[] = [
  // MS-ODATA §2.2.3.6.1.1.1 "String Functions".
  fn('substringof', 'string', sig(B, S, S)),
  fn('endswith', 'string', sig(B, S, S)),
  fn('startswith', 'string', sig(B, S, S)),
  fn('length', 'string', sig(I, S)),
  fn('indexof', 'string', sig(I, S, S)),
  fn('replace', 'string', sig(S, S, S, S)),
  fn('substring', 'string', sig(S, S, I), sig(S, S, I, I)),
  fn('tolower', 'string', sig(S, S)),
  fn('toupper', 'string', sig(S, S)),
  fn('trim', 'string', sig(S, S)),
  fn('concat', 'string', sig(S, S, S)),
  // "Date Functions".
  datePart('day', false),
  datePart('hour', true),
  datePart('minute', true),
  datePart('month', false),
  datePart('second', true),
  datePart('year', false),
  // "Math Functions".
  rounding('round'),
  rounding('floor'),
  rounding('ceiling'),
  // "Type Functions": the one-argument form applies to the current entity.
  fn('isof', 'type', sig(B, 'TypeName'), sig(B, 'Any', 'TypeName')),
  fn('cast', 'type', sig('TypeArgument', 'TypeName'), sig('TypeArgument', 'Any', 'TypeName')),
];

/** Every built-in function by its (case-sensitive) name. */
export const BUILTIN_FUNCTIONS: ReadonlyMap<string, BuiltinFunction> = new Map(TABLE.map((f) => [f.name, f]));

/** The functions whose last argument is a type name (`isof`, `cast`). */
export function takesTypeName(name: string): boolean {
  return name === 'isof' || name === 'cast';
}

/** The argument counts a function accepts, ascending (`[2, 3]` for substring). */
export function arities(builtin: BuiltinFunction): readonly number[] {
  const counts = new Set(builtin.signatures.map((s) => s.parameters.length));
  return [...counts].sort((a, b) => a - b);
}

/** `substring(Edm.String, Edm.Int32)`: how a signature reads in an error message. */
export function formatSignature(name: string, signature: FunctionSignature): string {
  return `${name}(${signature.parameters.join(', ')})`;
}
