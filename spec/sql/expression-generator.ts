/**
 * Random well-typed `$filter` and `$orderby` texts over the ExprTest Item type (or another type's
 * vocabulary: the demo's Product): every operator and built-in function, literals drawn from the
 * fixture's tricky values, null, navigation, complex members, isof and cast. Seeded (spec/helpers/random), so a failure reproduces from its seed.
 *
 * One documented difference is kept out by construction: `substring` may cut a surrogate pair, and
 * the evaluator then holds an unpaired surrogate where PostgreSQL holds U+FFFD. Such strings agree
 * in length, positions, equality with literals and searches for literals, but not in ordering,
 * when two halves are joined again, or when one is searched for. So a string that may come from
 * `substring` is never ordered, compared with another computed string, concatenated after another
 * one, or searched for.
 */
import { seededRandom } from '../helpers/random';

type Generated =
  'Boolean' | 'String' | 'Int32' | 'Int64' | 'Decimal' | 'Double' | 'Single' | 'DateTime' | 'DateTimeOffset' | 'Time' | 'Guid' | 'Binary' | 'Small';

/** The names a generator draws from: members per type, type tests, to-one navigation properties. */
export interface Vocabulary {
  /** Member paths per generated type (a type without members gets literals only). */
  readonly members: Readonly<Record<Generated, readonly string[]>>;
  /** Boolean `isof(...)` expressions. */
  readonly typeTests: readonly string[];
  /** To-one navigation properties, compared with null. */
  readonly navigations: readonly string[];
}

const MEMBERS: Readonly<Record<Generated, readonly string[]>> = {
  Boolean: ['Boolean'],
  String: ['String', 'String', 'Address/City', 'Address/Street', 'Owner/Name', "cast('ExprTest.SpecialItem')/Extra"],
  Int32: ['Int32', 'Int32', "cast('ExprTest.SpecialItem')/Bonus", "cast(Owner, 'ExprTest.Item')/Int32"],
  Small: ['Byte', 'SByte', 'Int16'],
  Int64: ['Int64'],
  Decimal: ['Decimal'],
  Double: ['Double', 'Double', 'Address/Geo/Lat', 'Address/Geo/Lon'],
  Single: ['Single'],
  DateTime: ['DateTime'],
  DateTimeOffset: ['DateTimeOffset'],
  Time: ['Time'],
  Guid: ['Guid'],
  Binary: ['Binary'],
};

const LITERALS: Readonly<Record<Generated, readonly string[]>> = {
  Boolean: ['true', 'false'],
  String: [
    "'a'",
    "'A'",
    "''",
    "'ab'",
    "'b'",
    "'é'",
    "'ß'",
    "'SS'",
    "'STRASSE'",
    "'straße'",
    "'😀'",
    "'a😀b'",
    "'%'",
    "'_'",
    "'a_b'",
    "'\\'",
    "'O''Neil'",
    "'abc'",
    "' '",
    "'σ'",
    "'ας οδος'",
    "'i̇'",
    "'x'",
    "'Ann'",
    "'ann'",
    "'ab😀'",
    "'𝒳'",
    "'Berlin'",
  ],
  Int32: ['0', '1', '-1', '2', '3', '7', '-7', '100', '2147483647', '-2147483648', '46341'],
  Small: ['0', '1', '255', '-128'],
  Int64: ['0L', '1L', '-1L', '3L', '9007199254740993L', '-9223372036854775808L', '9223372036854775807L'],
  Decimal: ['0M', '1M', '-1M', '1.5M', '2.5M', '-2.5M', '0.1M', '3M', '7M', '12345678901234567.123456789M', '0.333333333333333333M'],
  Double: ['0.0', '1.5', '-1.5', '2.5', '0.1', '0.5', '3.0', '7.0', '-7.0', 'INF', '-INF', 'NaN', '1E70', '0.49999999999999994'],
  Single: ['0f', '1.5f', '-2.5f', '0.1f', '7f', 'NaNf'],
  DateTime: [
    "datetime'2020-01-01T00:00:00'",
    "datetime'2020-01-01T00:00:00.123'",
    "datetime'1999-12-31T23:59:59.999'",
    "datetime'2020-02-29T12:34:56.789'",
    "datetime'1970-01-01T00:00'",
  ],
  DateTimeOffset: [
    "datetimeoffset'2020-01-01T00:00:00Z'",
    "datetimeoffset'2020-01-01T05:30:00.123+05:30'",
    "datetimeoffset'2019-12-31T23:59:59.999Z'",
    "datetimeoffset'1969-07-20T20:17:40.5Z'",
  ],
  Time: ["time'PT0S'", "time'PT1H'", "time'PT26H0.5S'", "time'-PT1.5S'", "time'P1DT2H3M4.567S'", "time'PT23H59M59.999S'"],
  Guid: ["guid'01234567-89ab-cdef-0123-456789abcdef'", "guid'00000000-0000-0000-0000-000000000000'"],
  Binary: ["X'00FF'", "X''", "X'01'"],
};

