/**
 * The plain-data description of a model, shaped like CSDL. `defineModel` takes it from TypeScript
 * code and `loadEdmx` produces it from an EDMX document; `buildModel` validates and resolves it into
 * an immutable `EdmModel`. Type references are strings here (`Edm.Int32`, `ODataDemo.Address`,
 * `Collection(ODataDemo.Product)`), resolved once by the builder.
 */

/** An attribute in a foreign namespace (`sap:label="Name"`), kept and written back out. */
export interface AnnotationAttribute {
  readonly namespace: string;
  /** The prefix used in the source document; writers reuse it when free. */
  readonly prefix?: string;
  readonly name: string;
  readonly value: string;
}

/** An element in a foreign namespace inside a CSDL element, kept verbatim as a small tree. */
export interface AnnotationElement {
  readonly namespace: string;
  readonly prefix?: string;
  readonly name: string;
  readonly attributes?: readonly AnnotationAttribute[];
  /** Child elements and text, in document order. */
  readonly children?: readonly (AnnotationElement | string)[];
}

/** A CSDL `<Documentation>` element (`<Summary>` and `<LongDescription>` texts). */
export interface DocumentationDefinition {
  readonly summary?: string;
  readonly longDescription?: string;
}

/** Foreign-namespace annotations carried by any CSDL element. */
export interface Annotated {
  readonly annotationAttributes?: readonly AnnotationAttribute[];
  readonly annotationElements?: readonly AnnotationElement[];
  /** The element's CSDL `<Documentation>`, kept for round trips. */
  readonly documentation?: DocumentationDefinition;
}

/** `m:FC_*` feed-customization attributes of a property (MS-ODATA §2.2.3.7.2.1, "Customizable Feeds"). */
export interface FeedCustomizationDefinition {
  /** `SyndicationTitle`, `SyndicationSummary`, `SyndicationAuthorName`, ... or a custom path. */
  readonly targetPath: string;
  readonly contentKind?: 'text' | 'html' | 'xhtml';
  /** Default true: the value is also written in `m:properties`. */
  readonly keepInContent?: boolean;
  /** Custom targets only: namespace URI and prefix of the target element. */
  readonly nsUri?: string;
  readonly nsPrefix?: string;
  /** For a complex property's member mapping: the source path (`m:FC_SourcePath`). */
  readonly sourcePath?: string;
}

/** Facets of a property or parameter (CSDL §2.2 "Facets"). */
export interface FacetsDefinition {
  /** Default true. */
  readonly nullable?: boolean;
  readonly maxLength?: number | 'Max';
  readonly fixedLength?: boolean;
  readonly precision?: number;
  readonly scale?: number;
  readonly unicode?: boolean;
  readonly collation?: string;
  /** The default in its CSDL (URI-literal-less) text form, e.g. `0`, `true`, `abc`. */
  readonly defaultValue?: string;
  readonly concurrencyMode?: 'None' | 'Fixed';
  /** SRID and similar facets this library does not interpret, kept for round trips. */
  readonly extraAttributes?: readonly { readonly name: string; readonly value: string }[];
}

export interface PropertyDefinition extends FacetsDefinition, Annotated {
  readonly name: string;
  /** `Edm.String`, or the qualified name (or alias-qualified name) of a complex type. */
  readonly type: string;
  /** One or more `m:FC_*` mappings (a complex property may map several members). */
  readonly feedCustomization?: FeedCustomizationDefinition;
  /** `m:MimeType` on a property: the content type of its `$value`. */
  readonly mimeType?: string;
}

export interface NavigationPropertyDefinition extends Annotated {
  readonly name: string;
  /** Qualified name of the association. */
  readonly relationship: string;
  readonly fromRole: string;
  readonly toRole: string;
}

