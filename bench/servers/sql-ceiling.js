'use strict';
/**
 * "ceiling" over a database: a bare Express handler over the same driver as ours (PGlite's
 * `query`, a `pg.Pool` of the same size as ours, or a better-sqlite3 connection with its
 * statements prepared once: sqlite-statements.js), answering each benchmark scenario with ONE
 * hand-written SQL statement and the bytes ours writes (render.js). It is what the database, the
 * driver and Express allow on this machine, not an OData server: anything else gets a 400.
 */
const express = require('express');
const { JSON_TYPE, ATOM_TYPE, jsonProduct, jsonProducts, atomFeed, answer, unsupported, batch, send, readBody } = require('./render');
const { serveChild } = require('./child');
const { openEngine } = require('./sql-engine');
const { sqliteQueries } = require('./sqlite-statements');

// The product columns in the form render.js writes: DateTime as milliseconds, Decimal as text.
const PRODUCT =
  'p."ID", p."Name", p."Description", (extract(epoch from p."ReleaseDate") * 1000)::float8 as "ReleaseDate", ' +
  '(extract(epoch from p."DiscontinuedDate") * 1000)::float8 as "DiscontinuedDate", p."Rating", p."Price"::text as "Price"';
const CATEGORY_OF = (p) => ({ ID: p.CategoryID, Name: p.CategoryName });

// The statements, one per scenario shape.
const STATEMENTS = {
  page: `select ${PRODUCT} from "Products" p order by p."ID" limit $1`,
  all: `select ${PRODUCT} from "Products" p order by p."ID"`,
  byKey: `select ${PRODUCT} from "Products" p where p."ID" = $1`,
  byKeys: `select ${PRODUCT} from "Products" p where p."ID" = any($1::integer[])`,
  // S3: the filter, ordinal order by Name (the column's "C" collation), the key as tie-breaker.
  filtered: `select ${PRODUCT} from "Products" p where p."Price" > 20 and p."Rating" >= 3 order by p."Name", p."ID" limit $1`,
  expanded: `select ${PRODUCT}, c."ID" as "CategoryID", c."Name" as "CategoryName" from "Products" p left join "Categories" c on c."ID" = p."Category_ID" order by p."ID" limit $1`,
  counted: `select ${PRODUCT}, count(*) over () as "total" from "Products" p order by p."ID" limit $1`,
};

const S3_FILTER = 'Price gt 20 and Rating ge 3';

// S6: the new row, returned as stored (DateTime values arrive as "\/Date(ms)\/", stored as UTC).
const INSERT =
  'insert into "Products" as p ("ID", "Name", "Description", "ReleaseDate", "DiscontinuedDate", "Rating", "Price") ' +
  `values ($1, $2, $3, $4::timestamptz at time zone 'UTC', $5::timestamptz at time zone 'UTC', $6, $7::numeric) returning ${PRODUCT}`;
const isoOf = (msDate) => (msDate === null || msDate === undefined ? null : new Date(Number(msDate.slice(6, -2))).toISOString());

/** The scenarios' statements on PostgreSQL or PGlite, run by `query(text, values)`. */
function postgresQueries(query) {
  return {
    page: (top) => query(STATEMENTS.page, [top]),
    all: () => query(STATEMENTS.all, []),
    byKey: (id) => query(STATEMENTS.byKey, [id]),
    byKeys: (ids) => query(STATEMENTS.byKeys, [ids]),
    filtered: (top) => query(STATEMENTS.filtered, [top]),
    expanded: (top) => query(STATEMENTS.expanded, [top]),
    counted: (top) => query(STATEMENTS.counted, [top]),
    insert: (input) =>
      query(INSERT, [
        input.ID,
        input.Name ?? null,
        input.Description ?? null,
        isoOf(input.ReleaseDate),
        isoOf(input.DiscontinuedDate),
        input.Rating,
        input.Price,
      ]),
  };
}

