/**
 * Reading back customizable-feed properties (MS-ODATA §2.2.3.7.2.1, §2.2.6.2.2.1): a property with
 * `m:FC_KeepInContent="false"` travels only in its mapped Atom element (`atom:title`, `atom:author/
 * atom:name`, or a custom element), so an Atom client sends Product.Name as the entry's title.
 * The mappings are compiled once per entity type.
 */
import type { EdmEntityType, EdmProperty } from '../../edm/model';
import type { ComplexValue, PropertyValue } from '../../edm/primitives';
import { parseAtomValue } from '../../edm/payload-values';
import { ODataError } from '../../errors';
import type { EntryBuilder } from '../entry-checks';
import { assertFacets } from '../entry-checks';
import { ATOM_NS } from '../names';
import { isComplexValue } from '../value-guards';
import { attributeOf, childElements, deepTextOf } from '../xml/safe-sax';
import type { XmlElement } from '../xml/safe-sax';

/** Where each syndication target lives below `atom:entry` (MS-ODATA §2.2.3.7.2.1, FC_TargetPath values). */
const SYNDICATION_PATHS: ReadonlyMap<string, readonly string[]> = new Map([
  ['SyndicationAuthorEmail', ['author', 'email']],
  ['SyndicationAuthorName', ['author', 'name']],
  ['SyndicationAuthorUri', ['author', 'uri']],
  ['SyndicationContributorEmail', ['contributor', 'email']],
  ['SyndicationContributorName', ['contributor', 'name']],
  ['SyndicationContributorUri', ['contributor', 'uri']],
  ['SyndicationPublished', ['published']],
  ['SyndicationRights', ['rights']],
  ['SyndicationSummary', ['summary']],
  ['SyndicationTitle', ['title']],
  ['SyndicationUpdated', ['updated']],
]);

/** One compiled mapping: where the text is, and which (member of a) property it fills. */
interface CompiledMapping {
  readonly property: EdmProperty;
  /** Members below a complex property (`m:FC_SourcePath="City"`); empty for a primitive property. */
  readonly members: readonly EdmProperty[];
  readonly namespace: string;
  readonly elements: readonly string[];
  /** `@name` at the end of a custom target path. */
  readonly attribute: string | undefined;
}

const COMPILED = new WeakMap<EdmEntityType, readonly CompiledMapping[]>();

/** The member chain of `m:FC_SourcePath` below a complex property; undefined when it does not resolve to a primitive. */
function memberChain(property: EdmProperty, sourcePath: string | undefined): EdmProperty[] | undefined {
  if (sourcePath === undefined || sourcePath === '') return property.type.kind === 'Primitive' ? [] : undefined;
  const chain: EdmProperty[] = [];
  let current: EdmProperty = property;
  for (const name of sourcePath.split('/')) {
    if (current.type.kind !== 'Complex') return undefined;
    const member = current.type.type.propertiesByName.get(name);
    if (member === undefined) return undefined;
    chain.push(member);
    current = member;
  }
  return current.type.kind === 'Primitive' ? chain : undefined;
}

/** The mappings of a type whose values are not kept in `m:properties`. */
function compile(type: EdmEntityType): readonly CompiledMapping[] {
  const mappings: CompiledMapping[] = [];
  for (const property of type.properties) {
    const fc = property.feedCustomization;
    if (fc === undefined || fc.keepInContent !== false) continue;
    const members = memberChain(property, fc.sourcePath);
    if (members === undefined) continue;
    const syndication = SYNDICATION_PATHS.get(fc.targetPath);
    if (syndication !== undefined) {
      mappings.push({ property, members, namespace: ATOM_NS, elements: syndication, attribute: undefined });
    } else if (fc.nsUri !== undefined) {
      const steps = fc.targetPath.split('/');
      const last = steps[steps.length - 1];
      const attribute = last.startsWith('@') ? last.slice(1) : undefined;
      mappings.push({ property, members, namespace: fc.nsUri, elements: attribute === undefined ? steps : steps.slice(0, -1), attribute });
    }
  }
  return mappings;
}

function mappingsOf(type: EdmEntityType): readonly CompiledMapping[] {
  let mappings = COMPILED.get(type);
  if (mappings === undefined) {
    mappings = compile(type);
    COMPILED.set(type, mappings);
  }
  return mappings;
}

/** The mapped text, or undefined when the element (or attribute) is absent or empty. */
function mappedText(entry: XmlElement, mapping: CompiledMapping): string | undefined {
  let element: XmlElement | undefined = entry;
  for (const local of mapping.elements) {
    element = childElements(element).find((child) => child.uri === mapping.namespace && child.local === local);
    if (element === undefined) return undefined;
  }
  const text =
    mapping.attribute === undefined
      ? deepTextOf(element)
      : (attributeOf(element, mapping.namespace, mapping.attribute) ?? attributeOf(element, '', mapping.attribute));
  // An empty mapped element is what a generic Atom client sends by default (`<title/>`): it carries
  // no value, so it neither sets nor nulls the property. A null is sent as `m:null` in m:properties.
  return text === undefined || text.trim() === '' ? undefined : text;
}

/** `value` with `members` set to `leaf`, creating intermediate complex values. */
function withMember(value: PropertyValue | undefined, members: readonly EdmProperty[], leaf: PropertyValue): PropertyValue {
  if (members.length === 0) return leaf;
  const base: ComplexValue = isComplexValue(value) ? value : {};
  const [first, ...rest] = members;
  // A member already given in m:properties wins over its mapped copy.
  if (rest.length === 0 && Object.prototype.hasOwnProperty.call(base, first.name)) return base;
  return { ...base, [first.name]: withMember(base[first.name], rest, leaf) };
}

/**
 * Fill the builder with the values of the type's non-kept customizable-feed properties found in
 * the entry. A property already read from `m:properties` keeps that value.
 */
export function readFeedCustomizedProperties(entry: XmlElement, type: EdmEntityType, builder: EntryBuilder): void {
  for (const mapping of mappingsOf(type)) {
    const text = mappedText(entry, mapping);
    if (text === undefined) continue;
    const leafProperty = mapping.members.length === 0 ? mapping.property : mapping.members[mapping.members.length - 1];
    if (leafProperty.type.kind !== 'Primitive') continue;
    const leaf = parseAtomValue(leafProperty.type.name, text, leafProperty);
    assertFacets(leafProperty, leaf);
    const name = mapping.property.name;
    if (mapping.members.length === 0) {
      if (!builder.hasProperty(name)) builder.setProperty(name, leaf);
      continue;
    }
    const current = builder.properties.get(name);
    if (current === null) {
      throw ODataError.fromCode('BODY_INVALID', { detail: `the property '${name}' is null in m:properties but has a member mapped to the feed.` });
    }
    builder.properties.set(name, withMember(current, mapping.members, leaf));
  }
}
