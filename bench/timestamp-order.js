'use strict';
/**
 * `node bench/timestamp-order.js`: what a page ordered by a microsecond timestamp costs in
 * PostgreSQL when the order is the bare column (SqlProvider now) and when it is
 * `date_trunc('milliseconds', col)` (earlier releases), over BENCH_ROWS rows (1,000,000) of a
 * `timestamp(6)` column with an index on (col, key). The page is the one a `$skiptoken` from the
 * middle of the table asks for (51 rows: a page of 50 and one ahead), in the statement shapes the
 * two translators write. Each form runs BENCH_RUNS times (9), alternating; the median of the
 * server's own Execution Time (EXPLAIN ANALYZE) is printed with the plan's top nodes. Uses
 * DATABASE_URL, else a throwaway server (the harness of `npm run test:postgres`).
 */
const { sql } = require('kysely');
const { exec, preparePostgres } = require('./sql/prepare');
const { postgres } = require('express-odata-v2/sql');

const env = (name, fallback) => (process.env[name] === undefined || process.env[name] === '' ? fallback : Number(process.env[name]));
const ROWS = env('BENCH_ROWS', 1000000);
const RUNS = env('BENCH_RUNS', 9);

/** A table of ROWS ticks, 37 µs apart (about 27 in each millisecond), keys out of step with the time. */
async function fill(db) {
  await exec(db, ['create table "Ticks" ("ID" integer primary key, "At" timestamp(6) not null)']);
  await sql`insert into "Ticks" ("ID", "At")
    select (g::bigint * 7919 % ${ROWS})::integer, timestamp '2024-01-01' + g * interval '37 microseconds'
    from generate_series(0, ${ROWS - 1}) as g`.execute(db.kysely);
  await exec(db, ['create index "Ticks_At_ID" on "Ticks" ("At", "ID")', 'vacuum analyze "Ticks"']);
}

/** The position of the row in the middle of the order: its millisecond, its full value and its key. */
async function middle(db) {
  const { rows } =
    await sql`select "ID", to_char("At", 'YYYY-MM-DD HH24:MI:SS.US') as at from "Ticks" order by "At", "ID" offset ${Math.floor(ROWS / 2)} limit 1`.execute(
      db.kysely,
    );
  const { ID, at } = rows[0];
  return { key: ID, full: at, millisecond: at.slice(0, 23) };
}

/** The two statements, as the translators wrote them for the page after `position`. */
function statements(position) {
  const m = `'${position.millisecond}'::timestamp`;
  const next = `(${m} + interval '1 millisecond')`;
  const p = `'${position.full}'::timestamp`;
  const k = position.key;
  return {
    // Earlier releases: ORDER BY date_trunc; the seek as ranges on the bare column (index-friendly), then a sort.
    date_trunc: `select t."ID", t."At" from "Ticks" as t where (t."At" >= ${m}) and ((t."At" >= ${next}) or ((t."At" >= ${m} and t."At" < ${next}) and t."ID" > ${k})) order by date_trunc('milliseconds', t."At") asc, t."ID" asc limit 51`,
    // Now: ORDER BY the bare column; the seek from the full stored value.
    bare: `select t."ID", t."At" from "Ticks" as t where (t."At" >= ${p}) and ((t."At" > ${p}) or (t."At" = ${p} and t."ID" > ${k})) order by t."At" asc, t."ID" asc limit 51`,
  };
}

function planNodes(plan, depth = 0, out = []) {
  out.push(`${'  '.repeat(depth)}${plan['Node Type']}${plan['Index Name'] ? ` using ${plan['Index Name']}` : ''}`);
  for (const child of plan.Plans ?? []) planNodes(child, depth + 1, out);
  return out;
}

async function main() {
  const prepared = await preparePostgres(fill, { name: 'eov2_timestamp_order' });
  if (prepared.skipped !== undefined) {
    console.log(`skipped: ${prepared.skipped}`);
    return;
  }
  const db = postgres(prepared.url);
  try {
    const forms = statements(await middle(db));
    const times = { date_trunc: [], bare: [] };
    const plans = {};
    for (let run = 0; run < RUNS; run++) {
      for (const name of run % 2 === 0 ? ['date_trunc', 'bare'] : ['bare', 'date_trunc']) {
        const { rows } = await sql.raw(`explain (analyze, format json) ${forms[name]}`).execute(db.kysely);
        // json stays text through the library's type parsers.
        const [result] = JSON.parse(rows[0]['QUERY PLAN']);
        times[name].push(result['Execution Time']);
        plans[name] = planNodes(result.Plan);
      }
    }
    const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
    console.log(`${ROWS} rows, ${RUNS} runs each, on ${prepared.server}`);
    for (const name of ['date_trunc', 'bare']) {
      console.log(
        `\n${name}: median ${median(times[name]).toFixed(3)} ms (min ${Math.min(...times[name]).toFixed(3)}, max ${Math.max(...times[name]).toFixed(3)})`,
      );
      console.log(plans[name].map((line) => `  ${line}`).join('\n'));
    }
  } finally {
    await db.close();
    await prepared.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
