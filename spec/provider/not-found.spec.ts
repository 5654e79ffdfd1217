import type { EdmModel } from '../../lib/edm/model';
import { entityNotFound, isKeyedPath, mediaResourceNotFound, pathNotFound, pathPrefixesThatMayFail } from '../../lib/provider/not-found';
import type { KeyedEntityPath } from '../../lib/uri/types';
import { describeFailure } from '../helpers/odata-error';
import { ORDER_A, setOf, shopModel } from '../providers/memory/models';
import { pathOf } from '../providers/memory/paths';

describe('the kit’s not-found rules', () => {
  let model: EdmModel;
  beforeAll(() => {
    model = shopModel();
  });

  const keyed = (path: ReturnType<typeof pathOf>): KeyedEntityPath => {
    if (!isKeyedPath(path)) throw new Error('expected a keyed path');
    return path;
  };

  it('tells a whole set from a path that starts at one entity', () => {
    expect(isKeyedPath(pathOf(model, 'Customers', undefined))).toBe(false);
    expect(isKeyedPath(pathOf(model, 'Customers', { ID: '2' }))).toBe(true);
  });

  it.each<[string, () => KeyedEntityPath, number[]]>([
    ['a key alone: the root', () => keyed(pathOf(model, 'Customers', { ID: '2' })), [0]],
    ['a last many-valued hop without key: only the root', () => keyed(pathOf(model, 'Orders', { ID: ORDER_A }, ['Lines'])), [0]],
    [
      'a last single-valued hop: only the root (no link is an empty result)',
      () => keyed(pathOf(model, 'Lines', { OrderID: ORDER_A, No: 2 }, ['Product'])),
      [0],
    ],
    [
      'a single-valued hop before the last, and every keyed hop',
      () => keyed(pathOf(model, 'Employees', { ID: 1 }, ['Manager'], ['Reports', { ID: 3 }])),
      [0, 1, 2],
    ],
  ])('checks %s', (_what, path, prefixes) => {
    expect(pathPrefixesThatMayFail(path())).toEqual(prefixes);
  });

  it('answers the 404 of the first missing prefix: the key of the root or a hop, or the unlinked single-valued hop', () => {
    const path = keyed(pathOf(model, 'Employees', { ID: 1 }, ['Manager'], ['Reports', { ID: 3 }]));
    expect(
      describeFailure(() => {
        throw pathNotFound(path, 0);
      }),
    ).toBe("404 ENTITY_NOT_FOUND: No entity with the key (1) exists in 'Employees'.");
    expect(
      describeFailure(() => {
        throw pathNotFound(path, 1);
      }),
    ).toBe("404 RESOURCE_NOT_FOUND: Resource not found for the segment 'Manager'.");
    expect(
      describeFailure(() => {
        throw pathNotFound(path, 2);
      }),
    ).toBe("404 ENTITY_NOT_FOUND: No entity with the key (3) exists in 'Employees'.");
  });

  it('answers a media link entry without its media resource as the $value segment not found', () => {
    expect(
      describeFailure(() => {
        throw mediaResourceNotFound();
      }),
    ).toBe("404 RESOURCE_NOT_FOUND: Resource not found for the segment '$value'.");
  });

  it('names the collection a key is missing from when the entity is looked for over a link', () => {
    const employees = setOf(model, 'Employees');
    const reports = employees.entityType.navigationPropertiesByName.get('Reports');
    if (reports === undefined) throw new Error('no Reports');
    expect(
      describeFailure(() => {
        throw entityNotFound(employees, { ID: 4 }, { source: { entitySet: employees, key: { ID: 1 } }, navigationProperty: reports });
      }),
    ).toBe("404 ENTITY_NOT_FOUND: No entity with the key (4) exists in 'Employees(1)/Reports'.");
    expect(
      describeFailure(() => {
        throw entityNotFound(employees, { ID: 4 });
      }),
    ).toBe("404 ENTITY_NOT_FOUND: No entity with the key (4) exists in 'Employees'.");
  });
});
