// Torchvision exports end to end. tests/torch/export.py (Debian's python3-torch
// and python3-torchvision, torch.onnx.export at opset 17, batch 1, random
// weights from a fixed seed, real photographs as inputs) writes mobilenet_v2,
// resnet18, efficientnet_b0, squeezenet1_1 and a small nn.TransformerEncoder
// into build/torchvision/NAME/ (model.onnx, test_data_set_0/input_0.pb, and
// output_0.pb = torch's own output on that input); it skips the models that
// are up to date. For each model this test then:
//   - converts model.onnx with `wnn convert` (natively); a model that does not
//     convert FAILS with the converter's message;
//   - runs the artifact with `wnn run`, natively (build dir's wnn) and under
//     WASI (dist/wnn-wasi.wasm under wasm/run-wasi.mjs), and compares the
//     output with torch's (output_0.pb);
//   - runs model.onnx with onnxruntime-node (1 thread) on the same input and
//     compares its output with torch's (the reference is sound) and wnn's
//     native output with it (wnn agrees with ORT as well).
// Every comparison: the same shape, then numpy allclose with rtol 1e-3,
// atol 1e-5 (|got - want| <= atol + rtol * |want| for every element). Max
// abs/rel errors are printed as test diagnostics.
//
// Skips, saying why, when /usr/bin/python3 cannot import torch, torchvision,
// onnx and skimage (scripts/setup.sh installs them), when the native CLI or its
// `convert` is missing, or (for its half) when dist/wnn-wasi.wasm is missing.
//
// Environment: WNN_PYTHON (default /usr/bin/python3), WNN_TORCHVISION_DIR
// (default build/torchvision), WNN_NATIVE_BUILD_DIR (default build/native),
// WNN_WASI_CLI (default dist/wnn-wasi.wasm).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ROOT, exec, nativeCli, wasiCli, hasConvert, convertCase, readOnnxModel, readTensorProto, readNpy,
  compareTensors, runCase, fmt,
} from '../conformance/lib.mjs';

const RTOL = 1e-3;
const ATOL = 1e-5;
// Per command: a hang guard, not a timing assertion. The export of all five
// models takes well under a minute on an idle 2-core machine.
const EXPORT_TIMEOUT_MS = 10 * 60 * 1000;
const TIMEOUT_MS = 240000;

