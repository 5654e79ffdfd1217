/**
 * Vocabulary annotations and references between their XML form (CSDL XML 4.01 §3.3, §14, in the
 * OASIS namespaces) and their definitions. Reading is strict about structure (an unknown attribute
 * or a misplaced element is EDMX_UNSUPPORTED with its line) and keeps every value as written, the
 * attribute or element notation included, so a document reads, writes and reads back the same.
 * Writing yields foreign-element trees that the EDMX writer prints as it prints any annotation.
 * @internal
 */
import type { AnnotationAttribute, AnnotationElement } from './definition';
import { toAnnotationElement, unsupported } from './edmx-element';
import { OASIS_EDM_NAMESPACE, OASIS_EDMX_NAMESPACE } from './namespaces';
import type {
  AnnotationConstantKind,
  AnnotationExpression,
  AnnotationPathKind,
  AnnotationPropertyValue,
  ReferenceDefinition,
  VocabularyAnnotation,
  VocabularyAnnotations,
} from './vocabulary-definition';
import type { XmlElement } from './xml-tree';

/** Constants and paths: each has an element and an attribute notation (§14.4). */
const VALUE_KINDS: ReadonlySet<string> = new Set<AnnotationConstantKind | AnnotationPathKind>([
  'Binary',
  'Bool',
  'Date',
  'DateTimeOffset',
  'Decimal',
  'Duration',
  'EnumMember',
  'Float',
  'Guid',
  'Int',
  'String',
  'TimeOfDay',
  'AnnotationPath',
  'ModelElementPath',
  'NavigationPropertyPath',
  'Path',
  'PropertyPath',
]);

/** Dynamic expressions (§14.5), kept as written. */
const DYNAMIC_KINDS: ReadonlySet<string> = new Set([
  'And',
  'Or',
  'Not',
  'Eq',
  'Ne',
  'Gt',
  'Ge',
  'Lt',
  'Le',
  'Has',
  'In',
  'Add',
  'Sub',
  'Neg',
  'Mul',
  'Div',
  'DivBy',
  'Mod',
  'Apply',
  'Cast',
  'If',
  'IsOf',
  'LabeledElement',
  'LabeledElementReference',
  'UrlRef',
]);

/** Whether `name` is a constant or path expression's element (or attribute) name. */
export function isValueKind(name: string): name is AnnotationConstantKind | AnnotationPathKind {
  return VALUE_KINDS.has(name);
}

/** An element's attributes by name, refusing any not in `allowed` (and any in a namespace). */
function attributesOf(element: XmlElement, allowed: (name: string) => boolean): Map<string, string> {
  const values = new Map<string, string>();
  for (const attribute of element.attributes) {
    if (attribute.uri !== '' || !allowed(attribute.local))
      unsupported(element, `the attribute ${attribute.prefix === '' ? '' : `${attribute.prefix}:`}${attribute.local} is not allowed here`);
    values.set(attribute.local, attribute.value);
  }
  return values;
}

function required(element: XmlElement, values: ReadonlyMap<string, string>, name: string): string {
  const value = values.get(name);
  if (value === undefined) unsupported(element, `the attribute ${name} is required`);
  return value;
}

/** Child elements in `namespace`; text other than whitespace, and elements of other namespaces, are refused. */
function childElements(element: XmlElement, namespace: string): XmlElement[] {
  const children: XmlElement[] = [];
  for (const child of element.children) {
    if (typeof child === 'string') {
      if (child.trim() !== '') unsupported(element, `text is not allowed inside <${element.local}>`);
    } else if (child.uri !== namespace)
      unsupported(child, `<${child.local}> in the namespace ${child.uri || '(none)'} is not allowed inside <${element.local}>`);
    else children.push(child);
  }
  return children;
}

/** The value in attribute notation, if one of the value attributes is present (at most one may be). */
function attributeValue(element: XmlElement, values: ReadonlyMap<string, string>): AnnotationExpression | undefined {
  const given = [...values].filter(([name]) => isValueKind(name));
  if (given.length > 1) unsupported(element, `a value is given twice (${given.map(([name]) => name).join(', ')})`);
  if (given.length === 0) return undefined;
  const [kind, value] = given[0];
  return isValueKind(kind) ? { kind, value } : undefined;
}

/** Nested annotations and at most one expression among the children; the expression then takes the element notation. */
function valueAndAnnotations(
  element: XmlElement,
  inAttribute: AnnotationExpression | undefined,
): { value?: AnnotationExpression; annotations?: VocabularyAnnotation[] } {
  const annotations: VocabularyAnnotation[] = [];
  let value = inAttribute;
  for (const child of childElements(element, OASIS_EDM_NAMESPACE)) {
    if (child.local === 'Annotation') {
      annotations.push(readAnnotation(child));
      continue;
    }
    if (value !== undefined) unsupported(child, `<${element.local}> has one value, and this is a second`);
    const expression = readExpression(child);
    value =
      expression.kind !== 'Record' && expression.kind !== 'Collection' && expression.kind !== 'Null' && expression.kind !== 'Xml'
        ? { ...expression, notation: 'element' }
        : expression;
  }
  return { ...(value !== undefined ? { value } : {}), ...(annotations.length > 0 ? { annotations } : {}) };
}

