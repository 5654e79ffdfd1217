/**
 * Facet rules as data: which facets each primitive type takes (CSDL §2.2 "Facets") and what a
 * declared default value must look like. Used by the model validator.
 * @internal
 */
import type { FacetsDefinition, FeedCustomizationDefinition } from './definition';
import { integerRange, laneOf, type EdmPrimitiveTypeName, type PrimitiveLane } from './primitives';

type TypeSpecificFacet = 'maxLength' | 'fixedLength' | 'unicode' | 'collation' | 'precision' | 'scale';

const TYPE_SPECIFIC_FACETS: readonly TypeSpecificFacet[] = ['maxLength', 'fixedLength', 'unicode', 'collation', 'precision', 'scale'];

/** The CSDL attribute name of each facet, for messages. */
const FACET_ATTRIBUTE: Readonly<Record<TypeSpecificFacet, string>> = {
  maxLength: 'MaxLength',
  fixedLength: 'FixedLength',
  unicode: 'Unicode',
  collation: 'Collation',
  precision: 'Precision',
  scale: 'Scale',
};

/** The type-specific facets each primitive type accepts; Nullable, DefaultValue and ConcurrencyMode apply to all. */
const FACETS_BY_TYPE: ReadonlyMap<EdmPrimitiveTypeName, ReadonlySet<TypeSpecificFacet>> = new Map<EdmPrimitiveTypeName, ReadonlySet<TypeSpecificFacet>>([
  ['Edm.String', new Set<TypeSpecificFacet>(['maxLength', 'fixedLength', 'unicode', 'collation'])],
  ['Edm.Binary', new Set<TypeSpecificFacet>(['maxLength', 'fixedLength'])],
  ['Edm.Decimal', new Set<TypeSpecificFacet>(['precision', 'scale'])],
  ['Edm.DateTime', new Set<TypeSpecificFacet>(['precision'])],
  ['Edm.DateTimeOffset', new Set<TypeSpecificFacet>(['precision'])],
  ['Edm.Time', new Set<TypeSpecificFacet>(['precision'])],
]);

const NO_FACETS: ReadonlySet<TypeSpecificFacet> = new Set();

/** Lexical forms of CSDL default values per lane (xs: forms, as CSDL writes them). */
const DEFAULT_VALUE_FORMS: Readonly<Partial<Record<PrimitiveLane, RegExp>>> = {
  boolean: /^(true|false|1|0)$/,
  integer: /^[+-]?\d+$/,
  int64: /^[+-]?\d+$/,
  decimal: /^[+-]?(\d+(\.\d*)?|\.\d+)$/,
  float: /^([+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|INF|-INF|NaN)$/,
  guid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
};

/** Problems with the facets of a primitive-typed property or parameter. */
export function primitiveFacetProblems(type: EdmPrimitiveTypeName, facets: FacetsDefinition): string[] {
  const problems: string[] = [];
  const allowed = FACETS_BY_TYPE.get(type) ?? NO_FACETS;
  for (const facet of TYPE_SPECIFIC_FACETS) {
    if (facets[facet] !== undefined && !allowed.has(facet)) {
      problems.push(`facet ${FACET_ATTRIBUTE[facet]} does not apply to ${type}`);
    }
  }
  const { maxLength, precision, scale } = facets;
  if (maxLength !== undefined && maxLength !== 'Max' && !(Number.isInteger(maxLength) && maxLength > 0)) {
    problems.push(`MaxLength must be a positive integer or 'Max', got '${String(maxLength)}'`);
  }
  if (precision !== undefined && !(Number.isInteger(precision) && precision >= (type === 'Edm.Decimal' ? 1 : 0))) {
    problems.push(`Precision must be a ${type === 'Edm.Decimal' ? 'positive' : 'non-negative'} integer, got '${String(precision)}'`);
  }
  if (scale !== undefined && !(Number.isInteger(scale) && scale >= 0)) {
    problems.push(`Scale must be a non-negative integer, got '${String(scale)}'`);
  } else if (scale !== undefined && precision !== undefined && scale > precision) {
    problems.push(`Scale ${scale} exceeds Precision ${precision}`);
  }
  if (facets.defaultValue !== undefined) {
    const detail = defaultValueProblem(type, facets.defaultValue, maxLength);
    if (detail !== undefined) problems.push(detail);
  }
  return problems;
}

function defaultValueProblem(type: EdmPrimitiveTypeName, value: string, maxLength: number | 'Max' | undefined): string | undefined {
  const form = DEFAULT_VALUE_FORMS[laneOf(type)];
  if (form !== undefined && !form.test(value)) return `DefaultValue '${value}' is not a valid ${type} value`;
  const range = integerRange(type);
  if (range !== undefined) {
    const n = BigInt(value);
    if (n < range.min || n > range.max) return `DefaultValue '${value}' is out of range for ${type}`;
  }
  if (type === 'Edm.String' && typeof maxLength === 'number' && value.length > maxLength) {
    return `DefaultValue '${value}' is longer than MaxLength ${maxLength}`;
  }
  return undefined;
}

/** Problems shared by every property and parameter: the enumerated facets. */
export function commonFacetProblems(facets: FacetsDefinition): string[] {
  const problems: string[] = [];
  if (facets.nullable !== undefined && typeof facets.nullable !== 'boolean') problems.push('Nullable must be true or false');
  if (facets.concurrencyMode !== undefined && facets.concurrencyMode !== 'None' && facets.concurrencyMode !== 'Fixed') {
    problems.push(`ConcurrencyMode must be None or Fixed, got '${String(facets.concurrencyMode)}'`);
  }
  return problems;
}

/** The Atom targets of customizable feeds (MS-ODATA §2.2.3.7.2.1); any other target is a custom element path. */
const SYNDICATION_TARGETS: ReadonlySet<string> = new Set([
  'SyndicationAuthorEmail',
  'SyndicationAuthorName',
  'SyndicationAuthorUri',
  'SyndicationContributorEmail',
  'SyndicationContributorName',
  'SyndicationContributorUri',
  'SyndicationPublished',
  'SyndicationRights',
  'SyndicationSummary',
  'SyndicationTitle',
  'SyndicationUpdated',
]);

/** Problems with an `m:FC_*` mapping. */
export function feedCustomizationProblems(fc: FeedCustomizationDefinition): string[] {
  const problems: string[] = [];
  if (typeof fc.targetPath !== 'string' || fc.targetPath === '') return ['m:FC_TargetPath must not be empty'];
  if (fc.contentKind !== undefined && !['text', 'html', 'xhtml'].includes(fc.contentKind)) {
    problems.push(`m:FC_ContentKind must be text, html or xhtml, got '${String(fc.contentKind)}'`);
  }
  if (SYNDICATION_TARGETS.has(fc.targetPath)) {
    if (fc.nsUri !== undefined || fc.nsPrefix !== undefined) problems.push(`m:FC_NsUri and m:FC_NsPrefix do not apply to the Atom target ${fc.targetPath}`);
  } else {
    if (fc.targetPath.startsWith('Syndication')) problems.push(`unknown Atom target '${fc.targetPath}'`);
    else if (fc.nsUri === undefined) problems.push(`the custom target '${fc.targetPath}' needs m:FC_NsUri`);
    if (fc.contentKind !== undefined) problems.push('m:FC_ContentKind applies to Atom targets only');
  }
  return problems;
}
