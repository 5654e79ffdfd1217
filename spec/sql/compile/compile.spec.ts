/**
 * The translator's contract: member paths through the resolver (complex members, to-one
 * navigation reported as joins, casts to derived types), `$orderby` in the service's order, the
 * expressions it leaves to the evaluator, and values that only ever travel as parameters.
 */
import { sql } from 'kysely';
import { compileExpressionSql, compileFilterSql, compileOrderBySql, isTranslatable } from '../../../lib/sql/compile/compile';
import type { SqlMemberPath } from '../../../lib/sql/compile/context';
import { UntranslatableExpressionError } from '../../../lib/sql/errors';
import { checkFilter, parseExpression } from '../../../lib/uri/expr';
import type { ExprNode } from '../../../lib/uri/expr/ast';
import { ExpressionGenerator } from '../expression-generator';
import { compiled, filterSql, itemFilter, itemOrderBy, itemsContext, orderBySql, testModel } from '../support';

describe('member paths', () => {
  it.each([
    ["Address/City eq 'Berlin'", '("t"."Address_City" = $1::text)', ['Berlin']],
    ['Address/Geo/Lat lt 1.0', '("t"."Address_Geo_Lat" < $1::double precision)', ['1']],
    ["Owner/Name eq 'Ann'", '("o"."Name" = $1::text)', ['Ann']],
    // A value of a derived type's property is null for entities of other types (the evaluator's cast).
    ["cast('ExprTest.SpecialItem')/Bonus gt 1", `((case when (t."$type" in ('SpecialItem')) then "t"."Bonus" end) > $1::integer)`, ['1']],
  ])('%s', (filter, query, parameters) => {
    expect(filterSql(filter)).toEqual([query, parameters]);
  });

  it('reports navigation paths to the resolver, which records the join', () => {
    const context = itemsContext();
    compileFilterSql(itemFilter("Int32 gt 1 and Owner/Name eq 'Ann'"), context);
    expect([...context.resolver.joins]).toEqual(['Owner']);
    const plain = itemsContext();
    compileFilterSql(itemFilter("Address/City eq 'x'"), plain);
    expect([...plain.resolver.joins]).toEqual([]);
  });

  it('through a navigation property a value may be null, whatever the column says', () => {
    // Owner/ID is a key (not nullable) but absent when there is no owner: `ne` must keep those.
    expect(filterSql('Owner/ID ne 1')).toEqual(['(("o"."ID" <> $1::integer) or "o"."ID" is null)', ['1']]);
  });
});

describe('$orderby', () => {
  it.each([
    // Nulls first ascending, last descending, as the service sorts.
    ['Int32', '"t"."Int32" asc nulls first'],
    ['Int32 desc', '"t"."Int32" desc nulls last'],
    ['Decimal desc, Int64', '"t"."Decimal" desc nulls last, "t"."Int64" asc nulls first'],
    // Strings ordinal whatever the column's collation. A required column (the key) needs no null
    // placement: plain `desc` is what a default index serves, `desc nulls last` is not.
    ['String, ID desc', '"t"."String" collate "C" asc nulls first, "t"."ID" desc'],
    ['ID', '"t"."ID" asc'],
    ['Owner/Name', '"o"."Name" collate "C" asc nulls first'],
    // NaN first among doubles (.NET's Double.CompareTo); PostgreSQL puts it last.
    ['Double', `("t"."Double" <> 'NaN') asc nulls first, "t"."Double" asc`],
    ['Double desc', `("t"."Double" <> 'NaN') desc nulls last, "t"."Double" desc`],
    ['Single', `("t"."Single" <> 'NaN') asc nulls first, "t"."Single" asc`],
    // Timestamps sort by the stored value, the bare column an index serves (positions keep the
    // full value); durations by their milliseconds, ties within one broken by the next item.
    ['DateTime', '"t"."DateTime" asc nulls first'],
    ['DateTimeOffset desc', '"t"."DateTimeOffset" desc nulls last'],
    ["cast(DateTime, 'Edm.DateTimeOffset')", `("t"."DateTime" at time zone 'UTC') asc nulls first`],
    ['Time desc', `date_trunc('milliseconds', "t"."Time") desc nulls last`],
    ['Boolean', '"t"."Boolean" asc nulls first'],
    ['length(String) desc', `char_length(regexp_replace("t"."String", E'([\\\\U00010000-\\\\U0010FFFF])', E'\\\\1\\\\1', 'g')) desc nulls last`],
    // Constants order nothing (and PostgreSQL refuses some of them in ORDER BY).
    ["null, 'a', 1 add 2, Int32 add null, Int32", '"t"."Int32" asc nulls first'],
  ])('%s', (orderBy, query) => {
    expect(orderBySql(orderBy)).toEqual([query, []]);
  });

  it('sorts a boolean expression two-valued, as the evaluator computes it', () => {
    expect(orderBySql('Int32 gt 5 desc')).toEqual(['coalesce(("t"."Int32" > $1::integer), false) desc', ['5']]);
  });

  it('sorts millisecond columns as stored', () => {
    expect(orderBySql('DateTime, DateTimeOffset desc, Time', { precision: 3 })).toEqual([
      '"t"."DateTime" asc nulls first, "t"."DateTimeOffset" desc nulls last, "t"."Time" asc nulls first',
      [],
    ]);
  });
});

