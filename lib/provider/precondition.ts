/**
 * If-Match inside the write statement (issue 13): the precondition as a filter AST over the
 * concurrency properties, and the one rule for telling 404 from 412 after a conditional write
 * that changed nothing. RFC 7232 §3.1: an If-Match that matches no current representation is 412;
 * a target that does not exist is 404 (MS-ODATA §3.2.5.1 answers 404 before any precondition).
 */
import type { EdmEntitySet, EdmEntityType } from '../edm/model';
import { entityNotFound } from './not-found';
import { ODataError } from '../errors';
import type { ExprNode } from '../uri/expr/ast';
import type { EntityKey } from '../uri/types';
import { and, binary, FALSE, literal, or, propertyMember, TRUE } from './nodes';
import type { Precondition } from './types';

/**
 * The condition an entity must meet for `precondition` to hold, over `entityType`'s concurrency
 * properties: `(Version eq 3) or (Version eq 4)` for two tags, `Version eq null` for a null token,
 * false when no tag decodes; undefined when there is nothing to check (no precondition, or `*`:
 * any existing entity matches, so the key alone decides). Compile it with the same translator as
 * `$filter` and append it to the write's `WHERE`.
 */
export function preconditionCondition(precondition: Precondition | undefined, entityType: EdmEntityType): ExprNode | undefined {
  if (precondition === undefined || precondition.any) return undefined;
  let condition: ExprNode = FALSE;
  for (const values of precondition.concurrencyValues) {
    let match: ExprNode = TRUE;
    for (const property of entityType.concurrencyProperties) {
      const type = property.type.kind === 'Primitive' ? property.type.name : undefined;
      const value = values[property.name] ?? null;
      match = and(match, binary('eq', propertyMember(entityType, property.name), literal(value, value === null ? undefined : type)));
    }
    condition = or(condition, match);
  }
  return condition;
}

/**
 * The error after a conditional write (`UPDATE … WHERE key AND precondition`, a `DELETE` alike)
 * changed no row: 412 PRECONDITION_FAILED when the entity exists, 404 ENTITY_NOT_FOUND when it
 * does not. Ask `exists` inside the same transaction as the write (a `SELECT 1 … WHERE key`, or
 * `FOR SHARE` under READ COMMITTED), so that a concurrent delete cannot turn a 404 into a 412.
 */
export function conditionalWriteError(entitySet: EdmEntitySet, key: EntityKey, exists: boolean): ODataError {
  if (exists) return ODataError.fromCode('PRECONDITION_FAILED', { header: 'If-Match' });
  return entityNotFound(entitySet, key);
}