function readExpression(element: XmlElement): AnnotationExpression {
  const { local } = element;
  if (isValueKind(local)) {
    attributesOf(element, () => false);
    const parts = element.children.map((child) => (typeof child === 'string' ? child : unsupported(child, `<${local}> holds text only`)));
    return { kind: local, value: parts.join('') };
  }
  if (local === 'Record') {
    const type = attributesOf(element, (name) => name === 'Type').get('Type');
    const propertyValues: AnnotationPropertyValue[] = [];
    const annotations: VocabularyAnnotation[] = [];
    for (const child of childElements(element, OASIS_EDM_NAMESPACE)) {
      if (child.local === 'PropertyValue') propertyValues.push(readPropertyValue(child));
      else if (child.local === 'Annotation') annotations.push(readAnnotation(child));
      else unsupported(child, `a <${child.local}> element is not allowed inside <Record>`);
    }
    return {
      kind: 'Record',
      ...(type !== undefined ? { type } : {}),
      ...(propertyValues.length > 0 ? { propertyValues } : {}),
      ...(annotations.length > 0 ? { annotations } : {}),
    };
  }
  if (local === 'Collection') {
    attributesOf(element, () => false);
    return { kind: 'Collection', items: childElements(element, OASIS_EDM_NAMESPACE).map(readExpression) };
  }
  if (local === 'Null') {
    attributesOf(element, () => false);
    const annotations = childElements(element, OASIS_EDM_NAMESPACE).map((child) =>
      child.local === 'Annotation' ? readAnnotation(child) : unsupported(child, 'only <Annotation> elements are allowed inside <Null>'),
    );
    return { kind: 'Null', ...(annotations.length > 0 ? { annotations } : {}) };
  }
  if (DYNAMIC_KINDS.has(local)) return { kind: 'Xml', element: toAnnotationElement(element) };
  return unsupported(element, `<${local}> is not an annotation expression`);
}

function readPropertyValue(element: XmlElement): AnnotationPropertyValue {
  const values = attributesOf(element, (name) => name === 'Property' || isValueKind(name));
  return { property: required(element, values, 'Property'), ...valueAndAnnotations(element, attributeValue(element, values)) };
}

function readAnnotation(element: XmlElement): VocabularyAnnotation {
  const values = attributesOf(element, (name) => name === 'Term' || name === 'Qualifier' || isValueKind(name));
  const qualifier = values.get('Qualifier');
  return {
    term: required(element, values, 'Term'),
    ...(qualifier !== undefined ? { qualifier } : {}),
    ...valueAndAnnotations(element, attributeValue(element, values)),
  };
}

/** `<Annotations Target="..." [Qualifier="..."]>` with its `<Annotation>` children. */
export function readVocabularyAnnotations(element: XmlElement): VocabularyAnnotations {
  const values = attributesOf(element, (name) => name === 'Target' || name === 'Qualifier');
  const qualifier = values.get('Qualifier');
  const annotations = childElements(element, OASIS_EDM_NAMESPACE).map((child) =>
    child.local === 'Annotation' ? readAnnotation(child) : unsupported(child, 'only <Annotation> elements are allowed inside <Annotations>'),
  );
  return { target: required(element, values, 'Target'), ...(qualifier !== undefined ? { qualifier } : {}), annotations };
}

/** `<edmx:Reference Uri="...">` with its `edmx:Include` and `edmx:IncludeAnnotations` children. */
export function readReference(element: XmlElement): ReferenceDefinition {
  const uri = required(
    element,
    attributesOf(element, (name) => name === 'Uri'),
    'Uri',
  );
  const includes: { namespace: string; alias?: string }[] = [];
  const includeAnnotations: { termNamespace: string; qualifier?: string; targetNamespace?: string }[] = [];
  for (const child of childElements(element, OASIS_EDMX_NAMESPACE)) {
    if (child.local === 'Include') {
      const values = attributesOf(child, (name) => name === 'Namespace' || name === 'Alias');
      const alias = values.get('Alias');
      includes.push({ namespace: required(child, values, 'Namespace'), ...(alias !== undefined ? { alias } : {}) });
    } else if (child.local === 'IncludeAnnotations') {
      const values = attributesOf(child, (name) => name === 'TermNamespace' || name === 'Qualifier' || name === 'TargetNamespace');
      const qualifier = values.get('Qualifier');
      const target = values.get('TargetNamespace');
      includeAnnotations.push({
        termNamespace: required(child, values, 'TermNamespace'),
        ...(qualifier !== undefined ? { qualifier } : {}),
        ...(target !== undefined ? { targetNamespace: target } : {}),
      });
    } else unsupported(child, `edmx:${child.local} is not allowed inside edmx:Reference`);
  }
  return { uri, ...(includes.length > 0 ? { includes } : {}), ...(includeAnnotations.length > 0 ? { includeAnnotations } : {}) };
}

