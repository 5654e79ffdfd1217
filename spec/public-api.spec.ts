/**
 * The public API, pinned: every name lib/index.ts exports (values and types), so that a new export
 * is a deliberate change made here too, and an internal one cannot slip into the semver surface
 * through a re-export. Read with the TypeScript compiler from the sources, as a user's compiler
 * sees the built declarations.
 */
import { resolve } from 'path';
import ts from 'typescript';

const INDEX = resolve(__dirname, '..', 'lib', 'index.ts');

/** `name (value)` or `name (type)` for every export of lib/index.ts, sorted. */
function publicExports(): string[] {
  const program = ts.createProgram([INDEX], { strict: true, noEmit: true, skipLibCheck: true, types: ['node'] });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(INDEX);
  const module = source === undefined ? undefined : checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error('lib/index.ts has no module symbol');
  return checker
    .getExportsOfModule(module)
    .map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      return `${symbol.name} (${target.flags & ts.SymbolFlags.Value ? 'value' : 'type'})`;
    })
    .sort();
}

const VALUES = [
  'DEFAULT_LIMITS',
  'ERROR_CODES',
  'MemoryProvider',
  'ODataError',
  'applyQuery',
  'assertRequiredSent',
  'buildModel',
  'childrenOf',
  'coerceDynamic',
  'coercePrimitive',
  'coerceProperty',
  'compileExpression',
  'compileFilter',
  'compileOrderBy',
  'compileSkipTokenFilter',
  'conditionalWriteError',
  'conjunction',
  'conjuncts',
  'createTransactionScope',
  'decodeETag',
  'defineModel',
  'describeCaught',
  'describeKey',
  'encodeETag',
  'entityKey',
  'entityNotFound',
  'entityPosition',
  'evaluate',
  'fillDefaults',
  'foldExpression',
  'isKeyedPath',
  'isODataError',
  'isPreciseInstant',
  'isRequiredOnCreate',
  'isStoreGenerated',
  'keyIdentity',
  'loadEdmx',
  'mediaEntryValues',
  'modelAsServed',
  'navigationExpansion',
  'normalizeKey',
  'odata',
  'odataClientErrorHandler',
  'odataErrorHandler',
  'pathNotFound',
  'pathPrefixesThatMayFail',
  'preciseInstant',
  'preconditionCondition',
  'printExpression',
  'readEdmx',
  'readOnlyProvider',
  'requestFilter',
  'requiredProperties',
  'retryBackoff',
  'searchFilter',
  'searchableProperties',
  'seekCondition',
  'sentValues',
  'splitFilter',
  'transformExpression',
  'translateFilter',
  'walkExpression',
  'withLinkedValues',
  'writeEdmx',
  'writtenProperties',
];

