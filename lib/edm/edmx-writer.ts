/**
 * The EDMX writer: a model's definition as an EDMX 1.0 `$metadata` document (MS-ODATA §2.2.3.7.2),
 * laid out as WCF Data Services writes it (attribute order Name, Type, Nullable, ...; Documentation
 * first, annotations last). Deterministic: the same model always gives the same bytes.
 */
import { create } from 'xmlbuilder2';
import type { XMLBuilder } from 'xmlbuilder2/lib/interfaces';
import type {
  Annotated,
  AnnotationAttribute,
  AnnotationElement,
  AssociationDefinition,
  EntityContainerDefinition,
  EntityTypeDefinition,
  FacetsDefinition,
  FunctionImportDefinition,
  PropertyDefinition,
  SchemaDefinition,
} from './definition';
import type { EdmModel } from './model';
import { DATA_NAMESPACE, DEFAULT_CSDL_NAMESPACE, EDMX_NAMESPACE, METADATA_NAMESPACE, XML_NAMESPACE } from './namespaces';
import { referenceElement, vocabularyAnnotationsElement } from './vocabulary-xml';

/** CSDL 1.2: the first that has OpenType; WCF Data Services raises the schema to it for open types. */
const OPEN_TYPE_CSDL_NAMESPACE = 'http://schemas.microsoft.com/ado/2008/01/edm';

type Attributes = [string, string][];

/**
 * Prefix bindings in scope while writing. Annotations name their namespace URI; a prefix is reused
 * when bound to it, else declared on the element that needs it.
 */
class Scope {
  constructor(
    private readonly bindings: ReadonlyMap<string, string>,
    private readonly counter: { next: number } = { next: 1 },
  ) {}

  /** A child scope with the declarations made on one element. */
  child(declarations: Attributes): Scope {
    const bindings = new Map(this.bindings);
    for (const [name, uri] of declarations) {
      if (name.startsWith('xmlns:')) bindings.set(name.slice(6), uri);
      else if (name === 'xmlns') bindings.set('', uri);
    }
    return new Scope(bindings, this.counter);
  }

  /**
   * The qualified name for (uri, local), adding a declaration to `declarations` when needed.
   * `mayRebind`: only on annotation elements, whose whole subtree this writer qualifies; a CSDL
   * element must keep its in-scope prefixes (its own `m:` attributes depend on them).
   */
  qualify(uri: string, local: string, preferred: string | undefined, declarations: Attributes, isAttribute: boolean, mayRebind: boolean): string {
    if (uri === '') return local;
    if (uri === XML_NAMESPACE) return `xml:${local}`;
    const local_ = (prefix: string): string => (prefix === '' ? local : `${prefix}:${local}`);
    const pending = new Map(declarations.map(([name, value]) => [name === 'xmlns' ? '' : name.slice(6), value]));
    const bound = (prefix: string): string | undefined => pending.get(prefix) ?? this.bindings.get(prefix);
    // Attributes never take the default namespace: an unprefixed attribute has no namespace.
    const candidate = preferred ?? '';
    if ((candidate !== '' || !isAttribute) && bound(candidate) === uri) return local_(candidate);
    for (const [prefix, boundUri] of [...pending, ...this.bindings]) {
      if (boundUri === uri && (prefix !== '' || !isAttribute) && bound(prefix) === uri) return local_(prefix);
    }
    let prefix = candidate;
    const taken = pending.has(prefix) || (!mayRebind && this.bindings.has(prefix));
    if ((prefix === '' && isAttribute) || taken) {
      do prefix = `ns${this.counter.next++}`;
      while (bound(prefix) !== undefined);
    }
    declarations.push([prefix === '' ? 'xmlns' : `xmlns:${prefix}`, uri]);
    return local_(prefix);
  }
}

/** Attribute text, escaped here because xmlbuilder2 leaves `&name;` sequences alone; whitespace escapes survive normalisation. */
function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

function escapeText(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/\r/g, '&#13;');
}