// --- writing -------------------------------------------------------------------------------------

const attribute = (name: string, value: string): AnnotationAttribute => ({ namespace: '', name, value });

/** An element of the OASIS CSDL namespace, unprefixed (SAPUI5's parser compares unprefixed node names). */
function edm(name: string, attributes: AnnotationAttribute[], children: (AnnotationElement | string)[] = []): AnnotationElement {
  return { namespace: OASIS_EDM_NAMESPACE, name, ...(attributes.length > 0 ? { attributes } : {}), ...(children.length > 0 ? { children } : {}) };
}

/** The value as an attribute (attribute notation) or as a child element. */
function withValue(attributes: AnnotationAttribute[], children: AnnotationElement[], value: AnnotationExpression | undefined): void {
  if (value === undefined) return;
  if (value.kind !== 'Record' && value.kind !== 'Collection' && value.kind !== 'Null' && value.kind !== 'Xml' && value.notation !== 'element') {
    attributes.push(attribute(value.kind, value.value));
  } else children.push(expressionElement(value));
}

function expressionElement(expression: AnnotationExpression): AnnotationElement {
  switch (expression.kind) {
    case 'Record': {
      const children = [...(expression.propertyValues ?? []).map(propertyValueElement), ...(expression.annotations ?? []).map(annotationElement)];
      return edm('Record', expression.type === undefined ? [] : [attribute('Type', expression.type)], children);
    }
    case 'Collection':
      return edm('Collection', [], expression.items.map(expressionElement));
    case 'Null':
      return edm('Null', [], (expression.annotations ?? []).map(annotationElement));
    case 'Xml':
      return expression.element;
    default:
      return edm(expression.kind, [], expression.value === '' ? [] : [expression.value]);
  }
}

function propertyValueElement(propertyValue: AnnotationPropertyValue): AnnotationElement {
  const attributes = [attribute('Property', propertyValue.property)];
  const children: AnnotationElement[] = [];
  withValue(attributes, children, propertyValue.value);
  return edm('PropertyValue', attributes, [...children, ...(propertyValue.annotations ?? []).map(annotationElement)]);
}

function annotationElement(annotation: VocabularyAnnotation): AnnotationElement {
  const attributes = [attribute('Term', annotation.term)];
  if (annotation.qualifier !== undefined) attributes.push(attribute('Qualifier', annotation.qualifier));
  const children: AnnotationElement[] = [];
  withValue(attributes, children, annotation.value);
  return edm('Annotation', attributes, [...children, ...(annotation.annotations ?? []).map(annotationElement)]);
}

/** The `<Annotations>` element of a definition, in the OASIS namespace, unprefixed. */
export function vocabularyAnnotationsElement(group: VocabularyAnnotations): AnnotationElement {
  const attributes = [attribute('Target', group.target)];
  if (group.qualifier !== undefined) attributes.push(attribute('Qualifier', group.qualifier));
  return edm('Annotations', attributes, group.annotations.map(annotationElement));
}

/** The `edmx:Reference` element of a definition (the `edmx` prefix bound to the OASIS namespace on it, as SAP Gateway writes it). */
export function referenceElement(reference: ReferenceDefinition): AnnotationElement {
  const edmx = (name: string, attributes: AnnotationAttribute[]): AnnotationElement => ({ namespace: OASIS_EDMX_NAMESPACE, prefix: 'edmx', name, attributes });
  const children: AnnotationElement[] = [
    ...(reference.includes ?? []).map((include) =>
      edmx('Include', [attribute('Namespace', include.namespace), ...(include.alias !== undefined ? [attribute('Alias', include.alias)] : [])]),
    ),
    ...(reference.includeAnnotations ?? []).map((include) =>
      edmx('IncludeAnnotations', [
        attribute('TermNamespace', include.termNamespace),
        ...(include.qualifier !== undefined ? [attribute('Qualifier', include.qualifier)] : []),
        ...(include.targetNamespace !== undefined ? [attribute('TargetNamespace', include.targetNamespace)] : []),
      ]),
    ),
  ];
  return { ...edmx('Reference', [attribute('Uri', reference.uri)]), ...(children.length > 0 ? { children } : {}) };
}
