// @ts-self-types="./wnn.d.ts"
// wnn for JavaScript: load a .wnn artifact into the wnn WebAssembly runtime and
// run it with set_input / run / get_output by name. Dependency-free ESM; works
// in browsers, Node, Deno, Bun and Cloudflare Workers. docs/js.md is the guide.
//
// Layout: one Runtime per instantiated WebAssembly.Module (shared by every
// model loaded with that module), Model (an artifact in wasm memory, immutable)
// and Executor (one arena of activations). Handles are numbers; JavaScript only
// calls the number-and-pointer wrappers of wasm/web.c and never reads a C
// struct.

const STATUS = [
  'WNN_OK', 'WNN_ERR_INVALID_ARGUMENT', 'WNN_ERR_OUT_OF_MEMORY', 'WNN_ERR_TRUNCATED',
  'WNN_ERR_BAD_MAGIC', 'WNN_ERR_VERSION', 'WNN_ERR_FEATURE', 'WNN_ERR_BAD_SECTION',
  'WNN_ERR_CHECKSUM', 'WNN_ERR_MALFORMED', 'WNN_ERR_UNKNOWN_OP', 'WNN_ERR_BAD_ATTRIBUTE',
  'WNN_ERR_BAD_PLAN', 'WNN_ERR_NOT_FOUND', 'WNN_ERR_OUT_OF_RANGE', 'WNN_ERR_DTYPE',
  'WNN_ERR_SHAPE', 'WNN_ERR_SIZE', 'WNN_ERR_UNSUPPORTED', 'WNN_ERR_IO',
];

// wnn_dtype numbers (include/wnn.h) -> names, and the TypedArray of each.
const DTYPES = [null, 'float32', 'float16', 'int64', 'int32', 'int8', 'uint8', 'bool'];
const ARRAYS = {
  float32: Float32Array, float16: Uint16Array, int64: BigInt64Array, int32: Int32Array,
  int8: Int8Array, uint8: Uint8Array, bool: Uint8Array,
};

const LOAD_BORROW = 1;
const LOAD_NO_CHECKSUM = 2;
const KERNELS = { auto: 0, scalar: 1 };
const KIND_INPUT = 0;
const KIND_OUTPUT = 1;

/** An error from wnn: `code` is the C status name (WNN_ERR_...) or, for
 * JavaScript-only failures, WNN_ERR_DISPOSED; `status` the C status number. */
export class WnnError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'WnnError';
    this.code = code;
    const s = STATUS.indexOf(code);
    this.status = s >= 0 ? s : undefined;
  }
}

const fail = (code, message) => { throw new WnnError(code, message); };

// ------------------------------------------------------------------ sources

const isNode = typeof process !== 'undefined' && !!process.versions?.node;

// Node built-ins, imported only in Node, Deno and Bun. The specifier is not a
// string literal so that bundlers targeting browsers leave it alone.
const importNode = (name) => import(/* webpackIgnore: true */ /* @vite-ignore */ `node:${name}`);

async function readFileUrl(url) {
  const fs = await importNode('fs/promises');
  try {
    return new Uint8Array(await fs.readFile(url));
  } catch (e) {
    return fail('WNN_ERR_IO', `reading ${url}: ${e.message}`);
  }
}

// Reads a Response's body, calling onProgress(loaded, total) per chunk (total
// is the Content-Length, or 0 when the server did not send one).
async function readResponse(response, what, onProgress) {
  if (!response.ok) fail('WNN_ERR_IO', `fetching ${what}: HTTP ${response.status} ${response.statusText}`.trim());
  const total = Number(response.headers.get('content-length')) || 0;
  if (!response.body || !onProgress) {
    const bytes = new Uint8Array(await response.arrayBuffer());
    onProgress?.(bytes.length, total || bytes.length);
    return bytes;
  }
  const chunks = [];
  let loaded = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onProgress(loaded, total);
  }
  const bytes = new Uint8Array(loaded);
  let at = 0;
  for (const c of chunks) { bytes.set(c, at); at += c.length; }
  return bytes;
}

