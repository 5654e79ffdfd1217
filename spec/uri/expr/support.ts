/** Models and helpers shared by the expression and evaluator specs. */
import { readFileSync } from 'fs';
import { join } from 'path';
import { loadEdmx } from '../../../lib/edm';
import type { EdmEntityType, EdmModel } from '../../../lib/edm/model';
import type { ExprNode } from '../../../lib/uri/expr/ast';
import { transformExpression } from '../../../lib/uri/expr';
export { catchODataError } from '../../helpers/odata-error';

const FIXTURES = join(__dirname, '..', '..', 'fixtures');

/** The ODataDemo model (Products, Categories, Suppliers). */
export const demoModel: EdmModel = loadEdmx(readFileSync(join(FIXTURES, 'odata-demo', 'metadata.xml'), 'utf8'));
/** expr-test.xml: every primitive type, complex values, inheritance, an open type, navigation. */
export const testModel: EdmModel = loadEdmx(readFileSync(join(FIXTURES, 'expr-test.xml'), 'utf8'));

function entityType(model: EdmModel, name: string): EdmEntityType {
  const type = model.entityTypes.get(name);
  if (type === undefined) throw new Error(`no entity type ${name}`);
  return type;
}

export const Product = entityType(demoModel, 'ODataDemo.Product');
export const Supplier = entityType(demoModel, 'ODataDemo.Supplier');
export const Item = entityType(testModel, 'ExprTest.Item');
export const SpecialItem = entityType(testModel, 'ExprTest.SpecialItem');
export const Person = entityType(testModel, 'ExprTest.Person');

/** The tree without `loc` (for "equal modulo positions"). */
export function withoutLoc(node: ExprNode): ExprNode {
  return transformExpression(node, (current) => {
    if (current.loc === undefined) return current;
    const { loc: _loc, ...rest } = current;
    return rest;
  });
}
