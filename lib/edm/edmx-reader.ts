/**
 * The EDMX reader: an EDMX 1.0 document (MS-ODATA §2.2.3.7.2, CSDL 1.0 to 2.0) to a
 * `ModelDefinition`. It keeps what it does not interpret (foreign attributes and elements, extra
 * facets, Documentation) so `writeEdmx` can write it back. Structure it cannot represent is refused
 * with EDMX_UNSUPPORTED naming the element and its line; semantic checks are `buildModel`'s.
 */
import { ODataError } from '../errors';
import type {
  AssociationDefinition,
  AssociationEndDefinition,
  AssociationSetEndDefinition,
  ComplexTypeDefinition,
  EntityContainerDefinition,
  EntityTypeDefinition,
  FacetsDefinition,
  FeedCustomizationDefinition,
  FunctionImportDefinition,
  ModelDefinition,
  PropertyDefinition,
  ReferentialConstraintDefinition,
  SchemaDefinition,
} from './definition';
import { CsdlElement, toAnnotationElement, unsupported } from './edmx-element';
import { buildModel } from './build';
import type { EdmModel } from './model';
import { EDMX_NAMESPACE, isCsdlNamespace, isReservedNamespace, OASIS_EDM_NAMESPACE, OASIS_EDMX_NAMESPACE } from './namespaces';
import { readReference, readVocabularyAnnotations } from './vocabulary-xml';
import { parseXmlTree, type XmlElement } from './xml-tree';

/** Read an EDMX document into a definition (no validation); EDMX_SYNTAX / EDMX_UNSUPPORTED on bad input. */
export function readEdmx(xml: string): ModelDefinition {
  if (typeof xml !== 'string') throw ODataError.fromCode('EDMX_UNSUPPORTED', { detail: 'the document must be given as a string' });
  const root = parseXmlTree(xml);
  if (root.uri !== EDMX_NAMESPACE || root.local !== 'Edmx') {
    unsupported(root, `the root element must be edmx:Edmx in the namespace ${EDMX_NAMESPACE}`);
  }
  const edmx = new CsdlElement(root, EDMX_NAMESPACE);
  const version = edmx.required('Version');
  if (version !== '1.0') unsupported(root, `EDMX Version="${version}" is not supported (OData 2.0 uses 1.0)`);
  const dataServices = edmx.children().filter((c) => c.local === 'DataServices');
  if (dataServices.length !== 1) unsupported(root, 'exactly one edmx:DataServices element is required');
  edmx.expectChildren(['DataServices']);
  const services = new CsdlElement(dataServices[0], '');
  const declared = services.oneOf(services.meta('DataServiceVersion'), 'm:DataServiceVersion', ['1.0', '2.0'] as const);

  const schemas: SchemaDefinition[] = [];
  const references = edmx.claim('Reference', OASIS_EDMX_NAMESPACE).map(readReference);
  const foreign = edmx.annotationElements();
  for (const child of dataServices[0].children) {
    if (typeof child === 'string') continue;
    if (child.local === 'Schema' && isCsdlNamespace(child.uri)) schemas.push(readSchema(new CsdlElement(child, child.uri)));
    else if (child.local === 'Schema') unsupported(child, `the CSDL namespace ${child.uri} is not one of OData 1.0/2.0 (2006/04, 2007/05, 2008/01, 2008/09)`);
    else if (child.uri === EDMX_NAMESPACE) unsupported(child, `edmx:${child.local} is not supported in edmx:DataServices`);
    else foreign.push(toAnnotationElement(child)); // kept; written back on edmx:Edmx
  }
  const namespaces = collectNamespaces(root);
  const attributes = edmx.annotationAttributes(false);
  return {
    schemas,
    ...(Object.keys(namespaces).length > 0 ? { namespaces } : {}),
    ...(declared !== undefined ? { dataServiceVersion: declared } : {}),
    ...(references.length > 0 ? { references } : {}),
    ...(attributes.length > 0 ? { annotationAttributes: attributes } : {}),
    ...(foreign.length > 0 ? { annotationElements: foreign } : {}),
  };
}

