// Native intra-op threads measured (issue 13; the table in docs/threads.md):
// build/native/wnn bench on each converted model of build/bench/models, one
// thread and N threads alternating (so a drift of the shared machine's speed
// touches both), the median of each over the rounds.
//
//   node bench/threads.mjs [--models a,b] [--threads N] [--rounds R] [--number K]
//
// Defaults: every model in build/bench/models (npm run bench converts them),
// N = 2, R = 8, K = 4 (runs per timing). Prints a markdown table.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'build/native/wnn');
const DIR = path.join(ROOT, 'build/bench/models');
const opt = { models: null, threads: 2, rounds: 8, number: 4 };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const val = () => argv[++i];
  if (argv[i] === '--models') opt.models = val().split(',');
  else if (argv[i] === '--threads') opt.threads = Number(val());
  else if (argv[i] === '--rounds') opt.rounds = Number(val());
  else if (argv[i] === '--number') opt.number = Number(val());
  else { console.error(`threads: unknown option '${argv[i]}'`); process.exit(2); }
}
if (!fs.existsSync(CLI) || !fs.existsSync(DIR)) {
  console.error('threads: needs build/native/wnn and build/bench/models (npm run bench converts them)');
  process.exit(1);
}
const models = (opt.models ?? fs.readdirSync(DIR).filter((f) => f.endsWith('.wnn')).map((f) => f.slice(0, -4)).sort());
const median = (x) => { const s = [...x].sort((a, b) => a - b), m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const time = (model, threads) => {
  const r = spawnSync(CLI, ['bench', path.join(DIR, `${model}.wnn`), '--number', String(opt.number), '--threads', String(threads)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${model} at ${threads} threads: ${r.stderr.trim()}`);
  return JSON.parse(r.stdout.split('\n')[0]).median_ms;
};
console.log(`| model | 1 thread | ${opt.threads} threads | speed-up |`);
console.log('|---|---:|---:|---:|');
for (const model of models) {
  const one = [], many = [];
  for (let r = 0; r < opt.rounds; r++) one.push(time(model, 1)), many.push(time(model, opt.threads));
  const a = median(one), b = median(many);
  console.log(`| ${model} | ${a.toFixed(1)} ms | ${b.toFixed(1)} ms | ${(a / b).toFixed(2)}x |`);
}
