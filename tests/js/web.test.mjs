// dist/wnn.wasm, dist/wnn-full.wasm and dist/wnn-scalar.wasm, instantiated the way an integrator
// would without Emscripten's JS glue: exports, version, failure statuses on bad
// input, and (when build/fixtures exists) outputs of real artifacts against the
// expected .npy files written by build/native/make_fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const rel = (...p) => path.join(root, ...p);

const WNN_OK = 0;
const WNN_LOAD_BORROW = 1;
const KIND_INPUT = 0;
const KIND_OUTPUT = 1;
const DTYPE = { 1: 'float32', 2: 'float16', 3: 'int64', 4: 'int32', 5: 'int8', 6: 'uint8', 7: 'bool' };

const readNames = (file) =>
  fs.readFileSync(rel('wasm', file), 'utf8').split('\n').map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));

// Functions declared in include/wnn.h: lines starting (column 0) with a return
// type and reaching "name(".
function headerFunctions() {
  const text = fs.readFileSync(rel('include/wnn.h'), 'utf8');
  const names = [];
  for (const m of text.matchAll(/^(?:const\s+)?[A-Za-z_][A-Za-z0-9_]*[\s*]+(wnn_[a-z0-9_]+)\s*\(/gm)) {
    names.push(m[1]);
  }
  return names;
}

// Minimal host functions for whatever the module imports: Emscripten's memory
// growth notification, and WASI calls answered with ENOSYS except the few a
// C library may make when nothing goes wrong.
function makeImports(module, state) {
  const ENOSYS = 52;
  const imports = {};
  for (const { module: mod, name, kind } of WebAssembly.Module.imports(module)) {
    assert.equal(kind, 'function', `unexpected ${kind} import ${mod}.${name}`);
    let fn;
    if (mod === 'env' && (name === 'emscripten_notify_memory_growth' || name === 'wnn_js_decode')) {
      fn = () => 0; // no JS codecs here
    } else if (mod === 'wasi_snapshot_preview1') {
      const view = () => new DataView(state.memory.buffer);
      fn = {
        proc_exit: (code) => { throw new Error(`proc_exit(${code})`); },
        fd_write: (fd, iovs, iovsLen, nwritten) => {
          let n = 0;
          for (let i = 0; i < iovsLen; i++) {
            const ptr = view().getUint32(iovs + 8 * i, true);
            const len = view().getUint32(iovs + 8 * i + 4, true);
            const bytes = new Uint8Array(state.memory.buffer, ptr, len);
            if (fd === 1 || fd === 2) process.stderr.write(bytes);
            n += len;
          }
          view().setUint32(nwritten, n, true);
          return 0;
        },
        clock_time_get: (id, precision, out) => {
          view().setBigUint64(out, process.hrtime.bigint(), true);
          return 0;
        },
        environ_sizes_get: (count, size) => {
          view().setUint32(count, 0, true);
          view().setUint32(size, 0, true);
          return 0;
        },
        environ_get: () => 0,
      }[name] ?? (() => ENOSYS);
    } else {
      assert.fail(`unexpected import ${mod}.${name}`);
    }
    (imports[mod] ??= {})[name] = fn;
  }
  return imports;
}

async function instantiate(file) {
  const module = await WebAssembly.compile(fs.readFileSync(file));
  const state = {};
  const instance = await WebAssembly.instantiate(module, makeImports(module, state));
  const x = instance.exports;
  state.memory = x.memory;
  if (x._initialize) x._initialize();
  return { module, x };
}

// Helpers over one instance's memory; views are re-made on every use because
// memory may grow (and detach old buffers) on any call that allocates.
function heap(x) {
  const u8 = () => new Uint8Array(x.memory.buffer);
  const cstr = (ptr) => {
    if (!ptr) return null;
    const b = u8();
    let end = ptr;
    while (b[end]) end++;
    return new TextDecoder().decode(b.subarray(ptr, end));
  };
  const copyIn = (bytes) => {
    const ptr = x.malloc(Math.max(1, bytes.length));
    assert.notEqual(ptr, 0, 'malloc failed');
    u8().set(bytes, ptr);
    return ptr;
  };
  const u32 = (ptr) => new DataView(x.memory.buffer).getUint32(ptr, true);
  return { u8, cstr, copyIn, u32 };
}

// A .npy file (format 1.0, 2.0 or 3.0; little-endian, C order).
const NPY_TYPES = {
  '<f4': ['float32', 4], '<f2': ['float16', 2], '<i8': ['int64', 8], '<i4': ['int32', 4],
  '|i1': ['int8', 1], '|u1': ['uint8', 1], '|b1': ['bool', 1],
};
function readNpy(file) {
  const buf = fs.readFileSync(file);
  assert.equal(buf.subarray(0, 6).toString('latin1'), '\x93NUMPY', `${file}: not a .npy file`);
  const major = buf[6];
  const headerLen = major === 1 ? buf.readUInt16LE(8) : buf.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = buf.subarray(start, start + headerLen).toString('latin1');
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  assert.ok(descr && fortran && shapeText !== undefined, `${file}: unreadable header ${header}`);
  assert.equal(fortran, 'False', `${file}: Fortran order`);
  assert.ok(NPY_TYPES[descr], `${file}: dtype ${descr} not handled`);
  const [dtype, size] = NPY_TYPES[descr];
  const shape = shapeText.split(',').map((s) => s.trim()).filter(Boolean).map(Number);
  const count = shape.reduce((a, b) => a * b, 1);
  const data = buf.subarray(start + headerLen);
  assert.equal(data.length, count * size, `${file}: ${data.length} data bytes, shape says ${count * size}`);
  return { dtype, shape, bytes: new Uint8Array(data) };
}

function compareOutput(label, dtype, got, want) {
  if (dtype === 'float32') {
    const g = new Float32Array(got.buffer, got.byteOffset, got.length / 4);
    const w = new Float32Array(want.buffer, want.byteOffset, want.length / 4);
    const rtol = 1e-4;
    const atol = 1e-5;
    for (let i = 0; i < w.length; i++) {
      const ok = Math.abs(g[i] - w[i]) <= atol + rtol * Math.abs(w[i]) ||
        (Number.isNaN(g[i]) && Number.isNaN(w[i]));
      if (!ok) assert.fail(`${label}: element ${i}: got ${g[i]}, want ${w[i]}`);
    }
  } else {
    assert.deepEqual(Buffer.from(got), Buffer.from(want), `${label}: bytes differ`);
  }
}

// Loads, runs and checks one fixture; returns nothing, asserts on mismatch.
function runFixture(x, dir, name) {
  const h = heap(x);
  const artifact = new Uint8Array(fs.readFileSync(path.join(dir, `${name}.wnn`)));
  const data = h.copyIn(artifact);
  const slot = x.malloc(4);
  const err = (s) => `${x.wnn_status_str ? h.cstr(x.wnn_status_str(s)) : s}: ${h.cstr(x.wnn_last_error())}`;
  let s = x.wnn_web_model_load(data, artifact.length, 0, WNN_LOAD_BORROW, 0, slot);
  assert.equal(s, WNN_OK, `${name}: load: ${err(s)}`);
  const model = h.u32(slot);
  s = x.wnn_executor_create(model, slot);
  assert.equal(s, WNN_OK, `${name}: executor: ${err(s)}`);
  const exec = h.u32(slot);
  const buffers = [];
  try {
    const nIn = x.wnn_model_num_inputs(model);
    for (let i = 0; i < nIn; i++) {
      const npy = readNpy(path.join(dir, `${name}.input_${i}.npy`));
      assert.equal(DTYPE[x.wnn_web_tensor_dtype(model, KIND_INPUT, i)], npy.dtype, `${name}: input ${i} dtype`);
      const p = h.copyIn(npy.bytes);
      buffers.push(p);
      s = x.wnn_web_set_input(model, exec, i, p, npy.bytes.length);
      assert.equal(s, WNN_OK, `${name}: set_input ${i}: ${err(s)}`);
    }
    s = x.wnn_executor_run(exec);
    assert.equal(s, WNN_OK, `${name}: run: ${err(s)}`);
    const nOut = x.wnn_model_num_outputs(model);
    assert.ok(nOut > 0, `${name}: no outputs`);
    for (let i = 0; i < nOut; i++) {
      const want = readNpy(path.join(dir, `${name}.output_${i}.npy`));
      const label = `${name}: output ${i} (${h.cstr(x.wnn_web_tensor_name(model, KIND_OUTPUT, i))})`;
      const dtype = DTYPE[x.wnn_web_tensor_dtype(model, KIND_OUTPUT, i)];
      assert.equal(dtype, want.dtype, `${label}: dtype`);
      const ndim = x.wnn_web_tensor_ndim(model, KIND_OUTPUT, i);
      const shape = Array.from({ length: ndim }, (_, d) => x.wnn_web_tensor_dim(model, KIND_OUTPUT, i, d));
      assert.deepEqual(shape, want.shape, `${label}: shape`);
      const nbytes = x.wnn_web_tensor_nbytes(model, KIND_OUTPUT, i);
      assert.equal(nbytes, want.bytes.length, `${label}: byte count`);
      const ptr = x.wnn_web_output_data(exec, i);
      assert.notEqual(ptr, 0, `${label}: output_data: ${err(0)}`);
      compareOutput(label, dtype, h.u8().slice(ptr, ptr + nbytes), want.bytes);
    }
  } finally {
    x.wnn_executor_destroy(exec);
    x.wnn_model_free(model);
    for (const p of buffers) x.free(p);
    x.free(slot);
    x.free(data);
  }
}

// The debug executor's functions (wasm/exports-debug.txt) are the C API's too.
const debugNames = () => readNames('exports-debug.txt');

// The size budget of the module every page loads (issues 4, 11, 15-17: 400 KB raw, 140 KB
// gzip; KB = 1024 B), with Node's zlib at level 9: about 1 % larger than GNU gzip -9, which
// scripts/build.sh prints too, so the budget holds for both.
test('dist/wnn.wasm stays within its size budget', () => {
  const bytes = fs.readFileSync(rel('dist/wnn.wasm'));
  const gz = zlib.gzipSync(bytes, { level: 9 }).length;
  assert.ok(bytes.length <= 400 * 1024, `dist/wnn.wasm is ${bytes.length} bytes raw, over 409600`);
  assert.ok(gz <= 140 * 1024, `dist/wnn.wasm is ${gz} bytes gzipped (zlib level 9), over 143360`);
});

test('wasm/exports-api.txt and exports-debug.txt list exactly the functions of include/wnn.h', () => {
  const api = [...readNames('exports-api.txt'), ...debugNames().filter((n) => !n.startsWith('wnn_web_'))];
  assert.deepEqual(api.sort(), [...headerFunctions()].sort());
});

test('wasm/exports-web.txt lists exactly the wrappers wasm/web.c defines', () => {
  // Non-static functions of web.c: a return type at column 0, then wnn_web_NAME(.
  const text = fs.readFileSync(rel('wasm/web.c'), 'utf8');
  const defined = [...text.matchAll(/^(?!static\b)[A-Za-z_][\w\s*]*?\b(wnn_web_[a-z0-9_]+)\s*\(/gm)].map((m) => m[1]);
  const listed = [...readNames('exports-web.txt'), ...debugNames(), ...readNames('exports-mt.txt')].filter((n) => n.startsWith('wnn_web_'));
  assert.ok(defined.length > 0, 'no wrappers found in wasm/web.c');
  assert.deepEqual([...new Set(defined)].sort(), [...listed].sort());
});

for (const variant of ['wnn.wasm', 'wnn-full.wasm', 'wnn-scalar.wasm']) {
  const file = rel('dist', variant);
  const present = () => assert.ok(fs.existsSync(file), `dist/${variant} missing: run npm run build`);

  test(`${variant}: imports, exports, version, bad input`, async () => {
    present();
    const { module, x } = await instantiate(file);
    for (const { module: mod, name } of WebAssembly.Module.imports(module)) {
      assert.ok(mod === 'wasi_snapshot_preview1' || (mod === 'env' && ['emscripten_notify_memory_growth', 'wnn_js_decode'].includes(name)),
        `import ${mod}.${name}`);
    }
    for (const name of [...readNames('exports-api.txt'), ...readNames('exports-web.txt')]) {
      assert.equal(typeof x[name], 'function', `export ${name}`);
    }
    // The debug executor: in the full and scalar modules, left out of the core one.
    for (const name of debugNames()) {
      assert.equal(typeof x[name], variant === 'wnn.wasm' ? 'undefined' : 'function', `export ${name}`);
    }
    assert.ok(x.memory instanceof WebAssembly.Memory);

    const h = heap(x);
    const hdr = fs.readFileSync(rel('include/wnn.h'), 'utf8');
    const v = ['MAJOR', 'MINOR', 'PATCH'].map((k) => new RegExp(`#define WNN_VERSION_${k} (\\d+)`).exec(hdr)[1]);
    assert.equal(h.cstr(x.wnn_version()), v.join('.'));
    assert.equal(h.cstr(x.wnn_status_str(WNN_OK)), 'ok');

    // Garbage, a short buffer and an empty one: a failure status, a message,
    // the out-parameter untouched, and no trap.
    const garbage = new Uint8Array(256).map((_, i) => (i * 131 + 7) & 0xff);
    for (const bytes of [garbage, garbage.subarray(0, 3), new Uint8Array(0)]) {
      const data = h.copyIn(bytes);
      const slot = x.malloc(4);
      new DataView(x.memory.buffer).setUint32(slot, 0xdeadbeef, true);
      for (const s of [x.wnn_model_load(data, bytes.length, 0, slot),
        x.wnn_web_model_load(data, bytes.length, 0, WNN_LOAD_BORROW, 0, slot)]) {
        assert.notEqual(s, WNN_OK, `${bytes.length} garbage bytes loaded`);
        assert.ok(h.cstr(x.wnn_status_str(s)).length > 0);
        assert.ok(h.cstr(x.wnn_last_error()).length > 0, 'no error message');
        assert.equal(h.u32(slot), 0xdeadbeef, 'out-parameter changed on failure');
      }
      x.free(slot);
      x.free(data);
    }
  });

  test(`${variant}: fixtures give the expected outputs`, async (t) => {
    present();
    const dir = rel('build/fixtures');
    const names = fs.existsSync(dir)
      ? fs.readdirSync(dir).filter((f) => f.endsWith('.wnn')).map((f) => f.slice(0, -4)).sort()
      : [];
    if (names.length === 0) {
      t.skip('no build/fixtures/*.wnn (written by build/native/make_fixtures build/fixtures)');
      return;
    }
    const { x } = await instantiate(file);
    for (const name of names) {
      await t.test(name, () => runFixture(x, dir, name));
    }
  });
}

// dist/wnn-mt.wasm (docs/threads.md): a shared imported memory, only the
// imports js/wnn.js's threadGlue answers, and the exports of dist/wnn-full.wasm
// plus what starting worker threads needs.
test('wnn-mt.wasm: a shared memory, the imports threadGlue answers, every export', async () => {
  const file = rel('dist/wnn-mt.wasm');
  assert.ok(fs.existsSync(file), 'dist/wnn-mt.wasm missing: run npm run build');
  const module = await WebAssembly.compile(fs.readFileSync(file));
  const glue = ['wnn_js_decode', 'clock_gettime', 'emscripten_get_now', '_emscripten_notify_thread_queue',
    'emscripten_webgl_create_context', 'emscripten_set_canvas_element_size', '__pthread_create_js',
    'emscripten_receive_on_main_thread_js', '__emscripten_init_main_thread_js', 'emscripten_unwind_to_js_event_loop',
    'emscripten_check_blocking_allowed', '_emscripten_default_pthread_stack_size', '__emscripten_thread_cleanup',
    'exit', 'emscripten_resize_heap'];
  for (const { module: mod, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind === 'memory') assert.equal(`${mod}.${name}`, 'env.memory');
    else assert.ok(mod === 'wasi_snapshot_preview1' || (mod === 'env' && glue.includes(name)), `import ${mod}.${name}`);
  }
  const exported = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  for (const name of [...readNames('exports-api.txt'), ...readNames('exports-web.txt'), ...debugNames(), ...readNames('exports-mt.txt'),
    'stackRestore', 'emscripten_stack_set_limits', '_emscripten_thread_init', 'emscripten_tls_init', '__wasm_call_ctors']) {
    assert.ok(exported.has(name), `export ${name}`);
  }
});