// A URL string, URL, Request, Response (or a promise of one), ArrayBuffer or
// Uint8Array -> Uint8Array. A string that is not an absolute URL is fetched
// relative to the page in a browser and read as a file path elsewhere.
async function readSource(source, onProgress, what = 'model') {
  source = await source;
  if (source instanceof Uint8Array) return source;
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  if (typeof Response !== 'undefined' && source instanceof Response) return readResponse(source, what, onProgress);
  if (typeof Request !== 'undefined' && source instanceof Request) {
    return readResponse(await fetchOrFail(source, source.url), source.url, onProgress);
  }
  const url = typeof source === 'string' ? await toUrl(source) : source;
  if (url instanceof URL && url.protocol === 'file:' && isNode) {
    const bytes = await readFileUrl(url);
    onProgress?.(bytes.length, bytes.length);
    return bytes;
  }
  if (url instanceof URL) {
    return readResponse(await fetchOrFail(url, url.href), url.href, onProgress);
  }
  return fail('WNN_ERR_INVALID_ARGUMENT',
    `${what}: expected a URL, a Request, a Response, an ArrayBuffer or a Uint8Array, got ${describe(source)}`);
}

const isAbsoluteUrl = (s) => URL.canParse?.(s) ?? /^[a-z][a-z0-9+.-]*:/i.test(s);

// A string as a URL: absolute as is; relative to the page in a browser; a file
// path elsewhere.
async function toUrl(s) {
  if (isAbsoluteUrl(s)) return new URL(s);
  if (typeof location !== 'undefined') return new URL(s, location.href);
  const { pathToFileURL } = await importNode('url');
  return pathToFileURL(s);
}

async function fetchOrFail(what, label) {
  try {
    return await fetch(what);
  } catch (e) {
    return fail('WNN_ERR_IO', `fetching ${label}: ${e.message}`);
  }
}

const describe = (v) => (v === null ? 'null' : typeof v === 'object' ? v.constructor?.name ?? 'object' : typeof v);

// ------------------------------------------------------------------ runtime

// A module with one function returning a v128 constant: valid only where the
// engine has SIMD128.
const SIMD_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, // magic, version
  1, 5, 1, 0x60, 0, 1, 0x7b, // type section: () -> v128
  3, 2, 1, 0, // function section
  10, 22, 1, 20, 0, 0xfd, 0x0c, ...new Array(16).fill(0), 0x0b, // v128.const 0; end
]);

/** True when this engine runs WebAssembly SIMD128 (so dist/wnn.wasm loads). */
export const simdSupported = () => WebAssembly.validate(SIMD_PROBE);

const defaultWasmUrl = (simd) =>
  new URL(simd ? '../dist/wnn.wasm' : '../dist/wnn-scalar.wasm', import.meta.url);

const compiled = new Map(); // URL href -> Promise<WebAssembly.Module>
const runtimes = new WeakMap(); // WebAssembly.Module -> Promise<Runtime>

async function compileFrom(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (typeof source === 'string' || source instanceof URL) {
    const url = typeof source === 'string' ? await toUrl(source) : source;
    let p = compiled.get(url.href);
    if (!p) {
      p = readSource(url, undefined, 'wasm').then((bytes) => WebAssembly.compile(bytes));
      compiled.set(url.href, p);
      p.catch(() => compiled.delete(url.href));
    }
    return p;
  }
  return WebAssembly.compile(await readSource(source, undefined, 'wasm'));
}

async function runtimeFor(wasmOption) {
  const module = await compileFrom(wasmOption ?? defaultWasmUrl(simdSupported()));
  let p = runtimes.get(module);
  if (!p) {
    p = WebAssembly.instantiate(module, importsFor(module)).then((instance) => new Runtime(instance));
    runtimes.set(module, p);
    p.catch(() => runtimes.delete(module));
  }
  return p;
}

