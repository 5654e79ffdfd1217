/**
 * Verbose JSON documents of single values and service-operation collections (MS-ODATA
 * §2.2.6.3.4-8): a property is `{"d":{"Name":value}}` in every version (SAP Gateway, Olingo and
 * WCF Data Services all write it so); a collection is `{"d":[...]}` in OData 1.0 and
 * `{"d":{"results":[...]}}` in 2.0 (the `entityCollPrimValueInVJson2` / `entityCollCTInVJson2` rules).
 */
import type { CollectionResult, PropertyResult } from '../../result';
import type { WriterContext } from '../context';
import { compileJsonValue, writeDynamicJsonValue } from './value-writer';

/** `{"d":{"Name":"Bread"}}`, `{"d":{"Address":{"__metadata":{"type":"ODataDemo.Address"},...}}}`. */
export function writeJsonProperty(result: PropertyResult): string {
  let value: string | undefined;
  if (result.type === undefined) value = writeDynamicJsonValue(result.value);
  else value = compileJsonValue(result.type, result.name)(result.value);
  if (value === undefined) throw new TypeError(`The dynamic property '${result.name}' holds a value whose type cannot be inferred.`);
  return `{"d":{${JSON.stringify(result.name)}:${value}}}`;
}

/** A collection of primitive or complex values. */
export function writeJsonCollection(result: CollectionResult, context: WriterContext): string {
  const itemType = result.itemType;
  const write = compileJsonValue(
    itemType.kind === 'Primitive' ? { kind: 'Primitive', name: itemType.name } : { kind: 'Complex', type: itemType.type },
    result.name,
  );
  let items = '';
  for (let i = 0; i < result.values.length; i++) items += (i === 0 ? '' : ',') + write(result.values[i]);
  return context.version === '1.0' ? `{"d":[${items}]}` : `{"d":{"results":[${items}]}}`;
}
