/**
 * Compiled verbose JSON writers of property values (MS-ODATA §2.2.6.3.1, §2.2.6.3.4): primitives
 * in their JSON text form from `edm/payload-values` (Int64 and Decimal as strings, DateTime as
 * `"\/Date(ms)\/"`), complex values as objects with a `__metadata` type, null as `null`.
 */
import type { EdmComplexType, EdmPropertyTypeRef } from '../../edm/model';
import { inferPrimitiveType, jsonValueText } from '../../edm/payload-values';
import { isDecimalText } from '../../edm/decimal-text';
import { numberRange } from '../../edm/primitives';
import { fastJsonDate } from '../fast-values';
import { expectComplex, expectPrimitive, isPrimitiveValue } from '../value-guards';

/** Writes the JSON text of one value. */
export type JsonValueWriter = (value: unknown) => string;

const complexWriters = new WeakMap<EdmComplexType, JsonValueWriter>();

/** Compile the value writer of a property type; `label` names the property in errors. */
export function compileJsonValue(type: EdmPropertyTypeRef, label: string): JsonValueWriter {
  if (type.kind === 'Complex') return complexWriter(type.type);
  const typeName = type.name;
  const slow = (value: unknown): string => jsonValueText(typeName, expectPrimitive(value, label, typeName));
  switch (typeName) {
    case 'Edm.String':
      return (value) => (value === null || value === undefined ? 'null' : typeof value === 'string' ? JSON.stringify(value) : slow(value));
    case 'Edm.Byte':
    case 'Edm.SByte':
    case 'Edm.Int16':
    case 'Edm.Int32': {
      // An integer in range is its own text; NaN, fractions and the rest go to the general path, which refuses them.
      // `(value | 0) === value` alone is the Int32 range.
      if (typeName === 'Edm.Int32')
        return (value) => (value === null || value === undefined ? 'null' : typeof value === 'number' && (value | 0) === value ? '' + value : slow(value));
      const { min, max } = numberRange(typeName);
      return (value) =>
        value === null || value === undefined
          ? 'null'
          : typeof value === 'number' && (value | 0) === value && value >= min && value <= max
            ? '' + value
            : slow(value);
    }
    case 'Edm.Boolean':
      return (value) => (value === null || value === undefined ? 'null' : value === true ? 'true' : value === false ? 'false' : slow(value));
    case 'Edm.Decimal':
      // Decimal text (digits, a sign, a point) is quoted as it is: no escaping can be needed.
      return (value) => (value === null || value === undefined ? 'null' : typeof value === 'string' && isDecimalText(value) ? '"' + value + '"' : slow(value));
    case 'Edm.DateTime':
      return (value) => (value === null || value === undefined ? 'null' : ((value instanceof Date ? fastJsonDate(value) : undefined) ?? slow(value)));
  }
  return (value) => (value === null || value === undefined ? 'null' : slow(value));
}

/** `{"__metadata":{"type":"ODataDemo.Address"},"Street":...}` (compiled once per complex type). */
function complexWriter(type: EdmComplexType): JsonValueWriter {
  let compiled = complexWriters.get(type);
  if (compiled === undefined) {
    const head = `{"__metadata":{"type":${JSON.stringify(type.qualifiedName)}}`;
    const names = type.properties.map((p) => p.name);
    const keys = names.map((name) => `,${JSON.stringify(name)}:`);
    // Member writers are built on first use: a complex type may reach itself through its members.
    let members: JsonValueWriter[] | undefined;
    compiled = (value) => {
      if (value === null || value === undefined) return 'null';
      const complex = expectComplex(value, type.qualifiedName, type.qualifiedName);
      members ??= type.properties.map((p) => compileJsonValue(p.type, `${type.qualifiedName}/${p.name}`));
      let out = head;
      for (let i = 0; i < members.length; i++) out += keys[i] + members[i](complex[names[i]]);
      return out + '}';
    };
    complexWriters.set(type, compiled);
  }
  return compiled;
}

/** The JSON text of a dynamic property's value with its inferred type; undefined when it cannot be written. */
export function writeDynamicJsonValue(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (!isPrimitiveValue(value)) return undefined;
  return jsonValueText(inferPrimitiveType(value), value);
}
