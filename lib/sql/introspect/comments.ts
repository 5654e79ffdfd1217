/**
 * Table and column comments as the model shows them: the first line is the CSDL `<Documentation>`
 * summary, further lines its long description. SAP clients show `sap:label` as a field label or
 * column header, so it stays short: the first line when it is at most LABEL_LENGTH characters,
 * else a readable form of the column's (or table's) name, with the first line as `sap:quickinfo`
 * (a tooltip). A word `@version` in a column comment marks a concurrency token and is not shown.
 */
import type { AnnotationAttribute, DocumentationDefinition } from '../../edm/definition';
import { readableName } from './inflection';

/** The SAP annotation namespace of OData V2 (`sap:label`, `sap:creatable`...). */
export const SAP_NAMESPACE = 'http://www.sap.com/Protocols/SAPData';

/** The Entity Framework annotation namespace WCF Data Services writes `StoreGeneratedPattern` in. */
export const STORE_ANNOTATION_NAMESPACE = 'http://schemas.microsoft.com/ado/2009/02/edm/annotation';

/** Markers a comment may carry. */
const MARKERS = ['@version'] as const;

/** The longest comment line that is a label (SAP's medium field label is 20, its quick info 60). */
const LABEL_LENGTH = 40;

/** What a comment gives an element. */
export interface CommentParts {
  readonly label?: string;
  /** The first line, when it is too long to be the label. */
  readonly quickinfo?: string;
  readonly documentation?: DocumentationDefinition;
  /** The markers found (`@version`). */
  readonly markers: ReadonlySet<string>;
}

/** Split the comment of the element named `name` (an SQL name) into label, quick info, documentation and markers. */
export function readComment(comment: string | null, name: string): CommentParts {
  const markers = new Set<string>();
  if (comment === null) return { markers };
  // Characters XML 1.0 cannot carry would break $metadata: shown as U+FFFD.
  let text = comment.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD');
  for (const marker of MARKERS) {
    const pattern = new RegExp(`(^|\\s)${marker}(?=\\s|$)`, 'g');
    if (pattern.test(text)) markers.add(marker);
    text = text.replace(pattern, '$1');
  }
  const lines = text
    .split(/\r\n|\r|\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return { markers };
  const [summary, ...rest] = lines;
  const documentation: DocumentationDefinition = rest.length === 0 ? { summary } : { summary, longDescription: rest.join('\n') };
  if ([...summary].length <= LABEL_LENGTH) return { label: summary, documentation, markers };
  const readable = readableName(name);
  return { ...(readable === '' ? {} : { label: readable }), quickinfo: summary, documentation, markers };
}

/** A `sap:` attribute. */
export function sapAttribute(name: string, value: string): AnnotationAttribute {
  return { namespace: SAP_NAMESPACE, prefix: 'sap', name, value };
}
