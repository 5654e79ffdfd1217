/**
 * The protocol rules the conformance cases check, one statement each. A failing case names its
 * rule (id and statement), so a provider author reads what is broken, not only which request.
 */

const RULES = {
  'values.exact':
    'Stored values come back exactly: Int64 beyond 2^53 and 30-digit Decimals as exact text, strings with non-ASCII and supplementary characters unchanged, DateTime and DateTimeOffset to the millisecond as instants in UTC, Guids, Doubles, Booleans and nulls as stored.',
  'uri.keys':
    'Every key form addresses its entity (MS-ODATA §2.2.3.2): composite keys, Int64 key values beyond 2^53, string keys with quotes, spaces and non-ASCII characters; a key that matches nothing is 404.',
  'filter.comparison':
    'eq, ne, lt, le, gt and ge compare by value (MS-ODATA §2.2.3.6.1.1.2): Int64 and Decimal exactly, strings ordinally by UTF-16 code units (no collation, no case folding), DateTime and DateTimeOffset by instant, Guids by value.',
  'filter.nulls':
    "A null is an absent value: 'X eq null' holds for nulls and 'X ne null' for values; 'X ne 5' holds for a null X, every other comparison with a null is false; arithmetic and functions of a null give null (as WCF Data Services answered).",
  'filter.logic':
    "and, or and not follow three-valued logic over null Booleans ('null and false' is false, 'null or true' is true, 'not null' is null), and an entry is kept only when the whole filter is true.",
  'filter.arithmetic':
    'add, sub, mul, div, mod and negation are exact for Int64 and Decimal (no detour through a double), integer div truncates toward zero, mod takes the sign of the dividend, Double follows IEEE 754.',
  'filter.string-functions':
    'length, indexof, substring, replace, tolower, toupper, trim and concat work on the exact text, counting positions and lengths in UTF-16 code units, also for non-ASCII and supplementary characters.',
  'filter.string-literals':
    "substringof, startswith and endswith match the literal's characters exactly: '%', '_' and '\\' are ordinary characters, never wildcards or escapes (an unescaped SQL LIKE breaks this).",
  'filter.date-functions': 'year, month, day, hour, minute and second give the UTC components of DateTime and DateTimeOffset values.',
  'filter.math-functions':
    'round, floor and ceiling keep a Decimal exact and a Double a Double; round takes midpoints away from zero (round(2.5) is 3, round(-2.5) is -3).',
  'filter.type-functions':
    "isof and cast test and convert types: cast to an integer type truncates toward zero, isof('Edm.T') holds for non-null values of type T.",
  'filter.paths':
    'Member paths reach through complex properties and single-valued navigation properties; a path through a missing link or a null complex member is null.',
  'orderby.values':
    '$orderby sorts by value per type (numbers exactly, strings ordinally by UTF-16 code units, date/times by instant, Booleans false before true), by each item in turn, ascending or descending as asked.',
  'orderby.nulls': 'In $orderby a null sorts before every value: first when ascending, last when descending (as the service pages, WCF Data Services order).',
  'orderby.ties':
    'Entries that tie on every $orderby item are ordered by key, ascending, so every request returns ties in one order; without $orderby a feed is in key order.',
  'query.top-skip':
    '$skip leaves out the first n entries and $top keeps at most n of the rest, after $filter and $orderby (MS-ODATA §2.2.3.6.1.7, §2.2.3.6.1.8).',
  'timestamps.precision':
    "Edm.DateTime and Edm.DateTimeOffset values read back, and compare in $filter, at milliseconds, the precision of the JavaScript forms, literals, payloads and entity tags (a store that keeps microseconds cuts them toward the past); $orderby sorts them by the stored value, then by key; a $skiptoken carries the stored value at the store's precision, so following the next links gives every entry exactly once; a $skiptoken value with milliseconds only (as earlier releases wrote them) stands for its whole millisecond, and one with more digits for that exact value.",
  'paging.skiptoken':
    'Server-driven paging (MS-ODATA §2.2.3.6.1.9): following the next links from the first page returns every entry exactly once, in the order of the request, under every $orderby, with duplicate and null sort values, until a page has no next link.',
  'query.count':
    '$inlinecount=allpages and /$count give the number of entries that pass $filter, before $skip, $top and paging (MS-ODATA §2.2.3.6.1.10, §2.2.3.5); /$count after $skip/$top counts what they leave.',
  'query.search':
    "SAP's search keeps the entries in which every term (whitespace separates terms, a double-quoted phrase is one) is contained, ignoring case as JavaScript's toLowerCase does, in at least one top-level Edm.String property, keys included and complex members not; '%', '_' and '\\' are ordinary characters; it combines with $filter, $orderby, $skip, $top, counts, navigation and paging as $filter does.",
  'query.select': '$select keeps the named properties (a complex property whole), and paths into expanded navigation properties (MS-ODATA §2.2.3.6.1.11).',
  'query.expand':
    '$expand writes related entries inline (MS-ODATA §2.2.3.6.1.3): a single-valued navigation as its entry or null, to-many and many-to-many navigations as feeds with exactly the linked entries, also two levels deep.',
  'navigation.paths':
    'Navigation paths address related entries and their properties (MS-ODATA §2.2.3.1); an unlinked key after a navigation is 404, a single-valued navigation without a link is empty.',
  'create.values':
    'POST creates the entry (MS-ODATA §2.2.7.1.1): 201 with Location and the stored entry; sent values are stored exactly, an omitted property takes its DefaultValue, or null; a taken key is 409.',
  'create.required':
    'A new entry must give every required property (not nullable, no DefaultValue, not a key, a concurrency token or store-generated): without one it is 400 PROPERTY_REQUIRED naming the property, at every level of a deep insert, and nothing is created.',
  'create.store-defaults':
    "An omitted property the model marks store-generated (StoreGeneratedPattern) is left to the store: a provider that keeps its store's defaults answers 201 with the value the store made (here a DEFAULT now(): the time of the insert), never a zero value; one that does not leaves it null. The answer carries what a read then gives.",
  'create.links':
    'A new entry is linked to what its body binds (MS-ODATA §2.2.7.1.1) and to the source of a POST through a navigation property; a binding to an entry that does not exist is 400, and nothing is created.',
  'create.deep': 'A deep insert creates the whole tree of inline entries linked to each other, atomically: when any entry fails, none is created.',
  'create.parent-keys':
    "A new entry linked to its parent (POST through a navigation property, an inline entry of a deep insert, a binding to the other end) takes from it the properties the association's ReferentialConstraint fixes, key properties included: a delivery keyed by its order's key need not repeat it; a body that contradicts the parent is 400 and nothing is created.",
  'create.required-link':
    'A new entry whose type has a required (multiplicity 1) to-one end must be linked to it: without the link it is refused with 4xx and nothing is created.',
  'update.replace':
    'PUT replaces the entry (MS-ODATA §2.2.7.3.1): a property the body leaves out goes back to its DefaultValue, else null, never a type default; a required one left out (not nullable, no DefaultValue) is 400 PROPERTY_REQUIRED and nothing is written; keys, concurrency tokens and store-generated properties keep their values; the key cannot change; a missing entry is 404.',
  'update.merge':
    'MERGE and PATCH change only the properties and links the body lists (MS-ODATA §2.2.7.3.1); a to-one link sent as null is removed, and refused (4xx) for a required end.',
  'update.properties':
    'A property, complex property or $value can be replaced on its own (MS-ODATA §2.2.7.3.2, §2.2.7.3.3); DELETE of a nullable $value sets it to null.',
  'delete.entries':
    'DELETE removes the entry and its links (MS-ODATA §2.2.7.4.1); OnDelete="Cascade" deletes the dependents too; an entry a required end still needs is refused with 409 and nothing changes; a missing entry is 404.',
  'links.writes':
    '$links adds (POST), replaces (PUT) and removes (DELETE) links within the association multiplicities (MS-ODATA §2.2.7.1.3, §2.2.7.3.5, §2.2.7.4.2): a 0..1 or 1 end holds one link (a new one replaces it), a required end cannot be left without one (4xx), a target that does not exist is 404.',
  'precondition.check':
    'If-Match (RFC 7232 §3.1, MS-ODATA §3.2.5.1): a stale entity tag is 412 and changes nothing, the current tag, one of a list, or * lets the write through, a write that succeeds changes the tag, a tag that is not one the service wrote for the type matches nothing (412, never a write and never a 500), a specific tag for a type without a concurrency token is 400, and a missing entity is 404, never 412, also when it vanished after its tag was read.',
  'precondition.atomic':
    "The If-Match check and the write are one atomic step: of concurrent writers sending the same current tag exactly one succeeds, every other one gets 412 (404 after a delete), and the final state is the winner's.",
  'changeset.atomic':
    'A $batch changeset is atomic (MS-ODATA §2.2.7.6.4): when any of its operations fails, the changeset answers one error and none of its operations persist; when all succeed, all persist.',
  'transaction.retry':
    "A transaction the provider runs again after a retryable failure (a serialization failure or deadlock, rolled back) leaves the writes of its last run only, each exactly once, and the client gets the answer of that run: one response per operation, keys generated by the last run, and no 412 caused by the rolled-back run's own write.",
  'media.resources':
    'A media link entry (m:HasStream) is created from its media resource (MS-ODATA §2.2.7.1.3), which reads back with its bytes and content type, can be replaced, and is deleted with its entry.',
  'open-types.dynamic':
    'An open type keeps dynamic properties (MS-ODATA §2.2.6.2.7 OpenType): they are written back, filtered and ordered like declared ones (an absent one is null), MERGE adds them, PUT drops those it does not send, and one sent as null stays present.',
  'visibility.reads':
    "A row a request may not see does not exist for it: feeds, /$count, $inlinecount, paging, $expand (a hidden to-one target is null), navigation and key reads (404), alone or in a $batch, show exactly the rows of the request's context.",
  'visibility.writes':
    'A write to a row the request may not see is 404 whatever its If-Match, changes nothing, and fails its changeset as a whole; the row stays as it was for those who see it.',
  'capability.refused':
    'A request for something the provider declares it lacks is refused, never half done: 405 with an Allow header listing what the resource takes (RFC 9110 §15.5.6), or 4xx with an OData error, and nothing changes.',
} as const;

/** The id of a conformance rule (`orderby.nulls`). */
export type ConformanceRuleId = keyof typeof RULES;

/** Every rule the suite checks: its id to its statement. */
export const CONFORMANCE_RULES: Readonly<Record<ConformanceRuleId, string>> = Object.freeze(RULES);

/** The rule a failing case reports. */
export interface ConformanceRule {
  /** The rule's id, e.g. `orderby.nulls`. */
  readonly id: ConformanceRuleId;
  /** The rule stated in one sentence or two. */
  readonly statement: string;
}

/** The rule with the given id. */
export function ruleOf(id: ConformanceRuleId): ConformanceRule {
  return { id, statement: CONFORMANCE_RULES[id] };
}