// What the web modules import: Emscripten's memory-growth notice, and, should
// a future build import WASI functions, answers that refuse them.
function importsFor(module) {
  const imports = {};
  for (const { module: mod, name } of WebAssembly.Module.imports(module)) {
    let fn = () => 52; // ENOSYS
    if (mod === 'env' && name === 'emscripten_notify_memory_growth') fn = () => {};
    if (name === 'proc_exit') fn = (code) => { throw new WnnError('WNN_ERR_UNSUPPORTED', `wasm called proc_exit(${code})`); };
    (imports[mod] ??= {})[name] = fn;
  }
  return imports;
}

class Runtime {
  constructor(instance) {
    this.x = instance.exports;
    this.x._initialize?.();
    this.decoder = new TextDecoder();
    this.slot = this.malloc(8); // out-parameter for handles
  }

  get memory() { return this.x.memory; }

  malloc(n) {
    const p = this.x.malloc(Math.max(1, n));
    if (!p) fail('WNN_ERR_OUT_OF_MEMORY', `wasm memory: cannot allocate ${n} bytes`);
    return p;
  }

  cstr(ptr) {
    if (!ptr) return '';
    const b = new Uint8Array(this.memory.buffer);
    let end = ptr;
    while (b[end]) end++;
    return this.decoder.decode(b.subarray(ptr, end));
  }

  u32(ptr) { return new DataView(this.memory.buffer).getUint32(ptr, true); }

  // Throws the C failure `status` with message `msg` (default wnn_last_error()).
  check(status, context, msg) {
    if (status === 0) return;
    const code = STATUS[status] ?? `WNN_STATUS_${status}`;
    const detail = msg ?? this.cstr(this.x.wnn_last_error());
    fail(code, `${context}: ${detail || this.cstr(this.x.wnn_status_str(status))}`);
  }

  tensorInfo(model, kind, i) {
    const x = this.x;
    const name = this.cstr(x.wnn_web_tensor_name(model, kind, i));
    const dtype = DTYPES[x.wnn_web_tensor_dtype(model, kind, i)] ?? 'invalid';
    const ndim = x.wnn_web_tensor_ndim(model, kind, i);
    const shape = Array.from({ length: ndim }, (_, d) => x.wnn_web_tensor_dim(model, kind, i, d));
    return { name, shape, dtype, nbytes: x.wnn_web_tensor_nbytes(model, kind, i) };
  }
}

// -------------------------------------------------------------------- model

/**
 * Loads a .wnn artifact. `source`: URL string or URL, Request, Response (or a
 * promise of one), ArrayBuffer or Uint8Array. Options: wasm (a
 * WebAssembly.Module, URL or bytes; default this package's dist/wnn.wasm, or
 * dist/wnn-scalar.wasm without SIMD128), onProgress(loaded, total),
 * kernels ('auto' | 'scalar'), verifyChecksum (default true).
 */
export async function load(source, options = {}) {
  const kernels = KERNELS[options.kernels ?? 'auto'];
  if (kernels === undefined) fail('WNN_ERR_INVALID_ARGUMENT', `options.kernels: "${options.kernels}", expected "auto" or "scalar"`);
  const [bytes, rt] = await Promise.all([readSource(source, options.onProgress), runtimeFor(options.wasm)]);
  const data = rt.malloc(bytes.length);
  new Uint8Array(rt.memory.buffer).set(bytes, data);
  const flags = LOAD_BORROW | (options.verifyChecksum === false ? LOAD_NO_CHECKSUM : 0);
  const status = rt.x.wnn_web_model_load(data, bytes.length, flags, kernels, rt.slot);
  if (status !== 0) {
    const err = new WnnError(STATUS[status], `loading the model: ${rt.cstr(rt.x.wnn_last_error())}`);
    rt.x.free(data);
    throw err;
  }
  return new Model(rt, rt.u32(rt.slot), data);
}

/** The C library's version ("0.1.0") of the wasm module `options.wasm` picks. */
export async function version(options = {}) {
  const rt = await runtimeFor(options.wasm);
  return rt.cstr(rt.x.wnn_version());
}

const publicInfo = ({ name, shape, dtype }) => Object.freeze({ name, shape: Object.freeze(shape), dtype });

