/**
 * The plain-data description of a model, shaped like CSDL. `defineModel` takes it from TypeScript
 * code and `loadEdmx` produces it from an EDMX document; `buildModel` validates and resolves it into
 * an immutable `EdmModel`. Type references are strings here (`Edm.Int32`, `ODataDemo.Address`,
 * `Collection(ODataDemo.Product)`), resolved once by the builder.
 */
import type { ReferenceDefinition, VocabularyAnnotations } from './vocabulary-definition';

export type * from './vocabulary-definition';

/** An attribute in a foreign namespace (`sap:label="Name"`), kept and written back out. */
export interface AnnotationAttribute {
  /** The attribute's namespace URI. */
  readonly namespace: string;
  /** The prefix used in the source document; writers reuse it when free. */
  readonly prefix?: string;
  /** The name without a prefix. */
  readonly name: string;
  /** The attribute value as written in the document. */
  readonly value: string;
}

/** An element in a foreign namespace inside a CSDL element, kept verbatim as a small tree. */
export interface AnnotationElement {
  /** The element's namespace URI. */
  readonly namespace: string;
  /** The prefix used in the source document; writers reuse it when free. */
  readonly prefix?: string;
  /** The name without a prefix. */
  readonly name: string;
  /** Its attributes, namespace-qualified ones included. */
  readonly attributes?: readonly AnnotationAttribute[];
  /** Child elements and text, in document order. */
  readonly children?: readonly (AnnotationElement | string)[];
}

/** A CSDL `<Documentation>` element (`<Summary>` and `<LongDescription>` texts). */
export interface DocumentationDefinition {
  /** The `<Summary>` text. */
  readonly summary?: string;
  /** The `<LongDescription>` text. */
  readonly longDescription?: string;
}

/** Foreign-namespace annotations carried by any CSDL element. */
export interface Annotated {
  /** Attributes in foreign namespaces (`sap:label`, ...). */
  readonly annotationAttributes?: readonly AnnotationAttribute[];
  /** Elements in foreign namespaces. */
  readonly annotationElements?: readonly AnnotationElement[];
  /** The element's CSDL `<Documentation>`, kept for round trips. */
  readonly documentation?: DocumentationDefinition;
}

/** `m:FC_*` feed-customization attributes of a property (MS-ODATA §2.2.3.7.2.1, "Customizable Feeds"). */
export interface FeedCustomizationDefinition {
  /** `SyndicationTitle`, `SyndicationSummary`, `SyndicationAuthorName`, ... or a custom path. */
  readonly targetPath: string;
  /** `m:FC_ContentKind`: how the value is written (default `text`). */
  readonly contentKind?: 'text' | 'html' | 'xhtml';
  /** Default true: the value is also written in `m:properties`. */
  readonly keepInContent?: boolean;
  /** Custom targets only: namespace URI and prefix of the target element. */
  readonly nsUri?: string;
  /** Custom targets only: the prefix of the target element. */
  readonly nsPrefix?: string;
  /** For a complex property's member mapping: the source path (`m:FC_SourcePath`). */
  readonly sourcePath?: string;
}

/** Facets of a property or parameter (CSDL §2.2 "Facets"). */
export interface FacetsDefinition {
  /** CSDL `Nullable`: whether the value may be null; default true. */
  readonly nullable?: boolean;
  /** `MaxLength`: a positive number or `Max` (String, Binary). */
  readonly maxLength?: number | 'Max';
  /** `FixedLength` (String, Binary). */
  readonly fixedLength?: boolean;
  /** `Precision` (Decimal, DateTime, DateTimeOffset, Time). */
  readonly precision?: number;
  /** `Scale` (Decimal); at most `precision`. */
  readonly scale?: number;
  /** `Unicode` (String). */
  readonly unicode?: boolean;
  /** `Collation` (String). */
  readonly collation?: string;
  /** The default in its CSDL (URI-literal-less) text form, e.g. `0`, `true`, `abc`. */
  readonly defaultValue?: string;
  /** `ConcurrencyMode`: `Fixed` makes the property part of the ETag. */
  readonly concurrencyMode?: 'None' | 'Fixed';
  /** SRID and similar facets this library does not interpret, kept for round trips. */
  readonly extraAttributes?: readonly { readonly name: string; readonly value: string }[];
}

