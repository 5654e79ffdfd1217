'use strict';
/**
 * `node bench/profile-summary.js FILE.cpuprofile [N]`: the N functions with the most self time in
 * a V8 CPU profile (from `npm run bench -- --profile`, which runs ours with --cpu-prof), and the
 * share of time per file, so a slow scenario points at its hot spot without a GUI.
 */
const fs = require('fs');
const path = require('path');

function summarize(file, top = 25) {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8'));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  // samples[i] was taken in node samples[i], timeDeltas[i] µs after the previous sample.
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) || 0) + (profile.timeDeltas[i] || 0)));
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const functions = new Map();
  const files = new Map();
  for (const [id, micros] of self) {
    const { callFrame } = byId.get(id);
    const where = callFrame.url ? `${path.relative(process.cwd(), callFrame.url.replace(/^file:\/\//, ''))}:${callFrame.lineNumber + 1}` : '';
    const key = `${callFrame.functionName || '(anonymous)'} ${where}`.trim();
    functions.set(key, (functions.get(key) || 0) + micros);
    const fileKey = callFrame.url ? path.relative(process.cwd(), callFrame.url.replace(/^file:\/\//, '')) : callFrame.functionName;
    files.set(fileKey, (files.get(fileKey) || 0) + micros);
  }
  const pct = (micros) => `${((100 * micros) / total).toFixed(1).padStart(5)}%`;
  const lines = [`${file}: ${(total / 1000).toFixed(0)} ms sampled`, '', 'self time by function:'];
  for (const [key, micros] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) lines.push(`${pct(micros)}  ${key}`);
  lines.push('', 'self time by file:');
  for (const [key, micros] of [...files].sort((a, b) => b[1] - a[1]).slice(0, 15)) lines.push(`${pct(micros)}  ${key}`);
  return lines.join('\n');
}

if (require.main === module) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node bench/profile-summary.js FILE.cpuprofile [N]\n');
    process.exitCode = 2;
  } else {
    process.stdout.write(`${summarize(file, top ? Number(top) : 25)}\n`);
  }
}

module.exports = { summarize };
