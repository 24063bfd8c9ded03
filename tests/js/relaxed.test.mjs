// dist/wnn-relaxed.wasm (docs/build.md, "The relaxed SIMD module"): the
// runtime of dist/wnn.wasm with relaxed SIMD's multiply-add in the GEMM
// kernels, which load() prefers where the engine has relaxed SIMD.
//   - The module: the imports and exports of dist/wnn.wasm, and it validates
//     exactly where relaxed SIMD does (a Node without the flag refuses it).
//   - Which module load() picks: in Node 20 without the flag dist/wnn.wasm
//     (model.isa 'simd128'); with --experimental-wasm-relaxed-simd, in Deno
//     and in headless Chromium dist/wnn-relaxed.wasm ('relaxed-simd'), and
//     with threads dist/wnn-mt-relaxed.wasm, whose bits at 2 threads are
//     dist/wnn-relaxed.wasm's.
//   - Its results: on the fixtures and on the torchvision exports
//     (tests/torch/export.py: mobilenet_v2's 1x1 convolutions,
//     resnet18's 3x3 ones, the transformer encoder's MatMuls), within the
//     documented tolerance of the reference (rtol 1e-3, atol 1e-5, as
//     tests/js/torchvision.test.mjs holds dist/wnn.wasm to) and of
//     dist/wnn.wasm's outputs; and, on a CPU with FMA, not the same bits as
//     dist/wnn.wasm on every model (the fused multiply-add is really used).
// Skips say why: no python3 with torch for the exports, no deno, no Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatNpy } from '../../js/io.js';
import { readTensorProto, exec } from '../conformance/lib.mjs';
import { newChromiumPage } from './chromium.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rel = (...p) => path.join(ROOT, ...p);
const RTOL = 1e-3;
const ATOL = 1e-5;
const PYTHON = process.env.WNN_PYTHON || '/usr/bin/python3';
const TORCH_DIR = path.resolve(ROOT, process.env.WNN_TORCHVISION_DIR || 'build/torchvision');
const TORCH_MODELS = ['mobilenet_v2', 'resnet18', 'transformer_encoder'];
const FIXTURES = rel('build/fixtures');
const CHILD = rel('tests/js/relaxed-child.mjs');
const FMA = /\bfma\b/.test(fs.existsSync('/proc/cpuinfo') ? fs.readFileSync('/proc/cpuinfo', 'utf8') : '');

let tmp;
let fixtureCases = []; // [{name, model, inputs, outputs}] for relaxed-child.mjs
let torchCases = [];
let torchSkip = null;

