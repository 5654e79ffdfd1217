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
  VocabularyAnnotations,
} from './definition';
import type { EdmPrimitiveTypeName } from './primitives';

/** Annotations an element keeps from its definition (written back into `$metadata`). */
export interface EdmAnnotations {
  /** Attributes in other namespaces (`sap:label`, ...), kept as given. */
  readonly annotationAttributes: readonly AnnotationAttribute[];
  /** Child elements in other namespaces, kept as given. */
  readonly annotationElements: readonly AnnotationElement[];
  /** The CSDL `<Documentation>` of the element, when it has one. */
  readonly documentation?: DocumentationDefinition;
}

/** The CSDL facets of a property or parameter. */
export interface EdmFacets {
  /** CSDL `Nullable` (default true; key properties are never nullable). */
  readonly nullable: boolean;
  /** CSDL `MaxLength` (String and Binary). */
  readonly maxLength?: number | 'Max';
  /** CSDL `FixedLength` (String and Binary). */
  readonly fixedLength?: boolean;
  /** CSDL `Precision` (Decimal, DateTime, DateTimeOffset, Time). */
  readonly precision?: number;
  /** CSDL `Scale` (Decimal). */
  readonly scale?: number;
  /** CSDL `Unicode` (String). */
  readonly unicode?: boolean;
  /** CSDL `Collation` (String). */
  readonly collation?: string;
  /** CSDL text form of the default value, as declared. */
  readonly defaultValue?: string;
  /** CSDL `ConcurrencyMode`: `Fixed` makes the property part of the entity's ETag. */
  readonly concurrencyMode: 'None' | 'Fixed';
  /** Other unqualified attributes (`SRID`, ...), `{ name, value }` as text. */
  readonly extraAttributes: readonly { readonly name: string; readonly value: string }[];
}

/** A reference to an EDM primitive type (`Edm.Int32`, ...). */
export interface EdmPrimitiveTypeRef {
  /** Always `Primitive`: narrows an `EdmPropertyTypeRef`. */
  readonly kind: 'Primitive';
  /** Which primitive type (`Edm.String`, `Edm.Decimal`, ...). */
  readonly name: EdmPrimitiveTypeName;
}

/** A reference to a complex type of the model. */
export interface EdmComplexTypeRef {
  /** Always `Complex`: narrows an `EdmPropertyTypeRef`. */
  readonly kind: 'Complex';
  /** The resolved complex type, not its name. */
  readonly type: EdmComplexType;
}

/** The type of a structural property: a primitive or a complex type. */
export type EdmPropertyTypeRef = EdmPrimitiveTypeRef | EdmComplexTypeRef;

/** A structural property of an entity or complex type. */
export interface EdmProperty extends EdmFacets, EdmAnnotations {
  /** Always `Property`: tells a structural property from a navigation property. */
  readonly kind: 'Property';
  /** The name payloads and URIs use (case-sensitive). */
  readonly name: string;
  /** Its type: a primitive or a complex type. */
  readonly type: EdmPropertyTypeRef;
  /** The type this property is declared on (a base type for inherited properties). */
  readonly declaringType: EdmEntityType | EdmComplexType;
  /** Where Atom writes the value instead of (or as well as) `m:properties` (`m:FC_*`). */
  readonly feedCustomization?: FeedCustomizationDefinition;
  /** `m:MimeType`: the media type of the property's raw `$value`. */
  readonly mimeType?: string;
  /** True when the property is part of its entity type's key. */
  readonly isKey: boolean;
}

/** A navigation property: a way from an entity to related entities over an association. */
export interface EdmNavigationProperty extends EdmAnnotations {
  /** Always `NavigationProperty`: tells it from a structural property. */
  readonly kind: 'NavigationProperty';
  /** The name URIs (`Products(1)/Category`) and `$expand` use. */
  readonly name: string;
  /** The entity type that declares it. */
  readonly declaringType: EdmEntityType;
  /** The association it walks. */
  readonly relationship: EdmAssociation;
  /** The association end of the declaring type (`FromRole`). */
  readonly fromEnd: EdmAssociationEnd;
  /** The association end it leads to (`ToRole`). */
  readonly toEnd: EdmAssociationEnd;
  /** The entity type at the far end. */
  readonly target: EdmEntityType;
  /** True when the far end's multiplicity is `*` (a feed); false for `0..1` and `1` (an entry). */
  readonly isCollection: boolean;
  /** The navigation property on the target type that walks back, when one is declared. */
  readonly partner: EdmNavigationProperty | undefined;
}