describe('what is left to the evaluator (UntranslatableExpressionError)', () => {
  const person = testModel.entityTypes.get('ExprTest.Person');
  const untranslatable = (node: ExprNode): string => {
    try {
      compileFilterSql(node, itemsContext());
    } catch (error) {
      if (error instanceof UntranslatableExpressionError) return error.reason;
      throw error;
    }
    throw new Error('translated');
  };

  it('mod on doubles (no exact fmod in SQL)', () => {
    expect(untranslatable(itemFilter('Double mod 2.0 eq 1.0'))).toBe("'mod' on Edm.Double");
  });

  it.each([
    ['Owner eq null', "a null test of 'Owner'"],
    ["isof('ExprTest.SpecialItem')", 'a type test for ExprTest.SpecialItem'],
    ["cast('ExprTest.SpecialItem')/Bonus eq 1", 'a type test for ExprTest.SpecialItem'],
    ["Owner/Name eq 'x'", "no column for 'Owner/Name'"],
  ])('%s, with a resolver that maps only the columns of the table: %s', (filter, reason) => {
    const { resolver } = itemsContext();
    const columnsOnly = { column: (path: SqlMemberPath) => (path.navigation.length === 0 ? resolver.column(path) : undefined) };
    try {
      compileFilterSql(itemFilter(filter), { dialect: itemsContext().dialect, resolver: columnsOnly });
      throw new Error('translated');
    } catch (error) {
      if (!(error instanceof UntranslatableExpressionError)) throw error;
      expect(error.reason).toBe(reason);
    }
  });

  it('a dynamic property of an open type', () => {
    if (person === undefined) throw new Error('no Person');
    expect(untranslatable(checkFilter(parseExpression("Nickname eq 'x'"), person, testModel))).toBe("the dynamic property 'Nickname'");
  });

  it('a string literal with an unpaired surrogate (PostgreSQL text cannot hold one)', () => {
    // Not reachable from a URL (percent-decoding refuses it), but a provider may build such a tree.
    const node = itemFilter("String eq 'x'");
    const lone: ExprNode = node.kind === 'Binary' && node.right.kind === 'Literal' ? { ...node, right: { ...node.right, value: '\uD83D' } } : node;
    expect(untranslatable(lone)).toBe('a string literal with an unpaired surrogate');
  });

  it('isTranslatable answers without throwing', () => {
    const context = itemsContext();
    expect(isTranslatable(itemFilter('Double mod 2.0 eq 1.0'), context)).toBe(false);
    expect(isTranslatable(itemFilter('Double div 2.0 eq 1.0'), context)).toBe(true);
    expect(isTranslatable(itemFilter("Int32 eq 1 and Owner/Name eq 'x'"), context)).toBe(true);
  });
});

describe('values travel as parameters only', () => {
  const OUR_CONSTANTS = new Set(["'NaN'", "'Infinity'", "'-Infinity'", "'-0'", "'UTC'", "'g'", "'milliseconds'", "'SpecialItem'", "'Item'"]);

  it.each([
    ["String eq 'x'' or 1=1 --'", "x' or 1=1 --"],
    ["startswith(String, '%'' --')", "\\%' --%"],
    ['Decimal eq 12345678901234567.1234567891M', '12345678901234567.1234567891'],
    ['Int64 eq 9223372036854775807L', '9223372036854775807'],
    ["DateTime eq datetime'1999-12-31T23:59:59.999'", '1999-12-31 23:59:59.999'],
    ["Guid eq guid'0badc0de-0000-4000-8000-00000000beef'", '0badc0de-0000-4000-8000-00000000beef'],
  ])('%s', (filter, value) => {
    const [query, parameters] = filterSql(filter);
    expect(parameters).toContain(value);
    expect(query).not.toContain(value.slice(0, 12));
  });

  it('no literal of 2,000 generated filters reaches the SQL text', () => {
    const generator = new ExpressionGenerator(5);
    let checked = 0;
    for (let i = 0; i < 2000; i++) {
      let node: ExprNode;
      try {
        node = itemFilter(generator.filter());
      } catch {
        continue;
      }
      const { sql: query } = compiled(compileFilterSql(node, itemsContext()));
      // Quoted text in the SQL is only ours: E'' strings (regular expressions, the trim set) and
      // a few constants (and the type tags of this spec's resolver).
      const quoted = query.replace(/E'(?:[^'\\]|\\.)*'/g, '').match(/'(?:[^']|'')*'/g) ?? [];
      expect(quoted.filter((text) => !OUR_CONSTANTS.has(text))).toEqual([]);
      checked++;
    }
    expect(checked).toBeGreaterThan(1500);
  });
});

describe('compileExpressionSql', () => {
  it('gives a value, booleans three-valued', () => {
    const context = itemsContext();
    const value = (text: string): string => compiled(compileExpressionSql(itemFilter(text), context)).sql;
    expect(value('Boolean and Int32 gt 1')).toBe('("t"."Boolean" and coalesce(("t"."Int32" > $1::integer), false))');
    expect(compiled(sql`${sql.join(compileOrderBySql(itemOrderBy('Int32'), context))}`).sql).toBe('"t"."Int32" asc nulls first');
  });
});