/** A structural property (CSDL `<Property>`). */
export interface PropertyDefinition extends FacetsDefinition, Annotated {
  /** The name payloads and URIs use (case-sensitive). */
  readonly name: string;
  /** `Edm.String`, or the qualified name (or alias-qualified name) of a complex type. */
  readonly type: string;
  /** One or more `m:FC_*` mappings (a complex property may map several members). */
  readonly feedCustomization?: FeedCustomizationDefinition;
  /** `m:MimeType` on a property: the content type of its `$value`. */
  readonly mimeType?: string;
}

/** A navigation property (CSDL `<NavigationProperty>`). */
export interface NavigationPropertyDefinition extends Annotated {
  /** The name URIs and `$expand` use. */
  readonly name: string;
  /** Qualified name of the association. */
  readonly relationship: string;
  /** The role of the declaring type's end. */
  readonly fromRole: string;
  /** The role of the end it leads to. */
  readonly toRole: string;
}

/** An entity type (CSDL `<EntityType>`). */
export interface EntityTypeDefinition extends Annotated {
  /** The type's name, without namespace. */
  readonly name: string;
  /** Names of the key properties; must be empty when `baseType` is set (the key is inherited). */
  readonly key?: readonly string[];
  /** Qualified name of the entity type it derives from. */
  readonly baseType?: string;
  /** `Abstract`: no entity is of exactly this type. */
  readonly abstract?: boolean;
  /** `OpenType`: entities may carry dynamic properties. */
  readonly openType?: boolean;
  /** `m:HasStream="true"`: a media link entry with a media resource. */
  readonly hasStream?: boolean;
  /** Its structural properties, in order. */
  readonly properties?: readonly PropertyDefinition[];
  /** Its navigation properties, in order. */
  readonly navigationProperties?: readonly NavigationPropertyDefinition[];
}

/** A complex type (CSDL `<ComplexType>`). */
export interface ComplexTypeDefinition extends Annotated {
  /** The type's name, without namespace. */
  readonly name: string;
  /** Its properties, in order. */
  readonly properties?: readonly PropertyDefinition[];
}

/** An association end's multiplicity. */
export type Multiplicity = '0..1' | '1' | '*';

/** One end of an association (CSDL `<End>`). */
export interface AssociationEndDefinition extends Annotated {
  /** The role name navigation properties refer to. */
  readonly role: string;
  /** Qualified name of the entity type. */
  readonly type: string;
  /** `0..1`, `1` or `*`. */
  readonly multiplicity: Multiplicity;
  /** `<OnDelete Action="Cascade"/>`: deleting this end deletes the other end's entities. */
  readonly onDelete?: 'Cascade' | 'None';
}

/** A referential constraint (CSDL `<ReferentialConstraint>`). */
export interface ReferentialConstraintDefinition extends Annotated {
  /** The principal end: its role and its key properties (`propertyRefs`). */
  readonly principal: { readonly role: string; readonly propertyRefs: readonly string[] };
  /** The dependent end: its role and the properties that hold the principal's key. */
  readonly dependent: { readonly role: string; readonly propertyRefs: readonly string[] };
}

/** An association (CSDL `<Association>`). */
export interface AssociationDefinition extends Annotated {
  /** The association's name, without namespace. */
  readonly name: string;
  /** Both ends; navigation properties name them by role. */
  readonly ends: readonly [AssociationEndDefinition, AssociationEndDefinition];
  /** The referential constraint, if any. */
  readonly referentialConstraint?: ReferentialConstraintDefinition;
}

/** An entity set (CSDL `<EntitySet>`). */
export interface EntitySetDefinition extends Annotated {
  /** The name clients address it by (the first URL segment). */
  readonly name: string;
  /** Qualified name of the entity type. */
  readonly entityType: string;
}

/** One `<End>` of an association set: which entity set plays which role. */
export interface AssociationSetEndDefinition extends Annotated {
  /** The role of the association's end this set plays. */
  readonly role: string;
  /** The name of the entity set at this end. */
  readonly entitySet: string;
}

/** An association set (CSDL `<AssociationSet>`). */
export interface AssociationSetDefinition extends Annotated {
  /** The name in its container (used in `$metadata` only, never in URIs). */
  readonly name: string;
  /** Qualified name of the association it binds. */
  readonly association: string;
  /** Both ends, each naming the entity set that plays its role. */
  readonly ends: readonly [AssociationSetEndDefinition, AssociationSetEndDefinition];
}