export interface EntityTypeDefinition extends Annotated {
  readonly name: string;
  /** Names of the key properties; must be empty when `baseType` is set (the key is inherited). */
  readonly key?: readonly string[];
  readonly baseType?: string;
  readonly abstract?: boolean;
  readonly openType?: boolean;
  /** `m:HasStream="true"`: a media link entry with a media resource. */
  readonly hasStream?: boolean;
  readonly properties?: readonly PropertyDefinition[];
  readonly navigationProperties?: readonly NavigationPropertyDefinition[];
}

export interface ComplexTypeDefinition extends Annotated {
  readonly name: string;
  readonly properties?: readonly PropertyDefinition[];
}

export type Multiplicity = '0..1' | '1' | '*';

export interface AssociationEndDefinition extends Annotated {
  readonly role: string;
  /** Qualified name of the entity type. */
  readonly type: string;
  readonly multiplicity: Multiplicity;
  /** `<OnDelete Action="Cascade"/>`: deleting this end deletes the other end's entities. */
  readonly onDelete?: 'Cascade' | 'None';
}

export interface ReferentialConstraintDefinition extends Annotated {
  readonly principal: { readonly role: string; readonly propertyRefs: readonly string[] };
  readonly dependent: { readonly role: string; readonly propertyRefs: readonly string[] };
}

export interface AssociationDefinition extends Annotated {
  readonly name: string;
  readonly ends: readonly [AssociationEndDefinition, AssociationEndDefinition];
  readonly referentialConstraint?: ReferentialConstraintDefinition;
}

export interface EntitySetDefinition extends Annotated {
  readonly name: string;
  /** Qualified name of the entity type. */
  readonly entityType: string;
}

/** One `<End>` of an association set: which entity set plays which role. */
export interface AssociationSetEndDefinition extends Annotated {
  readonly role: string;
  readonly entitySet: string;
}

export interface AssociationSetDefinition extends Annotated {
  readonly name: string;
  readonly association: string;
  readonly ends: readonly [AssociationSetEndDefinition, AssociationSetEndDefinition];
}

export interface FunctionImportParameterDefinition extends FacetsDefinition, Annotated {
  readonly name: string;
  /** An EDM primitive type name. */
  readonly type: string;
  readonly mode?: 'In' | 'Out' | 'InOut';
}

export interface FunctionImportDefinition extends Annotated {
  readonly name: string;
  /** `Edm.Int32`, `ODataDemo.Address`, `ODataDemo.Product`, `Collection(...)`; absent for no result. */
  readonly returnType?: string;
  /** The entity set of entity results. */
  readonly entitySet?: string;
  /** `m:HttpMethod`: GET or POST (default GET when absent, as the original servers did). */
  readonly httpMethod?: 'GET' | 'POST' | 'PUT' | 'MERGE' | 'DELETE';
  readonly parameters?: readonly FunctionImportParameterDefinition[];
}

export interface EntityContainerDefinition extends Annotated {
  readonly name: string;
  readonly isDefaultEntityContainer?: boolean;
  readonly entitySets?: readonly EntitySetDefinition[];
  readonly associationSets?: readonly AssociationSetDefinition[];
  readonly functionImports?: readonly FunctionImportDefinition[];
}

export interface SchemaDefinition extends Annotated {
  readonly namespace: string;
  readonly alias?: string;
  /**
   * The CSDL namespace URI of the `<Schema>` element (`http://schemas.microsoft.com/ado/2008/09/edm`);
   * readers keep the one they read, writers default to the 2007/05 one.
   */
  readonly csdlNamespace?: string;
  readonly entityTypes?: readonly EntityTypeDefinition[];
  readonly complexTypes?: readonly ComplexTypeDefinition[];
  readonly associations?: readonly AssociationDefinition[];
  readonly entityContainers?: readonly EntityContainerDefinition[];
}

/** A whole model: one or more schemas. */
export interface ModelDefinition {
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
  /** Foreign attributes and elements of `edmx:Edmx` itself (SAP's `edmx:Reference`, for instance). */
  readonly annotationAttributes?: readonly AnnotationAttribute[];
  readonly annotationElements?: readonly AnnotationElement[];
}
