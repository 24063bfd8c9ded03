// The real models in ../shared/models end to end: for each folder (model.onnx
// and test_data_set_0/ in the ONNX backend-test layout), `wnn convert` it
// natively (with --shape NAME=DIMS, from the test data, for every input whose
// declared shape has symbolic or -1 dims), then `wnn run` test_data_set_0
// natively (build dir's wnn) and under WASI (converted again with
// dist/wnn-convert.wasm, which must give the native artifact's bytes, then run
// by dist/wnn-wasi.wasm under wasm/run-wasi.mjs), and compare every
// output with output_<i>.pb: numpy allclose, rtol 1e-3, atol 1e-5 (integer and
// bool outputs exactly). Max abs/rel errors per output are printed as test
// diagnostics.
//
// Graph inputs listed in FROZEN below would be frozen with `wnn convert
// --const NAME=FILE` from the model's own test_data_set_0, and then not fed at
// run time (the artifact has no such input). None is now: silero_vad_v6's
// `sr`, the sample rate that decides the condition of its If, is fed at run
// time, and the If's branches are compiled under guards (docs/importer.md).
//
// Each model's state (pass / fail / unsupported / error) must be exactly the
// one recorded in tests/models/expected.json: a regression fails, and so does
// an improvement, with a message saying to update the file. A model recorded
// as failing may also record how far it may be off, {"fail_within":
// {"elements": N, "max_abs": X}} (with "why"): then a run further off than
// that (more elements outside the tolerance in all, or a larger error
// anywhere) fails too, so that "fail" never hides a model gone wrong.
//
// Environment: WNN_NATIVE_BUILD_DIR (default build/native), WNN_WASI_CLI
// (default dist/wnn-wasi.wasm), WNN_WASI_CONVERT (default
// dist/wnn-convert.wasm), WNN_MODELS_DIR (default ../shared/models).
// Skips with the reason when the models, the CLI or its `convert` are missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  ROOT, nativeCli, wasiCli, hasConvert, convertCase, readOnnxModel, readTensorProto, runCase, fmt,
} from '../conformance/lib.mjs';

const RTOL = 1e-3;
const ATOL = 1e-5;
// Per command (convert, info or one run): generous, the slowest models run
// under WASI with scalar kernels. Not a timing assertion: a hang guard.
const TIMEOUT_MS = 240000;

