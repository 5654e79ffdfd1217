/**
 * Customizable feeds (MS-ODATA §2.2.6.2.2.1, CSDL `m:FC_*` attributes): a property's value is
 * copied into an Atom element (`atom:title`, `atom:summary`, `atom:author/atom:name`, ...) or into
 * an element of a custom namespace, and left out of `m:properties` when `FC_KeepInContent="false"`.
 * Compiled once per entry plan; JSON is not affected. A null value always stays in `m:properties`
 * (as `m:null="true"`), because no Atom element can say null: readers such as datajs then leave
 * the property null instead of reading an empty title.
 */
import type { EdmProperty } from '../../edm/model';
import type { EdmPrimitiveTypeName } from '../../edm/primitives';
import { formatAtomValue } from '../../edm/payload-values';
import type { Entity } from '../../provider/types';
import type { EntryPlan } from '../entry-plan';
import { isComplexValue, isPrimitiveValue } from '../value-guards';
import { escapeXmlAttribute, escapeXmlText } from '../xml/escape';
import { XHTML_NS } from '../names';

/** One mapped value: the property, the member path inside a complex value, and the leaf type. */
interface Mapping {
  readonly property: EdmProperty;
  readonly sourcePath: readonly string[];
  readonly typeName: EdmPrimitiveTypeName;
  readonly contentKind: 'text' | 'html' | 'xhtml';
}

/** The syndication targets of MS-ODATA §2.2.6.2.2.1 (the `FC_TargetPath` keywords). */
type SyndicationTarget =
  | 'SyndicationTitle'
  | 'SyndicationSummary'
  | 'SyndicationRights'
  | 'SyndicationUpdated'
  | 'SyndicationPublished'
  | 'SyndicationAuthorName'
  | 'SyndicationAuthorEmail'
  | 'SyndicationAuthorUri'
  | 'SyndicationContributorName'
  | 'SyndicationContributorEmail'
  | 'SyndicationContributorUri';

const SYNDICATION_TARGETS: ReadonlySet<string> = new Set<SyndicationTarget>([
  'SyndicationTitle',
  'SyndicationSummary',
  'SyndicationRights',
  'SyndicationUpdated',
  'SyndicationPublished',
  'SyndicationAuthorName',
  'SyndicationAuthorEmail',
  'SyndicationAuthorUri',
  'SyndicationContributorName',
  'SyndicationContributorEmail',
  'SyndicationContributorUri',
]);

/** A node of the custom (non-Atom) target tree, e.g. `order/customer/@id`. */
interface CustomElement {
  readonly name: string;
  readonly attributes: { readonly name: string; readonly mapping: Mapping }[];
  text: Mapping | undefined;
  readonly children: CustomElement[];
}

interface CustomRoot {
  readonly prefix: string;
  readonly uri: string;
  readonly element: CustomElement;
}

/** The compiled feed customization of one entry plan. */
interface FeedCustomization {
  /** Atom elements between `atom:id` and the links: title, summary, published, updated, author, contributor, rights; `updated` is the escaped default. */
  syndication(entity: Entity, updated: string): string;
  /** Custom-namespace elements, written after the content. */
  custom(entity: Entity): string;
  /** True when the property's value is written only in the Atom element (not null, `FC_KeepInContent="false"`). */
  readonly isHidden: (property: EdmProperty, value: unknown) => boolean;
}

/** Resolve `FC_SourcePath` inside a complex property to its primitive leaf type; undefined when it does not resolve. */
function leafType(property: EdmProperty, path: readonly string[]): EdmPrimitiveTypeName | undefined {
  let type = property.type;
  for (const step of path) {
    if (type.kind !== 'Complex') return undefined;
    const member: EdmProperty | undefined = type.type.propertiesByName.get(step);
    if (member === undefined) return undefined;
    type = member.type;
  }
  return type.kind === 'Primitive' ? type.name : undefined;
}