/** Write an element: CSDL attributes, then annotation attributes; returns the element and its scope. */
function element(parent: XMLBuilder, scope: Scope, name: string, attributes: Attributes, annotated?: Annotated): { node: XMLBuilder; scope: Scope } {
  const declarations: Attributes = attributes.filter(([n]) => n === 'xmlns' || n.startsWith('xmlns:'));
  const plain = attributes.filter(([n]) => !(n === 'xmlns' || n.startsWith('xmlns:')));
  const inner = scope.child(declarations);
  const extra: Attributes = [];
  for (const attribute of annotated?.annotationAttributes ?? []) {
    extra.push([inner.qualify(attribute.namespace, attribute.name, attribute.prefix, declarations, true, false), attribute.value]);
  }
  const ordered: Attributes = [...plain.slice(0, leadingCount(plain)), ...declarations, ...plain.slice(leadingCount(plain)), ...extra];
  const record: Record<string, string> = {};
  for (const [n, v] of ordered) record[n] = escapeAttribute(v);
  const node = parent.ele(name, record);
  const childScope = scope.child(declarations);
  if (annotated?.documentation !== undefined) {
    const documentation = node.ele('Documentation');
    if (annotated.documentation.summary !== undefined) documentation.ele('Summary').txt(escapeText(annotated.documentation.summary));
    if (annotated.documentation.longDescription !== undefined) documentation.ele('LongDescription').txt(escapeText(annotated.documentation.longDescription));
  }
  return { node, scope: childScope };
}

/** Declarations go after the identifying attributes (Name, Namespace, Version), as the reference services write them. */
function leadingCount(attributes: Attributes): number {
  let n = 0;
  while (n < attributes.length && ['Name', 'Namespace', 'Alias', 'Version', 'Role', 'Uri'].includes(attributes[n][0])) n++;
  return n;
}

function annotationElements(parent: XMLBuilder, scope: Scope, annotated: Annotated | undefined): void {
  for (const annotation of annotated?.annotationElements ?? []) writeAnnotationElement(parent, scope, annotation);
}

function writeAnnotationElement(parent: XMLBuilder, scope: Scope, annotation: AnnotationElement): void {
  const declarations: Attributes = [];
  const name = scope.qualify(annotation.namespace, annotation.name, annotation.prefix, declarations, false, true);
  const attributes: Attributes = (annotation.attributes ?? []).map((a: AnnotationAttribute) => [
    scope.qualify(a.namespace, a.name, a.prefix, declarations, true, true),
    a.value,
  ]);
  const record: Record<string, string> = {};
  for (const [n, v] of [...attributes, ...declarations]) record[n] = escapeAttribute(v);
  const node = parent.ele(name, record);
  const inner = scope.child(declarations);
  for (const child of annotation.children ?? []) {
    if (typeof child === 'string') node.txt(escapeText(child));
    else writeAnnotationElement(node, inner, child);
  }
}

const bool = (value: boolean): string => (value ? 'true' : 'false');

function pushDefined(attributes: Attributes, name: string, value: string | number | boolean | undefined): void {
  if (value === undefined) return;
  attributes.push([name, typeof value === 'boolean' ? bool(value) : String(value)]);
}

function facetAttributes(facets: FacetsDefinition): Attributes {
  const attributes: Attributes = [];
  pushDefined(attributes, 'Nullable', facets.nullable);
  pushDefined(attributes, 'MaxLength', facets.maxLength);
  pushDefined(attributes, 'FixedLength', facets.fixedLength);
  pushDefined(attributes, 'Precision', facets.precision);
  pushDefined(attributes, 'Scale', facets.scale);
  pushDefined(attributes, 'Unicode', facets.unicode);
  pushDefined(attributes, 'Collation', facets.collation);
  pushDefined(attributes, 'DefaultValue', facets.defaultValue);
  pushDefined(attributes, 'ConcurrencyMode', facets.concurrencyMode);
  for (const extra of facets.extraAttributes ?? []) attributes.push([extra.name, extra.value]);
  return attributes;
}