/** An entity type: keyed, structured, with navigation properties. */
export interface EdmEntityType extends EdmAnnotations {
  /** Always `EntityType`: tells it from a complex type. */
  readonly kind: 'EntityType';
  /** The type's name, without namespace. */
  readonly name: string;
  /** The namespace of its schema. */
  readonly namespace: string;
  /** `Namespace.Name`; always with the namespace, never the alias. */
  readonly qualifiedName: string;
  /** The type it derives from, if any. */
  readonly baseType: EdmEntityType | undefined;
  /** CSDL `Abstract`: no entity is of exactly this type. */
  readonly abstract: boolean;
  /** CSDL `OpenType`: entities may carry dynamic properties. */
  readonly openType: boolean;
  /** `m:HasStream`: entities are media link entries with a media resource. */
  readonly hasStream: boolean;
  /** Key properties in declaration order (inherited from the root type). */
  readonly key: readonly EdmProperty[];
  /** Properties declared on this type only. */
  readonly declaredProperties: readonly EdmProperty[];
  /** All structural properties, base types first, in declaration order. */
  readonly properties: readonly EdmProperty[];
  /** `properties` (inherited ones too) looked up by name. */
  readonly propertiesByName: ReadonlyMap<string, EdmProperty>;
  /** Navigation properties declared on this type only. */
  readonly declaredNavigationProperties: readonly EdmNavigationProperty[];
  /** All navigation properties, base types first. */
  readonly navigationProperties: readonly EdmNavigationProperty[];
  /** `navigationProperties` (inherited ones too) looked up by name. */
  readonly navigationPropertiesByName: ReadonlyMap<string, EdmNavigationProperty>;
  /** Properties with `ConcurrencyMode="Fixed"`, in declaration order: the ETag's ingredients. */
  readonly concurrencyProperties: readonly EdmProperty[];
  /** Types that derive from this one, directly or indirectly. */
  readonly derivedTypes: readonly EdmEntityType[];
}

/** A complex type: a structured value without identity. */
export interface EdmComplexType extends EdmAnnotations {
  /** Always `ComplexType`: tells it from an entity type. */
  readonly kind: 'ComplexType';
  /** The type's name, without namespace. */
  readonly name: string;
  /** The namespace of its schema. */
  readonly namespace: string;
  /** `Namespace.Name`; always with the namespace, never the alias. */
  readonly qualifiedName: string;
  /** Its properties, in declaration order. */
  readonly properties: readonly EdmProperty[];
  /** `properties` looked up by name. */
  readonly propertiesByName: ReadonlyMap<string, EdmProperty>;
}

/** One end of an association. */
export interface EdmAssociationEnd extends EdmAnnotations {
  /** The role name navigation properties refer to. */
  readonly role: string;
  /** The entity type at this end. */
  readonly type: EdmEntityType;
  /** `0..1`, `1` or `*`. */
  readonly multiplicity: Multiplicity;
  /** `OnDelete Action`: `Cascade` deletes the entities at the other end along with this one. */
  readonly onDelete: 'Cascade' | 'None';
}

/** A referential constraint: which dependent properties hold the principal's key. */
export interface EdmReferentialConstraint extends EdmAnnotations {
  /** The principal end's role and its key properties. */
  readonly principal: { readonly role: string; readonly properties: readonly EdmProperty[] };
  /** The dependent end's role and the properties that refer to the principal's key. */
  readonly dependent: { readonly role: string; readonly properties: readonly EdmProperty[] };
}

/** An association between two entity types. */
export interface EdmAssociation extends EdmAnnotations {
  /** Always `Association`, for code that handles several kinds of model elements. */
  readonly kind: 'Association';
  /** The association's name, without namespace. */
  readonly name: string;
  /** The namespace of its schema. */
  readonly namespace: string;
  /** `Namespace.Name`; always with the namespace, never the alias. */
  readonly qualifiedName: string;
  /** Both ends, in declaration order (navigation properties name them by role). */
  readonly ends: readonly [EdmAssociationEnd, EdmAssociationEnd];
  /** The referential constraint, when one is declared. */
  readonly referentialConstraint: EdmReferentialConstraint | undefined;
}

/** An entity set: a collection of entities clients address by name. */
export interface EdmEntitySet extends EdmAnnotations {
  /** Always `EntitySet`, for code that handles several kinds of model elements. */
  readonly kind: 'EntitySet';
  /** The set's name (the first URL segment). */
  readonly name: string;
  /** The type of its entities (or a base type of it). */
  readonly entityType: EdmEntityType;
  /** The container it belongs to. */
  readonly container: EdmEntityContainer;
}

/** One end of an association set: which entity set plays a role. */
export interface EdmAssociationSetEnd {
  /** The association end's role name. */
  readonly role: string;
  /** The association's end that this role names. */
  readonly end: EdmAssociationEnd;
  /** The entity set at this end. */
  readonly entitySet: EdmEntitySet;
}

/** An association set: binds an association to two entity sets. */
export interface EdmAssociationSet extends EdmAnnotations {
  /** Always `AssociationSet`, for code that handles several kinds of model elements. */
  readonly kind: 'AssociationSet';
  /** The name in its container (used in `$metadata` only, never in URIs). */
  readonly name: string;
  /** The association it binds. */
  readonly association: EdmAssociation;
  /** Both ends, each with the entity set that plays its role. */
  readonly ends: readonly [EdmAssociationSetEnd, EdmAssociationSetEnd];
}

