#!/usr/bin/env node
// The ONNX backend node tests through `wnn convert` and `wnn run`.
//
//   node tests/conformance/run.mjs [--data DIR] [--jobs N] [--timeout SECONDS]
//                                  [--out DIR] [--filter REGEX] [--quiet]
//                                  [--wasi dist/wnn-wasi.wasm]
//
// For every case folder in DIR (default /usr/share/libonnx-testdata/data/node,
// Debian's libonnx-testdata: model.onnx and test_data_set_0/ with input_<i>.pb
// and output_<i>.pb) it converts model.onnx natively, runs test_data_set_0 and
// compares every output with numpy allclose semantics (rtol 1e-3, atol 1e-7;
// integer and bool outputs exactly). Each case is one of
//   pass         every output matches
//   fail         the run succeeded but an output differs (max errors given)
//   unsupported  `wnn convert` exited 3: an op, attribute, dtype or feature it
//                does not handle (its message is the reason)
//   error        anything else: convert or run failed, crashed or timed out,
//                or the test data could not be used
// A case whose conversion is unsupported only because an input that decides
// a shape (Reshape's shape, Slice's starts, Resize's scales, an If
// condition, ...) is a graph input is converted again with `--const` for
// exactly the graph inputs the importer's message names, from the case's own
// test_data_set_0, and counted by that retry: the report shows it as
// "pass (const: names)" (or fail, ...), and counts.passConst says how many
// of the passes needed it.
// Writes OUT/report.json and OUT/report.md (default build/conformance) and
// prints the counts and the most common unsupported op types.
//
// With --wasi, cases are still converted natively but info and run go
// through the WASI command under wasm/run-wasi.mjs (slower: for diagnosis).
// The CLI is $WNN_NATIVE_BUILD_DIR/wnn (default build/native/wnn). Exit
// status: 0 when the run completed (whatever the counts), 1 when it could not
// run at all (no wnn, no `convert`, no test data), 2 on a usage error.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, nativeCli, wasiCli, hasConvert, runCase } from './lib.mjs';

export const DEFAULT_DATA = '/usr/share/libonnx-testdata/data/node';
export const RTOL = 1e-3;
export const ATOL = 1e-7;

// Runs every case; resolves {counts, cases, unsupportedOps, seconds}.
// onCase(result, doneCount, total) is called as cases finish.
export async function runConformance({
  data = DEFAULT_DATA,
  buildDir = path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native'),
  jobs = 2,
  timeoutMs = 20000,
  filter = null,
  onCase = null,
  wasi = null, // a path to wnn-wasi.wasm: run (not convert) under WASI
} = {}) {
  const native = nativeCli(buildDir);
  const cli = wasi ? wasiCli(wasi, [data]) : native;
  if (!cli.available()) throw new Error(`${cli.bin} or wasm/run-wasi.mjs is missing`);
  if (!native.available()) throw new Error(`${native.bin} is not built`);
  if (!(await hasConvert(native))) throw new Error(`${native.bin} cannot convert ONNX (no importer linked: 'wnn convert' is missing or a usage error)`);
  let names = fs.readdirSync(data)
    .filter((n) => fs.existsSync(path.join(data, n, 'model.onnx')))
    .sort();
  if (filter) names = names.filter((n) => filter.test(n));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-conformance-'));
  const cases = new Array(names.length);
  const t0 = Date.now();
  let next = 0;
  let done = 0;
  async function worker() {
    while (next < names.length) {
      const i = next++;
      const name = names[i];
      const workDir = path.join(tmp, name);
      let r;
      try {
        r = await runCase({ caseDir: path.join(data, name), native, cli, workDir, rtol: RTOL, atol: ATOL, timeoutMs });
      } catch (e) {
        r = { status: 'error', reason: `harness: ${e.message}`, op: null, outputs: [] };
      }
      fs.rmSync(workDir, { recursive: true, force: true });
      cases[i] = { name, ...r };
      done++;
      if (onCase) onCase(cases[i], done, names.length);
    }
  }
  try {
    await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker));
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  const counts = { total: cases.length, pass: 0, fail: 0, unsupported: 0, error: 0, passConst: 0 };
  for (const c of cases) {
    counts[c.status]++;
    if (c.status === 'pass' && c.consts?.length) counts.passConst++;
  }
  // Unsupported cases grouped by the op type their message names (or by the
  // message when it names none of the model's op types), and by the message
  // with names and numbers taken out.
  const group = (keyOf) => {
    const m = new Map();
    for (const c of cases) {
      if (c.status !== 'unsupported') continue;
      const key = keyOf(c);
      if (!m.has(key)) m.set(key, []);
      m.get(key).push(c.name);
    }
    return [...m.entries()]
      .map(([key, list]) => ({ key, count: list.length, cases: list }))
      .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  };
  const unsupportedOps = group((c) => c.op ?? `(no op named) ${reasonKey(c.reason)}`)
    .map(({ key, ...rest }) => ({ op: key, ...rest }));
  const unsupportedReasons = group((c) => reasonKey(c.reason))
    .map(({ key, ...rest }) => ({ reason: key, ...rest }));
  return {
    counts, cases, unsupportedOps, unsupportedReasons, seconds: (Date.now() - t0) / 1000, data, rtol: RTOL, atol: ATOL,
    target: wasi ? 'wasi' : 'native',
  };
}

// A message with the node's index and name, quoted names and numbers taken
// out, so that the same cause in different cases reads the same.
export function reasonKey(reason) {
  return reason.replace(/^node \d+ '[^']*' /, '').replace(/'[^']*'/g, "'…'").replace(/\d+/g, 'N').slice(0, 160);
}

