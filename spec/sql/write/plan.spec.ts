/**
 * A write's plan as data, before anything runs: each step's purpose, the steps whose written keys it
 * takes, whether it writes, its SQL text and parameters, and when it runs if not always (the read
 * that tells 404, 403 and 412 apart runs only after a write that changed no row), on PostgreSQL
 * (PGlite) and on SQLite (whose texts differ: no data-modifying statement in a WITH, so a written
 * row comes back as the statement's own RETURNING list, or, for a table that takes no ON
 * CONFLICT, is read back by its key; an UPDATE or DELETE names its table without an alias, and a
 * DELETE returns a row per row it deleted, as a view written through INSTEAD OF triggers needs). Which plans write in one statement (and so may run without
 * BEGIN and COMMIT) is read off the plan. Every statement a write may run is in its plan: the read
 * after a `$links` lock or link that found no row, the key check and read back of an INSERT into
 * a table with rules, and, for a delete that cascades over a join table, the statements it runs
 * per partner it reads (shown for a partner the spec gives). Compiling needs no connection: no
 * statement reaches either engine here.
 */
import { defineModel } from '../../../lib';
import type { EdmEntitySet } from '../../../lib/edm/model';
import type { CreateRequest, Entity, LinkRequest, Precondition, UpdateRequest } from '../../../lib/provider/types';
import { pglite, resolveMapping, sqlite, type SqlDatabase } from '../../../lib/sql';
import { compileMapping } from '../../../lib/sql/mapping/compiled';
import { planCreate } from '../../../lib/sql/write/insert';
import { planLinkRequest } from '../../../lib/sql/write/link-request';
import { PlanBuilder, describePlan, writesInOneStatement, type StepDescription, type WritePlan } from '../../../lib/sql/write/plan';
import { planDelete, planUpdate } from '../../../lib/sql/write/update';

const nonNull = { nullable: false } as const;

const model = defineModel({
  namespace: 'Plans',
  entityTypes: [
    {
      name: 'Category',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Name', type: 'Edm.String' },
      ],
      navigationProperties: [
        { name: 'Products', relationship: 'Plans.Product_Category', fromRole: 'Category', toRole: 'Products' },
        { name: 'Notes', relationship: 'Plans.Category_Notes', fromRole: 'Category', toRole: 'Notes' },
      ],
    },
    {
      name: 'Product',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Name', type: 'Edm.String' },
        { name: 'Version', type: 'Edm.Int32', ...nonNull, concurrencyMode: 'Fixed' },
      ],
      navigationProperties: [
        { name: 'Category', relationship: 'Plans.Product_Category', fromRole: 'Products', toRole: 'Category' },
        { name: 'Tags', relationship: 'Plans.Product_Tags', fromRole: 'Products', toRole: 'Tags' },
      ],
    },
    {
      name: 'Tag',
      key: ['ID'],
      properties: [{ name: 'ID', type: 'Edm.Int32', ...nonNull }],
      navigationProperties: [{ name: 'Products', relationship: 'Plans.Product_Tags', fromRole: 'Tags', toRole: 'Products' }],
    },
    {
      name: 'Note',
      key: ['ID'],
      properties: [
        { name: 'ID', type: 'Edm.Int32', ...nonNull },
        { name: 'Text', type: 'Edm.String' },
      ],
      navigationProperties: [{ name: 'Tags', relationship: 'Plans.Note_Tags', fromRole: 'Notes', toRole: 'Tags' }],
    },
  ],
  associations: [
    {
      name: 'Product_Category',
      ends: [
        { role: 'Category', type: 'Plans.Category', multiplicity: '0..1' },
        { role: 'Products', type: 'Plans.Product', multiplicity: '*' },
      ],
    },
    {
      name: 'Product_Tags',
      ends: [
        { role: 'Products', type: 'Plans.Product', multiplicity: '*' },
        { role: 'Tags', type: 'Plans.Tag', multiplicity: '*' },
      ],
    },
    {
      name: 'Category_Notes',
      ends: [
        { role: 'Category', type: 'Plans.Category', multiplicity: '0..1', onDelete: 'Cascade' },
        { role: 'Notes', type: 'Plans.Note', multiplicity: '*' },
      ],
    },
    {
      name: 'Note_Tags',
      ends: [
        { role: 'Notes', type: 'Plans.Note', multiplicity: '0..1', onDelete: 'Cascade' },
        { role: 'Tags', type: 'Plans.Tag', multiplicity: '*' },
      ],
    },
  ],
  entityContainers: [
    {
      name: 'PlansService',
      isDefaultEntityContainer: true,
      entitySets: [
        { name: 'Categories', entityType: 'Plans.Category' },
        { name: 'Products', entityType: 'Plans.Product' },
        { name: 'Tags', entityType: 'Plans.Tag' },
        { name: 'Notes', entityType: 'Plans.Note' },
      ],
      associationSets: [
        {
          name: 'Product_Category',
          association: 'Plans.Product_Category',
          ends: [
            { role: 'Category', entitySet: 'Categories' },
            { role: 'Products', entitySet: 'Products' },
          ],
        },
        {
          name: 'Product_Tags',
          association: 'Plans.Product_Tags',
          ends: [
            { role: 'Products', entitySet: 'Products' },
            { role: 'Tags', entitySet: 'Tags' },
          ],
        },
        {
          name: 'Category_Notes',
          association: 'Plans.Category_Notes',
          ends: [
            { role: 'Category', entitySet: 'Categories' },
            { role: 'Notes', entitySet: 'Notes' },
          ],
        },
        {
          name: 'Note_Tags',
          association: 'Plans.Note_Tags',
          ends: [
            { role: 'Notes', entitySet: 'Notes' },
            { role: 'Tags', entitySet: 'Tags' },
          ],
        },
      ],
    },
  ],
});