/** The ExprTest Item type (spec/fixtures/expr-test.xml): every EDM type, a derived type, an owner. */
const EXPR_TEST_VOCABULARY: Vocabulary = {
  members: MEMBERS,
  typeTests: [
    "isof('ExprTest.SpecialItem')",
    "isof('ExprTest.Item')",
    "isof(Owner, 'ExprTest.Person')",
    "isof(Owner, 'ExprTest.Item')",
    "isof('ExprTest.Person')",
    "isof(Int32, 'Edm.Int32')",
    "isof(Int32, 'Edm.Int64')",
  ],
  navigations: ['Owner'],
};

/** The ODataDemo Product type: strings, Int32, Decimal and DateTime members, over two to-one links. */
export const DEMO_PRODUCT_VOCABULARY: Vocabulary = {
  members: {
    Boolean: [],
    String: ['Name', 'Name', 'Description', 'Category/Name', 'Supplier/Name', 'Supplier/Address/City', 'Supplier/Address/Country'],
    Int32: ['Rating', 'Rating', 'ID', 'Category/ID', 'Supplier/Concurrency'],
    Small: [],
    Int64: [],
    Decimal: ['Price'],
    Double: [],
    Single: [],
    DateTime: ['ReleaseDate', 'DiscontinuedDate'],
    DateTimeOffset: [],
    Time: [],
    Guid: [],
    Binary: [],
  },
  typeTests: [
    "isof('ODataDemo.Product')",
    "isof(Category, 'ODataDemo.Category')",
    "isof(Supplier, 'ODataDemo.Category')",
    "isof(Rating, 'Edm.Int32')",
    "isof(Price, 'Edm.Double')",
  ],
  navigations: ['Category', 'Supplier'],
};

const NUMERIC: readonly Generated[] = ['Int32', 'Small', 'Int64', 'Decimal', 'Double', 'Single'];
const COMPARABLE: readonly Generated[] = [
  'String',
  'Int32',
  'Small',
  'Int64',
  'Decimal',
  'Double',
  'Single',
  'DateTime',
  'DateTimeOffset',
  'Time',
  'Guid',
  'Binary',
  'Boolean',
];
const ORDERED: readonly Generated[] = COMPARABLE.filter((type) => type !== 'Binary');

/** A generator of expression texts. */
export class ExpressionGenerator {
  private readonly next: () => number;

  constructor(
    seed: number,
    private readonly vocabulary: Vocabulary = EXPR_TEST_VOCABULARY,
  ) {
    this.next = seededRandom(seed);
  }

  private pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  private chance(p: number): boolean {
    return this.next() < p;
  }

  /** A `$filter` text. */
  filter(): string {
    return this.expression('Boolean', 3);
  }

  /** A `$orderby` text (1 to 3 items). */
  orderBy(): string {
    const count = 1 + Math.floor(this.next() * 3);
    const items: string[] = [];
    for (let i = 0; i < count; i++) {
      const type = this.pick(ORDERED);
      items.push(this.expression(type, this.chance(0.7) ? 0 : 1, false) + (this.chance(0.5) ? ' desc' : this.chance(0.5) ? ' asc' : ''));
    }
    return items.join(',');
  }

  /** The member named like `type` (ExprTest's), else the type's first member, else a literal. */
  private named(type: Generated): string {
    const members = this.vocabulary.members[type];
    if (members.includes(type)) return type;
    return members.length > 0 ? members[0] : this.pick(LITERALS[type]);
  }

  private leaf(type: Generated): string {
    if (this.chance(0.06)) return 'null';
    const members = this.vocabulary.members[type];
    return this.chance(0.55) && members.length > 0 ? this.pick(members) : this.pick(LITERALS[type]);
  }

  /** A string expression in which no `substring` can have cut a surrogate pair. */
  private whole(depth: number): string {
    return this.expression('String', depth, false);
  }