function writeProperty(parent: XMLBuilder, scope: Scope, property: PropertyDefinition): void {
  const attributes: Attributes = [['Name', property.name], ['Type', property.type], ...facetAttributes(property)];
  const fc = property.feedCustomization;
  if (fc !== undefined) {
    attributes.push(['m:FC_TargetPath', fc.targetPath]);
    pushDefined(attributes, 'm:FC_ContentKind', fc.contentKind);
    pushDefined(attributes, 'm:FC_NsPrefix', fc.nsPrefix);
    pushDefined(attributes, 'm:FC_NsUri', fc.nsUri);
    pushDefined(attributes, 'm:FC_SourcePath', fc.sourcePath);
    pushDefined(attributes, 'm:FC_KeepInContent', fc.keepInContent);
  }
  pushDefined(attributes, 'm:MimeType', property.mimeType);
  const { node, scope: inner } = element(parent, scope, 'Property', attributes, property);
  annotationElements(node, inner, property);
}

function writeEntityType(parent: XMLBuilder, scope: Scope, type: EntityTypeDefinition): void {
  const attributes: Attributes = [['Name', type.name]];
  pushDefined(attributes, 'BaseType', type.baseType);
  pushDefined(attributes, 'Abstract', type.abstract);
  pushDefined(attributes, 'OpenType', type.openType);
  pushDefined(attributes, 'm:HasStream', type.hasStream);
  const { node, scope: inner } = element(parent, scope, 'EntityType', attributes, type);
  if (type.key !== undefined && type.key.length > 0) {
    const key = node.ele('Key');
    for (const name of type.key) key.ele('PropertyRef', { Name: escapeAttribute(name) });
  }
  for (const property of type.properties ?? []) writeProperty(node, inner, property);
  for (const nav of type.navigationProperties ?? []) {
    const attrs: Attributes = [
      ['Name', nav.name],
      ['Relationship', nav.relationship],
      ['FromRole', nav.fromRole],
      ['ToRole', nav.toRole],
    ];
    const written = element(node, inner, 'NavigationProperty', attrs, nav);
    annotationElements(written.node, written.scope, nav);
  }
  annotationElements(node, inner, type);
}

function writeAssociation(parent: XMLBuilder, scope: Scope, association: AssociationDefinition): void {
  const { node, scope: inner } = element(parent, scope, 'Association', [['Name', association.name]], association);
  for (const end of association.ends) {
    const attrs: Attributes = [
      ['Role', end.role],
      ['Type', end.type],
      ['Multiplicity', end.multiplicity],
    ];
    const written = element(node, inner, 'End', attrs, end);
    if (end.onDelete !== undefined) written.node.ele('OnDelete', { Action: end.onDelete });
    annotationElements(written.node, written.scope, end);
  }
  const constraint = association.referentialConstraint;
  if (constraint !== undefined) {
    const written = element(node, inner, 'ReferentialConstraint', [], constraint);
    for (const [local, side] of [
      ['Principal', constraint.principal],
      ['Dependent', constraint.dependent],
    ] as const) {
      const part = written.node.ele(local, { Role: escapeAttribute(side.role) });
      for (const name of side.propertyRefs) part.ele('PropertyRef', { Name: escapeAttribute(name) });
    }
    annotationElements(written.node, written.scope, constraint);
  }
  annotationElements(node, inner, association);
}

function writeFunctionImport(parent: XMLBuilder, scope: Scope, functionImport: FunctionImportDefinition): void {
  const attributes: Attributes = [['Name', functionImport.name]];
  pushDefined(attributes, 'EntitySet', functionImport.entitySet);
  pushDefined(attributes, 'ReturnType', functionImport.returnType);
  pushDefined(attributes, 'm:HttpMethod', functionImport.httpMethod);
  const { node, scope: inner } = element(parent, scope, 'FunctionImport', attributes, functionImport);
  for (const parameter of functionImport.parameters ?? []) {
    const attrs: Attributes = [
      ['Name', parameter.name],
      ['Type', parameter.type],
    ];
    pushDefined(attrs, 'Mode', parameter.mode);
    const written = element(node, inner, 'Parameter', [...attrs, ...facetAttributes(parameter)], parameter);
    annotationElements(written.node, written.scope, parameter);
  }
  annotationElements(node, inner, functionImport);
}

