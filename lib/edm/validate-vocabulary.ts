/**
 * Validation of vocabulary annotations and references: every `<Annotations Target>` names an
 * element of the model (a typo would otherwise be ignored by every client, silently), terms and
 * record types are qualified names, qualifiers and record properties are identifiers, constants of
 * Bool and Int are what they say, and reference aliases are unique. Part of the model validator.
 * @internal
 */
import { isReadonlyArray } from '../util';
import type { ComplexTypeDefinition, EntityTypeDefinition, PropertyDefinition } from './definition';
import { isNamespaceName, isSimpleIdentifier, suggestion, type DefinitionIndex } from './definition-index';
import { OASIS_EDM_NAMESPACE } from './namespaces';
import type { AnnotationExpression, AnnotationPropertyValue, VocabularyAnnotation, VocabularyAnnotations } from './vocabulary-definition';
import { isValueKind } from './vocabulary-xml';

const isQualifiedName = (name: unknown): boolean => isNamespaceName(name) && (name as string).includes('.');

/** Problems of every schema's vocabulary annotations and of the model's references. */
export function vocabularyProblems(index: DefinitionIndex): string[] {
  const problems: string[] = [];
  checkReferences(index, problems);
  for (const schema of index.definition.schemas) {
    if (schema.vocabularyAnnotations === undefined) continue;
    if (!isReadonlyArray(schema.vocabularyAnnotations)) {
      problems.push(`Schema '${schema.namespace}': vocabularyAnnotations must be an array`);
      continue;
    }
    for (const group of schema.vocabularyAnnotations)
      checkGroup(index, `Schema '${schema.namespace}' / Annotations '${String(group.target)}'`, group, problems);
  }
  return problems;
}

function checkReferences(index: DefinitionIndex, problems: string[]): void {
  const prefixes = new Set(index.definition.schemas.flatMap((schema) => [schema.namespace, ...(schema.alias === undefined ? [] : [schema.alias])]));
  for (const reference of index.definition.references ?? []) {
    const path = `Reference '${String(reference.uri)}'`;
    if (typeof reference.uri !== 'string' || reference.uri === '') problems.push(`${path}: Uri must be a non-empty string`);
    for (const include of reference.includes ?? []) {
      if (!isNamespaceName(include.namespace)) problems.push(`${path} / Include '${String(include.namespace)}': invalid namespace`);
      if (include.alias === undefined) continue;
      if (!isSimpleIdentifier(include.alias)) problems.push(`${path} / Include '${include.namespace}': invalid alias '${include.alias}'`);
      else if (prefixes.has(include.alias))
        problems.push(`${path} / Include '${include.namespace}': the alias '${include.alias}' is already used as a namespace or alias`);
      prefixes.add(include.alias);
    }
    for (const include of reference.includeAnnotations ?? []) {
      if (!isNamespaceName(include.termNamespace)) problems.push(`${path} / IncludeAnnotations '${String(include.termNamespace)}': invalid term namespace`);
    }
  }
}

function checkGroup(index: DefinitionIndex, path: string, group: VocabularyAnnotations, problems: string[]): void {
  const targetProblem = typeof group.target === 'string' ? targetError(index, group.target) : 'Target must be a string';
  if (targetProblem !== undefined) problems.push(`${path}: ${targetProblem}`);
  if (group.qualifier !== undefined && !isSimpleIdentifier(group.qualifier)) problems.push(`${path}: invalid Qualifier '${String(group.qualifier)}'`);
  if (!isReadonlyArray(group.annotations)) problems.push(`${path}: annotations must be an array`);
  else for (const annotation of group.annotations) checkAnnotation(path, annotation, problems);
}

function checkAnnotation(parent: string, annotation: VocabularyAnnotation, problems: string[]): void {
  const path = `${parent} / Annotation '${String(annotation.term)}${annotation.qualifier === undefined ? '' : `#${String(annotation.qualifier)}`}'`;
  if (!isQualifiedName(annotation.term)) problems.push(`${path}: Term must be a qualified name (Alias.Term or Namespace.Term)`);
  if (annotation.qualifier !== undefined && !isSimpleIdentifier(annotation.qualifier)) problems.push(`${path}: invalid Qualifier`);
  if (annotation.value !== undefined) checkExpression(path, annotation.value, problems);
  for (const nested of annotation.annotations ?? []) checkAnnotation(path, nested, problems);
}

function checkPropertyValue(parent: string, propertyValue: AnnotationPropertyValue, problems: string[]): void {
  const path = `${parent} / PropertyValue '${String(propertyValue.property)}'`;
  if (!isSimpleIdentifier(propertyValue.property)) problems.push(`${path}: invalid Property name`);
  if (propertyValue.value !== undefined) checkExpression(path, propertyValue.value, problems);
  for (const nested of propertyValue.annotations ?? []) checkAnnotation(path, nested, problems);
}

