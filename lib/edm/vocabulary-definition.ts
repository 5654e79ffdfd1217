/**
 * Vocabulary annotations in a model definition: OData V4's `<Annotations Target="...">` elements
 * (CSDL XML 4.01 §14), which SAP Gateway and CAP's V2 adapter put into a V2 `$metadata` beside the
 * CSDL 2.0 schema, in the OASIS namespace, with `edmx:Reference` declaring the vocabularies and
 * their aliases (`UI`, `Common`). The tree is generic over terms (any term, any record) and typed
 * over expressions; dynamic expressions (`Apply`, `If`, ...) are kept as written.
 */
import type { AnnotationElement } from './definition';

/** Constant expressions (CSDL XML 4.01 §14.4.1 to §14.4.12), by element and attribute name. */
export type AnnotationConstantKind =
  'Binary' | 'Bool' | 'Date' | 'DateTimeOffset' | 'Decimal' | 'Duration' | 'EnumMember' | 'Float' | 'Guid' | 'Int' | 'String' | 'TimeOfDay';

/** Path expressions (CSDL XML 4.01 §14.4.13 to §14.4.17), by element and attribute name. */
export type AnnotationPathKind = 'AnnotationPath' | 'ModelElementPath' | 'NavigationPropertyPath' | 'Path' | 'PropertyPath';

/** A constant or a path: its text as written (`String="Orders"`, `<PropertyPath>Name</PropertyPath>`). */
export interface AnnotationValueExpression {
  /** The element (or attribute) name: `String`, `Bool`, `Path`, `PropertyPath`, ... */
  readonly kind: AnnotationConstantKind | AnnotationPathKind;
  /** The text as written (`true`, `UI.TextArrangementType/TextFirst`, `Customer/CompanyName`). */
  readonly value: string;
  /**
   * `element` when an annotation or property value holds it as a child element instead of an
   * attribute (`<Annotation Term="..."><String>x</String></Annotation>`); writers keep the form.
   */
  readonly notation?: 'element';
}

/** A record (§14.4.19): a structured value of a complex type of the vocabulary (`UI.DataField`). */
export interface AnnotationRecordExpression {
  /** Always `Record`. */
  readonly kind: 'Record';
  /** The record's type, qualified or alias-qualified (`UI.DataField`); optional where the term says it. */
  readonly type?: string;
  /** Its property values, in order. */
  readonly propertyValues?: readonly AnnotationPropertyValue[];
  /** Annotations of the record itself. */
  readonly annotations?: readonly VocabularyAnnotation[];
}

/** A collection (§14.4.18): items of one kind, in order. */
export interface AnnotationCollectionExpression {
  /** Always `Collection`. */
  readonly kind: 'Collection';
  /** The items, in document order. */
  readonly items: readonly AnnotationExpression[];
}

/** The null expression (§14.4.21). */
export interface AnnotationNullExpression {
  /** Always `Null`. */
  readonly kind: 'Null';
  /** Annotations of the null expression itself. */
  readonly annotations?: readonly VocabularyAnnotation[];
}

/**
 * A dynamic expression (`Apply`, `If`, `Eq`, `Cast`, `LabeledElement`, `UrlRef`, ...), kept as the
 * element it was written as (in the OASIS namespace); nothing here interprets it.
 */
export interface AnnotationXmlExpression {
  /** Always `Xml`. */
  readonly kind: 'Xml';
  /** The element as written, with its attributes and children. */
  readonly element: AnnotationElement;
}

/** The value of a vocabulary annotation or of a record's property. */
export type AnnotationExpression =
  AnnotationValueExpression | AnnotationRecordExpression | AnnotationCollectionExpression | AnnotationNullExpression | AnnotationXmlExpression;

/** One property of a record (`<PropertyValue Property="Value" Path="Name"/>`). */
export interface AnnotationPropertyValue {
  /** The property of the record's type. */
  readonly property: string;
  /** Its value; absent only when a document gave none. */
  readonly value?: AnnotationExpression;
  /** Annotations of the property value itself. */
  readonly annotations?: readonly VocabularyAnnotation[];
}

/** One term applied (`<Annotation Term="UI.LineItem">`). */
export interface VocabularyAnnotation {
  /** The term, qualified by its vocabulary's namespace or alias (`UI.LineItem`, `com.sap.vocabularies.UI.v1.LineItem`). */
  readonly term: string;
  /** Tells several annotations with one term apart (`UI.FieldGroup#General`). */
  readonly qualifier?: string;
  /** The value; absent means the term's default (`true` for a tag such as `UI.Hidden`). */
  readonly value?: AnnotationExpression;
  /** Annotations of the annotation (`UI.TextArrangement` inside `Common.Text`). */
  readonly annotations?: readonly VocabularyAnnotation[];
}

/**
 * `<Annotations Target="...">`: the annotations of one model element. Targets name an element of
 * the model by qualified or alias-qualified name: `Namespace.Type`, `Namespace.Type/Property`
 * (a member of a complex property too: `Namespace.Type/Address/City`), `Namespace.Type/Navigation`,
 * `Namespace.Container`, `Namespace.Container/EntitySet` (or association set or function import),
 * `Namespace.Container/FunctionImport/Parameter`.
 */
export interface VocabularyAnnotations {
  /** The annotated model element (`ODataDemo.Product/Name`). */
  readonly target: string;
  /** Applies to every annotation inside that has no qualifier of its own. */
  readonly qualifier?: string;
  /** The terms applied to the target, in order. */
  readonly annotations: readonly VocabularyAnnotation[];
}

/** `<edmx:Include Namespace="com.sap.vocabularies.UI.v1" Alias="UI"/>`. */
export interface ReferenceInclude {
  /** The vocabulary's namespace (`com.sap.vocabularies.UI.v1`). */
  readonly namespace: string;
  /** The short name annotations use for it (`UI`). */
  readonly alias?: string;
}

/** `<edmx:IncludeAnnotations TermNamespace="..."/>`. */
export interface ReferenceIncludeAnnotations {
  /** The namespace of the terms whose annotations are included. */
  readonly termNamespace: string;
  /** Only annotations with this qualifier. */
  readonly qualifier?: string;
  /** Only annotations of elements in this namespace. */
  readonly targetNamespace?: string;
}

/** `<edmx:Reference Uri="...">`: a vocabulary (or other document) the annotations use, and its alias. */
export interface ReferenceDefinition {
  /** Where the referenced document lives. */
  readonly uri: string;
  /** The vocabularies it provides, with their aliases. */
  readonly includes?: readonly ReferenceInclude[];
  /** The annotations of it that apply here. */
  readonly includeAnnotations?: readonly ReferenceIncludeAnnotations[];
}