export class Model {
  #rt; #handle; #data; #executors = new Set();

  constructor(rt, handle, data) {
    this.#rt = rt;
    this.#handle = handle;
    this.#data = data;
    const x = rt.x;
    const list = (kind, n) => Array.from({ length: n }, (_, i) => rt.tensorInfo(handle, kind, i));
    this._in = list(KIND_INPUT, x.wnn_model_num_inputs(handle));
    this._out = list(KIND_OUTPUT, x.wnn_model_num_outputs(handle));
    this.inputs = Object.freeze(this._in.map(publicInfo));
    this.outputs = Object.freeze(this._out.map(publicInfo));
    this.numParams = x.wnn_model_num_params(handle);
    this.arenaBytes = x.wnn_model_arena_bytes(handle);
    this.weightsBytes = x.wnn_model_weights_bytes(handle);
    this.metadata = JSON.parse(rt.cstr(x.wnn_model_metadata(handle)));
    Object.defineProperty(this, '_in', { enumerable: false });
    Object.defineProperty(this, '_out', { enumerable: false });
  }

  /** @internal the runtime and handle, or a WNN_ERR_DISPOSED error. */
  _live(what) {
    if (!this.#handle) fail('WNN_ERR_DISPOSED', `${what}: the model was disposed`);
    return [this.#rt, this.#handle];
  }

  get disposed() { return !this.#handle; }

  /** The WebAssembly.Memory of the runtime instance this model lives in
   * (shared by every model loaded with the same wasm module). */
  get memory() { return this.#rt.memory; }

  /** A new executor: allocates its arena now; run() allocates nothing. */
  createExecutor() {
    const [rt, handle] = this._live('createExecutor');
    rt.check(rt.x.wnn_executor_create(handle, rt.slot), 'createExecutor');
    const ex = new Executor(this, rt, rt.u32(rt.slot), (e) => this.#executors.delete(e));
    this.#executors.add(ex);
    return ex;
  }

  /**
   * Runs the model once on `inputs` ({name: typedArray}, every input) and
   * returns {name: tensor} for options.outputs (names; default all), copies.
   */
  async predict(inputs, options = {}) {
    this._live('predict');
    if (inputs === null || typeof inputs !== 'object') fail('WNN_ERR_INVALID_ARGUMENT', `predict: inputs must be an object {name: typedArray}, got ${describe(inputs)}`);
    const names = options.outputs ?? this.outputs.map((o) => o.name);
    const wanted = names.map((n) => this.outputIndex(n, 'predict'));
    const missing = this.inputs.filter((i) => !Object.hasOwn(inputs, i.name)).map((i) => `"${i.name}"`);
    if (missing.length) fail('WNN_ERR_NOT_FOUND', `predict: no value for input ${missing.join(', ')}`);
    // Every check before any wasm memory is touched.
    for (const [name, value] of Object.entries(inputs)) this._checkInput(this.inputIndex(name, 'predict'), value, 'predict');
    const ex = this.createExecutor();
    try {
      for (const [name, value] of Object.entries(inputs)) ex.setInput(name, value);
      ex.run();
      const result = {};
      for (const i of wanted) result[this._out[i].name] = ex.getOutput(i);
      return result;
    } finally {
      ex.dispose();
    }
  }

  /** Index of the input with this exact name (or a checked index). */
  inputIndex(nameOrIndex, context = 'inputIndex') { return this.#index(this._in, 'input', nameOrIndex, context); }

  /** Index of the output with this exact name (or a checked index). */
  outputIndex(nameOrIndex, context = 'outputIndex') { return this.#index(this._out, 'output', nameOrIndex, context); }

  #index(list, kind, key, context) {
    if (typeof key === 'number') {
      if (Number.isInteger(key) && key >= 0 && key < list.length) return key;
      fail('WNN_ERR_OUT_OF_RANGE', `${context}: ${kind} index ${key} out of range (the model has ${list.length} ${kind}s)`);
    }
    if (typeof key !== 'string') fail('WNN_ERR_INVALID_ARGUMENT', `${context}: ${kind} must be a name or an index, got ${describe(key)}`);
    const i = list.findIndex((t) => t.name === key);
    if (i < 0) fail('WNN_ERR_NOT_FOUND', `${context}: no ${kind} named "${key}" (the model's ${kind}s: ${list.map((t) => `"${t.name}"`).join(', ')})`);
    return i;
  }

  /** @internal throws unless `array` fits input i: its TypedArray type and length. */
  _checkInput(i, array, context) {
    const info = this._in[i];
    const want = ARRAYS[info.dtype];
    const ok = array instanceof want ||
      (info.dtype === 'float16' && typeof Float16Array !== 'undefined' && array instanceof Float16Array);
    if (!ok) {
      fail('WNN_ERR_DTYPE', `${context}: input "${info.name}" is ${info.dtype}, which takes ${want.name}; got ${describe(array)}`);
    }
    const count = info.shape.reduce((a, b) => a * b, 1);
    if (array.length !== count) {
      fail('WNN_ERR_SIZE', `${context}: input "${info.name}" of shape [${info.shape.join(', ')}] takes ${count} elements; got ${array.length}`);
    }
  }

  /** Frees the model, its artifact copy and every executor it still has. Idempotent. */
  dispose() {
    if (!this.#handle) return;
    for (const ex of [...this.#executors]) ex.dispose();
    this.#rt.x.wnn_model_free(this.#handle);
    this.#rt.x.free(this.#data);
    this.#handle = 0;
    this.#data = 0;
  }
}

// ----------------------------------------------------------------- executor

export class Executor {
  #model; #rt; #handle; #onDispose; #inputPtr = []; #outputPtr = [];

  constructor(model, rt, handle, onDispose) {
    this.#model = model;
    this.#rt = rt;
    this.#handle = handle;
    this.#onDispose = onDispose;
    // Inputs live in the arena at fixed addresses (setInput writes there;
    // memory growth never moves them).
    for (let i = 0; i < model.inputs.length; i++) this.#inputPtr.push(rt.x.wnn_web_input_data(handle, i));
  }

  get model() { return this.#model; }
  get disposed() { return !this.#handle; }

  #live(what) {
    if (!this.#handle) fail('WNN_ERR_DISPOSED', `${what}: the executor was disposed`);
    this.#model._live(what);
    return this.#handle;
  }

  /** Copies `array` into input `nameOrIndex`; its TypedArray type must match
   * the input's dtype and its length the input's element count. */
  setInput(nameOrIndex, array) {
    this.#live('setInput');
    const i = this.#model.inputIndex(nameOrIndex, 'setInput');
    this.#model._checkInput(i, array, 'setInput');
    const ptr = this.#inputPtr[i];
    const nbytes = this.#model._in[i].nbytes;
    new Uint8Array(this.#rt.memory.buffer, ptr, nbytes).set(new Uint8Array(array.buffer, array.byteOffset, nbytes));
    return this;
  }

  /** Runs the graph once. */
  run() {
    const h = this.#live('run');
    const s = this.#rt.x.wnn_executor_run(h);
    if (s !== 0) this.#rt.check(s, 'run', this.#rt.cstr(this.#rt.x.wnn_executor_errmsg(h)));
    return this;
  }

  /** Output `nameOrIndex` as {name, shape, dtype, data}. data is a copy, or
   * with {view: true} a view of wasm memory valid until the next run(),
   * dispose() or memory growth (any load or createExecutor). */
  getOutput(nameOrIndex, options = {}) {
    const h = this.#live('getOutput');
    const i = this.#model.outputIndex(nameOrIndex, 'getOutput');
    if (this.#outputPtr[i] === undefined) {
      const p = this.#rt.x.wnn_web_output_data(h, i);
      if (!p) this.#rt.check(STATUS.indexOf('WNN_ERR_OUT_OF_RANGE'), 'getOutput', this.#rt.cstr(this.#rt.x.wnn_executor_errmsg(h)));
      this.#outputPtr[i] = p;
    }
    return this.#tensor(this.#model._out[i], this.#outputPtr[i], options.view);
  }

  /** Input `nameOrIndex` as the executor holds it: {name, shape, dtype, data},
   * a copy or with {view: true} a view (valid until the input is set again,
   * dispose() or memory growth). */
  getInput(nameOrIndex, options = {}) {
    this.#live('getInput');
    const i = this.#model.inputIndex(nameOrIndex, 'getInput');
    return this.#tensor(this.#model._in[i], this.#inputPtr[i], options.view);
  }

  #tensor(info, ptr, view) {
    const T = ARRAYS[info.dtype];
    const count = info.nbytes / T.BYTES_PER_ELEMENT;
    let data;
    if (view) {
      if (ptr % T.BYTES_PER_ELEMENT) fail('WNN_ERR_UNSUPPORTED', `"${info.name}" is not aligned for a ${T.name} view; use a copy`);
      data = new T(this.#rt.memory.buffer, ptr, count);
    } else {
      data = new T(new Uint8Array(this.#rt.memory.buffer, ptr, info.nbytes).slice().buffer);
    }
    return { name: info.name, shape: [...info.shape], dtype: info.dtype, data };
  }

  /**
   * Times run() like TVM's time_evaluator: one warm-up run (discarded), then
   * `repeat` measurements of `number` runs each, `number` growing until one
   * measurement lasts at least minRepeatMs. Per-run milliseconds.
   */
  timeEvaluator({ number = 1, repeat = 1, minRepeatMs = 0 } = {}) {
    const h = this.#live('timeEvaluator');
    for (const [k, v] of [['number', number], ['repeat', repeat]]) {
      if (!Number.isInteger(v) || v < 1) fail('WNN_ERR_INVALID_ARGUMENT', `timeEvaluator: ${k} must be an integer >= 1, got ${v}`);
    }
    if (!(minRepeatMs >= 0)) fail('WNN_ERR_INVALID_ARGUMENT', `timeEvaluator: minRepeatMs must be >= 0, got ${minRepeatMs}`);
    const x = this.#rt.x;
    const runOnce = () => {
      const s = x.wnn_executor_run(h);
      if (s !== 0) this.#rt.check(s, 'timeEvaluator', this.#rt.cstr(x.wnn_executor_errmsg(h)));
    };
    runOnce(); // warm-up, discarded
    const results = [];
    for (let r = 0; r < repeat; r++) {
      let ms;
      for (;;) {
        const t0 = performance.now();
        for (let n = 0; n < number; n++) runOnce();
        ms = performance.now() - t0;
        if (ms >= minRepeatMs) break;
        if (ms > 0) {
          number = Math.max(Math.ceil(minRepeatMs / (ms / number)) + 1, Math.ceil(number * 1.618));
        } else if (number < 1 << 20) {
          number *= 2; // below the clock's resolution
        } else {
          fail('WNN_ERR_UNSUPPORTED', `timeEvaluator: the clock did not advance over ${number} runs (this host freezes timers, as Cloudflare Workers do during a request)`);
        }
      }
      results.push(ms / number);
    }
    return summarize(results);
  }

  /** Frees the executor's arena. Idempotent. */
  dispose() {
    if (!this.#handle) return;
    this.#rt.x.wnn_executor_destroy(this.#handle);
    this.#handle = 0;
    this.#onDispose(this);
  }
}

function summarize(results) {
  const n = results.length;
  const mean = results.reduce((a, b) => a + b, 0) / n;
  const sorted = [...results].sort((a, b) => a - b);
  const median = n % 2 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const std = Math.sqrt(results.reduce((a, b) => a + (b - mean) ** 2, 0) / n);
  return { mean, median, std, min: sorted[0], max: sorted[n - 1], results };
}

if (typeof Symbol.dispose === 'symbol') {
  Model.prototype[Symbol.dispose] = Model.prototype.dispose;
  Executor.prototype[Symbol.dispose] = Executor.prototype.dispose;
}