/** Read, validate and build: the usual way to load a `$metadata` document. */
export function loadEdmx(xml: string): EdmModel {
  return buildModel(readEdmx(xml));
}

/** Prefixed namespace declarations made on EDMX and CSDL elements (not inside annotations); the first binding of a prefix wins. */
function collectNamespaces(root: XmlElement): Record<string, string> {
  const namespaces: Record<string, string> = {};
  const visit = (element: XmlElement): void => {
    for (const [prefix, uri] of element.declarations) {
      if (prefix !== '' && prefix !== 'xml' && !isReservedNamespace(uri) && !(prefix in namespaces)) namespaces[prefix] = uri;
    }
    for (const child of element.children) {
      if (typeof child !== 'string' && (child.uri === EDMX_NAMESPACE || isCsdlNamespace(child.uri))) visit(child);
    }
  };
  visit(root);
  return namespaces;
}

function readSchema(schema: CsdlElement): SchemaDefinition {
  schema.expectChildren(['EntityType', 'ComplexType', 'Association', 'EntityContainer']);
  const namespace = schema.required('Namespace');
  const alias = schema.optional('Alias');
  const of = (local: string): CsdlElement[] =>
    schema
      .children()
      .filter((c) => c.local === local)
      .map((c) => new CsdlElement(c, schema.csdlNamespace));
  const entityTypes = of('EntityType').map(readEntityType);
  const complexTypes = of('ComplexType').map(readComplexType);
  const associations = of('Association').map(readAssociation);
  const entityContainers = of('EntityContainer').map(readContainer);
  const vocabularyAnnotations = schema.claim('Annotations', OASIS_EDM_NAMESPACE).map(readVocabularyAnnotations);
  return {
    namespace,
    ...(alias !== undefined ? { alias } : {}),
    csdlNamespace: schema.csdlNamespace,
    ...(entityTypes.length > 0 ? { entityTypes } : {}),
    ...(complexTypes.length > 0 ? { complexTypes } : {}),
    ...(associations.length > 0 ? { associations } : {}),
    ...(entityContainers.length > 0 ? { entityContainers } : {}),
    ...(vocabularyAnnotations.length > 0 ? { vocabularyAnnotations } : {}),
    ...schema.annotated(),
  };
}

function childrenNamed(parent: CsdlElement, local: string): CsdlElement[] {
  return parent
    .children()
    .filter((c) => c.local === local)
    .map((c) => new CsdlElement(c, parent.csdlNamespace));
}

function readEntityType(type: CsdlElement): EntityTypeDefinition {
  type.expectChildren(['Key', 'Property', 'NavigationProperty']);
  const name = type.required('Name');
  const baseType = type.optional('BaseType');
  const abstract = type.boolean(type.optional('Abstract'), 'Abstract');
  const openType = type.boolean(type.optional('OpenType'), 'OpenType');
  const hasStream = type.boolean(type.meta('HasStream'), 'm:HasStream');
  const keys = childrenNamed(type, 'Key');
  if (keys.length > 1) unsupported(type.element, 'an EntityType has at most one <Key>');
  const key = keys.length === 0 ? undefined : childrenNamed(keys[0], 'PropertyRef').map((ref) => ref.required('Name'));
  const properties = childrenNamed(type, 'Property').map(readProperty);
  const navigationProperties = childrenNamed(type, 'NavigationProperty').map((nav) => ({
    name: nav.required('Name'),
    relationship: nav.required('Relationship'),
    fromRole: nav.required('FromRole'),
    toRole: nav.required('ToRole'),
    ...nav.annotated(),
  }));
  return {
    name,
    ...(key !== undefined ? { key } : {}),
    ...(baseType !== undefined ? { baseType } : {}),
    ...(abstract !== undefined ? { abstract } : {}),
    ...(openType !== undefined ? { openType } : {}),
    ...(hasStream !== undefined ? { hasStream } : {}),
    ...(properties.length > 0 ? { properties } : {}),
    ...(navigationProperties.length > 0 ? { navigationProperties } : {}),
    ...type.annotated(),
  };
}

