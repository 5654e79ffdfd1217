/**
 * Member paths of the type checker (MS-ODATA memberExpression, firstMemberExpression): `A/B/C`
 * resolved step by step through declared and inherited properties, complex members, single-valued
 * navigation properties, and dynamic properties of open entity types.
 */
import { ODataError } from '../../errors';
import type { EdmComplexType, EdmEntityType } from '../../edm/model';
import type { ExprType, MemberStep } from './ast';
import { describeType, DYNAMIC_TYPE, primitiveType } from './expr-types';
import { clip, excerpt, suggest, typeError, type ExpressionSource } from './source';

/** A structured type a member path walks through. */
type Holder = { readonly kind: 'Entity'; readonly type: EdmEntityType } | { readonly kind: 'Complex'; readonly type: EdmComplexType };

/** What a path resolved to: one step per name, and the type of the last. */
interface ResolvedPath {
  readonly steps: readonly MemberStep[];
  readonly type: ExprType;
}

/**
 * Resolve `path` from an entity of type `root`. `offset` is where the path starts in the source
 * text (for error positions). Once a step is dynamic, the rest are dynamic too.
 */
export function resolveMemberPath(path: readonly string[], root: EdmEntityType, source: ExpressionSource, offset: number): ResolvedPath {
  let holder: Holder | undefined = { kind: 'Entity', type: root };
  const steps: MemberStep[] = [];
  let type: ExprType = DYNAMIC_TYPE;
  let at = offset;
  let previous = '';
  for (const name of path) {
    at = offsetOf(source, name, at);
    if (holder === undefined) {
      if (type.kind !== 'Dynamic') {
        throw typeError(source, at, `'${clip(previous)}' is of type ${describeType(type)} and has no member '${clip(name)}'`);
      }
      steps.push({ kind: 'Dynamic', name });
    } else {
      const resolved = resolveStep(holder, name, source, at);
      steps.push(resolved.step);
      type = resolved.type;
      holder = resolved.holder;
    }
    previous = name;
    at += name.length;
  }
  return { steps, type };
}

function resolveStep(holder: Holder, name: string, source: ExpressionSource, offset: number): { step: MemberStep; type: ExprType; holder: Holder | undefined } {
  const property = holder.type.propertiesByName.get(name);
  if (property !== undefined) {
    const step: MemberStep = { kind: 'Property', name, property };
    if (property.type.kind === 'Complex') {
      const complex = property.type.type;
      return { step, type: { kind: 'Complex', qualifiedName: complex.qualifiedName }, holder: { kind: 'Complex', type: complex } };
    }
    return { step, type: primitiveType(property.type.name), holder: undefined };
  }
  if (holder.kind === 'Entity') {
    const navigation = holder.type.navigationPropertiesByName.get(name);
    if (navigation !== undefined) {
      // OData 2.0 has no any/all: a path can only continue through one related entity.
      if (navigation.isCollection) {
        throw typeError(
          source,
          offset,
          `the navigation property '${name}' leads to many ${navigation.target.qualifiedName} entities; only single-valued navigation properties can be used in a path`,
        );
      }
      return {
        step: { kind: 'Navigation', name, property: navigation },
        type: { kind: 'Entity', qualifiedName: navigation.target.qualifiedName },
        holder: { kind: 'Entity', type: navigation.target },
      };
    }
    if (holder.type.openType) return { step: { kind: 'Dynamic', name }, type: DYNAMIC_TYPE, holder: undefined };
  }
  throw unknownProperty(holder, name, source, offset);
}

/** FILTER_UNKNOWN_PROPERTY with did-you-mean, and a hint when a derived type declares the name. */
function unknownProperty(holder: Holder, name: string, source: ExpressionSource, offset: number): ODataError {
  const candidates: string[] = holder.type.properties.map((p) => p.name);
  if (holder.kind === 'Entity') candidates.push(...holder.type.navigationProperties.map((p) => p.name));
  let suggestion = suggest(name, candidates);
  if (holder.kind === 'Entity') {
    const derived = holder.type.derivedTypes.find((type) => type.propertiesByName.has(name) || type.navigationPropertiesByName.has(name));
    if (derived !== undefined) {
      suggestion += ` '${name}' is declared on the derived type '${derived.qualifiedName}': use cast('${derived.qualifiedName}')/${name}.`;
    }
  }
  return ODataError.fromCode(
    'FILTER_UNKNOWN_PROPERTY',
    { name: clip(name), type: holder.type.qualifiedName, position: offset, text: excerpt(source.text, offset), suggestion },
    { target: source.target, position: offset },
  );
}

/** Where `name` is written at or after `from` (paths may have spaces around `/`). */
function offsetOf(source: ExpressionSource, name: string, from: number): number {
  const found = source.text.indexOf(name, from);
  return found < 0 ? from : found;
}
