/** A simple view's columns read from its stored query as PostgreSQL prints it (pg_rewrite.ev_action). */
import { viewColumnSources } from '../../../lib/sql/postgres/relation-sources';

/** `select product_id as "the id", upper(name), name from products where exists (select 1 from categories)`, as PostgreSQL 17 prints it (shortened). */
const TREE =
  '({QUERY :commandType 1 :rtable ({RANGETBLENTRY :eref {ALIAS :aliasname products :colnames ("product_id" "name")} :relid 16410 :relkind r}) ' +
  ':jointree {FROMEXPR :fromlist ({RANGETBLREF :rtindex 1}) :quals {SUBLINK :subLinkType 0 :subselect {QUERY :commandType 1 ' +
  ':targetList ({TARGETENTRY :expr {CONST :consttype 23} :resno 1 :resname ?column? :ressortgroupref 0 :resorigtbl 0 :resorigcol 0 :resjunk false}) :override 0}}} ' +
  ':targetList (' +
  '{TARGETENTRY :expr {VAR :varno 1 :varattno 1 :location -1} :resno 1 :resname the\\ id :ressortgroupref 0 :resorigtbl 16410 :resorigcol 1 :resjunk false} ' +
  '{TARGETENTRY :expr {FUNCEXPR :funcid 871 :args ({VAR :varno 1 :varattno 2 :location -1}) :location -1} :resno 2 :resname upper :ressortgroupref 0 :resorigtbl 0 :resorigcol 0 :resjunk false} ' +
  '{TARGETENTRY :expr {VAR :varno 1 :varattno 2 :location -1} :resno 3 :resname name :ressortgroupref 0 :resorigtbl 16410 :resorigcol 2 :resjunk false}' +
  ') :override 0 :sortClause <> :limitCount <>})';

describe('viewColumnSources', () => {
  it('reads the top-level target list only, and only the columns that are a table column as it is', () => {
    expect(viewColumnSources(TREE)).toEqual([
      { position: 1, relation: '16410', column: 1 },
      { position: 3, relation: '16410', column: 2 },
    ]);
  });

  it.each([
    ['an empty target list', '({QUERY :targetList <> :override 0})'],
    ['no target list', '({QUERY :commandType 1})'],
    ['text that is no parse tree', 'not a tree'],
    ['a tree cut off inside its first column', TREE.slice(0, TREE.indexOf(':resorigtbl 16410'))],
  ])('finds no columns in %s', (_, tree) => {
    expect(viewColumnSources(tree)).toEqual([]);
  });
});