/** The raw mapped value, or undefined when it (or a complex value on its path) is null or missing. */
function rawValueOf(mapping: Mapping, entity: Entity): unknown {
  let value: unknown = entity[mapping.property.name];
  for (const step of mapping.sourcePath) {
    if (!isComplexValue(value)) return undefined;
    value = value[step];
  }
  return isPrimitiveValue(value) ? value : undefined;
}

/** The mapped value in its Atom text form (as in `m:properties`), or null. */
function valueOf(mapping: Mapping, entity: Entity): string | null {
  const value = rawValueOf(mapping, entity);
  return isPrimitiveValue(value) ? formatAtomValue(mapping.typeName, value) : null;
}

/**
 * The mapped value as an RFC 3339 date-time for atom:updated / atom:published (RFC 4287 §3.3):
 * a Date is written in UTC with `Z`, milliseconds only when non-zero; other values as text.
 */
function dateOf(mapping: Mapping, entity: Entity): string | null {
  const value = rawValueOf(mapping, entity);
  if (!(value instanceof Date)) return isPrimitiveValue(value) ? formatAtomValue(mapping.typeName, value) : null;
  const iso = value.toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

function textConstruct(element: string, mapping: Mapping, value: string | null): string {
  if (value === null) return `<${element} type="text"/>`;
  // xhtml content is the property's own markup (the model owner vouches for it, as in WCF Data Services).
  if (mapping.contentKind === 'xhtml') return `<${element} type="xhtml"><div xmlns="${XHTML_NS}">${value}</div></${element}>`;
  return `<${element} type="${mapping.contentKind}">${escapeXmlText(value)}</${element}>`;
}

function simpleElement(element: string, value: string | null): string {
  return value === null ? '' : `<${element}>${escapeXmlText(value)}</${element}>`;
}

/** Compile the feed customization of the properties an entry plan writes. */
export function compileFeedCustomization(plan: EntryPlan): FeedCustomization {
  const syndication = new Map<SyndicationTarget, Mapping>();
  const roots: CustomRoot[] = [];
  const hidden = new Set<EdmProperty>();
  for (const property of plan.properties) {
    const fc = property.feedCustomization;
    if (fc === undefined) continue;
    const sourcePath = fc.sourcePath === undefined || fc.sourcePath === '' ? [] : fc.sourcePath.split('/');
    const typeName = leafType(property, sourcePath);
    if (typeName === undefined) continue;
    const mapping: Mapping = { property, sourcePath, typeName, contentKind: fc.contentKind ?? 'text' };
    if (SYNDICATION_TARGETS.has(fc.targetPath)) {
      syndication.set(fc.targetPath as SyndicationTarget, mapping);
    } else if (fc.nsUri !== undefined && fc.nsPrefix !== undefined) {
      addCustomTarget(roots, fc.nsPrefix, fc.nsUri, fc.targetPath, mapping);
    } else {
      continue;
    }
    // Members of complex values stay in content: only whole top-level values can be hidden.
    if (fc.keepInContent === false && sourcePath.length === 0) hidden.add(property);
  }

  const title = syndication.get('SyndicationTitle');
  const summary = syndication.get('SyndicationSummary');
  const rights = syndication.get('SyndicationRights');
  const updated = syndication.get('SyndicationUpdated');
  const published = syndication.get('SyndicationPublished');
  const author = personTargets(syndication, 'Author');
  const contributor = personTargets(syndication, 'Contributor');

  return {
    isHidden: (property, value) => value !== null && value !== undefined && hidden.has(property),
    syndication(entity, now) {
      let out = title === undefined ? '<title type="text"/>' : textConstruct('title', title, valueOf(title, entity));
      if (summary !== undefined) {
        const value = valueOf(summary, entity);
        if (value !== null) out += textConstruct('summary', summary, value);
      }
      if (published !== undefined) {
        out += simpleElement('published', dateOf(published, entity));
      }
      const updatedValue = updated === undefined ? null : dateOf(updated, entity);
      out += `<updated>${updatedValue === null ? now : escapeXmlText(updatedValue)}</updated>`;
      // atom:author is required in an entry of a feed without one (RFC 4287 §4.1.2): always written.
      out += '<author>' + (author.name === undefined ? '<name/>' : `<name>${personText(author.name, entity)}</name>`);
      out += personPart('uri', author.uri, entity) + personPart('email', author.email, entity) + '</author>';
      if (contributor.name !== undefined || contributor.uri !== undefined || contributor.email !== undefined) {
        out += '<contributor>' + (contributor.name === undefined ? '<name/>' : `<name>${personText(contributor.name, entity)}</name>`);
        out += personPart('uri', contributor.uri, entity) + personPart('email', contributor.email, entity) + '</contributor>';
      }
      if (rights !== undefined) {
        const value = valueOf(rights, entity);
        if (value !== null) out += textConstruct('rights', rights, value);
      }
      return out;
    },
    custom:
      roots.length === 0
        ? () => ''
        : (entity) => roots.map((root) => writeCustom(root.element, root.prefix, entity, ` xmlns:${root.prefix}="${escapeXmlAttribute(root.uri)}"`)).join(''),
  };
}

interface PersonTargets {
  readonly name: Mapping | undefined;
  readonly uri: Mapping | undefined;
  readonly email: Mapping | undefined;
}

function personTargets(syndication: ReadonlyMap<SyndicationTarget, Mapping>, who: 'Author' | 'Contributor'): PersonTargets {
  return {
    name: syndication.get(`Syndication${who}Name`),
    uri: syndication.get(`Syndication${who}Uri`),
    email: syndication.get(`Syndication${who}Email`),
  };
}

function personText(mapping: Mapping, entity: Entity): string {
  const value = valueOf(mapping, entity);
  return value === null ? '' : escapeXmlText(value);
}

function personPart(element: string, mapping: Mapping | undefined, entity: Entity): string {
  return mapping === undefined ? '' : simpleElement(element, valueOf(mapping, entity));
}

/** Add `a/b/@attr` or `a/b` under a root of that namespace, merging shared steps. */
function addCustomTarget(roots: CustomRoot[], prefix: string, uri: string, targetPath: string, mapping: Mapping): void {
  const steps = targetPath.split('/').filter((step) => step !== '');
  const attribute = steps.length > 1 && steps[steps.length - 1].startsWith('@') ? steps.pop()?.slice(1) : undefined;
  const [first, ...rest] = steps;
  if (first === undefined || first.startsWith('@')) return;
  let root = roots.find((r) => r.uri === uri && r.prefix === prefix && r.element.name === first);
  if (root === undefined) {
    root = { prefix, uri, element: { name: first, attributes: [], text: undefined, children: [] } };
    roots.push(root);
  }
  let element = root.element;
  for (const step of rest) {
    let child = element.children.find((c) => c.name === step);
    if (child === undefined) {
      child = { name: step, attributes: [], text: undefined, children: [] };
      element.children.push(child);
    }
    element = child;
  }
  if (attribute !== undefined) element.attributes.push({ name: attribute, mapping });
  else element.text = mapping;
}

function writeCustom(element: CustomElement, prefix: string, entity: Entity, declarations: string): string {
  const qname = `${prefix}:${element.name}`;
  let out = `<${qname}${declarations}`;
  for (const attribute of element.attributes) {
    const value = valueOf(attribute.mapping, entity);
    if (value !== null) out += ` ${attribute.name}="${escapeXmlAttribute(value)}"`;
  }
  let content = '';
  if (element.text !== undefined) {
    const value = valueOf(element.text, entity);
    if (value === null) out += ' m:null="true"';
    else content += escapeXmlText(value);
  }
  for (const child of element.children) content += writeCustom(child, prefix, entity, '');
  return content === '' ? `${out}/>` : `${out}>${content}</${qname}>`;
}