function writeContainer(parent: XMLBuilder, scope: Scope, container: EntityContainerDefinition): void {
  const attributes: Attributes = [['Name', container.name]];
  pushDefined(attributes, 'm:IsDefaultEntityContainer', container.isDefaultEntityContainer);
  const { node, scope: inner } = element(parent, scope, 'EntityContainer', attributes, container);
  for (const set of container.entitySets ?? []) {
    const written = element(
      node,
      inner,
      'EntitySet',
      [
        ['Name', set.name],
        ['EntityType', set.entityType],
      ],
      set,
    );
    annotationElements(written.node, written.scope, set);
  }
  for (const set of container.associationSets ?? []) {
    const written = element(
      node,
      inner,
      'AssociationSet',
      [
        ['Name', set.name],
        ['Association', set.association],
      ],
      set,
    );
    for (const end of set.ends) {
      const endWritten = element(
        written.node,
        written.scope,
        'End',
        [
          ['Role', end.role],
          ['EntitySet', end.entitySet],
        ],
        end,
      );
      annotationElements(endWritten.node, endWritten.scope, end);
    }
    annotationElements(written.node, written.scope, set);
  }
  for (const functionImport of container.functionImports ?? []) writeFunctionImport(node, inner, functionImport);
  annotationElements(node, inner, container);
}

function csdlNamespaceOf(schema: SchemaDefinition): string {
  if (schema.csdlNamespace !== undefined) return schema.csdlNamespace;
  return (schema.entityTypes ?? []).some((t) => t.openType === true) ? OPEN_TYPE_CSDL_NAMESPACE : DEFAULT_CSDL_NAMESPACE;
}

function writeSchema(parent: XMLBuilder, scope: Scope, schema: SchemaDefinition): void {
  const attributes: Attributes = [['Namespace', schema.namespace]];
  pushDefined(attributes, 'Alias', schema.alias);
  attributes.push(['xmlns:d', DATA_NAMESPACE], ['xmlns:m', METADATA_NAMESPACE], ['xmlns', csdlNamespaceOf(schema)]);
  const { node, scope: inner } = element(parent, scope, 'Schema', attributes, schema);
  for (const type of schema.entityTypes ?? []) writeEntityType(node, inner, type);
  for (const type of schema.complexTypes ?? []) {
    const written = element(node, inner, 'ComplexType', [['Name', type.name]], type);
    for (const property of type.properties ?? []) writeProperty(written.node, written.scope, property);
    annotationElements(written.node, written.scope, type);
  }
  for (const association of schema.associations ?? []) writeAssociation(node, inner, association);
  for (const container of schema.entityContainers ?? []) writeContainer(node, inner, container);
  for (const group of schema.vocabularyAnnotations ?? []) writeAnnotationElement(node, inner, vocabularyAnnotationsElement(group));
  annotationElements(node, inner, schema);
}

/** The `$metadata` document of a model, as an EDMX 1.0 string. */
export function writeEdmx(model: EdmModel): string {
  const definition = model.definition;
  const document = create({ version: '1.0', encoding: 'utf-8', standalone: true });
  const rootAttributes: Attributes = [
    ['Version', '1.0'],
    ['xmlns:edmx', EDMX_NAMESPACE],
  ];
  for (const [prefix, uri] of Object.entries(definition.namespaces ?? {})) {
    if (!['edmx', 'm', 'd', 'xml', 'xmlns'].includes(prefix)) rootAttributes.push([`xmlns:${prefix}`, uri]);
  }
  const root = element(document, new Scope(new Map([['xml', XML_NAMESPACE]])), 'edmx:Edmx', rootAttributes, definition);
  for (const reference of definition.references ?? []) writeAnnotationElement(root.node, root.scope, referenceElement(reference));
  annotationElements(root.node, root.scope, definition);
  const services = element(root.node, root.scope, 'edmx:DataServices', [
    ['xmlns:m', METADATA_NAMESPACE],
    ['m:DataServiceVersion', model.dataServiceVersion],
  ]);
  for (const schema of definition.schemas) writeSchema(services.node, services.scope, schema);
  return document.end({ prettyPrint: true, indent: '  ', spaceBeforeSlash: true });
}