function checkExpression(path: string, expression: AnnotationExpression, problems: string[]): void {
  switch (expression.kind) {
    case 'Record':
      if (expression.type !== undefined && !isQualifiedName(expression.type)) problems.push(`${path} / Record: Type must be a qualified name`);
      for (const propertyValue of expression.propertyValues ?? []) checkPropertyValue(`${path} / Record`, propertyValue, problems);
      for (const nested of expression.annotations ?? []) checkAnnotation(`${path} / Record`, nested, problems);
      return;
    case 'Collection':
      if (!isReadonlyArray(expression.items)) problems.push(`${path} / Collection: items must be an array`);
      else for (const item of expression.items) checkExpression(`${path} / Collection`, item, problems);
      return;
    case 'Null':
      for (const nested of expression.annotations ?? []) checkAnnotation(`${path} / Null`, nested, problems);
      return;
    case 'Xml':
      if (expression.element?.namespace !== OASIS_EDM_NAMESPACE) problems.push(`${path}: a dynamic expression must be an element of ${OASIS_EDM_NAMESPACE}`);
      return;
    default:
      checkValue(path, expression.kind, expression.value, problems);
  }
}

function checkValue(path: string, kind: string, value: unknown, problems: string[]): void {
  if (!isValueKind(kind)) problems.push(`${path}: '${kind}' is not an annotation expression`);
  else if (typeof value !== 'string') problems.push(`${path} / ${kind}: the value must be a string`);
  else if (kind === 'Bool' && value !== 'true' && value !== 'false') problems.push(`${path} / Bool: '${value}' is not true or false`);
  else if (kind === 'Int' && !/^[-+]?\d+$/.test(value)) problems.push(`${path} / Int: '${value}' is not an integer`);
}

/**
 * Why a target names nothing, or undefined when it names an element: a type, a member of it
 * (through complex properties), an association, a container or one of its members (and a function
 * import's parameter).
 */
function targetError(index: DefinitionIndex, target: string): string | undefined {
  const [head, ...rest] = target.split('/');
  const entity = index.entityType(head);
  if (entity !== undefined) return memberError(index, entity.definition, rest, head);
  const complex = index.complexType(head);
  if (complex !== undefined) return memberError(index, complex.definition, rest, head);
  if (index.association(head) !== undefined) return rest.length === 0 ? undefined : `Target: an association has no members to annotate ('${target}')`;
  const qualified = index.qualify(head);
  const container = index.containers.find((candidate) => candidate.qualifiedName === qualified);
  if (container !== undefined) {
    if (rest.length === 0) return undefined;
    const { entitySets = [], associationSets = [], functionImports = [] } = container.definition;
    const names = [...entitySets, ...associationSets, ...functionImports].map((member) => member.name);
    const functionImport = functionImports.find((candidate) => candidate.name === rest[0]);
    if (!names.includes(rest[0]))
      return `Target: the container '${head}' has no entity set, association set or function import '${rest[0]}'${suggestion(rest[0], names)}`;
    if (rest.length === 1) return undefined;
    const parameters = (functionImport?.parameters ?? []).map((parameter) => parameter.name);
    if (rest.length === 2 && parameters.includes(rest[1])) return undefined;
    return `Target: '${rest.slice(1).join('/')}' is not a parameter of '${head}/${rest[0]}'${suggestion(rest[1], parameters)}`;
  }
  const known = [
    ...index.entityTypes.keys(),
    ...index.complexTypes.keys(),
    ...index.associations.keys(),
    ...index.containers.map((candidate) => candidate.qualifiedName),
  ];
  return `Target: no type, association or entity container '${head}' in the model${suggestion(head, known)}`;
}

/** Why `path` names no property (or navigation property) of `type`, following complex properties. */
function memberError(index: DefinitionIndex, type: EntityTypeDefinition | ComplexTypeDefinition, path: readonly string[], head: string): string | undefined {
  if (path.length === 0) return undefined;
  const [name, ...rest] = path;
  // Complex types have neither base types nor navigation properties: both lists stay empty for them.
  const lineage: EntityTypeDefinition[] = [type, ...index.baseTypes(type).map((base) => base.definition)];
  const properties: PropertyDefinition[] = lineage.flatMap((t) => t.properties ?? []);
  const navigations: string[] = lineage.flatMap((t) => (t.navigationProperties ?? []).map((navigation) => navigation.name));
  const property = properties.find((candidate) => candidate.name === name);
  if (property === undefined && navigations.includes(name) && rest.length === 0) return undefined;
  if (property === undefined) {
    const names = [...properties.map((member) => member.name), ...navigations];
    return `Target: '${head}' has no property or navigation property '${name}'${suggestion(name, names)}`;
  }
  if (rest.length === 0) return undefined;
  const complex = index.complexType(property.type);
  if (complex === undefined) return `Target: the property '${head}/${name}' is not of a complex type, so it has no member '${rest[0]}'`;
  return memberError(index, complex.definition, rest, `${head}/${name}`);
}
