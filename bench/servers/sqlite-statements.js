'use strict';
/**
 * The SQLite ceiling's statements (sql-ceiling.js): the same scenario shapes as its PostgreSQL
 * statements, each ONE hand-written statement, prepared once on a better-sqlite3 connection to
 * this server's copy of the file (WAL, as ours opens a file). Rows come back in the form
 * render.js writes: DateTime as milliseconds (stored as UTC text `YYYY-MM-DD HH:MM:SS.fff`),
 * Decimal as its stored canonical text.
 */
const Database = require('better-sqlite3');

const PRODUCT = 'p."ID", p."Name", p."Description", p."ReleaseDate", p."DiscontinuedDate", p."Rating", p."Price"';

const SQL = {
  page: `select ${PRODUCT} from "Products" p order by p."ID" limit ?`,
  all: `select ${PRODUCT} from "Products" p order by p."ID"`,
  byKey: `select ${PRODUCT} from "Products" p where p."ID" = ?`,
  byKeys: `select ${PRODUCT} from "Products" p where p."ID" in (select value from json_each(?))`,
  // S3: Decimal text compared as a number (the benchmark's prices need no exact arithmetic), code-point order by Name.
  filtered: `select ${PRODUCT} from "Products" p where cast(p."Price" as real) > 20 and p."Rating" >= 3 order by p."Name", p."ID" limit ?`,
  expanded: `select ${PRODUCT}, c."ID" as "CategoryID", c."Name" as "CategoryName" from "Products" p left join "Categories" c on c."ID" = p."Category_ID" order by p."ID" limit ?`,
  counted: `select ${PRODUCT}, count(*) over () as "total" from "Products" p order by p."ID" limit ?`,
  insert:
    'insert into "Products" ("ID", "Name", "Description", "ReleaseDate", "DiscontinuedDate", "Rating", "Price") ' +
    `values (?, ?, ?, ?, ?, ?, ?) returning "ID", "Name", "Description", "ReleaseDate", "DiscontinuedDate", "Rating", "Price"`,
};

/** Stored UTC text to milliseconds. */
const msOf = (text) => (text === null ? null : Date.parse(`${text.slice(0, 10)}T${text.slice(11)}Z`));
/** `\/Date(ms)\/` to the stored UTC text. */
const storedOf = (msDate) =>
  msDate === null || msDate === undefined ? null : new Date(Number(msDate.slice(6, -2))).toISOString().slice(0, 23).replace('T', ' ');

function product(row) {
  row.ReleaseDate = msOf(row.ReleaseDate);
  row.DiscontinuedDate = msOf(row.DiscontinuedDate);
  return row;
}

/** The ceiling's queries over the SQLite file `file` (the names sql-ceiling.js asks for). */
function sqliteQueries(file) {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const prepared = Object.fromEntries(Object.entries(SQL).map(([name, text]) => [name, db.prepare(text)]));
  const rows = (name, ...values) => prepared[name].all(...values).map(product);
  return {
    page: async (top) => rows('page', top),
    all: async () => rows('all'),
    byKey: async (id) => rows('byKey', id),
    byKeys: async (ids) => rows('byKeys', JSON.stringify(ids)),
    filtered: async (top) => rows('filtered', top),
    expanded: async (top) => rows('expanded', top),
    counted: async (top) => rows('counted', top),
    insert: async (input) =>
      rows(
        'insert',
        input.ID,
        input.Name ?? null,
        input.Description ?? null,
        storedOf(input.ReleaseDate),
        storedOf(input.DiscontinuedDate),
        input.Rating,
        input.Price,
      ),
  };
}

module.exports = { sqliteQueries };