// Tags is a table that takes no ON CONFLICT (a view, a key without a unique index): on SQLite its
// new row is read back by its key. Notes is a table with INSERT rules: its key checked, the row
// inserted, then read back. Deleting a Category deletes its Notes (over a join table), and a
// Note's own Tags links go with it.
const compiled = compileMapping(
  model,
  resolveMapping(model, {
    entitySets: { Tags: { insert: 'checked' }, Notes: { insert: 'readBack' } },
    associationSets: { Category_Notes: { kind: 'joinTable' }, Note_Tags: { kind: 'joinTable' } },
  }),
);

function set(name: string): EdmEntitySet {
  const found = model.defaultContainer.entitySets.find((each) => each.name === name);
  if (found === undefined) throw new TypeError(`no set ${name}`);
  return found;
}

const Categories = set('Categories');
const Products = set('Products');
const Tags = set('Tags');
const Notes = set('Notes');
const nav = (entitySet: EdmEntitySet, name: string) => {
  const found = entitySet.entityType.navigationProperties.find((property) => property.name === name);
  if (found === undefined) throw new TypeError(`no navigation ${name}`);
  return found;
};

function create(entitySet: EdmEntitySet, values: Record<string, string | number | null>, more: Partial<CreateRequest> = {}): CreateRequest {
  return {
    entitySet,
    entityType: entitySet.entityType,
    values,
    bindings: [],
    inline: [],
    parent: undefined,
    media: undefined,
    ...more,
  };
}

/** If-Match: W/"3" on a Product, decoded into its Version. */
const ifMatch3: Precondition = { any: false, etags: ['W/"3"'], concurrencyValues: [{ Version: 3 }], matches: () => false };

function update(mode: UpdateRequest['mode'], values: Record<string, string | number | null>, more: Partial<UpdateRequest> = {}): UpdateRequest {
  return {
    entitySet: Products,
    entityType: Products.entityType,
    key: { ID: 1 },
    mode,
    values,
    bindings: [],
    precondition: undefined,
    ...more,
  } as UpdateRequest;
}

const tagLink: LinkRequest = {
  source: { entitySet: Products, key: { ID: 1 } },
  property: nav(Products, 'Tags'),
  target: { entitySet: Tags, key: { ID: 5 } },
  mode: 'add',
};