function readComplexType(type: CsdlElement): ComplexTypeDefinition {
  type.expectChildren(['Property']);
  const name = type.required('Name');
  if (type.optional('BaseType') !== undefined) unsupported(type.element, 'complex type inheritance is not part of OData 2.0');
  const properties = childrenNamed(type, 'Property').map(readProperty);
  return { name, ...(properties.length > 0 ? { properties } : {}), ...type.annotated() };
}

/** Facet attributes shared by Property and Parameter (CSDL §2.2); what is left unclaimed goes to `extraAttributes`. */
function readFacets(element: CsdlElement): FacetsDefinition {
  const maxLengthText = element.optional('MaxLength');
  const maxLength = maxLengthText !== undefined && maxLengthText.trim().toLowerCase() === 'max' ? 'Max' : element.integer(maxLengthText, 'MaxLength');
  const facets: FacetsDefinition = {
    nullable: element.boolean(element.optional('Nullable'), 'Nullable'),
    maxLength,
    fixedLength: element.boolean(element.optional('FixedLength'), 'FixedLength'),
    precision: element.integer(element.optional('Precision'), 'Precision'),
    scale: element.integer(element.optional('Scale'), 'Scale'),
    unicode: element.boolean(element.optional('Unicode'), 'Unicode'),
    collation: element.optional('Collation'),
    defaultValue: element.optional('DefaultValue'),
    concurrencyMode: element.oneOf(element.optional('ConcurrencyMode'), 'ConcurrencyMode', ['None', 'Fixed'] as const),
  };
  return withoutUndefined(facets);
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function readProperty(property: CsdlElement): PropertyDefinition {
  const name = property.required('Name');
  const type = property.required('Type');
  const facets = readFacets(property);
  const feedCustomization = readFeedCustomization(property);
  const mimeType = property.meta('MimeType');
  const extra = property.unclaimedPlain();
  // Claim the plain attributes (kept as extraAttributes) before the rest become annotations.
  return {
    name,
    type,
    ...facets,
    ...(extra.length > 0 ? { extraAttributes: extra } : {}),
    ...(feedCustomization !== undefined ? { feedCustomization } : {}),
    ...(mimeType !== undefined ? { mimeType } : {}),
    ...property.annotated(false),
  };
}

/** The unnumbered `m:FC_*` mapping of a property (MS-ODATA §2.2.3.7.2.1); numbered ones stay annotations. */
function readFeedCustomization(property: CsdlElement): FeedCustomizationDefinition | undefined {
  const targetPath = property.meta('FC_TargetPath');
  if (targetPath === undefined) return undefined;
  return withoutUndefined<FeedCustomizationDefinition>({
    targetPath,
    contentKind: property.oneOf(property.meta('FC_ContentKind'), 'm:FC_ContentKind', ['text', 'html', 'xhtml'] as const),
    keepInContent: property.boolean(property.meta('FC_KeepInContent'), 'm:FC_KeepInContent'),
    nsUri: property.meta('FC_NsUri'),
    nsPrefix: property.meta('FC_NsPrefix'),
    sourcePath: property.meta('FC_SourcePath'),
  });
}

function readAssociation(association: CsdlElement): AssociationDefinition {
  association.expectChildren(['End', 'ReferentialConstraint']);
  const name = association.required('Name');
  const ends = childrenNamed(association, 'End').map(readAssociationEnd);
  if (ends.length !== 2) unsupported(association.element, `an Association has exactly two <End> elements, found ${ends.length}`);
  const constraints = childrenNamed(association, 'ReferentialConstraint');
  if (constraints.length > 1) unsupported(association.element, 'an Association has at most one <ReferentialConstraint>');
  const referentialConstraint = constraints.length === 1 ? readConstraint(constraints[0]) : undefined;
  return {
    name,
    ends: [ends[0], ends[1]],
    ...(referentialConstraint !== undefined ? { referentialConstraint } : {}),
    ...association.annotated(),
  };
}

function readAssociationEnd(end: CsdlElement): AssociationEndDefinition {
  end.expectChildren(['OnDelete']);
  const role = end.required('Role');
  const type = end.required('Type');
  const multiplicity = end.oneOf(end.required('Multiplicity'), 'Multiplicity', ['0..1', '1', '*'] as const) ?? '1';
  const onDeletes = childrenNamed(end, 'OnDelete');
  const onDelete = onDeletes.length === 0 ? undefined : onDeletes[0].oneOf(onDeletes[0].required('Action'), 'Action', ['Cascade', 'None'] as const);
  return { role, type, multiplicity, ...(onDelete !== undefined ? { onDelete } : {}), ...end.annotated() };
}

function readConstraint(constraint: CsdlElement): ReferentialConstraintDefinition {
  constraint.expectChildren(['Principal', 'Dependent']);
  const side = (local: string): { role: string; propertyRefs: string[] } => {
    const parts = childrenNamed(constraint, local);
    if (parts.length !== 1) unsupported(constraint.element, `a ReferentialConstraint has exactly one <${local}>`);
    return { role: parts[0].required('Role'), propertyRefs: childrenNamed(parts[0], 'PropertyRef').map((ref) => ref.required('Name')) };
  };
  return { principal: side('Principal'), dependent: side('Dependent'), ...constraint.annotated() };
}

function readContainer(container: CsdlElement): EntityContainerDefinition {
  container.expectChildren(['EntitySet', 'AssociationSet', 'FunctionImport']);
  const name = container.required('Name');
  const isDefault = container.boolean(container.meta('IsDefaultEntityContainer'), 'm:IsDefaultEntityContainer');
  const entitySets = childrenNamed(container, 'EntitySet').map((set) => ({
    name: set.required('Name'),
    entityType: set.required('EntityType'),
    ...set.annotated(),
  }));
  const associationSets = childrenNamed(container, 'AssociationSet').map((set) => {
    set.expectChildren(['End']);
    const setName = set.required('Name');
    const association = set.required('Association');
    const ends = childrenNamed(set, 'End').map((end): AssociationSetEndDefinition => ({
      role: end.required('Role'),
      entitySet: end.required('EntitySet'),
      ...end.annotated(),
    }));
    if (ends.length !== 2) unsupported(set.element, `an AssociationSet has exactly two <End> elements, found ${ends.length}`);
    return { name: setName, association, ends: [ends[0], ends[1]] as const, ...set.annotated() };
  });
  const functionImports = childrenNamed(container, 'FunctionImport').map(readFunctionImport);
  return {
    name,
    ...(isDefault !== undefined ? { isDefaultEntityContainer: isDefault } : {}),
    ...(entitySets.length > 0 ? { entitySets } : {}),
    ...(associationSets.length > 0 ? { associationSets } : {}),
    ...(functionImports.length > 0 ? { functionImports } : {}),
    ...container.annotated(),
  };
}

function readFunctionImport(functionImport: CsdlElement): FunctionImportDefinition {
  functionImport.expectChildren(['Parameter']);
  const name = functionImport.required('Name');
  const returnType = functionImport.optional('ReturnType');
  const entitySet = functionImport.optional('EntitySet');
  const httpMethod = functionImport.oneOf(functionImport.meta('HttpMethod'), 'm:HttpMethod', ['GET', 'POST', 'PUT', 'MERGE', 'DELETE'] as const);
  const parameters = childrenNamed(functionImport, 'Parameter').map((parameter) => {
    const parameterName = parameter.required('Name');
    const type = parameter.required('Type');
    const mode = parameter.oneOf(parameter.optional('Mode'), 'Mode', ['In', 'Out', 'InOut'] as const);
    const facets = readFacets(parameter);
    const extra = parameter.unclaimedPlain();
    return {
      name: parameterName,
      type,
      ...(mode !== undefined ? { mode } : {}),
      ...facets,
      ...(extra.length > 0 ? { extraAttributes: extra } : {}),
      ...parameter.annotated(false),
    };
  });
  return {
    name,
    ...(returnType !== undefined ? { returnType } : {}),
    ...(entitySet !== undefined ? { entitySet } : {}),
    ...(httpMethod !== undefined ? { httpMethod } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...functionImport.annotated(),
  };
}
