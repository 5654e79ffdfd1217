'use strict';
/** The benchmark's tables: plain text for the terminal, Markdown for docs/performance.md. */
const fs = require('fs');

// Where each lane's table goes in docs/performance.md: the memory lane, then the SQL lanes.
const DOC_START = '<!-- bench:latest:start -->';
const DOC_END = '<!-- bench:latest:end -->';
const SQL_DOC_START = '<!-- sql-bench:start -->';
const SQL_DOC_END = '<!-- sql-bench:end -->';

const isMemory = (scenario) => scenario.engine === undefined || scenario.engine === 'memory';

const mb = (bytes) => (bytes ? `${(bytes / 2 ** 20).toFixed(0)}` : '-');
const ms = (value) => (value === undefined ? '-' : value < 10 ? value.toFixed(2) : value.toFixed(1));
const rps = (value) => (value === undefined ? '-' : Math.round(value).toString());

function rows(report) {
  return report.scenarios.map((s) => {
    const ours = s.servers.ours || {};
    const ceiling = s.servers.ceiling || {};
    return {
      engine: s.engine || 'memory',
      id: s.id,
      oursRps: rps(ours.rps),
      ceilingRps: rps(ceiling.rps),
      ratio: s.ratio === undefined ? '-' : s.ratio.toFixed(2),
      oursLatency: ours.rps === undefined ? '-' : `${ms(ours.p50)} / ${ms(ours.p99)}`,
      ceilingLatency: ceiling.rps === undefined ? '-' : `${ms(ceiling.p50)} / ${ms(ceiling.p99)}`,
      oursCpu: ours.cpuMicros === undefined ? '-' : ours.cpuMicros.toFixed(0),
      ceilingCpu: ceiling.cpuMicros === undefined ? '-' : ceiling.cpuMicros.toFixed(0),
      cpuRatio: s.cpuRatio === undefined ? '-' : s.cpuRatio.toFixed(2),
      oursRss: mb(ours.peakRss),
      ceilingRss: mb(ceiling.peakRss),
      same: s.sameBytes === undefined ? '-' : s.sameBytes === true ? 'yes' : 'no',
      note: s.error === undefined ? '' : s.error.split('\n')[0],
    };
  });
}

const HEADINGS = {
  engine: 'engine',
  id: 'scenario',
  oursRps: 'ours req/s',
  ceilingRps: 'ceiling req/s',
  ratio: 'ours/ceiling',
  oursLatency: 'ours p50/p99 ms',
  ceilingLatency: 'ceiling p50/p99 ms',
  oursCpu: 'ours CPU µs/req',
  ceilingCpu: 'ceiling CPU µs/req',
  cpuRatio: 'CPU ceiling/ours',
  oursRss: 'ours RSS MB',
  ceilingRss: 'ceiling RSS MB',
  same: 'same bytes',
};

/** A fixed-width table with a legend of the scenarios and any failures. */
function formatTable(report) {
  const table = rows(report);
  const keys = Object.keys(HEADINGS);
  const width = Object.fromEntries(keys.map((k) => [k, Math.max(HEADINGS[k].length, ...table.map((r) => r[k].length))]));
  const line = (r) => keys.map((k) => (k === 'id' || k === 'engine' ? r[k].padEnd(width[k]) : r[k].padStart(width[k]))).join('  ');
  const out = [line(HEADINGS), keys.map((k) => '-'.repeat(width[k])).join('  '), ...table.map(line)];
  for (const s of report.scenarios) if (s.error) out.push(`${s.engine || 'memory'} ${s.id}: ${s.error}`);
  return out.join('\n');
}

/** The Markdown block for docs/performance.md: settings, machine, table, scenario legend (no engine column for the memory lane alone). */
function formatMarkdown(report) {
  const m = report.machine;
  const st = report.settings;
  const table = rows(report);
  const keys = Object.keys(HEADINGS).filter((k) => k !== 'engine' || !report.scenarios.every(isMemory));
  const out = [
    `Run ${report.date.slice(0, 16).replace('T', ' ')} UTC, commit ${m.commit || '?'}: ${m.cores} cores (${m.cpuModel}), Node ${m.node}, ` +
      `Express ${m.express}, autocannon ${m.autocannon}, load average before the run ${m.loadAverage.join(' ')}. ` +
      `${st.connections} connections, warm-up ${st.warmup} s, ${st.rounds} rounds x ${st.duration} s per server${st.quick ? ' (quick mode)' : ''}; ` +
      `medians of the rounds.`,
    '',
    `| ${keys.map((k) => HEADINGS[k]).join(' | ')} |`,
    `| ${keys.map((k) => (k === 'id' || k === 'engine' ? '---' : '---:')).join(' | ')} |`,
    ...table.map((r) => `| ${keys.map((k) => r[k]).join(' | ')} |`),
    '',
    ...[...new Map(report.scenarios.map((s) => [s.id, s])).values()].map((s) => `- ${s.id}: \`${s.method} ${s.path}\``),
    ...report.scenarios.filter((s) => s.error).map((s) => `- **${s.engine || 'memory'} ${s.id}: ${s.error.split('\n')[0]}**`),
    '',
  ];
  return out.join('\n');
}

/** `text` with the block between `startMarker` and `endMarker` replaced by `markdown`. */
function replaceBlock(text, file, startMarker, endMarker, markdown) {
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  if (start < 0 || end < start) throw new Error(`${file} has no ${startMarker} ... ${endMarker} block`);
  return `${text.slice(0, start + startMarker.length)}\n${markdown}${text.slice(end)}`;
}

/**
 * Write the report's tables into `file`: the memory lane's between the bench:latest markers, the
 * SQL lanes' between the sql-bench markers; a lane that did not run leaves its table as it was.
 */
function updateDocs(file, report) {
  let text = fs.readFileSync(file, 'utf8');
  const memory = report.scenarios.filter(isMemory);
  const sql = report.scenarios.filter((scenario) => !isMemory(scenario));
  if (memory.length > 0) text = replaceBlock(text, file, DOC_START, DOC_END, formatMarkdown({ ...report, scenarios: memory }));
  if (sql.length > 0) text = replaceBlock(text, file, SQL_DOC_START, SQL_DOC_END, formatMarkdown({ ...report, scenarios: sql }));
  fs.writeFileSync(file, text);
}

module.exports = { formatTable, formatMarkdown, updateDocs };