/** The return type of a function import. */
export type EdmReturnType =
  | { readonly kind: 'Primitive'; readonly name: EdmPrimitiveTypeName; readonly collection: boolean }
  | { readonly kind: 'Complex'; readonly type: EdmComplexType; readonly collection: boolean }
  | { readonly kind: 'Entity'; readonly type: EdmEntityType; readonly collection: boolean };

/** A parameter of a function import (a service operation). */
export interface EdmFunctionImportParameter extends EdmFacets, EdmAnnotations {
  /** The parameter's name (the query option that carries it). */
  readonly name: string;
  /** Parameters are primitive (MS-ODATA §2.2.3.6.2.1 passes them as URI literals). */
  readonly type: EdmPrimitiveTypeRef;
  /** CSDL `Mode`, when declared. */
  readonly mode: 'In' | 'Out' | 'InOut' | undefined;
}

/** A function import: a service operation clients call by name. */
export interface EdmFunctionImport extends EdmAnnotations {
  /** Always `FunctionImport`, for code that handles several kinds of model elements. */
  readonly kind: 'FunctionImport';
  /** The operation's name (its URL segment). */
  readonly name: string;
  /** The container it belongs to. */
  readonly container: EdmEntityContainer;
  /** Undefined when the operation returns nothing (204). */
  readonly returnType: EdmReturnType | undefined;
  /** The entity set of entity results, when it returns entities. */
  readonly entitySet: EdmEntitySet | undefined;
  /** The declared `m:HttpMethod`; undefined when the document did not say. */
  readonly httpMethod: 'GET' | 'POST' | 'PUT' | 'MERGE' | 'DELETE' | undefined;
  /** Its parameters, in declaration order. */
  readonly parameters: readonly EdmFunctionImportParameter[];
  /** `parameters` looked up by name. */
  readonly parametersByName: ReadonlyMap<string, EdmFunctionImportParameter>;
}

/** An entity container: entity sets, association sets and function imports. */
export interface EdmEntityContainer extends EdmAnnotations {
  /** Always `EntityContainer`, for code that handles several kinds of model elements. */
  readonly kind: 'EntityContainer';
  /** The name `$metadata` gives it; URIs never show it. */
  readonly name: string;
  /** The namespace of its schema. */
  readonly namespace: string;
  /** `m:IsDefaultEntityContainer`: the container whose sets the service exposes. */
  readonly isDefault: boolean;
  /** Its entity sets, in declaration order. */
  readonly entitySets: readonly EdmEntitySet[];
  /** Its association sets, in declaration order. */
  readonly associationSets: readonly EdmAssociationSet[];
  /** Its function imports, in declaration order. */
  readonly functionImports: readonly EdmFunctionImport[];
}

/** One CSDL schema of the model. */
export interface EdmSchema extends EdmAnnotations {
  /** The prefix of qualified names (`ODataDemo` in `ODataDemo.Product`). */
  readonly namespace: string;
  /** The schema's alias, when it declares one. */
  readonly alias: string | undefined;
  /** Its entity types, in declaration order. */
  readonly entityTypes: readonly EdmEntityType[];
  /** Its complex types, in declaration order. */
  readonly complexTypes: readonly EdmComplexType[];
  /** Its associations, in declaration order. */
  readonly associations: readonly EdmAssociation[];
  /** Its entity containers, in declaration order. */
  readonly entityContainers: readonly EdmEntityContainer[];
  /** Its vocabulary annotations (`<Annotations Target="...">`), as defined; every target names an element of the model. */
  readonly vocabularyAnnotations: readonly VocabularyAnnotations[];
}

/** The whole resolved model. */
export interface EdmModel {
  /** Every schema, in document order. */
  readonly schemas: readonly EdmSchema[];
  /** The container whose sets the service exposes (`m:IsDefaultEntityContainer`, or the only one). */
  readonly defaultContainer: EdmEntityContainer;
  /** `1.0` or `2.0`: the lowest version whose features the model uses (written as `m:DataServiceVersion`). */
  readonly dataServiceVersion: '1.0' | '2.0';
  /** The definition this model was built from (what `writeEdmx` prints). */
  readonly definition: ModelDefinition;
  /** By qualified name, and also by alias-qualified name. */
  readonly entityTypes: ReadonlyMap<string, EdmEntityType>;
  /** By qualified name, and also by alias-qualified name. */
  readonly complexTypes: ReadonlyMap<string, EdmComplexType>;
  /** By qualified name, and also by alias-qualified name. */
  readonly associations: ReadonlyMap<string, EdmAssociation>;
  /** The default container's entity sets and function imports, by name. */
  readonly entitySets: ReadonlyMap<string, EdmEntitySet>;
  /** The default container's function imports, by name. */
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