function fixtures() {
  if (!fs.existsSync(FIXTURES)) return [];
  return fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.wnn')).sort().map((f) => {
    const name = f.slice(0, -4);
    const list = (kind) => fs.readdirSync(FIXTURES).filter((g) => g.startsWith(`${name}.${kind}_`) && g.endsWith('.npy')).sort()
      .map((g) => path.join(FIXTURES, g));
    return { name, model: path.join(FIXTURES, f), inputs: list('input'), outputs: list('output') };
  });
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-relaxed-test-'));
  fixtureCases = fixtures();
  // The torchvision exports (skipped when up to date), their .pb tensors as .npy.
  if (!fs.existsSync(PYTHON)) {
    torchSkip = `${PYTHON} is missing`;
    return;
  }
  const r = await exec(PYTHON, [rel('tests/torch/export.py'), TORCH_DIR, '--models', TORCH_MODELS.join(',')], { cwd: ROOT, timeoutMs: 10 * 60 * 1000 });
  for (const name of TORCH_MODELS) {
    const dir = path.join(TORCH_DIR, name);
    const data = path.join(dir, 'test_data_set_0');
    if (!fs.existsSync(path.join(dir, 'model.onnx')) || !fs.existsSync(data)) {
      torchSkip = `tests/torch/export.py did not export ${name} (exit ${r.status}): ${(r.stderr || '').trim().split('\n').pop()}`;
      torchCases = [];
      return;
    }
    const npy = (kind) => fs.readdirSync(data).filter((f) => f.startsWith(`${kind}_`)).sort().map((f) => {
      const t = readTensorProto(path.join(data, f));
      const file = path.join(tmp, `${name}.${f.replace(/\.pb$/, '.npy')}`);
      fs.writeFileSync(file, formatNpy({ dtype: t.dtype, shape: t.dims, data: t.data }));
      return file;
    });
    torchCases.push({ name, model: path.join(dir, 'model.onnx'), inputs: npy('input'), outputs: npy('output') });
  }
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// relaxed-child.mjs under `command args`, on `cases`; its JSON report.
function child(command, args, cases) {
  const list = path.join(tmp, `cases-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(list, JSON.stringify(cases));
  const r = spawnSync(command, [...args, CHILD, list], { cwd: ROOT, encoding: 'utf8', timeout: 10 * 60 * 1000, maxBuffer: 1 << 28 });
  assert.equal(r.status, 0, `${command} ${args.join(' ')} relaxed-child.mjs: exit ${r.status}\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const npyData = (file) => {
  // Float32 .npy written by make_fixtures or above: read through js/io.js in the child; here by hand.
  return import('../../js/io.js').then(({ parseNpy }) => parseNpy(new Uint8Array(fs.readFileSync(file))).data);
};

// Largest |got - want| beyond atol + rtol |want|, as a ratio (<= 1 passes),
// and the largest absolute difference.
function closeness(got, want) {
  assert.equal(got.length, want.length, 'output length');
  let worst = 0;
  let maxAbs = 0;
  let same = true;
  for (let i = 0; i < want.length; i++) {
    const g = Number(got[i]);
    const w = Number(want[i]);
    if (Object.is(g, w)) continue;
    same = false;
    const d = Math.abs(g - w);
    maxAbs = Math.max(maxAbs, d);
    worst = Math.max(worst, d / (ATOL + RTOL * Math.abs(w)));
  }
  return { worst, maxAbs, same };
}

// Checks a child's report: the isa of each load, and every output within the
// tolerance of the reference and of dist/wnn.wasm's. Returns whether every
// output of the default module had dist/wnn.wasm's bits.
async function checkReport(t, report, cases, isa) {
  let allSame = true;
  for (const [k, c] of cases.entries()) {
    const got = report.cases[k];
    assert.equal(got.name, c.name);
    assert.equal(got.default.isa, isa, `${c.name}: default module`);
    assert.equal(got.plain.isa, 'simd128', `${c.name}: dist/wnn.wasm`);
    for (const [i, file] of c.outputs.entries()) {
      const want = await npyData(file);
      const ref = closeness(got.default.outputs[i], want);
      const plain = closeness(got.default.outputs[i], got.plain.outputs[i]);
      t.diagnostic(`${c.name} output ${i}: vs reference max |d| ${ref.maxAbs.toExponential(2)}; vs dist/wnn.wasm max |d| ${plain.maxAbs.toExponential(2)}${plain.same ? ' (same bits)' : ''}`);
      assert.ok(ref.worst <= 1, `${c.name} output ${i}: ${isa} module off the reference by ${ref.worst.toFixed(2)}x the tolerance`);
      assert.ok(plain.worst <= 1, `${c.name} output ${i}: ${isa} module off dist/wnn.wasm by ${plain.worst.toFixed(2)}x the tolerance`);
      allSame &&= plain.same;
    }
  }
  return allSame;
}

test('dist/wnn-relaxed.wasm: the imports and exports of dist/wnn.wasm; valid only where relaxed SIMD is', async () => {
  const file = rel('dist/wnn-relaxed.wasm');
  assert.ok(fs.existsSync(file), 'dist/wnn-relaxed.wasm missing: run npm run build (the web-relaxed preset)');
  const bytes = fs.readFileSync(file);
  const plain = await WebAssembly.compile(fs.readFileSync(rel('dist/wnn.wasm')));
  const names = (list) => list.map((e) => `${e.module ?? ''}.${e.name}:${e.kind}`).sort();
  // Node 20 compiles relaxed SIMD only with the flag: one child of each kind.
  const probe = `const b = require('fs').readFileSync(${JSON.stringify(file)});
    const ok = WebAssembly.validate(b);
    const m = ok ? new WebAssembly.Module(b) : null;
    console.log(JSON.stringify({ ok, imports: m && WebAssembly.Module.imports(m), exports: m && WebAssembly.Module.exports(m) }));`;
  const without = spawnSync(process.execPath, ['--no-experimental-wasm-relaxed-simd', '-e', probe], { encoding: 'utf8' });
  assert.equal(without.status, 0, without.stderr);
  assert.equal(JSON.parse(without.stdout).ok, false, 'dist/wnn-relaxed.wasm validates without relaxed SIMD: it has no relaxed instructions');
  const withFlag = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', '-e', probe], { encoding: 'utf8' });
  assert.equal(withFlag.status, 0, withFlag.stderr);
  const r = JSON.parse(withFlag.stdout);
  assert.equal(r.ok, true, 'dist/wnn-relaxed.wasm does not validate with relaxed SIMD on');
  assert.deepEqual(names(r.imports), names(WebAssembly.Module.imports(plain)));
  assert.deepEqual(names(r.exports), names(WebAssembly.Module.exports(plain)));
  assert.ok(bytes.length > 0);
});

test('Node 20 without relaxed SIMD: load() runs dist/wnn.wasm', (t) => {
  if (!fixtureCases.length) return t.skip('no build/fixtures/*.wnn (build/native/make_fixtures build/fixtures)');
  const r = child(process.execPath, ['--no-experimental-wasm-relaxed-simd'], fixtureCases.slice(0, 1));
  assert.equal(r.relaxed, false);
  assert.equal(r.simd, true);
  assert.equal(r.cases[0].default.isa, 'simd128');
});

test('Node with --experimental-wasm-relaxed-simd: load() runs dist/wnn-relaxed.wasm, within tolerance of the references and of dist/wnn.wasm', async (t) => {
  const cases = [...fixtureCases, ...torchCases];
  if (!cases.length) return t.skip('no build/fixtures and no torchvision exports');
  const r = child(process.execPath, ['--experimental-wasm-relaxed-simd'], cases);
  assert.equal(r.relaxed, true);
  const allSame = await checkReport(t, r, cases, 'relaxed-simd');
  if (torchSkip) t.diagnostic(`torchvision models left out: ${torchSkip}`);
  if (FMA && torchCases.length) assert.ok(!allSame, 'on a CPU with FMA, dist/wnn-relaxed.wasm gave dist/wnn.wasm\'s bits on every model: its multiply-adds are not fused');
});

test('Node with relaxed SIMD, 2 threads: dist/wnn-mt-relaxed.wasm, the bits of dist/wnn-relaxed.wasm', (t) => {
  const c = torchCases.find((x) => x.name === 'mobilenet_v2');
  if (!c) return t.skip(`no mobilenet_v2 export: ${torchSkip}`);
  if (!fs.existsSync(rel('dist/wnn-mt-relaxed.wasm'))) assert.fail('dist/wnn-mt-relaxed.wasm missing: run npm run build (the web-mt-relaxed preset)');
  const code = `
    const wnn = await import(${JSON.stringify(new URL('../../js/wnn.js', import.meta.url).href)});
    const { parseNpy } = await import(${JSON.stringify(new URL('../../js/io.js', import.meta.url).href)});
    const fs = await import('node:fs');
    const bytes = fs.readFileSync(${JSON.stringify(c.model)});
    const x = parseNpy(new Uint8Array(fs.readFileSync(${JSON.stringify(c.inputs[0])}))).data;
    const out = [];
    for (const threads of [1, 2]) {
      const m = await wnn.load(bytes, { threads });
      const r = await m.predict({ [m.inputs[0].name]: x });
      out.push({ threads: m.threads, isa: m.isa, data: Array.from(Object.values(r)[0].data) });
    }
    console.log(JSON.stringify(out));
    process.exit(0);`;
  // A file, not -e: worker threads do not start from an eval'd script.
  const script = path.join(tmp, 'mt.mjs');
  fs.writeFileSync(script, code);
  const r = spawnSync(process.execPath, ['--experimental-wasm-relaxed-simd', script], { encoding: 'utf8', maxBuffer: 1 << 26, timeout: 300_000 });
  assert.equal(r.status, 0, r.stderr);
  const [one, two] = JSON.parse(r.stdout.trim().split('\n').pop());
  assert.deepEqual([one.threads, one.isa, two.threads, two.isa], [1, 'relaxed-simd', 2, 'relaxed-simd']);
  assert.ok(one.data.every((v, i) => Object.is(v, two.data[i])), 'dist/wnn-mt-relaxed.wasm at 2 threads differs from dist/wnn-relaxed.wasm');
});

test('Deno: load() runs dist/wnn-relaxed.wasm there', async (t) => {
  const deno = rel('node_modules/.bin/deno');
  if (!fs.existsSync(deno)) return t.skip('no node_modules/.bin/deno (npm install)');
  const cases = [...fixtureCases, ...torchCases.filter((c) => c.name === 'mobilenet_v2')];
  if (!cases.length) return t.skip('no build/fixtures and no torchvision exports');
  const r = child(deno, ['run', '--quiet', '--allow-read', '--allow-env'], cases);
  assert.equal(r.relaxed, true, 'Deno reports no relaxed SIMD');
  await checkReport(t, r, cases, 'relaxed-simd');
});

test('Chromium: a page loads dist/wnn-relaxed.wasm by default and gets the fixtures\' outputs', async (t) => {
  if (!fixtureCases.length) return t.skip('no build/fixtures/*.wnn');
  const opened = await newChromiumPage(t);
  if (opened.skip) return t.skip(opened.skip);
  const { page, problems, requested } = opened;
  // One origin: an empty page and the fixtures, served as /build/examples/.
  const dir = path.join(tmp, 'page');
  fs.mkdirSync(dir);
  for (const f of fs.readdirSync(FIXTURES)) {
    if (/\.(wnn|npy)$/.test(f)) fs.copyFileSync(path.join(FIXTURES, f), path.join(dir, f));
  }
  fs.writeFileSync(path.join(dir, 'blank.html'), '<!doctype html><link rel="icon" href="data:,"><title>wnn relaxed</title>\n');
  const { startServer } = await import('../../examples/browser/serve.mjs');
  const server = await startServer(0, '127.0.0.1', { data: dir });
  t.after(() => server.close());
  await page.goto(`http://127.0.0.1:${server.address().port}/build/examples/blank.html`);
  const base = '/build/examples/';
  const list = fixtureCases.map((c) => ({ name: c.name, inputs: c.inputs.map((f) => path.basename(f)) }));
  const r = await page.evaluate(async ({ base, list }) => {
    const wnn = await import('/js/wnn.js');
    const { parseNpy } = await import('/js/io.js');
    const out = [];
    for (const c of list) {
      const model = await wnn.load(`${base}${c.name}.wnn`, { threads: 1 });
      const feeds = {};
      for (const [i, info] of model.inputs.entries()) {
        feeds[info.name] = parseNpy(new Uint8Array(await (await fetch(`${base}${c.inputs[i]}`)).arrayBuffer())).data;
      }
      const res = await model.predict(feeds);
      out.push({ isa: model.isa, outputs: model.outputs.map((o) => Array.from(res[o.name].data)) });
      model.dispose();
    }
    return { relaxed: wnn.relaxedSimdSupported(), out };
  }, { base, list });
  assert.deepEqual(problems, []);
  assert.equal(r.relaxed, true, 'this Chromium reports no relaxed SIMD');
  assert.ok(requested.includes('/dist/wnn-relaxed.wasm'), `the page fetched ${requested.filter((p) => p.startsWith('/dist/')).join(', ')}`);
  for (const [k, c] of fixtureCases.entries()) {
    assert.equal(r.out[k].isa, 'relaxed-simd', c.name);
    for (const [i, file] of c.outputs.entries()) {
      const { worst } = closeness(r.out[k].outputs[i], await npyData(file));
      assert.ok(worst <= 1, `${c.name} output ${i}: off the expected output by ${worst.toFixed(2)}x the tolerance`);
    }
  }
});
