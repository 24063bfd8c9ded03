// Debug executors (TVM's debug executor; docs/params.md section 4): every
// intermediate value of a run, read by its source name, against
// onnxruntime-node running the same ONNX model with every node output made
// a graph output (python3-onnx rewrites the model; the graph as written,
// no optimization). The native CLI writes them with `wnn run --dump DIR`;
// JS reads them with createExecutor({debug: true}) and getValue in
// dist/wnn-full.wasm. Fused and folded nodes keep the name of the last
// value they compute, so every name wnn keeps is one onnxruntime has.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import * as wnn from '../../js/wnn.js';
import { parseNpy, parseTensorProto } from '../../js/io.js';
import { createSession } from '../quant/ort.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NATIVE = path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native', 'wnn');
const MODELS = path.resolve(ROOT, process.env.WNN_MODELS_DIR || '../shared/models');
const FULL = new URL('../../dist/wnn-full.wasm', import.meta.url);
const PYTHON = '/usr/bin/python3';
const missing = (...files) => files.map((f) => (fs.existsSync(f) ? null : `${path.relative(ROOT, f)} is absent`)).find(Boolean) ?? null;

let tmp;
before(() => { tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-debug-test-'))); });
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// Every node output with a known type becomes a graph output.
const EXPOSE = `
import sys, onnx
from onnx import shape_inference
m = shape_inference.infer_shapes(onnx.load(sys.argv[1]))
known = {o.name for o in m.graph.output}
vi = {v.name: v for v in m.graph.value_info}
for n in m.graph.node:
    for o in n.output:
        if o and o not in known and o in vi:
            m.graph.output.append(vi[o]); known.add(o)
onnx.save(m, sys.argv[2])
`;

const maxAbs = (a) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
const maxDiff = (a, b) => a.reduce((m, x, i) => Math.max(m, Math.abs(x - b[i])), 0);

for (const [name, shape] of [['mnist', null], ['ppocr_en_PP-OCRv3_det_infer', 'x=1x3x640x640']]) {
  test(`${name}: every intermediate wnn keeps matches onnxruntime-node's (wnn run --dump, and getValue in JS)`, { timeout: 600000 }, async (t) => {
    const dir = path.join(MODELS, name);
    const skip = missing(NATIVE, path.join(dir, 'model.onnx'), FULL.pathname, path.join(ROOT, 'node_modules/onnxruntime-node'));
    if (skip) return t.skip(skip);
    if (spawnSync(PYTHON, ['-c', 'import onnx']).status !== 0) return t.skip('python3-onnx is not installed');
    const onnx = path.join(dir, 'model.onnx');
    const input = path.join(dir, 'test_data_set_0/input_0.pb');
    const all = path.join(tmp, `${name}.all.onnx`);
    const art = path.join(tmp, `${name}.wnn`);
    const dump = path.join(tmp, `${name}.dump`);
    let r = spawnSync(PYTHON, ['-c', EXPOSE, onnx, all], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    r = spawnSync(NATIVE, ['convert', onnx, '-o', art, ...(shape ? ['--shape', shape] : [])], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    fs.mkdirSync(dump);
    r = spawnSync(NATIVE, ['run', art, '--input', `0=${input}`, '--output-dir', tmp, '--dump', dump], { encoding: 'utf8', maxBuffer: 1 << 26 });
    assert.equal(r.status, 0, r.stderr);
    const listed = JSON.parse(fs.readFileSync(path.join(dump, 'values.json'), 'utf8'));

    // onnxruntime-node, every node output.
    const x = parseTensorProto(fs.readFileSync(input));
    const session = await createSession(all, 'node');
    const want = await session.run({ [session.inputNames[0]]: new session.ort.Tensor(x.dtype, x.data, x.shape) });

    const inputName = session.inputNames[0];
    const intermediates = listed.filter((v) => v.name !== inputName);
    let compared = 0;
    const worst = [];
    for (const v of intermediates) {
      const ref = want[v.name];
      if (!ref) continue;
      const got = parseNpy(fs.readFileSync(path.join(dump, v.file)));
      assert.equal(got.data.length, ref.data.length, `${v.name}: ${got.shape} against onnxruntime's ${ref.dims}`);
      const d = maxDiff(got.data, ref.data);
      const tol = 1e-4 * Math.max(1, maxAbs(ref.data));
      worst.push([d / Math.max(1, maxAbs(ref.data)), v.name]);
      assert.ok(d <= tol, `${v.name}: max |wnn - onnxruntime| = ${d} > ${tol}`);
      compared++;
    }
    worst.sort((a, b) => b[0] - a[0]);
    t.diagnostic(`${name}: ${intermediates.length} values dumped, ${compared} compared with onnxruntime-node (of its ${Object.keys(want).length} outputs); worst relative difference ${worst[0]?.[0].toExponential(2)} (${worst[0]?.[1]})`);
    assert.ok(compared >= Math.max(5, 0.8 * intermediates.length), `only ${compared} of ${intermediates.length} dumped values have an onnxruntime counterpart`);

    // JS: the debug executor of dist/wnn-full.wasm reads the same values.
    const model = await wnn.load(art, { wasm: FULL });
    const ex = model.createExecutor({ debug: true });
    assert.throws(() => ex.getValue(intermediates[0].name), (e) => e.code === 'WNN_ERR_INVALID_ARGUMENT' && /run the executor first/.test(e.message));
    ex.setInput(0, x.data, x.shape).run();
    const names = ex.values().map((v) => v.name);
    for (const v of intermediates) {
      assert.ok(names.includes(v.name), `values() lacks ${v.name}`);
      const ref = want[v.name];
      if (!ref) continue;
      const got = ex.getValue(v.name);
      const d = maxDiff(got.data, ref.data);
      assert.ok(d <= 1e-4 * Math.max(1, maxAbs(ref.data)), `JS ${v.name}: max |wnn - onnxruntime| = ${d}`);
    }
    // A normal executor refuses intermediates: its memory is reused.
    const plain = model.createExecutor();
    plain.setInput(0, x.data, x.shape).run();
    assert.throws(() => plain.getValue(intermediates[0].name), (e) => e.code === 'WNN_ERR_UNSUPPORTED' && /debug executor/.test(e.message));
    assert.throws(() => ex.getValue('no such value'), (e) => e.code === 'WNN_ERR_NOT_FOUND');
    model.dispose();
  });
}
