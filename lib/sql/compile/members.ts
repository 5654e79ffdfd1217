/**
 * Member paths (`Price`, `Address/City`, `Category/Name`, `cast('NS.Derived')/Extra`): the resolver
 * maps them to columns and records the to-one joins they walk. A value through a navigation
 * property is null when there is no related entity, as in the evaluator.
 */
import { sql } from 'kysely';
import type { EdmEntityType, EdmNavigationProperty, EdmProperty } from '../../edm/model';
import type { ExprNode, MemberNode } from '../../uri/expr/ast';
import type { Sql } from '../dialect';
import { DEFAULT_COLUMN_PRECISION, EVALUATOR_PRECISION, untranslatable, type NodeCompiler, type SqlMemberPath, type SqlValue } from './context';

/** A member path split for the resolver, and the type test a `cast(...)/` base puts in front of it. */
interface ResolvedMember {
  readonly path: SqlMemberPath;
  /** `cast('NS.Derived')/...`: the path's entity (`navigation` so far) must be of this type, else the value is null. */
  readonly castTo?: { readonly path: SqlMemberPath; readonly type: EdmEntityType; readonly never: boolean };
}

/** The navigation steps of an entity-valued member (`Owner`, `Item/Owner`), or undefined. */
export function navigationPath(node: ExprNode): readonly EdmNavigationProperty[] | undefined {
  if (node.kind !== 'Member' || node.base !== undefined || node.steps === undefined) return undefined;
  const navigation: EdmNavigationProperty[] = [];
  for (const step of node.steps) {
    if (step.kind !== 'Navigation') return undefined;
    navigation.push(step.property);
  }
  return navigation;
}

/** Where a `cast` base leaves the path: the navigation walked to the cast entity, and the type. */
function castBase(base: ExprNode): { navigation: readonly EdmNavigationProperty[]; type: EdmEntityType; never: boolean } {
  const call = base.kind === 'Call' && base.name === 'cast' ? base : undefined;
  const typeName = call?.args[call.args.length - 1];
  const type = typeName?.kind === 'TypeName' ? typeName.entityType : undefined;
  if (call === undefined || type === undefined) return untranslatable('a member of something other than a cast to an entity type');
  const navigation = call.args.length === 1 ? [] : navigationPath(call.args[0]);
  if (navigation === undefined) return untranslatable('a cast of an expression that is not a navigation path');
  // The checker marks a type outside the subject's hierarchy: the cast is null for every entity.
  return { navigation, type, never: typeName?.kind === 'TypeName' && typeName.neverMatches === true };
}

function resolveMember(node: MemberNode): ResolvedMember {
  if (node.steps === undefined) return untranslatable(`the member '${node.path.join('/')}' was not type-checked`);
  const base = node.base === undefined ? undefined : castBase(node.base);
  const navigation: EdmNavigationProperty[] = base === undefined ? [] : [...base.navigation];
  const properties: EdmProperty[] = [];
  for (const step of node.steps) {
    if (step.kind === 'Dynamic') return untranslatable(`the dynamic property '${step.name}'`);
    if (step.kind === 'Navigation') {
      if (properties.length > 0) return untranslatable('a navigation property after a structural one');
      navigation.push(step.property);
    } else {
      properties.push(step.property);
    }
  }
  const path = { navigation, properties };
  return base === undefined ? { path } : { path, castTo: { path: { navigation: base.navigation, properties: [] }, type: base.type, never: base.never } };
}

function instanceTest(c: NodeCompiler, castTo: NonNullable<ResolvedMember['castTo']>): Sql {
  const test = c.state.context.resolver.isInstance?.(castTo.path, castTo.type);
  if (test === undefined) return untranslatable(`a type test for ${castTo.type.qualifiedName}`);
  // A constant, known as one: ORDER BY leaves it out (PostgreSQL refuses `order by true`).
  return typeof test === 'boolean' ? c.state.constant(test) : sql`${test}`;
}

/** A member path ending in a primitive property, as a value. */
export function compileMember(c: NodeCompiler, node: MemberNode): SqlValue {
  const { path, castTo } = resolveMember(node);
  const last = path.properties[path.properties.length - 1];
  if (last === undefined || last.type.kind !== 'Primitive') return untranslatable(`the non-primitive member '${node.path.join('/')}' as a value`);
  const column = c.state.context.resolver.column(path) ?? untranslatable(`no column for '${node.path.join('/')}'`);
  const type = last.type.name;
  const precision =
    type === 'Edm.DateTime' || type === 'Edm.DateTimeOffset' || type === 'Edm.Time' ? (column.precision ?? DEFAULT_COLUMN_PRECISION) : EVALUATOR_PRECISION;
  const reference = c.state.markCheap(sql`${column.sql}`);
  const nullable = column.nullable || path.navigation.length > 0;
  if (castTo === undefined) return { sql: reference, type, nullable, realColumn: type === 'Edm.Single', precision, column: true };
  if (castTo.never) return { sql: c.state.constant(type), type, nullable: true, realColumn: false, precision: EVALUATOR_PRECISION, column: false };
  // cast('NS.Derived')/Prop: null for an entity of another type (the evaluator's cast gives null).
  const guarded = sql`(case when ${instanceTest(c, castTo)} then ${reference} end)`;
  return { sql: guarded, type, nullable: true, realColumn: type === 'Edm.Single', precision, column: false };
}

/** An expression that is null exactly when an entity- or complex-valued member has no value. */
export function presenceOf(c: NodeCompiler, node: ExprNode): Sql {
  if (node.kind !== 'Member') return untranslatable('a null test of a computed entity');
  const { path, castTo } = resolveMember(node);
  if (castTo !== undefined) return untranslatable('a null test through a cast');
  const presence = c.state.context.resolver.presence?.(path);
  return presence === undefined ? untranslatable(`a null test of '${node.path.join('/')}'`) : sql`${presence}`;
}

/** The condition `isof(path, type)` for an entity-valued path (empty: the current entity). */
export function instanceOf(c: NodeCompiler, navigation: readonly EdmNavigationProperty[], type: EdmEntityType): Sql {
  return instanceTest(c, { path: { navigation, properties: [] }, type, never: false });
}
