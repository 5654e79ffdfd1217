/**
 * The resolved, immutable EDM: what every other layer reads. Built once by `buildModel` from a
 * `ModelDefinition`; all references are object references (no name lookups per request) and every
 * object is frozen. Lookups by name go through the maps on `EdmModel`.
 */
import type {
  AnnotationAttribute,
  AnnotationElement,
  DocumentationDefinition,
  FeedCustomizationDefinition,
  ModelDefinition,
  Multiplicity,
} from './definition';
import type { EdmPrimitiveTypeName } from './primitives';

export interface EdmAnnotations {
  readonly annotationAttributes: readonly AnnotationAttribute[];
  readonly annotationElements: readonly AnnotationElement[];
  /** The CSDL `<Documentation>` of the element, when it has one. */
  readonly documentation?: DocumentationDefinition;
}

export interface EdmFacets {
  readonly nullable: boolean;
  readonly maxLength?: number | 'Max';
  readonly fixedLength?: boolean;
  readonly precision?: number;
  readonly scale?: number;
  readonly unicode?: boolean;
  readonly collation?: string;
  /** CSDL text form of the default value, as declared. */
  readonly defaultValue?: string;
  readonly concurrencyMode: 'None' | 'Fixed';
  readonly extraAttributes: readonly { readonly name: string; readonly value: string }[];
}

export interface EdmPrimitiveTypeRef {
  readonly kind: 'Primitive';
  readonly name: EdmPrimitiveTypeName;
}

export interface EdmComplexTypeRef {
  readonly kind: 'Complex';
  readonly type: EdmComplexType;
}

/** The type of a structural property: a primitive or a complex type. */
export type EdmPropertyTypeRef = EdmPrimitiveTypeRef | EdmComplexTypeRef;

export interface EdmProperty extends EdmFacets, EdmAnnotations {
  readonly kind: 'Property';
  readonly name: string;
  readonly type: EdmPropertyTypeRef;
  /** The type this property is declared on (a base type for inherited properties). */
  readonly declaringType: EdmEntityType | EdmComplexType;
  readonly feedCustomization?: FeedCustomizationDefinition;
  readonly mimeType?: string;
  /** True when the property is part of its entity type's key. */
  readonly isKey: boolean;
}

export interface EdmNavigationProperty extends EdmAnnotations {
  readonly kind: 'NavigationProperty';
  readonly name: string;
  readonly declaringType: EdmEntityType;
  readonly relationship: EdmAssociation;
  readonly fromEnd: EdmAssociationEnd;
  readonly toEnd: EdmAssociationEnd;
  /** The entity type at the far end. */
  readonly target: EdmEntityType;
  /** True when the far end's multiplicity is `*` (a feed); false for `0..1` and `1` (an entry). */
  readonly isCollection: boolean;
  /** The navigation property on the target type that walks back, when one is declared. */
  readonly partner: EdmNavigationProperty | undefined;
}

export interface EdmEntityType extends EdmAnnotations {
  readonly kind: 'EntityType';
  readonly name: string;
  readonly namespace: string;
  /** `Namespace.Name`; always with the namespace, never the alias. */
  readonly qualifiedName: string;
  readonly baseType: EdmEntityType | undefined;
  readonly abstract: boolean;
  readonly openType: boolean;
  readonly hasStream: boolean;
  /** Key properties in declaration order (inherited from the root type). */
  readonly key: readonly EdmProperty[];
  /** Properties declared on this type only. */
  readonly declaredProperties: readonly EdmProperty[];
  /** All structural properties, base types first, in declaration order. */
  readonly properties: readonly EdmProperty[];
  readonly propertiesByName: ReadonlyMap<string, EdmProperty>;
  readonly declaredNavigationProperties: readonly EdmNavigationProperty[];
  readonly navigationProperties: readonly EdmNavigationProperty[];
  readonly navigationPropertiesByName: ReadonlyMap<string, EdmNavigationProperty>;
  /** Properties with `ConcurrencyMode="Fixed"`, in declaration order: the ETag's ingredients. */
  readonly concurrencyProperties: readonly EdmProperty[];
  /** Types that derive from this one, directly or indirectly. */
  readonly derivedTypes: readonly EdmEntityType[];
}

export interface EdmComplexType extends EdmAnnotations {
  readonly kind: 'ComplexType';
  readonly name: string;
  readonly namespace: string;
  readonly qualifiedName: string;
  readonly properties: readonly EdmProperty[];
  readonly propertiesByName: ReadonlyMap<string, EdmProperty>;
}

export interface EdmAssociationEnd extends EdmAnnotations {
  readonly role: string;
  readonly type: EdmEntityType;
  readonly multiplicity: Multiplicity;
  readonly onDelete: 'Cascade' | 'None';
}