const TYPES: Readonly<Record<string, readonly string[]>> = {
  'the middleware, its options and error handlers': [
    'CaughtDescription',
    'ClientErrorListener',
    'Clock',
    'ErrorCode',
    'ErrorCodeDefinition',
    'ExpressLikeRequest',
    'ODataErrorDetail',
    'ODataErrorHandler',
    'ODataErrorOptions',
    'ODataMiddleware',
    'ODataServiceOptions',
    'RequestContext',
    'ServiceLimits',
    'ServiceLogEvent',
  ],
  'the model (defineModel definitions and the built EDM)': [
    'Annotated',
    'AnnotationAttribute',
    'AnnotationElement',
    'AssociationDefinition',
    'AssociationEndDefinition',
    'AssociationSetDefinition',
    'AssociationSetEndDefinition',
    'ComplexTypeDefinition',
    'ComplexValue',
    'DocumentationDefinition',
    'EdmAnnotations',
    'EdmAssociation',
    'EdmAssociationEnd',
    'EdmAssociationSet',
    'EdmAssociationSetEnd',
    'EdmComplexType',
    'EdmComplexTypeRef',
    'EdmEntityContainer',
    'EdmEntitySet',
    'EdmEntityType',
    'EdmFacets',
    'EdmFunctionImport',
    'EdmFunctionImportParameter',
    'EdmMember',
    'EdmModel',
    'EdmNavigationProperty',
    'EdmPrimitiveTypeName',
    'EdmPrimitiveTypeRef',
    'EdmProperty',
    'EdmPropertyTypeRef',
    'EdmReferentialConstraint',
    'EdmReturnType',
    'EdmSchema',
    'EntityContainerDefinition',
    'EntitySetDefinition',
    'EntityTypeDefinition',
    'FacetsDefinition',
    'FeedCustomizationDefinition',
    'FunctionImportDefinition',
    'FunctionImportParameterDefinition',
    'ModelDefinition',
    'Multiplicity',
    'NavigationPropertyDefinition',
    'PrimitiveLane',
    'PrimitiveValue',
    'PropertyDefinition',
    'PropertyValue',
    'ReferentialConstraintDefinition',
    'SchemaDefinition',
    'SingleSchemaDefinition',
  ],
  'vocabulary annotations in the model (UI, Common, ...) and the references of their vocabularies': [
    'AnnotationCollectionExpression',
    'AnnotationConstantKind',
    'AnnotationExpression',
    'AnnotationNullExpression',
    'AnnotationPathKind',
    'AnnotationPropertyValue',
    'AnnotationRecordExpression',
    'AnnotationValueExpression',
    'AnnotationXmlExpression',
    'ReferenceDefinition',
    'ReferenceInclude',
    'ReferenceIncludeAnnotations',
    'VocabularyAnnotation',
    'VocabularyAnnotations',
  ],
  'the provider contract': [
    'BeginTransaction',
    'CoerceResult',
    'CountRequest',
    'CreateRequest',
    'DataProvider',
    'DeleteRequest',
    'Entity',
    'EntityKey',
    'EntityPath',
    'EntityPathRoot',
    'EntityReference',
    'EntitySetPath',
    'ExpandItem',
    'FilterExpression',
    'FilterSplit',
    'KeyedEntityPath',
    'LinkBinding',
    'LinkRequest',
    'MediaContent',
    'NavigationReference',
    'NavigationStep',
    'OperationCall',
    'OperationHandler',
    'OperationResult',
    'OrderByItem',
    'PositionValue',
    'PreciseInstant',
    'Precondition',
    'QueryApplied',
    'QueryRequest',
    'QueryResult',
    'SelectExpand',
    'Selection',
    'SkipTokenPosition',
    'SortDirection',
    'TransactionOptions',
    'TransactionRunOptions',
    'TransactionScope',
    'TranslatedFilter',
    'UpdateRequest',
  ],
  'the $filter AST and the shared evaluator': [
    'BinaryNode',
    'BinaryOperator',
    'CallNode',
    'EvaluationAccess',
    'EvaluationOptions',
    'Evaluator',
    'ExprNode',
    'ExprType',
    'ExpressionFolder',
    'ExpressionVisitor',
    'FunctionName',
    'LiteralNode',
    'MemberNode',
    'MemberStep',
    'NavigationAccess',
    'QueryPart',
    'RuntimeValue',
    'SourceRange',
    'TypeNameNode',
    'UnaryNode',
    'UnaryOperator',
  ],
  'MemoryProvider and its store': [
    'ForeignKeyMap',
    'LinkTarget',
    'MemoryData',
    'MemoryProviderOptions',
    'MemoryStore',
    'StoredMedia',
    'StoredValues',
    'WriteOptions',
  ],
};

describe('the public API (lib/index.ts)', () => {
  it('exports exactly the values users call', () => {
    const values = publicExports()
      .filter((entry) => entry.endsWith('(value)'))
      .map((entry) => entry.replace(' (value)', ''));
    expect(values).toEqual(VALUES);
  });

  it('exports exactly the types users write providers, models and options with', () => {
    const types = publicExports()
      .filter((entry) => entry.endsWith('(type)'))
      .map((entry) => entry.replace(' (type)', ''));
    expect(types).toEqual(Object.values(TYPES).flat().sort());
  });
});