const MODELS = path.resolve(ROOT, process.env.WNN_MODELS_DIR || '../shared/models');
const EXPECTED_FILE = path.join(ROOT, 'tests/models/expected.json');
const native = nativeCli(path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native'));
const wasi = wasiCli(path.resolve(ROOT, process.env.WNN_WASI_CLI || 'dist/wnn-wasi.wasm'), [MODELS]);
// The converter as a WASI command: the wasi target converts with it too.
const wasiConvert = wasiCli(path.resolve(ROOT, process.env.WNN_WASI_CONVERT || 'dist/wnn-convert.wasm'), [MODELS]);

const STATES = ['pass', 'fail', 'unsupported', 'error'];

// Graph inputs frozen at conversion (--const NAME=test_data_set_0/input_<i>.pb),
// for inputs that decide the graph's structure in a way wnn cannot compile.
const FROZEN = {
};

const modelNames = fs.existsSync(MODELS)
  ? fs.readdirSync(MODELS).filter((n) => fs.existsSync(path.join(MODELS, n, 'model.onnx'))).sort()
  : [];
const expected = JSON.parse(fs.readFileSync(EXPECTED_FILE, 'utf8'));

// The recorded state of a model for a target: a string for both targets, or
// {"native": STATE, "wasi": STATE}.
function expectedState(name, target) {
  const e = expected[name];
  return typeof e === 'string' ? e : e?.[target];
}

let tmp = null;
let skipReason = null;
const converted = new Map(); // model name -> Promise of convertCase's result

before(async () => {
  if (!fs.existsSync(MODELS)) {
    skipReason = `${MODELS} is absent: no real models to test`;
  } else if (!native.available()) {
    skipReason = `${path.relative(ROOT, native.bin)} is not built (cmake --preset native && cmake --build build/native)`;
  } else if (!(await hasConvert(native))) {
    skipReason = `${path.relative(ROOT, native.bin)} cannot convert ONNX yet (no importer linked: 'wnn convert' is missing or a usage error)`;
  }
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-models-test-')));
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

function convertOnce(name) {
  if (!converted.has(name)) {
    const caseDir = path.join(MODELS, name);
    const workDir = path.join(tmp, name);
    fs.mkdirSync(workDir, { recursive: true });
    const p = (async () => {
      const model = readOnnxModel(path.join(caseDir, 'model.onnx'));
      const inputs = model.inputs.map((_, i) => readTensorProto(path.join(caseDir, 'test_data_set_0', `input_${i}.pb`)));
      const artifact = path.join(workDir, 'model.wnn');
      const consts = {};
      for (const n of FROZEN[name] ?? []) {
        const i = model.inputs.findIndex((v) => v.name === n);
        if (i < 0) throw new Error(`${name}: FROZEN names '${n}', which is not a graph input of model.onnx`);
        consts[n] = path.join(caseDir, 'test_data_set_0', `input_${i}.pb`);
      }
      const c = await convertCase(native, caseDir, artifact, { timeoutMs: TIMEOUT_MS, model, inputs, consts });
      return { artifact, workDir, frozen: Object.keys(consts), ...c };
    })();
    converted.set(name, p);
  }
  return converted.get(name);
}

function updateHint(name, target, got) {
  const recorded = `tests/models/expected.json records ${JSON.stringify(expected[name] ?? null)} for ${name}`;
  const rank = (st) => ['error', 'unsupported', 'fail', 'pass'].indexOf(st);
  if (rank(got) > rank(expectedState(name, target))) {
    return `${recorded}; ${target} is now '${got}': an improvement, update tests/models/expected.json.`;
  }
  return `${recorded}; ${target} is now '${got}': a regression (if it is intended, update tests/models/expected.json).`;
}

test('tests/models/expected.json names every model folder, and only states it knows', (t) => {
  if (!fs.existsSync(MODELS)) return t.skip(`${MODELS} is absent`);
  for (const name of modelNames) {
    assert.ok(name in expected, `${name} (in ${MODELS}) has no entry in tests/models/expected.json`);
  }
  for (const [name, e] of Object.entries(expected)) {
    assert.ok(modelNames.includes(name), `tests/models/expected.json names ${name}, which is not in ${MODELS}`);
    for (const target of ['native', 'wasi']) {
      assert.ok(STATES.includes(expectedState(name, target)),
        `${name}: ${target} state ${JSON.stringify(e)} is not one of ${STATES.join(', ')}`);
    }
    if (e?.fail_within) {
      const w = e.fail_within;
      assert.ok(Number.isInteger(w.elements) && w.elements >= 0 && Number.isFinite(w.max_abs) && w.max_abs > 0,
        `${name}: fail_within needs an integer "elements" and a positive "max_abs"`);
      assert.ok(typeof e.why === 'string' && e.why.length > 0, `${name}: fail_within needs a "why"`);
      assert.ok(['native', 'wasi'].some((t) => expectedState(name, t) === 'fail'),
        `${name}: fail_within is for a model recorded as failing`);
    }
  }
});

for (const name of modelNames) {
  for (const target of ['native', 'wasi']) {
    test(`${name} (${target}) is in its recorded state`, async (t) => {
      if (skipReason) return t.skip(skipReason);
      const cli = target === 'native' ? native : wasi;
      if (!cli.available()) {
        return t.skip(`${path.relative(ROOT, cli.bin)} is not built (cmake --preset wasi && cmake --build build/wasi)`);
      }
      const want = expectedState(name, target);
      const c = await convertOnce(name);
      let r;
      if (c.status !== 'ok') {
        r = { status: c.status, reason: c.reason, outputs: [] };
      } else {
        t.diagnostic(`${name}: converted in ${c.ms} ms (${c.args.slice(4).join(' ') || 'no --shape'})`);
        if (c.frozen.length) {
          // A frozen input is a constant in the artifact, not an input to feed.
          const info = await native.exec(['info', '--json', c.artifact], { timeoutMs: TIMEOUT_MS });
          assert.equal(info.status, 0, `wnn info ${c.artifact}: ${info.stderr}`);
          const names = JSON.parse(info.stdout).inputs.map((v) => v.name);
          for (const n of c.frozen) {
            assert.ok(!names.includes(n), `${name}: input '${n}' was frozen with --const but the artifact still has it`);
          }
        }
        let artifact = c.artifact;
        if (target === 'wasi') {
          // Converted under WASI too (dist/wnn-convert.wasm, the same
          // arguments): the same converter gives the same bytes.
          assert.ok(wasiConvert.available(), `${path.relative(ROOT, wasiConvert.bin)} is not built (cmake --build build/wasi)`);
          artifact = path.join(c.workDir, 'model-wasi.wnn');
          const args = [...c.args];
          args[args.indexOf('-o') + 1] = artifact;
          const t0 = Date.now();
          const w = await wasiConvert.exec(args, { timeoutMs: TIMEOUT_MS });
          assert.equal(w.status, 0, `${name}: wnn-convert.wasm ${args.join(' ')}: exit ${w.status}\n${w.stderr}`);
          t.diagnostic(`${name}: converted under WASI in ${Date.now() - t0} ms`);
          assert.ok(fs.readFileSync(artifact).equals(fs.readFileSync(c.artifact)),
            `${name}: the artifact converted under WASI differs from the native one`);
        }
        r = await runCase({
          caseDir: path.join(MODELS, name), native, cli, workDir: c.workDir, rtol: RTOL, atol: ATOL,
          timeoutMs: TIMEOUT_MS, artifact,
        });
        t.diagnostic(`${name} (${target}): run ${r.runMs ?? '-'} ms`);
      }
      for (const o of r.outputs) {
        t.diagnostic(`${name} (${target}) output '${o.name}': max abs error ${fmt(o.maxAbs)}, ` +
          `max rel error ${fmt(o.maxRel)}${o.ok ? '' : ' (outside tolerance or unreadable)'}`);
      }
      if (r.status !== 'pass') t.diagnostic(`${name} (${target}): ${r.status}: ${r.reason}`);
      const within = expected[name]?.fail_within;
      if (r.status === 'fail' && want === 'fail' && within) {
        const bad = r.outputs.reduce((s, o) => s + (o.bad ?? Infinity), 0);
        const maxAbs = Math.max(...r.outputs.map((o) => (Number.isFinite(o.maxAbs) ? o.maxAbs : Infinity)));
        t.diagnostic(`${name} (${target}): ${bad} elements outside the tolerance (recorded bound ${within.elements}), ` +
          `max abs error ${fmt(maxAbs)} (bound ${fmt(within.max_abs)})`);
        assert.ok(bad <= within.elements && maxAbs <= within.max_abs,
          `${name} (${target}) fails by more than tests/models/expected.json allows: ${bad} elements ` +
          `(at most ${within.elements}), max abs error ${fmt(maxAbs)} (at most ${fmt(within.max_abs)}): ${r.reason}`);
      }
      // The artifacts of the light_* models are hundreds of MB: drop each
      // model's files once its last target has run.
      if (target === 'wasi') fs.rmSync(c.workDir, { recursive: true, force: true });
      assert.equal(r.status, want, `${name} (${target}): ${r.status}${r.reason ? `: ${r.reason}` : ''}\n` +
        updateHint(name, target, r.status));
    });
  }
}