export interface EdmReferentialConstraint extends EdmAnnotations {
  readonly principal: { readonly role: string; readonly properties: readonly EdmProperty[] };
  readonly dependent: { readonly role: string; readonly properties: readonly EdmProperty[] };
}

export interface EdmAssociation extends EdmAnnotations {
  readonly kind: 'Association';
  readonly name: string;
  readonly namespace: string;
  readonly qualifiedName: string;
  readonly ends: readonly [EdmAssociationEnd, EdmAssociationEnd];
  readonly referentialConstraint: EdmReferentialConstraint | undefined;
}

export interface EdmEntitySet extends EdmAnnotations {
  readonly kind: 'EntitySet';
  readonly name: string;
  readonly entityType: EdmEntityType;
  readonly container: EdmEntityContainer;
}

export interface EdmAssociationSetEnd {
  readonly role: string;
  readonly end: EdmAssociationEnd;
  readonly entitySet: EdmEntitySet;
}

export interface EdmAssociationSet extends EdmAnnotations {
  readonly kind: 'AssociationSet';
  readonly name: string;
  readonly association: EdmAssociation;
  readonly ends: readonly [EdmAssociationSetEnd, EdmAssociationSetEnd];
}

/** The return type of a function import. */
export type EdmReturnType =
  | { readonly kind: 'Primitive'; readonly name: EdmPrimitiveTypeName; readonly collection: boolean }
  | { readonly kind: 'Complex'; readonly type: EdmComplexType; readonly collection: boolean }
  | { readonly kind: 'Entity'; readonly type: EdmEntityType; readonly collection: boolean };

export interface EdmFunctionImportParameter extends EdmFacets, EdmAnnotations {
  readonly name: string;
  readonly type: EdmPrimitiveTypeRef;
  readonly mode: 'In' | 'Out' | 'InOut' | undefined;
}

export interface EdmFunctionImport extends EdmAnnotations {
  readonly kind: 'FunctionImport';
  readonly name: string;
  readonly container: EdmEntityContainer;
  /** Undefined when the operation returns nothing (204). */
  readonly returnType: EdmReturnType | undefined;
  readonly entitySet: EdmEntitySet | undefined;
  /** The declared `m:HttpMethod`; undefined when the document did not say. */
  readonly httpMethod: 'GET' | 'POST' | 'PUT' | 'MERGE' | 'DELETE' | undefined;
  readonly parameters: readonly EdmFunctionImportParameter[];
  readonly parametersByName: ReadonlyMap<string, EdmFunctionImportParameter>;
}

export interface EdmEntityContainer extends EdmAnnotations {
  readonly kind: 'EntityContainer';
  readonly name: string;
  readonly namespace: string;
  readonly isDefault: boolean;
  readonly entitySets: readonly EdmEntitySet[];
  readonly associationSets: readonly EdmAssociationSet[];
  readonly functionImports: readonly EdmFunctionImport[];
}

export interface EdmSchema extends EdmAnnotations {
  readonly namespace: string;
  readonly alias: string | undefined;
  readonly entityTypes: readonly EdmEntityType[];
  readonly complexTypes: readonly EdmComplexType[];
  readonly associations: readonly EdmAssociation[];
  readonly entityContainers: readonly EdmEntityContainer[];
}

/** The whole resolved model. */
export interface EdmModel {
  readonly schemas: readonly EdmSchema[];
  /** The container whose sets the service exposes (`m:IsDefaultEntityContainer`, or the only one). */
  readonly defaultContainer: EdmEntityContainer;
  /** `1.0` or `2.0`: the lowest version whose features the model uses (written as `m:DataServiceVersion`). */
  readonly dataServiceVersion: '1.0' | '2.0';
  /** The definition this model was built from (what `writeEdmx` prints). */
  readonly definition: ModelDefinition;
  /** By qualified name, and also by alias-qualified name. */
  readonly entityTypes: ReadonlyMap<string, EdmEntityType>;
  readonly complexTypes: ReadonlyMap<string, EdmComplexType>;
  readonly associations: ReadonlyMap<string, EdmAssociation>;
  /** The default container's entity sets and function imports, by name. */
  readonly entitySets: ReadonlyMap<string, EdmEntitySet>;
  readonly functionImports: ReadonlyMap<string, EdmFunctionImport>;
  /**
   * The entity set reached from `source` over `navigation`, through the association set that binds
   * them; undefined when the model has none.
   */
  navigationTarget(source: EdmEntitySet, navigation: EdmNavigationProperty): EdmEntitySet | undefined;
  /** The entity sets whose type is `type` or one of its base types. */
  entitySetsOf(type: EdmEntityType): readonly EdmEntitySet[];
}

/** A structural property, or a navigation property: what a member name resolves to on an entity type. */
export type EdmMember = EdmProperty | EdmNavigationProperty;