async function main() {
  const { engine, pglite, url, file } = await openEngine();
  let queries;
  if (engine === 'sqlite') {
    queries = sqliteQueries(file);
  } else if (engine === 'pglite') {
    queries = postgresQueries(async (text, values) => (await pglite.query(text, values)).rows);
  } else {
    const { Pool } = require('pg');
    const pool = new Pool({ connectionString: url, max: 10 });
    queries = postgresQueries(async (text, values) => (await pool.query(text, values)).rows);
  }

  async function get(root, path, q, json) {
    if (path === '/Products') {
      const top = q.$top === undefined ? undefined : Number(q.$top);
      let rows;
      let categoryOf;
      if (q.$filter !== undefined || q.$orderby !== undefined) {
        if (q.$filter !== S3_FILTER || q.$orderby !== 'Name' || top === undefined) return unsupported(`$filter=${q.$filter}&$orderby=${q.$orderby}`);
        rows = await queries.filtered(top);
      } else if (q.$expand !== undefined) {
        if (q.$expand !== 'Category' || top === undefined) return unsupported(`$expand=${q.$expand}`);
        rows = await queries.expanded(top);
        categoryOf = CATEGORY_OF;
      } else if (q.$inlinecount === 'allpages' && top !== undefined) {
        rows = await queries.counted(top);
        const total = rows.length === 0 ? '0' : String(rows[0].total);
        return answer(200, '2.0;', JSON_TYPE, `{"d":{"__count":"${total}","results":${jsonProducts(root, rows)}}}`);
      } else {
        rows = top === undefined ? await queries.all() : await queries.page(top);
      }
      if (!json) return answer(200, '2.0;', ATOM_TYPE, atomFeed(root, rows));
      return answer(200, '2.0;', JSON_TYPE, `{"d":{"results":${jsonProducts(root, rows, categoryOf)}}}`);
    }
    const key = /^\/Products\((\d+)\)$/.exec(path);
    if (key !== null && json) {
      const [p] = await queries.byKey(Number(key[1]));
      if (p === undefined) return { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' };
      return answer(200, '1.0;', JSON_TYPE, `{"d":${jsonProduct(root, p, undefined)}}`);
    }
    return unsupported(path);
  }

  /** $batch of GETs by key: one statement for every part's key, then each part from the rows. */
  async function batchByKeys(root, contentType, body) {
    const keys = [...body.toString('latin1').matchAll(/\r\nGET Products\((\d+)\) HTTP\/1\.1\r\n/g)].map((match) => Number(match[1]));
    const rows = new Map((await queries.byKeys(keys)).map((p) => [p.ID, p]));
    return batch(contentType, body, (path, q, json) => {
      const key = /^\/Products\((\d+)\)$/.exec(path);
      const p = key === null ? undefined : rows.get(Number(key[1]));
      if (p === undefined || !json) return unsupported(path);
      return answer(200, '1.0;', JSON_TYPE, `{"d":${jsonProduct(root, p, undefined)}}`);
    });
  }

  /** POST Products: one INSERT ... RETURNING. */
  async function create(root, body) {
    let input;
    try {
      input = JSON.parse(body.toString('utf8'));
    } catch {
      return unsupported('body');
    }
    const [p] = await queries.insert(input);
    return answer(201, '1.0;', JSON_TYPE, `{"d":${jsonProduct(root, p, undefined)}}`, { location: `${root}Products(${p.ID})` });
  }

  const app = express();
  app.use('/odata', (req, res) => {
    const root = `http://${req.headers.host}/odata/`;
    const fail = (error) => send(res, { status: 500, headers: { 'content-type': 'text/plain' }, body: `ceiling: ${error.message}` });
    if (req.method === 'GET') {
      const accept = req.headers.accept;
      const json = req.query.$format === 'json' || (accept !== undefined && accept.includes('application/json'));
      get(root, req.path, req.query, json).then((r) => send(res, r), fail);
    } else if (req.method === 'POST' && req.path === '/Products') {
      readBody(req, (body) => create(root, body).then((r) => send(res, r), fail));
    } else if (req.method === 'POST' && req.path === '/$batch') {
      readBody(req, (body) => batchByKeys(root, req.headers['content-type'] || '', body).then((r) => send(res, r), fail));
    } else {
      send(res, unsupported(`${req.method} ${req.path}`));
    }
  });
  serveChild('ceiling', app);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