/** A function import parameter (CSDL `<Parameter>`). */
export interface FunctionImportParameterDefinition extends FacetsDefinition, Annotated {
  /** The name of the query option that carries its value. */
  readonly name: string;
  /** An EDM primitive type name. */
  readonly type: string;
  /** `Mode`; only `In` parameters can be passed in OData 2.0. */
  readonly mode?: 'In' | 'Out' | 'InOut';
}

/** A function import, i.e. a service operation (CSDL `<FunctionImport>`). */
export interface FunctionImportDefinition extends Annotated {
  /** The name clients call it by (its URL segment). */
  readonly name: string;
  /** `Edm.Int32`, `ODataDemo.Address`, `ODataDemo.Product`, `Collection(...)`; absent for no result. */
  readonly returnType?: string;
  /** The entity set of entity results. */
  readonly entitySet?: string;
  /** `m:HttpMethod`: GET or POST (default GET when absent, as the original servers did). */
  readonly httpMethod?: 'GET' | 'POST' | 'PUT' | 'MERGE' | 'DELETE';
  /** Its parameters, in order. */
  readonly parameters?: readonly FunctionImportParameterDefinition[];
}

/** An entity container (CSDL `<EntityContainer>`). */
export interface EntityContainerDefinition extends Annotated {
  /** The name `$metadata` gives it; URIs never show it. */
  readonly name: string;
  /** `m:IsDefaultEntityContainer`: the container the service exposes. */
  readonly isDefaultEntityContainer?: boolean;
  /** The entity sets clients address by name. */
  readonly entitySets?: readonly EntitySetDefinition[];
  /** Which entity sets each association links. */
  readonly associationSets?: readonly AssociationSetDefinition[];
  /** Its function imports (service operations). */
  readonly functionImports?: readonly FunctionImportDefinition[];
}

/** A schema (CSDL `<Schema>`). */
export interface SchemaDefinition extends Annotated {
  /** The prefix of qualified names (`ODataDemo` in `ODataDemo.Product`). */
  readonly namespace: string;
  /** An alias for the namespace in type references. */
  readonly alias?: string;
  /**
   * The CSDL namespace URI of the `<Schema>` element (`http://schemas.microsoft.com/ado/2008/09/edm`);
   * readers keep the one they read, writers default to the 2007/05 one.
   */
  readonly csdlNamespace?: string;
  /** Entity types, in document order. */
  readonly entityTypes?: readonly EntityTypeDefinition[];
  /** Complex types, in document order. */
  readonly complexTypes?: readonly ComplexTypeDefinition[];
  /** Associations, in document order. */
  readonly associations?: readonly AssociationDefinition[];
  /** Entity containers; one of them is the service's (`isDefaultEntityContainer`, or the only one). */
  readonly entityContainers?: readonly EntityContainerDefinition[];
  /** Vocabulary annotations (`<Annotations Target="...">` in the OASIS namespace), in document order. */
  readonly vocabularyAnnotations?: readonly VocabularyAnnotations[];
}

/** A whole model: one or more schemas. */
export interface ModelDefinition {
  /** The schemas, in document order. */
  readonly schemas: readonly SchemaDefinition[];
  /**
   * Namespace declarations to write on `edmx:Edmx` / `Schema` for annotation prefixes
   * (e.g. `{ sap: 'http://www.sap.com/Protocols/SAPData' }`); readers fill it from the source.
   */
  readonly namespaces?: Readonly<Record<string, string>>;
  /**
   * The `m:DataServiceVersion` a document declared. The model's version is the higher of this and
   * the version its features need, so a `2.0` document stays `2.0` when written back.
   */
  readonly dataServiceVersion?: '1.0' | '2.0';
  /** The vocabularies the vocabulary annotations use, with their aliases (`edmx:Reference`). */
  readonly references?: readonly ReferenceDefinition[];
  /** Foreign attributes of `edmx:Edmx` itself. */
  readonly annotationAttributes?: readonly AnnotationAttribute[];
  /** Foreign elements of `edmx:Edmx` itself, kept as written. */
  readonly annotationElements?: readonly AnnotationElement[];
}
