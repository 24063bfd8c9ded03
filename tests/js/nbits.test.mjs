// MatMulNBits (com.microsoft weight-only block quantization, the format web
// LLM exports ship): the models of tests/quant/nbits.py (4-, 8- and 2-bit,
// with and without zero points and bias, 3-D and 2-D activations, one token
// and several, K ending inside a block), converted by the native CLI and by
// dist/wnn-convert.wasm under WASI (the same bytes), run through the JS
// package (dist/wnn.wasm, SIMD128; and dist/wnn-scalar.wasm) and compared
// with onnxruntime-node on the same ONNX file and the same random input.
// Both compute in float32 (wnn dequantizes each panel of B and runs its
// float GEMM; onnxruntime's CPU kernel at accuracy_level 0 likewise), summing
// in different orders: they agree within RTOL/ATOL, not bitwise.
//
// Skips (saying why) when /usr/bin/python3 with onnx and numpy, the native
// CLI with the importer, or onnxruntime-node is missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as wnn from '../../js/wnn.js';
import { ROOT, exec, nativeCli, wasiCli, hasConvert } from '../conformance/lib.mjs';

const RTOL = 1e-4;
const ATOL = 1e-5;
const PYTHON = process.env.WNN_PYTHON || '/usr/bin/python3';
const native = nativeCli(path.resolve(ROOT, process.env.WNN_NATIVE_BUILD_DIR || 'build/native'));
const MODELS = ['nbits_mlp_q4', 'nbits_q8_ragged', 'nbits_decode_q4', 'nbits_q2'];

let tmp = null;
let skipReason = null;
let ort = null;

before(async () => {
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-nbits-test-')));
  if (!fs.existsSync(PYTHON)) return void (skipReason = `${PYTHON} is missing`);
  if (!(await hasConvert(native))) return void (skipReason = `${path.relative(ROOT, native.bin)} is not built with the importer`);
  try {
    ort = createRequire(import.meta.url)('onnxruntime-node');
  } catch (e) {
    return void (skipReason = `onnxruntime-node cannot be loaded: ${e.message.split('\n')[0]}`);
  }
  const r = await exec(PYTHON, [path.join(ROOT, 'tests/quant/nbits.py'), tmp], { cwd: ROOT, timeoutMs: 120000 });
  if (r.status !== 0) throw new Error(`tests/quant/nbits.py failed:\n${r.stdout}\n${r.stderr}`);
});

after(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

// Deterministic input values in [-1, 1).
function input(n, seed) {
  const x = new Float32Array(n);
  let s = seed >>> 0;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    x[i] = (s >>> 8) / 8388608 - 1;
  }
  return x;
}

for (const [mi, name] of MODELS.entries()) {
  test(`MatMulNBits ${name}: native and WASI convert the same bytes; wnn matches onnxruntime-node`, async (t) => {
    if (skipReason) return t.skip(skipReason);
    const onnxFile = path.join(tmp, `${name}.onnx`);
    const out = path.join(tmp, `${name}.wnn`);
    const c = await native.exec(['convert', onnxFile, '-o', out], { timeoutMs: 60000 });
    assert.equal(c.status, 0, `wnn convert: ${c.stderr}`);
    const wasiConvert = wasiCli(path.join(ROOT, 'dist/wnn-convert.wasm'), [tmp]);
    if (wasiConvert.available()) {
      const wout = path.join(tmp, `${name}.wasi.wnn`);
      const w = await wasiConvert.exec(['convert', onnxFile, '-o', wout], { timeoutMs: 120000 });
      assert.equal(w.status, 0, `dist/wnn-convert.wasm convert: ${w.stderr}`);
      assert.ok(fs.readFileSync(wout).equals(fs.readFileSync(out)), 'the same artifact natively and under WASI');
    }
    const bytes = fs.readFileSync(out);
    const session = await ort.InferenceSession.create(onnxFile, { intraOpNumThreads: 1, interOpNumThreads: 1 });
    for (const wasm of ['dist/wnn.wasm', 'dist/wnn-scalar.wasm']) {
      const model = await wnn.load(bytes, { wasm: path.join(ROOT, wasm) });
      try {
        const info = model.inputs[0];
        const x = input(info.shape.reduce((a, b) => a * b, 1), 7 + mi);
        const want = (await session.run({ x: new ort.Tensor('float32', x, info.shape) })).y;
        const got = (await model.predict({ x: { data: x, shape: info.shape } })).y;
        assert.deepEqual(got.shape, [...want.dims], `${wasm}: output shape`);
        let worst = 0;
        for (let i = 0; i < want.data.length; i++) {
          const err = Math.abs(got.data[i] - want.data[i]);
          assert.ok(err <= ATOL + RTOL * Math.abs(want.data[i]),
            `${wasm}: y[${i}] = ${got.data[i]}, onnxruntime-node ${want.data[i]}`);
          worst = Math.max(worst, err);
        }
        t.diagnostic(`${wasm}: ${want.data.length} outputs, largest difference ${worst.toExponential(2)}`);
      } finally {
        model.dispose();
      }
    }
  });
}