/** The writes shown, each as the plan its builder makes. */
const writes: readonly [string, (b: PlanBuilder) => WritePlan<unknown>][] = [
  ['create', (b) => planCreate(b, create(Products, { ID: 1, Name: 'Tea', Version: 0 }))],
  ['create with a generated key', (b) => planCreate(b, create(Products, { Name: 'Tea', Version: 0 }))],
  [
    'create with a Category binding (a foreign key of the new row)',
    (b) =>
      planCreate(
        b,
        create(
          Products,
          { ID: 1, Name: 'Tea', Version: 0 },
          { bindings: [{ property: nav(Products, 'Category'), targets: [{ entitySet: Categories, key: { ID: 2 } }] }] },
        ),
      ),
  ],
  [
    'create with inline Products (their foreign key from the new Category)',
    (b) =>
      planCreate(
        b,
        create(
          Categories,
          { Name: 'Drinks' },
          { inline: [{ property: nav(Categories, 'Products'), entries: [create(Products, { ID: 1, Name: 'Tea', Version: 0 })] }] },
        ),
      ),
  ],
  [
    'create with a Tags binding (a join row)',
    (b) =>
      planCreate(
        b,
        create(Products, { Name: 'Tea', Version: 0 }, { bindings: [{ property: nav(Products, 'Tags'), targets: [{ entitySet: Tags, key: { ID: 5 } }] }] }),
      ),
  ],
  ['create into a table that takes no ON CONFLICT', (b) => planCreate(b, create(Tags, { ID: 5 }))],
  ['PUT', (b) => planUpdate(b, update('replace', { ID: 1, Name: 'Tea' }))],
  ['MERGE with If-Match', (b) => planUpdate(b, update('merge', { Name: 'Tea' }, { precondition: ifMatch3 }))],
  [
    'MERGE with a Tags binding',
    (b) => planUpdate(b, update('merge', { Name: 'Tea' }, { bindings: [{ property: nav(Products, 'Tags'), targets: [{ entitySet: Tags, key: { ID: 5 } }] }] })),
  ],
  ['DELETE with If-Match', (b) => planDelete(b, { entitySet: Products, entityType: Products.entityType, key: { ID: 1 }, precondition: ifMatch3 })],
  [
    'DELETE under row-level security (a session): 404 or 403 is read',
    (b) =>
      planDelete(new PlanBuilder(b.compiled, b.engine, true), {
        entitySet: Products,
        entityType: Products.entityType,
        key: { ID: 1 },
        precondition: undefined,
      }),
  ],
  ['$links add', (b) => planLinkRequest(b, tagLink)],
  ['$links DELETE', (b) => planLinkRequest(b, { ...tagLink, mode: 'remove' })],
  [
    '$links PUT (a foreign key of the source) under row-level security: 404 or 403 is read',
    (b) =>
      planLinkRequest(new PlanBuilder(b.compiled, b.engine, true), {
        source: { entitySet: Products, key: { ID: 1 } },
        property: nav(Products, 'Category'),
        target: { entitySet: Categories, key: { ID: 2 } },
        mode: 'replace',
      }),
  ],
  [
    '$links add (a foreign key of the target) under row-level security: 404 or 403 is read',
    (b) =>
      planLinkRequest(new PlanBuilder(b.compiled, b.engine, true), {
        source: { entitySet: Categories, key: { ID: 2 } },
        property: nav(Categories, 'Products'),
        target: { entitySet: Products, key: { ID: 1 } },
        mode: 'add',
      }),
  ],
  [
    'DELETE cascading over a join table (per partner: its own partners read, its row deleted)',
    (b) => planDelete(b, { entitySet: Categories, entityType: Categories.entityType, key: { ID: 2 }, precondition: undefined }),
  ],
  ['create into a table with rules', (b) => planCreate(b, create(Notes, { ID: 3, Text: 'Hi' }))],
  ['create into a table with rules, the key left to the database', (b) => planCreate(b, create(Notes, { Text: 'Hi' }))],
];

/**
 * What earlier steps wrote, for the steps that take their keys: the rows of steps 0 to 3 have the
 * key 7 (a generated key; the update's, the delete's and the links' rows have the key of the URL,
 * 1; the Category deleted with its Notes has a Note 4, for the statements run per partner).
 */
function givenFor(what: string): ReadonlyMap<number, Entity> {
  const key = what.startsWith('DELETE cascading') ? 4 : /^(PUT|MERGE|DELETE|\$links)/.test(what) ? 1 : 7;
  return new Map([0, 1, 2, 3].map((id) => [id, { ID: key }]));
}

function shown(db: SqlDatabase, what: string, build: (b: PlanBuilder) => WritePlan<unknown>): { oneStatement: boolean; steps: StepDescription[] } {
  const plan = build(new PlanBuilder(compiled, db.sqlEngine));
  return { oneStatement: writesInOneStatement(plan), steps: describePlan(plan, db.kysely as never, givenFor(what)) };
}

let postgres: SqlDatabase;
let lite: SqlDatabase;

beforeAll(() => {
  // A PGlite that is never asked anything: compiling a statement needs the engine's compiler only.
  const unused = (): Promise<never> => Promise.reject(new Error('no statement runs in this spec'));
  postgres = pglite({ waitReady: Promise.resolve(), closed: false, query: unused, close: () => Promise.resolve() });
  lite = sqlite(':memory:');
});

afterAll(async () => {
  await Promise.all([postgres.close(), lite.close()]);
});

/**
 * A step as the spec writes it: `action target`, the steps it takes, whether it writes, its SQL
 * and parameters (absent when it takes a step not given), and for a step that runs statements per
 * row it reads, what a row stands for and those statements (SQL and parameters).
 */
type Step = readonly [string, readonly number[], boolean, string?, (readonly unknown[])?, Expands?];
type Expands = readonly [string, readonly (readonly [string, readonly unknown[]])[]];