function mdCell(s) {
  return String(s ?? '').replace(/\|/g, '\\|').replace(/\n/g, ' ').slice(0, 400);
}

// "pass", or "pass (const: shape)" for a case converted with --const.
export function statusText(c) {
  return c.consts?.length ? `${c.status} (const: ${c.consts.join(', ')})` : c.status;
}

function caseReason(c) {
  if (c.status === 'pass') {
    const worst = c.outputs.reduce((m, o) => Math.max(m, Number.isFinite(o.maxAbs) ? o.maxAbs : 0), 0);
    return `max abs error ${worst.toExponential(2)}`;
  }
  return c.reason;
}

export function writeReports(report, outDir) {
  fs.mkdirSync(outDir, { recursive: true });
  fs.writeFileSync(path.join(outDir, 'report.json'), JSON.stringify(report, null, 1) + '\n');
  const { counts } = report;
  const lines = [
    '# ONNX backend node tests through wnn',
    '',
    `Data: \`${report.data}\`. Compared with numpy allclose, rtol ${report.rtol}, atol ${report.atol}` +
      ' (integer and bool outputs exactly).',
    '',
    `**${counts.pass} pass**, ${counts.fail} fail, ${counts.unsupported} unsupported, ${counts.error} error` +
      ` of ${counts.total} cases (${report.target}, ${report.seconds.toFixed(1)} s);` +
      ` ${counts.passConst} of the passes with shape-deciding graph inputs frozen by --const` +
      ` to their test data ("pass (const: names)"), so **${counts.pass - counts.passConst} pass strictly**` +
      ' (each case\'s own model and inputs, nothing frozen).',
    '',
    '## Most common unsupported op types',
    '',
    '| op type | cases |',
    '|---|---|',
    ...report.unsupportedOps.map((u) => `| ${mdCell(u.op)} | ${u.count} |`),
    '',
    '## Unsupported, by reason',
    '',
    '| reason (names and numbers taken out) | cases |',
    '|---|---|',
    ...report.unsupportedReasons.map((u) => `| ${mdCell(u.reason)} | ${u.count} |`),
    '',
    '## Cases',
    '',
    '| case | status | reason |',
    '|---|---|---|',
    ...report.cases.map((c) => `| ${c.name} | ${mdCell(statusText(c))} | ${mdCell(caseReason(c))} |`),
    '',
  ];
  fs.writeFileSync(path.join(outDir, 'report.md'), lines.join('\n'));
}

export function summaryText(report, topOps = 25) {
  const { counts } = report;
  const lines = [
    `conformance: ${counts.pass} pass, ${counts.fail} fail, ${counts.unsupported} unsupported, ${counts.error} error ` +
      `of ${counts.total} (${report.seconds.toFixed(1)} s; ${counts.passConst} of the passes with --const, ` +
      `${counts.pass - counts.passConst} strict)`,
  ];
  if (report.unsupportedOps.length) {
    lines.push('most common unsupported op types: ' +
      report.unsupportedOps.slice(0, topOps).map((u) => `${u.op} ${u.count}`).join(', '));
  }
  if (report.unsupportedReasons?.length) {
    lines.push('most common unsupported reasons:',
      ...report.unsupportedReasons.slice(0, 12).map((u) => `  ${u.count}  ${u.reason}`));
  }
  return lines.join('\n');
}

async function main(argv) {
  const opts = { data: DEFAULT_DATA, jobs: 2, timeoutMs: 20000, out: path.join(ROOT, 'build/conformance') };
  let quiet = false;
  const usage = (msg) => {
    if (msg) process.stderr.write(`run.mjs: ${msg}\n`);
    process.stderr.write('usage: node tests/conformance/run.mjs [--data DIR] [--jobs N] [--timeout SECONDS] ' +
      '[--out DIR] [--filter REGEX] [--wasi WNN-WASI.WASM] [--quiet]\n');
    process.exit(2);
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
    if (a === '--data') opts.data = path.resolve(value());
    else if (a === '--jobs') opts.jobs = parseInt(value(), 10);
    else if (a === '--timeout') opts.timeoutMs = parseFloat(value()) * 1000;
    else if (a === '--out') opts.out = path.resolve(value());
    else if (a === '--filter') opts.filter = new RegExp(value());
    else if (a === '--quiet') quiet = true;
    else if (a === '--wasi') opts.wasi = path.resolve(value());
    else if (a === '--help' || a === '-h') usage();
    else usage(`unknown argument ${a}`);
  }
  if (!(opts.jobs >= 1) || !(opts.timeoutMs > 0)) usage('--jobs and --timeout must be positive');
  if (!fs.existsSync(opts.data)) {
    process.stderr.write(`run.mjs: no test data at ${opts.data} (apt-get install libonnx-testdata)\n`);
    process.exit(1);
  }
  let report;
  try {
    report = await runConformance({
      ...opts,
      onCase: quiet ? null : (c, done, total) => {
        const why = c.status === 'pass' ? '' : `  ${c.reason}`;
        process.stdout.write(`[${done}/${total}] ${statusText(c).padEnd(11)} ${c.name}${why}\n`);
      },
    });
  } catch (e) {
    process.stderr.write(`run.mjs: ${e.message}\n`);
    process.exit(1);
  }
  writeReports(report, opts.out);
  process.stdout.write(`${summaryText(report)}\nreports: ${path.relative(process.cwd(), path.join(opts.out, 'report.md'))}, report.json\n`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2));
}
