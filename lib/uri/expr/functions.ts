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
  readonly category: 'string' | 'date' | 'math' | 'type';
  readonly signatures: readonly FunctionSignature[];
}

const S = 'Edm.String';
const B = 'Edm.Boolean';
const I = 'Edm.Int32';

function fn(category: BuiltinFunction['category'], ...signatures: FunctionSignature[]): BuiltinFunction {
  return { category, signatures };
}

function sig(returns: FunctionReturnType, ...parameters: FunctionParameterType[]): FunctionSignature {
  return { parameters, returns };
}

/** Date parts: DateTime and DateTimeOffset (all), Time (hour, minute, second). */
function datePart(onTime: boolean): BuiltinFunction {
  const signatures = [sig(I, 'Edm.DateTime'), sig(I, 'Edm.DateTimeOffset')];
  if (onTime) signatures.push(sig(I, 'Edm.Time'));
  return fn('date', ...signatures);
}

/** Decimal first: an integer argument promotes to Decimal, as MS-ODATA §2.2.3.6.1.1.1 prefers it over Double. */
function rounding(): BuiltinFunction {
  return fn('math', sig('Edm.Decimal', 'Edm.Decimal'), sig('Edm.Double', 'Edm.Double'));
}

const TABLE = {
  // MS-ODATA §2.2.3.6.1.1.1 "String Functions".
  substringof: fn('string', sig(B, S, S)),
  endswith: fn('string', sig(B, S, S)),
  startswith: fn('string', sig(B, S, S)),
  length: fn('string', sig(I, S)),
  indexof: fn('string', sig(I, S, S)),
  replace: fn('string', sig(S, S, S, S)),
  substring: fn('string', sig(S, S, I), sig(S, S, I, I)),
  tolower: fn('string', sig(S, S)),
  toupper: fn('string', sig(S, S)),
  trim: fn('string', sig(S, S)),
  concat: fn('string', sig(S, S, S)),
  // "Date Functions".
  day: datePart(false),
  hour: datePart(true),
  minute: datePart(true),
  month: datePart(false),
  second: datePart(true),
  year: datePart(false),
  // "Math Functions".
  round: rounding(),
  floor: rounding(),
  ceiling: rounding(),
  // "Type Functions": the one-argument form applies to the current entity.
  isof: fn('type', sig(B, 'TypeName'), sig(B, 'Any', 'TypeName')),
  cast: fn('type', sig('TypeArgument', 'TypeName'), sig('TypeArgument', 'Any', 'TypeName')),
};

/**
 * The name of a built-in function (`substringof`, `year`, ...): the one union that every
 * interpreter of calls is typed against (the parser and type checker here, the evaluator, the SQL
 * compiler).
 */
export type FunctionName = keyof typeof TABLE;

/**
 * One entry per built-in function: the type of every interpreter's table of calls, so an
 * interpreter that misses a function does not compile. One that leaves a function to another
 * interpreter says so in its entry.
 */
export type FunctionTable<T> = Readonly<Record<FunctionName, T>>;

/** Every built-in function by its (case-sensitive) name. */
export const BUILTIN_FUNCTIONS: FunctionTable<BuiltinFunction> = TABLE;

/** Every function name, in the table's order. */
export const FUNCTION_NAMES = Object.keys(TABLE) as readonly FunctionName[];

/** Narrow a name from a request: true for the name of a built-in function (own names only, never `constructor`). */
export function isFunctionName(name: string): name is FunctionName {
  return Object.prototype.hasOwnProperty.call(TABLE, name);
}

/** The functions whose last argument is a type name (`isof`, `cast`). */
export function takesTypeName(name: FunctionName): name is 'isof' | 'cast' {
  return name === 'isof' || name === 'cast';
}

/** The argument counts a function accepts, ascending (`[2, 3]` for substring). */
export function arities(builtin: BuiltinFunction): readonly number[] {
  const counts = new Set(builtin.signatures.map((s) => s.parameters.length));
  return [...counts].sort((a, b) => a - b);
}

/** `substring(Edm.String, Edm.Int32)`: how a signature reads in an error message. */
export function formatSignature(name: FunctionName, signature: FunctionSignature): string {
  return `${name}(${signature.parameters.join(', ')})`;
}