interface Expected {
  readonly oneStatement: boolean;
  readonly steps: readonly Step[];
}

function asStep(step: StepDescription): Step {
  const head = [`${step.action} ${step.target}${step.onlyWhen === undefined ? '' : ` when ${step.onlyWhen}`}`, step.takes, step.writes] as const;
  if (step.sql === undefined) return head;
  const statement = [...head, step.sql, step.parameters ?? []] as const;
  if (step.expands === undefined) return statement;
  return [...statement, [step.expands.per, (step.expands.statements ?? []).map((each) => [each.sql, each.parameters] as const)]];
}

// Each write: its plan on PostgreSQL, then on SQLite.
const expected: readonly [string, Expected, Expected][] = [
  [
    'create',
    {
      oneStatement: true,
      steps: [
        [
          'insert Products',
          [],
          true,
          'with "t" as (insert into "Products" ("ID", "Name", "Version") values ($1::integer, $2::text, 0) on conflict ("ID") do nothing returning *) select "t"."ID" as "c0", "t"."Name" as "c1", "t"."Version" as "c2" from "t" ',
          ['1', 'Tea'],
        ],
      ],
    },
    {
      oneStatement: true,
      steps: [
        [
          'insert Products',
          [],
          true,
          'insert into "Products" ("ID", "Name", "Version") values (?, ?, 0) on conflict ("ID") do nothing returning "Products"."ID" as "c0", "Products"."Name" as "c1", "Products"."Version" as "c2"',
          [1n, 'Tea'],
        ],
      ],
    },
  ],
  [
    'create with a generated key',
    {
      oneStatement: true,
      steps: [
        [
          'insert Products',
          [],
          true,
          'with "t" as (insert into "Products" ("Name", "Version") values ($1::text, 0) on conflict ("ID") do nothing returning *) select "t"."ID" as "c0", "t"."Name" as "c1", "t"."Version" as "c2" from "t" ',
          ['Tea'],
        ],
      ],
    },
    {
      oneStatement: true,
      steps: [
        [
          'insert Products',
          [],
          true,
          'insert into "Products" ("Name", "Version") values (?, 0) on conflict ("ID") do nothing returning "Products"."ID" as "c0", "Products"."Name" as "c1", "Products"."Version" as "c2"',
          ['Tea'],
        ],
      ],
    },
  ],
  [
    'create with a Category binding (a foreign key of the new row)',
    {
      oneStatement: true,
      steps: [
        [
          'insert Products',
          [],
          true,
          'with "t" as (insert into "Products" ("ID", "Name", "Version", "Category_ID") values ($1::integer, $2::text, 0, $3::integer) on conflict ("ID") do nothing returning *) select "t"."ID" as "c0", "t"."Name" as "c1", "t"."Version" as "c2" from "t" ',
          ['1', 'Tea', '2'],
        ],
      ],
    },
    {
      oneStatement: true,
      steps: [
        [
          'insert Products',
          [],
          true,
          'insert into "Products" ("ID", "Name", "Version", "Category_ID") values (?, ?, 0, ?) on conflict ("ID") do nothing returning "Products"."ID" as "c0", "Products"."Name" as "c1", "Products"."Version" as "c2"',
          [1n, 'Tea', 2n],
        ],
      ],
    },
  ],
  [
    'create with inline Products (their foreign key from the new Category)',
    {
      oneStatement: false,
      steps: [
        [
          'insert Categories',
          [],
          true,
          'with "t" as (insert into "Categories" ("Name") values ($1::text) on conflict ("ID") do nothing returning *) select "t"."ID" as "c0", "t"."Name" as "c1" from "t" ',
          ['Drinks'],
        ],
        [
          'insert Products',
          [0],
          true,
          'with "t" as (insert into "Products" ("ID", "Name", "Version", "Category_ID") values ($1::integer, $2::text, 0, $3::integer) on conflict ("ID") do nothing returning *) select "t"."ID" as "c0", "t"."Name" as "c1", "t"."Version" as "c2" from "t" ',
          ['1', 'Tea', '7'],
        ],
      ],
    },
    {
      oneStatement: false,
      steps: [
        [
          'insert Categories',
          [],
          true,
          'insert into "Categories" ("Name") values (?) on conflict ("ID") do nothing returning "Categories"."ID" as "c0", "Categories"."Name" as "c1"',
          ['Drinks'],
        ],
        [
          'insert Products',
          [0],
          true,
          'insert into "Products" ("ID", "Name", "Version", "Category_ID") values (?, ?, 0, ?) on conflict ("ID") do nothing returning "Products"."ID" as "c0", "Products"."Name" as "c1", "Products"."Version" as "c2"',
          [1n, 'Tea', 7n],
        ],
      ],
    },
  ],
  [
    'create with a Tags binding (a join row)',
    {
      oneStatement: false,
      steps: [
        [
          'insert Products',
          [],
          true,
          'with "t" as (insert into "Products" ("Name", "Version") values ($1::text, 0) on conflict ("ID") do nothing returning *) select "t"."ID" as "c0", "t"."Name" as "c1", "t"."Version" as "c2" from "t" ',
          ['Tea'],
        ],
        [
          'link Products/Tags',
          [0],
          true,
          'insert into "Product_Tags" ("Products_ID", "Tags_ID") values ($1::integer, $2::integer) on conflict do nothing',
          ['7', '5'],
        ],
      ],
    },
    {
      oneStatement: false,
      steps: [
        [
          'insert Products',
          [],
          true,
          'insert into "Products" ("Name", "Version") values (?, 0) on conflict ("ID") do nothing returning "Products"."ID" as "c0", "Products"."Name" as "c1", "Products"."Version" as "c2"',
          ['Tea'],
        ],
        ['link Products/Tags', [0], true, 'insert into "Product_Tags" ("Products_ID", "Tags_ID") values (?, ?) on conflict do nothing', [7n, 5n]],
      ],
    },
  ],
  [
    'create into a table that takes no ON CONFLICT',
    {
      oneStatement: true,
      steps: [
        [
          'insert Tags',
          [],
          true,
          'with "t" as (insert into "Tags" ("ID") select $1::integer where not exists (select 1 from "Tags" where "ID" = $2::integer) returning *) select "t"."ID" as "c0" from "t" ',
          ['5', '5'],
        ],
      ],
    },
    {
      oneStatement: true,
      steps: [
        ['insert Tags', [], true, 'insert into "Tags" ("ID") select ? where not exists (select 1 from "Tags" where "ID" = ?) returning *', [5n, 5n]],
        ['read back Tags', [0], false, 'select "t"."ID" as "c0" from "Tags" as "t"  where "t"."ID" = ?', [7n]],
      ],
    },
  ],
  [
    'PUT',
    {
      oneStatement: true,
      steps: [
        [
          'update Products',
          [],
          true,
          'with "t" as (update "Products" as "u" set "Name" = $1::text, "Version" = (case when "u"."Version" is null or "u"."Version" >= 2147483647 then 0 else "u"."Version" + 1 end) where "u"."ID" = $2::integer returning "u".*) select "t"."ID" as "c0", "t"."Name" as "c1", "t"."Version" as "c2" from "t" ',
          ['Tea', '1'],
        ],
        ['decide Products when the write changed no row', [0], false],
      ],
    },
    {
      oneStatement: true,
      steps: [
        [
          'update Products',
          [],
          true,
          'update "Products" set "Name" = ?, "Version" = (case when "Products"."Version" is null or "Products"."Version" >= 2147483647 then 0 else "Products"."Version" + 1 end) where "Products"."ID" = ? returning "Products"."ID" as "c0", "Products"."Name" as "c1", "Products"."Version" as "c2"',
          ['Tea', 1n],
        ],
        ['decide Products when the write changed no row', [0], false],
      ],
    },
  ],
  [
    'MERGE with If-Match',
    {
      oneStatement: true,
      steps: [
        [
          'update Products',
          [],
          true,
          'with "t" as (update "Products" as "u" set "Name" = $1::text, "Version" = (case when "u"."Version" is null or "u"."Version" >= 2147483647 then 0 else "u"."Version" + 1 end) where "u"."ID" = $2::integer and (("u"."Version" = $3::integer)) returning "u".*) select "t"."ID" as "c0", "t"."Name" as "c1", "t"."Version" as "c2" from "t" ',
          ['Tea', '1', '3'],
        ],
        [
          'decide Products when the write changed no row',
          [0],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = $1::integer) as "found", exists (select 1 from "Products" as "c" where "c"."ID" = $2::integer and (("c"."Version" = $3::integer))) as "current"',
          ['1', '1', '3'],
        ],
      ],
    },
    {
      oneStatement: true,
      steps: [
        [
          'update Products',
          [],
          true,
          'update "Products" set "Name" = ?, "Version" = (case when "Products"."Version" is null or "Products"."Version" >= 2147483647 then 0 else "Products"."Version" + 1 end) where "Products"."ID" = ? and (("Products"."Version" = ?)) returning "Products"."ID" as "c0", "Products"."Name" as "c1", "Products"."Version" as "c2"',
          ['Tea', 1n, 3n],
        ],
        [
          'decide Products when the write changed no row',
          [0],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = ?) as "found", exists (select 1 from "Products" as "c" where "c"."ID" = ? and (("c"."Version" = ?))) as "current"',
          [1n, 1n, 3n],
        ],
      ],
    },
  ],
  [
    'MERGE with a Tags binding',
    {
      oneStatement: false,
      steps: [
        [
          'update Products',
          [],
          true,
          'with "t" as (update "Products" as "u" set "Name" = $1::text, "Version" = (case when "u"."Version" is null or "u"."Version" >= 2147483647 then 0 else "u"."Version" + 1 end) where "u"."ID" = $2::integer returning "u".*) select "t"."ID" as "c0", "t"."Name" as "c1", "t"."Version" as "c2" from "t" ',
          ['Tea', '1'],
        ],
        ['decide Products when the write changed no row', [0], false],
        [
          'link Products/Tags',
          [],
          true,
          'insert into "Product_Tags" ("Products_ID", "Tags_ID") values ($1::integer, $2::integer) on conflict do nothing',
          ['1', '5'],
        ],
      ],
    },
    {
      oneStatement: false,
      steps: [
        [
          'update Products',
          [],
          true,
          'update "Products" set "Name" = ?, "Version" = (case when "Products"."Version" is null or "Products"."Version" >= 2147483647 then 0 else "Products"."Version" + 1 end) where "Products"."ID" = ? returning "Products"."ID" as "c0", "Products"."Name" as "c1", "Products"."Version" as "c2"',
          ['Tea', 1n],
        ],
        ['decide Products when the write changed no row', [0], false],
        ['link Products/Tags', [], true, 'insert into "Product_Tags" ("Products_ID", "Tags_ID") values (?, ?) on conflict do nothing', [1n, 5n]],
      ],
    },
  ],
  [
    'DELETE with If-Match',
    {
      oneStatement: true,
      steps: [
        ['delete Products', [], true, 'delete from "Products" as "d" where "d"."ID" = $1::integer and (("d"."Version" = $2::integer))', ['1', '3']],
        [
          'decide Products when the write changed no row',
          [0],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = $1::integer) as "found", exists (select 1 from "Products" as "c" where "c"."ID" = $2::integer and (("c"."Version" = $3::integer))) as "current"',
          ['1', '1', '3'],
        ],
      ],
    },
    {
      oneStatement: true,
      steps: [
        ['delete Products', [], true, 'delete from "Products" where "Products"."ID" = ? and (("Products"."Version" = ?)) returning 1', [1n, 3n]],
        [
          'decide Products when the write changed no row',
          [0],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = ?) as "found", exists (select 1 from "Products" as "c" where "c"."ID" = ? and (("c"."Version" = ?))) as "current"',
          [1n, 1n, 3n],
        ],
      ],
    },
  ],
  [
    'DELETE under row-level security (a session): 404 or 403 is read',
    {
      oneStatement: true,
      steps: [
        ['delete Products', [], true, 'delete from "Products" as "d" where "d"."ID" = $1::integer', ['1']],
        [
          'decide Products when the write changed no row',
          [0],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = $1::integer) as "found", true as "current"',
          ['1'],
        ],
      ],
    },
    {
      oneStatement: true,
      steps: [
        ['delete Products', [], true, 'delete from "Products" where "Products"."ID" = ? returning 1', [1n]],
        [
          'decide Products when the write changed no row',
          [0],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = ?) as "found", true as "current"',
          [1n],
        ],
      ],
    },
  ],
  [
    '$links add',
    {
      oneStatement: false,
      steps: [
        ['lock Products', [], false, 'select 1 from "Products" where "ID" = $1::integer for key share', ['1']],
        ['decide Products when the lock found no row', [0], false],
        [
          'link Products/Tags',
          [],
          true,
          'insert into "Product_Tags" ("Products_ID", "Tags_ID") values ($1::integer, $2::integer) on conflict do nothing',
          ['1', '5'],
        ],
      ],
    },
    {
      oneStatement: false,
      steps: [
        ['lock Products', [], false, 'select 1 from "Products" where "ID" = ? ', [1n]],
        ['decide Products when the lock found no row', [0], false],
        ['link Products/Tags', [], true, 'insert into "Product_Tags" ("Products_ID", "Tags_ID") values (?, ?) on conflict do nothing', [1n, 5n]],
      ],
    },
  ],
  [
    '$links DELETE',
    {
      oneStatement: false,
      steps: [
        ['lock Products', [], false, 'select 1 from "Products" where "ID" = $1::integer for key share', ['1']],
        ['decide Products when the lock found no row', [0], false],
        [
          'unlink Products/Tags',
          [],
          true,
          'delete from "Product_Tags" where "Products_ID" = $1::integer and "Tags_ID" = $2::integer returning "Products_ID" as "s0", "Tags_ID" as "t0"',
          ['1', '5'],
        ],
      ],
    },
    {
      oneStatement: false,
      steps: [
        ['lock Products', [], false, 'select 1 from "Products" where "ID" = ? ', [1n]],
        ['decide Products when the lock found no row', [0], false],
        [
          'unlink Products/Tags',
          [],
          true,
          'delete from "Product_Tags" where "Products_ID" = ? and "Tags_ID" = ? returning "Products_ID" as "s0", "Tags_ID" as "t0"',
          [1n, 5n],
        ],
      ],
    },
  ],
  [
    '$links PUT (a foreign key of the source) under row-level security: 404 or 403 is read',
    {
      oneStatement: false,
      steps: [
        ['lock Products', [], false, 'select 1 from "Products" where "ID" = $1::integer for key share', ['1']],
        [
          'decide Products when the lock found no row',
          [0],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = $1::integer) as "found", true as "current"',
          ['1'],
        ],
        [
          'link Products/Category',
          [],
          true,
          'update "Products" set "Category_ID" = $1::integer, "Version" = (case when "Version" is null or "Version" >= 2147483647 then 0 else "Version" + 1 end) where "ID" = $2::integer',
          ['2', '1'],
        ],
        [
          'decide Products when the link changed no row of the source',
          [2],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = $1::integer) as "found", true as "current"',
          ['1'],
        ],
      ],
    },
    {
      oneStatement: false,
      steps: [
        ['lock Products', [], false, 'select 1 from "Products" where "ID" = ? ', [1n]],
        [
          'decide Products when the lock found no row',
          [0],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = ?) as "found", true as "current"',
          [1n],
        ],
        [
          'link Products/Category',
          [],
          true,
          'update "Products" set "Category_ID" = ?, "Version" = (case when "Version" is null or "Version" >= 2147483647 then 0 else "Version" + 1 end) where "ID" = ? returning 1',
          [2n, 1n],
        ],
        [
          'decide Products when the link changed no row of the source',
          [2],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = ?) as "found", true as "current"',
          [1n],
        ],
      ],
    },
  ],
  [
    '$links add (a foreign key of the target) under row-level security: 404 or 403 is read',
    {
      oneStatement: false,
      steps: [
        ['lock Categories', [], false, 'select 1 from "Categories" where "ID" = $1::integer for key share', ['2']],
        [
          'decide Categories when the lock found no row',
          [0],
          false,
          'select exists (select 1 from "Categories" as "c" where "c"."ID" = $1::integer) as "found", true as "current"',
          ['2'],
        ],
        [
          'link Categories/Products',
          [],
          true,
          'update "Products" set "Category_ID" = $1::integer, "Version" = (case when "Version" is null or "Version" >= 2147483647 then 0 else "Version" + 1 end) where "ID" = $2::integer',
          ['2', '1'],
        ],
        [
          'decide Products when the link changed no row of the target',
          [2],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = $1::integer) as "found", true as "current"',
          ['1'],
        ],
      ],
    },
    {
      oneStatement: false,
      steps: [
        ['lock Categories', [], false, 'select 1 from "Categories" where "ID" = ? ', [2n]],
        [
          'decide Categories when the lock found no row',
          [0],
          false,
          'select exists (select 1 from "Categories" as "c" where "c"."ID" = ?) as "found", true as "current"',
          [2n],
        ],
        [
          'link Categories/Products',
          [],
          true,
          'update "Products" set "Category_ID" = ?, "Version" = (case when "Version" is null or "Version" >= 2147483647 then 0 else "Version" + 1 end) where "ID" = ? returning 1',
          [2n, 1n],
        ],
        [
          'decide Products when the link changed no row of the target',
          [2],
          false,
          'select exists (select 1 from "Products" as "c" where "c"."ID" = ?) as "found", true as "current"',
          [1n],
        ],
      ],
    },
  ],
  [
    'DELETE cascading over a join table (per partner: its own partners read, its row deleted)',
    {
      oneStatement: false,
      steps: [
        [
          'release join partners Notes',
          [],
          true,
          'select "j"."Notes_ID" as "k0" from "Category_Notes" as j where "j"."Category_ID" = $1::integer',
          ['2'],
          [
            "a partner over 'Notes': its own cascading or required join partners read (each released the same way), then its row deleted",
            [
              ['select "j"."Tags_ID" as "k0" from "Note_Tags" as j where "j"."Notes_ID" = $1::integer', ['4']],
              ['delete from "Notes" as "d" where "d"."ID" = $1::integer', ['4']],
            ],
          ],
        ],
        ['delete Categories', [], true, 'delete from "Categories" as "d" where "d"."ID" = $1::integer', ['2']],
        ['decide Categories when the write changed no row', [1], false],
      ],
    },
    {
      oneStatement: false,
      steps: [
        [
          'release join partners Notes',
          [],
          true,
          'select "j"."Notes_ID" as "k0" from "Category_Notes" as j where "j"."Category_ID" = ?',
          [2n],
          [
            "a partner over 'Notes': its own cascading or required join partners read (each released the same way), then its row deleted",
            [
              ['select "j"."Tags_ID" as "k0" from "Note_Tags" as j where "j"."Notes_ID" = ?', [4n]],
              ['delete from "Notes" where "Notes"."ID" = ?', [4n]],
            ],
          ],
        ],
        ['delete Categories', [], true, 'delete from "Categories" where "Categories"."ID" = ? returning 1', [2n]],
        ['decide Categories when the write changed no row', [1], false],
      ],
    },
  ],
  [
    'create into a table with rules',
    {
      oneStatement: false,
      steps: [
        [
          'check key Notes when the new row has its key',
          [],
          false,
          'with "t" as (select "r".* from "Notes" as "r" where "ID" = $1::integer) select "t"."ID" as "c0", "t"."Text" as "c1" from "t" ',
          ['3'],
        ],
        ['insert Notes', [], true, 'insert into "Notes" ("ID", "Text") values ($1::integer, $2::text)', ['3', 'Hi']],
        [
          'read back Notes',
          [1],
          false,
          'with "t" as (select "r".* from "Notes" as "r" where "ID" = $1::integer) select "t"."ID" as "c0", "t"."Text" as "c1" from "t" ',
          ['3'],
        ],
      ],
    },
    {
      oneStatement: false,
      steps: [
        [
          'check key Notes when the new row has its key',
          [],
          false,
          'with "t" as (select "r".* from "Notes" as "r" where "ID" = ?) select "t"."ID" as "c0", "t"."Text" as "c1" from "t" ',
          [3n],
        ],
        ['insert Notes', [], true, 'insert into "Notes" ("ID", "Text") values (?, ?)', [3n, 'Hi']],
        [
          'read back Notes',
          [1],
          false,
          'with "t" as (select "r".* from "Notes" as "r" where "ID" = ?) select "t"."ID" as "c0", "t"."Text" as "c1" from "t" ',
          [3n],
        ],
      ],
    },
  ],
  [
    'create into a table with rules, the key left to the database',
    {
      oneStatement: false,
      steps: [
        ['check key Notes when the new row has its key', [], false],
        ['insert Notes', [], true, 'insert into "Notes" ("Text") values ($1::text) returning "ID"', ['Hi']],
        [
          'read back Notes',
          [1],
          false,
          'with "t" as (select "r".* from "Notes" as "r" where "ID" = $1::integer) select "t"."ID" as "c0", "t"."Text" as "c1" from "t" ',
          ['7'],
        ],
      ],
    },
    {
      oneStatement: false,
      steps: [
        ['check key Notes when the new row has its key', [], false],
        ['insert Notes', [], true, 'insert into "Notes" ("Text") values (?) returning "ID"', ['Hi']],
        [
          'read back Notes',
          [1],
          false,
          'with "t" as (select "r".* from "Notes" as "r" where "ID" = ?) select "t"."ID" as "c0", "t"."Text" as "c1" from "t" ',
          [7n],
        ],
      ],
    },
  ],
];

describe('a write is a plan of statements before anything runs', () => {
  it('every write shown has its expected plans', () => {
    expect(expected.map(([what]) => what)).toEqual(writes.map(([what]) => what));
  });

  it.each(writes.map(([what, build], i) => [what, build, expected[i][1], expected[i][2]] as const))('%s', (what, build, onPostgres, onSqlite) => {
    for (const [db, plan] of [
      [postgres, onPostgres],
      [lite, onSqlite],
    ] as const) {
      const { oneStatement, steps } = shown(db, what, build);
      expect({ engine: db.sqlEngine.name, oneStatement, steps: steps.map(asStep) }).toEqual({ engine: db.sqlEngine.name, ...plan });
    }
  });

  it('a bad body is refused while the plan is built, before any step runs (the builder has no connection)', () => {
    const misdirected = create(
      Products,
      { ID: 1, Name: 'Tea', Version: 0 },
      { bindings: [{ property: nav(Products, 'Category'), targets: [{ entitySet: Tags, key: { ID: 5 } }] }] },
    );
    expect(() => planCreate(new PlanBuilder(compiled, postgres.sqlEngine), misdirected)).toThrow(
      expect.objectContaining({ code: 'BODY_INVALID', status: 400 }) as Error,
    );
  });
});