  /** An expression of `type`; `depth` bounds nesting; `split`: strings may come from `substring`. */
  expression(type: Generated, depth: number, split = true): string {
    if (depth <= 0 || this.chance(0.3)) return type === 'Boolean' && depth > 0 ? this.comparison(depth) : this.leaf(type);
    const d = depth - 1;
    switch (type) {
      case 'Boolean':
        return this.pick([
          () => this.comparison(d),
          () => this.comparison(d),
          () => this.comparison(d),
          () => `${this.expression('Boolean', d)} ${this.pick(['and', 'or'])} ${this.expression('Boolean', d)}`,
          () => `not (${this.expression('Boolean', d)})`,
          () => `substringof(${this.whole(d)}, ${this.expression('String', d)})`,
          () => `${this.pick(['startswith', 'endswith'])}(${this.expression('String', d)}, ${this.whole(d)})`,
          () => `${this.pick(this.vocabulary.members.String)} eq null`,
          () => `${this.pick(this.vocabulary.navigations)} ${this.pick(['eq', 'ne'])} null`,
          () => this.pick(this.vocabulary.typeTests),
          () => this.leaf('Boolean'),
        ])();
      case 'String': {
        const choices = [
          () => `concat(${this.expression('String', d, split)}, ${this.whole(d)})`,
          () => `${this.pick(['tolower', 'toupper', 'trim'])}(${this.expression('String', d, split)})`,
          () => `replace(${this.expression('String', d, split)}, ${this.leaf('String')}, ${this.leaf('String')})`,
        ];
        if (split) {
          choices.push(
            () => `substring(${this.expression('String', d)}, ${this.expression('Int32', 0)})`,
            () => `substring(${this.expression('String', d)}, ${this.expression('Int32', 0)}, ${this.expression('Int32', 0)})`,
          );
        }
        return this.pick(choices)();
      }
      case 'Int32':
        return this.pick([
          () => `length(${this.expression('String', d)})`,
          () => `indexof(${this.expression('String', d)}, ${this.whole(d)})`,
          () => `${this.pick(['year', 'month', 'day', 'hour', 'minute', 'second'])}(${this.named(this.pick(['DateTime', 'DateTimeOffset']))})`,
          () => `${this.pick(['hour', 'minute', 'second'])}(${this.expression('Time', 0)})`,
          () =>
            `${this.expression(this.pick(['Int32', 'Small']), d)} ${this.pick(['add', 'sub', 'mul', 'div', 'mod'])} ${this.expression(this.pick(['Int32', 'Small']), d)}`,
          () => `-(${this.expression('Int32', d)})`,
          () => `cast(${this.expression(this.pick(NUMERIC), d)}, 'Edm.Int32')`,
        ])();
      case 'Small':
        return `cast(${this.expression(this.pick(NUMERIC), d)}, '${this.pick(['Edm.Byte', 'Edm.SByte', 'Edm.Int16'])}')`;
      case 'Int64':
        return this.pick([
          () => `${this.expression(this.pick(['Int64', 'Int32']), d)} ${this.pick(['add', 'sub', 'mul', 'div', 'mod'])} ${this.expression('Int64', d)}`,
          () => `-(${this.expression('Int64', d)})`,
          () => `cast(${this.expression(this.pick(NUMERIC), d)}, 'Edm.Int64')`,
        ])();
      case 'Decimal':
        return this.pick([
          () =>
            `${this.expression(this.pick(['Decimal', 'Int32', 'Int64']), d)} ${this.pick(['add', 'sub', 'mul', 'div', 'mod'])} ${this.expression('Decimal', d)}`,
          () => `${this.pick(['round', 'floor', 'ceiling'])}(${this.expression(this.pick(['Decimal', 'Int32', 'Int64']), d)})`,
          () => `cast(${this.expression(this.pick(NUMERIC), d)}, 'Edm.Decimal')`,
          () => `-(${this.expression('Decimal', d)})`,
        ])();
      case 'Double':
        return this.pick([
          // No `mod` on doubles: the compiler leaves it to the evaluator (no exact fmod in SQL).
          () => `${this.expression(this.pick(NUMERIC), d)} ${this.pick(['add', 'sub', 'mul', 'div'])} ${this.expression('Double', d)}`,
          () => `${this.pick(['round', 'floor', 'ceiling'])}(${this.expression(this.pick(['Double', 'Single']), d)})`,
          () => `cast(${this.expression(this.pick(NUMERIC), d)}, 'Edm.Double')`,
          () => `-(${this.expression('Double', d)})`,
        ])();
      case 'Single':
        return this.pick([
          () => `${this.expression(this.pick(['Single', 'Int32', 'Small']), d)} ${this.pick(['add', 'sub', 'mul', 'div'])} ${this.expression('Single', d)}`,
          () => `cast(${this.expression(this.pick(NUMERIC), d)}, 'Edm.Single')`,
        ])();
      case 'DateTime':
        return `cast(${this.named(this.pick(['DateTimeOffset', 'DateTime']))}, 'Edm.DateTime')`;
      case 'DateTimeOffset':
        return `cast(${this.named(this.pick(['DateTime', 'DateTimeOffset']))}, 'Edm.DateTimeOffset')`;
      default:
        return this.leaf(type);
    }
  }

  private comparison(depth: number): string {
    const operator = this.pick(['eq', 'ne', 'lt', 'le', 'gt', 'ge']);
    let left = this.pick(operator === 'eq' || operator === 'ne' ? COMPARABLE : ORDERED);
    let right = left;
    if (NUMERIC.includes(left) && this.chance(0.4)) right = this.pick(NUMERIC);
    if ((left === 'DateTime' || left === 'DateTimeOffset') && this.chance(0.4)) right = this.pick(['DateTime', 'DateTimeOffset']);
    if (this.chance(0.5)) [left, right] = [right, left];
    // Strings: ordered or both computed, neither may come from substring (see the header).
    const ordered = operator !== 'eq' && operator !== 'ne';
    return `${this.expression(left, depth, !ordered)} ${operator} ${this.expression(right, depth, false)}`;
  }
}