const PYTHON = process.env.WNN_PYTHON || '/usr/bin/python3';
const EXPORT = path.join(ROOT, 'tests/torch/export.py');
const OUTDIR = path.resolve(ROOT, process.env.WNN_TORCHVISION_DIR || 'build/torchvision');
const native = nativeCli(path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native'));
const wasi = wasiCli(path.resolve(ROOT, process.env.WNN_WASI_CLI || 'dist/wnn-wasi.wasm'), [OUTDIR]);

// Whether the Python side can run: the modules export.py imports.
function pythonProblem() {
  if (!fs.existsSync(PYTHON)) return `${PYTHON} is missing (Debian's python3; scripts/setup.sh installs it)`;
  const r = spawnSync(PYTHON, ['-c', 'import torch, torchvision, onnx, skimage'], { encoding: 'utf8', timeout: 120000 });
  if (r.status !== 0) {
    const why = (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').pop();
    return `${PYTHON} cannot import torch, torchvision, onnx and skimage (${why}); ` +
      'scripts/setup.sh installs python3-torch, python3-torchvision, python3-onnx and python3-skimage';
  }
  return null;
}

// The model names, from export.py itself (its --list imports nothing heavy).
const listed = fs.existsSync(PYTHON) ? spawnSync(PYTHON, [EXPORT, '--list'], { encoding: 'utf8', timeout: 60000 }) : null;
const MODELS = listed?.status === 0 ? listed.stdout.split('\n').filter(Boolean).map((l) => l.split('\t')[0]) : [];

let skipReason = null;
let exportResult = null; // {status, stdout, stderr} of export.py
let tmp = null;
const converted = new Map(); // name -> Promise of convertCase's result (+ artifact, workDir)
const runs = new Map(); // `${name}/${target}` -> Promise of runCase's result

before(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-torchvision-test-')));
  skipReason = pythonProblem();
  if (skipReason) return;
  if (!native.available()) {
    skipReason = `${path.relative(ROOT, native.bin)} is not built (cmake --preset native && cmake --build build/native)`;
    return;
  }
  if (!(await hasConvert(native))) {
    skipReason = `${path.relative(ROOT, native.bin)} cannot convert ONNX (no importer linked: 'wnn convert' is missing or a usage error)`;
    return;
  }
  exportResult = await exec(PYTHON, [EXPORT, OUTDIR], { cwd: ROOT, timeoutMs: EXPORT_TIMEOUT_MS });
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// Fails (with export.py's own lines) when the export of this model did not happen.
function requireExported(name) {
  assert.ok(exportResult, 'export.py did not run');
  const line = exportResult.stdout.split('\n').find((l) => l.startsWith(`${name}: `));
  assert.ok(line && !/FAILED/.test(line) && fs.existsSync(path.join(OUTDIR, name, 'model.onnx')),
    `export.py did not export ${name} (exit ${exportResult.status}${exportResult.timedOut ? ', timed out' : ''}):\n` +
    `${line ?? exportResult.stdout}\n${exportResult.stderr.trim().split('\n').slice(-15).join('\n')}`);
}

function convertOnce(name) {
  if (!converted.has(name)) {
    const caseDir = path.join(OUTDIR, name);
    const workDir = path.join(tmp, name);
    fs.mkdirSync(workDir, { recursive: true });
    const artifact = path.join(workDir, 'model.wnn');
    converted.set(name, convertCase(native, caseDir, artifact, { timeoutMs: TIMEOUT_MS })
      .then((c) => ({ ...c, caseDir, workDir, artifact })));
  }
  return converted.get(name);
}

// wnn's output on test_data_set_0 compared with output_0.pb (torch's), for one
// target; wnn's outputs land in workDir/out-<target>/output_<i>.npy.
function runOnce(name, target) {
  const key = `${name}/${target}`;
  if (!runs.has(key)) {
    runs.set(key, convertOnce(name).then((c) => {
      if (c.status !== 'ok') return { status: 'error', reason: `not converted: ${c.reason}`, outputs: [] };
      return runCase({
        caseDir: c.caseDir, native, cli: target === 'native' ? native : wasi, workDir: c.workDir,
        rtol: RTOL, atol: ATOL, timeoutMs: TIMEOUT_MS, artifact: c.artifact,
      });
    }));
  }
  return runs.get(key);
}

function reportOutputs(t, label, outputs) {
  for (const o of outputs) {
    t.diagnostic(`${label} output '${o.name}': max abs error ${fmt(o.maxAbs)}, max rel error ${fmt(o.maxRel)}` +
      `${o.ok ? '' : ` (outside tolerance: ${o.why})`}`);
  }
}

let ort = null;
function onnxruntimeNode() {
  if (!ort) ort = createRequire(import.meta.url)('onnxruntime-node');
  return ort;
}

test('export.py lists the five models of issues 3 and 4', (t) => {
  if (!fs.existsSync(PYTHON)) return t.skip(`${PYTHON} is missing`);
  assert.equal(listed.status, 0, `export.py --list: exit ${listed.status}: ${listed.stderr}`);
  for (const n of ['mobilenet_v2', 'resnet18', 'efficientnet_b0', 'squeezenet1_1', 'transformer_encoder']) {
    assert.ok(MODELS.includes(n), `export.py --list does not list ${n}: ${MODELS.join(', ')}`);
  }
});

test('export.py exports every model, then finds them up to date', async (t) => {
  if (skipReason) return t.skip(skipReason);
  assert.equal(exportResult.status, 0,
    `export.py ${path.relative(ROOT, OUTDIR)}: exit ${exportResult.status}${exportResult.timedOut ? ' (timed out)' : ''}\n` +
    `${exportResult.stdout}\n${exportResult.stderr.trim().split('\n').slice(-20).join('\n')}`);
  for (const l of exportResult.stdout.trim().split('\n')) t.diagnostic(l);
  for (const name of MODELS) {
    for (const f of ['model.onnx', 'test_data_set_0/input_0.pb', 'test_data_set_0/output_0.pb', 'export.json']) {
      assert.ok(fs.existsSync(path.join(OUTDIR, name, f)), `export.py did not write ${name}/${f}`);
    }
  }
  // A second run must not export again: every model is up to date.
  const again = await exec(PYTHON, [EXPORT, OUTDIR], { cwd: ROOT, timeoutMs: EXPORT_TIMEOUT_MS });
  assert.equal(again.status, 0, `second export.py run: exit ${again.status}: ${again.stderr}`);
  const lines = again.stdout.trim().split('\n');
  assert.deepEqual(lines.map((l) => l.split(':')[0]), MODELS, `one line per model expected:\n${again.stdout}`);
  for (const l of lines) assert.match(l, /: up to date /, `the second run exported again: ${l}`);
});

for (const name of MODELS) {
  test(`${name}: wnn convert`, async (t) => {
    if (skipReason) return t.skip(skipReason);
    requireExported(name);
    const c = await convertOnce(name);
    assert.equal(c.status, 'ok', `wnn convert ${path.relative(ROOT, c.caseDir)}/model.onnx: ${c.status}: ${c.reason}`);
    t.diagnostic(`${name}: converted in ${c.ms} ms, ${fs.statSync(c.artifact).size} bytes`);
  });

  for (const target of ['native', 'wasi']) {
    test(`${name} (${target}): wnn run matches torch's output`, async (t) => {
      if (skipReason) return t.skip(skipReason);
      const cli = target === 'native' ? native : wasi;
      if (!cli.available()) {
        return t.skip(`${path.relative(ROOT, cli.bin)} is not built (cmake --preset wasi && cmake --build build/wasi)`);
      }
      requireExported(name);
      const r = await runOnce(name, target);
      t.diagnostic(`${name} (${target}): run ${r.runMs ?? '-'} ms`);
      reportOutputs(t, `${name} (${target}) vs torch`, r.outputs);
      assert.equal(r.status, 'pass', `${name} (${target}): ${r.status}: ${r.reason}`);
    });
  }

  test(`${name}: onnxruntime-node matches torch, and wnn matches onnxruntime-node`, async (t) => {
    if (skipReason) return t.skip(skipReason);
    requireExported(name);
    let rt;
    try {
      rt = onnxruntimeNode();
    } catch (e) {
      return t.skip(`onnxruntime-node cannot be loaded (ONNXRUNTIME_NODE_INSTALL=skip npm install): ${e.message.split('\n')[0]}`);
    }
    const caseDir = path.join(OUTDIR, name);
    const model = readOnnxModel(path.join(caseDir, 'model.onnx'));
    const session = await rt.InferenceSession.create(path.join(caseDir, 'model.onnx'), {
      executionProviders: ['cpu'], intraOpNumThreads: 1, interOpNumThreads: 1, graphOptimizationLevel: 'all',
    });
    const feeds = {};
    model.inputs.forEach((v, i) => {
      const x = readTensorProto(path.join(caseDir, 'test_data_set_0', `input_${i}.pb`));
      feeds[v.name] = new rt.Tensor(x.dtype, x.data, x.dims);
    });
    const got = await session.run(feeds);
    await session.release();

    const r = await runOnce(name, 'native');
    assert.equal(r.status, 'pass', `wnn (native) did not run ${name} to torch's output: ${r.status}: ${r.reason}`);
    const problems = [];
    model.outputs.forEach((v, i) => {
      const o = got[v.name];
      const ortOut = { dtype: o.type, dims: o.dims.map(Number), data: o.data };
      const torchOut = readTensorProto(path.join(caseDir, 'test_data_set_0', `output_${i}.pb`));
      const wnnOut = readNpy(path.join(tmp, name, 'out-native', `output_${i}.npy`));
      const a = compareTensors(ortOut, torchOut, RTOL, ATOL);
      const b = compareTensors(wnnOut, ortOut, RTOL, ATOL);
      t.diagnostic(`${name} '${v.name}': ORT vs torch max abs ${fmt(a.maxAbs)}, max rel ${fmt(a.maxRel)}; ` +
        `wnn vs ORT max abs ${fmt(b.maxAbs)}, max rel ${fmt(b.maxRel)}`);
      if (!a.ok) problems.push(`onnxruntime-node vs torch, output '${v.name}': ${a.why}`);
      if (!b.ok) problems.push(`wnn (native) vs onnxruntime-node, output '${v.name}': ${b.why}`);
    });
    assert.deepEqual(problems, [], problems.join('\n'));
  });
}

