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

// BEGIN enums generated from include/wnn.h by scripts/gen-js-enums.mjs
// wnn_status values -> names.
const STATUS = [
  'WNN_OK', 'WNN_ERR_INVALID_ARGUMENT', 'WNN_ERR_OUT_OF_MEMORY', 'WNN_ERR_TRUNCATED',
  'WNN_ERR_BAD_MAGIC', 'WNN_ERR_VERSION', 'WNN_ERR_FEATURE', 'WNN_ERR_BAD_SECTION',
  'WNN_ERR_CHECKSUM', 'WNN_ERR_MALFORMED', 'WNN_ERR_UNKNOWN_OP', 'WNN_ERR_BAD_ATTRIBUTE',
  'WNN_ERR_BAD_PLAN', 'WNN_ERR_NOT_FOUND', 'WNN_ERR_OUT_OF_RANGE', 'WNN_ERR_DTYPE', 'WNN_ERR_SHAPE',
  'WNN_ERR_SIZE', 'WNN_ERR_UNSUPPORTED', 'WNN_ERR_IO', 'WNN_ERR_LIMIT',
];
// wnn_dtype values -> the names wnn_dtype_name gives (null: WNN_DTYPE_INVALID).
const DTYPES = [null, 'float32', 'float16', 'int64', 'int32', 'int8', 'uint8', 'bool', 'float64'];
const LOAD_BORROW = 1;
const LOAD_NO_CHECKSUM = 2;
// wnn_kernels values by lower-case name.
const KERNEL_VALUES = { auto: 0, scalar: 1, reference: 2 };
// END enums

// The TypedArray of each dtype name.
const ARRAYS = {
  float32: Float32Array, float16: Uint16Array, int64: BigInt64Array, int32: Int32Array,
  int8: Int8Array, uint8: Uint8Array, bool: Uint8Array, float64: Float64Array,
};

// The kernel choices load() accepts ('reference' exists only in test builds).
const KERNELS = { auto: KERNEL_VALUES.auto, scalar: KERNEL_VALUES.scalar };
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
// Bytes in hand come back as a Uint8Array of ours over the caller's bytes
// (read through the built-in getters: no copy, and no caller code runs).
async function readSource(source, onProgress, what = 'model') {
  source = await source;
  const bytes = bytesOf(source);
  if (bytes) return bytes;
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

// ------------------------------------------------------- caller's arguments
//
// Every public entry point first reads what it needs from the caller's objects
// into locals (typed arrays through the built-in getters below, shapes and
// options copied once), then checks that the model or executor is alive, then
// calls into wasm. No caller code (a getter, valueOf, a Proxy trap, an
// iterator) runs between the liveness check and the copy or call, so such code
// cannot dispose the executor and have the copy land in memory another
// executor now owns.

// The built-in TypedArray, DataView and ArrayBuffer getters, taken once: they
// read the internal slots, so a subclass or an instance that redefines
// `length`, `buffer` or `byteOffset` cannot lie about which bytes it holds,
// and a Proxy is not mistaken for a typed array.
const uncurry = (f) => Function.prototype.call.bind(f);
const getterOf = (proto, key) => uncurry(Object.getOwnPropertyDescriptor(proto, key).get);
const TypedArrayPrototype = Object.getPrototypeOf(Uint8Array.prototype);
const taName = getterOf(TypedArrayPrototype, Symbol.toStringTag); // undefined unless a typed array
const taBuffer = getterOf(TypedArrayPrototype, 'buffer');
const taByteOffset = getterOf(TypedArrayPrototype, 'byteOffset');
const taByteLength = getterOf(TypedArrayPrototype, 'byteLength');
const taLength = getterOf(TypedArrayPrototype, 'length');
const dvBuffer = getterOf(DataView.prototype, 'buffer');
const dvByteOffset = getterOf(DataView.prototype, 'byteOffset');
const dvByteLength = getterOf(DataView.prototype, 'byteLength');
const abByteLength = getterOf(ArrayBuffer.prototype, 'byteLength');
const sabByteLength = typeof SharedArrayBuffer === 'function' ? getterOf(SharedArrayBuffer.prototype, 'byteLength') : null;

const attempt = (f, x) => { try { return f(x); } catch { return undefined; } };

// A Uint8Array of ours over exactly the bytes of a typed array, DataView,
// ArrayBuffer or SharedArrayBuffer; null for anything else. (Detached or
// out-of-bounds views have no bytes.)
function bytesOf(x) {
  if (x === null || typeof x !== 'object') return null;
  let buffer;
  let offset;
  let length;
  if (taName(x) !== undefined) {
    [buffer, offset, length] = [taBuffer(x), taByteOffset(x), taByteLength(x)];
  } else if (attempt(dvByteLength, x) !== undefined) {
    [buffer, offset, length] = [dvBuffer(x), dvByteOffset(x), dvByteLength(x)];
  } else {
    const n = attempt(abByteLength, x) ?? (sabByteLength ? attempt(sabByteLength, x) : undefined);
    if (n === undefined) return null;
    [buffer, offset, length] = [x, 0, n];
  }
  return length ? new Uint8Array(buffer, offset, length) : new Uint8Array(0);
}

// What a value is, for messages; runs no caller code it cannot survive.
function describe(v) {
  if (v === null) return 'null';
  if (typeof v !== 'object' && typeof v !== 'function') return typeof v;
  const name = taName(v);
  if (name !== undefined) return name;
  if (Array.isArray(v)) return 'Array';
  try {
    const ctor = v.constructor?.name;
    return typeof ctor === 'string' && ctor ? ctor : 'object';
  } catch {
    return 'object';
  }
}

const MAX_SHAPE_DIMS = 32; // wnn tensors have at most 8 (WNN_MAX_DIMS); anything longer is not a shape

// A copy of a shape the caller gave (an Array or a typed array of
// non-negative integers), or null when none was given.
function readShape(shape, context) {
  if (shape === undefined || shape === null) return null;
  const bad = (why) => fail('WNN_ERR_INVALID_ARGUMENT', `${context}: shape must be an array of non-negative integers; ${why}`);
  let n;
  if (taName(shape) !== undefined) n = taLength(shape);
  else if (Array.isArray(shape)) n = shape.length;
  else bad(`got ${describe(shape)}`);
  if (!Number.isSafeInteger(n) || n < 0 || n > MAX_SHAPE_DIMS) bad(`got ${String(n)} dimensions`);
  const dims = [];
  for (let k = 0; k < n; k++) {
    const d = shape[k];
    if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) {
      bad(`dimension ${k} is ${typeof d === 'number' || typeof d === 'bigint' ? String(d) : describe(d)}`);
    }
    dims.push(d);
  }
  return dims;
}

// The caller's tensor, read once: its TypedArray name (undefined when it is
// not one), its element count, a Uint8Array over its bytes, and the shape
// given with it (or null).
function readTensor(data, shape, context) {
  const type = taName(data);
  const tensor = { type, length: 0, bytes: null, shape: readShape(shape, context), what: type };
  if (type === undefined) {
    const what = describe(data);
    tensor.what = /^(Big)?(Int|Uint|Float)\d+(Clamped)?Array$/.test(what) ? `a ${what} look-alike, not a TypedArray (a Proxy?)` : what;
  } else {
    tensor.length = taLength(data);
    tensor.bytes = bytesOf(data);
  }
  return tensor;
}

// A {view} option object read once (undefined and null mean {}).
function readViewOption(options, context) {
  if (options === undefined || options === null) return false;
  if (typeof options !== 'object') fail('WNN_ERR_INVALID_ARGUMENT', `${context}: options must be an object, got ${describe(options)}`);
  return !!options.view;
}

const sameShape = (a, b) => a.length === b.length && a.every((d, k) => d === b[k]);
const showShape = (shape) => `[${shape.join(', ')}]`;

// Throws unless the tensor read by readTensor fits input `info`: its
// TypedArray type, its shape when one was given, its element count.
function checkInput(info, tensor, context) {
  const want = ARRAYS[info.dtype];
  const ok = tensor.type === want.name || (info.dtype === 'float16' && tensor.type === 'Float16Array');
  if (!ok) {
    fail('WNN_ERR_DTYPE', `${context}: input "${info.name}" is ${info.dtype}, which takes ${want.name}; got ${tensor.what}`);
  }
  if (tensor.shape && !sameShape(tensor.shape, info.shape)) {
    fail('WNN_ERR_SHAPE', `${context}: input "${info.name}" has shape ${showShape(info.shape)}; got shape ${showShape(tensor.shape)}`);
  }
  const count = info.shape.reduce((a, b) => a * b, 1);
  if (tensor.length !== count || tensor.bytes.length !== info.nbytes) {
    fail('WNN_ERR_SIZE', `${context}: input "${info.name}" of shape ${showShape(info.shape)} takes ${count} elements; got ${tensor.length}`);
  }
}

// The index of `key` (a name or an index; never coerced) in `list`.
function indexIn(list, kind, key, context) {
  if (typeof key === 'number') {
    if (Number.isInteger(key) && key >= 0 && key < list.length) return key;
    fail('WNN_ERR_OUT_OF_RANGE', `${context}: ${kind} index ${key} out of range (the model has ${list.length} ${kind}s)`);
  }
  if (typeof key !== 'string') fail('WNN_ERR_INVALID_ARGUMENT', `${context}: ${kind} must be a name or an index, got ${describe(key)}`);
  const i = list.findIndex((t) => t.name === key);
  if (i < 0) fail('WNN_ERR_NOT_FOUND', `${context}: no ${kind} named "${key}" (the model's ${kind}s: ${list.map((t) => `"${t.name}"`).join(', ')})`);
  return i;
}

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

// A module with one function returning f32x4.relaxed_madd of three v128
// constants: valid only where the engine has relaxed SIMD (Chromium 114+,
// Deno, Node 22+; Node 20 with --experimental-wasm-relaxed-simd).
const V128_ZERO = [0xfd, 0x0c, ...new Array(16).fill(0)];
const RELAXED_PROBE = new Uint8Array([
  0, 97, 115, 109, 1, 0, 0, 0, // magic, version
  1, 5, 1, 0x60, 0, 1, 0x7b, // type section: () -> v128
  3, 2, 1, 0, // function section
  10, 61, 1, 59, 0, ...V128_ZERO, ...V128_ZERO, ...V128_ZERO, 0xfd, 0x85, 0x02, 0x0b, // relaxed_madd; end
]);

/** True when this engine runs WebAssembly relaxed SIMD (so dist/wnn-relaxed.wasm loads). */
export const relaxedSimdSupported = () => WebAssembly.validate(RELAXED_PROBE);

const defaultWasmUrl = (simd) =>
  new URL(simd ? '../dist/wnn.wasm' : '../dist/wnn-scalar.wasm', import.meta.url);
// dist/wnn.wasm's runtime with relaxed SIMD's multiply-add in the GEMM
// kernels (docs/build.md, "The relaxed SIMD module"): the default where the
// engine has relaxed SIMD, unless it is missing from the package.
const relaxedWasmUrl = () => new URL('../dist/wnn-relaxed.wasm', import.meta.url);

// The relaxed SIMD module at relaxedUrl compiled where the engine runs it,
// else the one at otherUrl: also when relaxedUrl is not in this package (a
// build without the relaxed presets) or not readable from here, since the
// other module computes the same model.
async function compilePreferringRelaxed(relaxedUrl, otherUrl) {
  if (relaxedSimdSupported()) {
    try {
      return await compileFrom(relaxedUrl);
    } catch {
      // falls back below
    }
  }
  return compileFrom(otherUrl);
}

// The default single-threaded module: dist/wnn-relaxed.wasm where the engine
// runs it, else dist/wnn.wasm (dist/wnn-scalar.wasm without SIMD128).
const compileDefault = () => compilePreferringRelaxed(relaxedWasmUrl(), defaultWasmUrl(simdSupported()));
// dist/wnn.wasm carries the common ops; an artifact using one it leaves out
// (docs/build.md, "Core and full web modules") loads in this one.
const fullWasmUrl = () => new URL('../dist/wnn-full.wasm', import.meta.url);

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

// The runtime of options.wasm, or of the default module: with threads
// (undefined: the host's default) dist/wnn-mt.wasm where this host runs it,
// else compileDefault()'s. A module that
// imports its memory is a threaded one.
async function runtimeFor(wasmOption, threads) {
  if (wasmOption === undefined && threads !== 1 && simdSupported()) {
    const host = await threadHost();
    const n = threads ?? (host ? defaultThreads(host) : 1);
    if (host && n > 1) {
      try {
        return await mtRuntimeFor(await compileMt(), host, n);
      } catch {
        // No threads after all (dist/wnn-mt.wasm missing, a worker that could
        // not start: Deno without --allow-read, a page's CSP): one thread, as
        // where the host has none; model.threads says 1.
      }
    }
  }
  const module = await (wasmOption === undefined ? compileDefault() : compileFrom(wasmOption));
  if (WebAssembly.Module.imports(module).some((i) => i.kind === 'memory')) {
    const host = await threadHost();
    if (!host) fail('WNN_ERR_UNSUPPORTED', 'options.wasm is the threaded module (dist/wnn-mt.wasm), which needs shared memory and workers: this host has not both (a page needs cross-origin isolation)');
    return mtRuntimeFor(module, host, threads ?? defaultThreads(host));
  }
  let p = runtimes.get(module);
  if (!p) {
    const memory = {};
    p = WebAssembly.instantiate(module, importsFor(module, memory)).then((instance) => {
      memory.current = instance.exports.memory;
      return new Runtime(instance);
    });
    runtimes.set(module, p);
    p.catch(() => runtimes.delete(module));
  }
  return p;
}

// What the web modules import: Emscripten's memory-growth notice, WASI's
// clock_time_get (the per-node profile's clock: performance.now() in
// nanoseconds), and, should a future build import other WASI functions,
// answers that refuse them. memory.current is the instance's memory once it
// exists. dist/wnn-mt.wasm, linked for Emscripten's own JS glue, imports its
// shared memory and the few functions of that glue its C code calls
// (threadGlue below).
function importsFor(module, memory) {
  const imports = {};
  for (const { module: mod, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind === 'memory') {
      (imports[mod] ??= {})[name] = memory.current;
      continue;
    }
    let fn = () => 52; // ENOSYS
    if (mod === 'env' && name === 'emscripten_notify_memory_growth') fn = () => {};
    if (mod === 'env' && name === 'wnn_js_decode') fn = (codec, src, n, dst, size) => jsDecode(memory.current, codec, src >>> 0, n >>> 0, dst >>> 0, size >>> 0);
    if (mod === 'wasi_snapshot_preview1' && name === 'clock_time_get') {
      fn = (id, precision, out) => {
        new DataView(memory.current.buffer).setBigUint64(out, BigInt(Math.round(performance.now() * 1e6)), true);
        return 0;
      };
    }
    if (name === 'proc_exit') fn = (code) => { throw new WnnError('WNN_ERR_UNSUPPORTED', `wasm called proc_exit(${code})`); };
    if (mod === 'env' && Object.hasOwn(threadGlue, name)) fn = threadGlue[name](memory);
    (imports[mod] ??= {})[name] = fn;
  }
  return imports;
}

// ------------------------------------------------------------------ threads
//
// dist/wnn-mt.wasm (docs/threads.md, "The threaded web module"): the runtime
// with threads on a shared WebAssembly.Memory. Emscripten 3.1.6 links it for
// its own JS glue, which mis-loads under Node 20; what its C code needs from
// that glue is here, and js/thread.js starts the worker threads.

const MT_MEMORY = { initial: 64, maximum: 32768, shared: true }; // CMakeLists.txt's limits
const THREAD_STACK = 512 * 1024;
// The default thread count where threads exist: the cores the host reports,
// at most this many (each worker is a JS engine instance of its own).
const DEFAULT_MAX_THREADS = 8;
const defaultThreads = (host) => Math.min(host.cores, DEFAULT_MAX_THREADS);
const mtWasmUrl = () => new URL('../dist/wnn-mt.wasm', import.meta.url);
// The same with relaxed SIMD's multiply-add (as dist/wnn-relaxed.wasm is to
// dist/wnn.wasm): preferred where the engine has relaxed SIMD.
const mtRelaxedWasmUrl = () => new URL('../dist/wnn-mt-relaxed.wasm', import.meta.url);

const compileMt = () => compilePreferringRelaxed(mtRelaxedWasmUrl(), mtWasmUrl());

// Only a browser's main thread may not block in Atomics.wait: its C waits
// spin instead (Emscripten's futex wait reads this flag of each thread).
const canBlockHere = () => (typeof window === 'object' && typeof document === 'object' ? 0 : 1);

// Imports of dist/wnn-mt.wasm that stand in for Emscripten's glue. `memory`:
// {current: the shared memory, x: the instance's exports once it exists}.
const threadGlue = {
  // The first instance's constructors register its thread (the other
  // threads' records are made by wnn_web_thread_new: enterThread below).
  __emscripten_init_main_thread_js: (m) => (record) => {
    m.x._emscripten_thread_init(record, 1, 1, canBlockHere(), 0);
    m.x.emscripten_tls_init();
  },
  // pthread_create (wasm/web.c's wnn_web_thread_new only) makes a thread's
  // record and stack; js/thread.js runs the thread, so nothing is started here.
  __pthread_create_js: () => () => 0,
  _emscripten_default_pthread_stack_size: () => () => THREAD_STACK,
  emscripten_get_now: () => () => performance.now(),
  clock_gettime: (m) => (id, tp) => {
    const now = id === 0 ? Date.now() : performance.now();
    const view = new DataView(m.current.buffer);
    view.setInt32(tp, Math.floor(now / 1000), true);
    view.setInt32(tp + 4, Math.floor((now % 1000) * 1e6), true);
    return 0;
  },
  // musl's alias of it, which dist/wnn-mt-relaxed.wasm (linked without
  // binaryen's clean-up) imports as well.
  __clock_gettime: (m) => threadGlue.clock_gettime(m),
  // malloc's growth of the shared memory (sbrk): to what it asks plus a
  // quarter (or just what it asks), in 64 KiB pages; false when the memory
  // cannot grow that far.
  emscripten_resize_heap: (m) => (requested) => {
    requested >>>= 0;
    const old = m.current.buffer.byteLength;
    if (requested <= old) return 0; // another thread grew it meanwhile: malloc retries
    const max = MT_MEMORY.maximum * 65536;
    for (const want of [Math.min(max, requested + (requested >>> 2)), requested]) {
      if (want > max) continue;
      try {
        m.current.grow(Math.ceil((want - m.current.buffer.byteLength) / 65536));
        return 1;
      } catch { /* try the smaller size */ }
    }
    return 0;
  },
  emscripten_check_blocking_allowed: () => () => {},
  _emscripten_notify_thread_queue: () => () => 0,
  emscripten_receive_on_main_thread_js: () => () => 0,
  __emscripten_thread_cleanup: () => () => {},
  emscripten_unwind_to_js_event_loop: () => () => { throw new WnnError('WNN_ERR_UNSUPPORTED', 'dist/wnn-mt.wasm: unwinding to the event loop is not supported'); },
  exit: () => (code) => { throw new WnnError('WNN_ERR_UNSUPPORTED', `wasm called exit(${code})`); },
  emscripten_webgl_create_context: () => () => 0,
  emscripten_set_canvas_element_size: () => () => -1,
};

// options.threads: undefined/null (the default) or an integer 1 to 64.
function readThreads(value, context) {
  if (value === undefined || value === null) return;
  if (!Number.isInteger(value) || value < 1 || value > 64) {
    fail('WNN_ERR_INVALID_ARGUMENT', `${context}: options.threads must be an integer from 1 to 64, got ${describe(value)}`);
  }
}

// A thread's libc record and stack, made by a running thread of `rt` for a
// new one (which cannot allocate before it has a stack): {record, top, base}.
function newThread(rt, context) {
  const out = rt.malloc(12);
  const status = rt.x.wnn_web_thread_new(THREAD_STACK, out);
  const thread = { record: rt.u32(out), top: rt.u32(out + 4), base: rt.u32(out + 8) };
  rt.x.free(out);
  rt.check(status, context);
  return thread;
}

// Makes the calling JS thread the C thread `thread` of newThread for the
// instance whose exports are x: its stack, its record, its thread-local
// storage (not the constructors: the memory's first instance ran them).
function enterThread(x, { record, top, base }) {
  x.emscripten_stack_set_limits(top, base);
  x.stackRestore(top);
  x._emscripten_thread_init(record, 0, 0, canBlockHere(), 0);
  x.emscripten_tls_init();
}

/** A worker thread's instance of dist/wnn-mt.wasm on `memory`, entered as
 * the C thread `thread` (js/thread.js): its exports. */
export function threadInstance(module, memory, thread) {
  const m = { current: memory, x: null };
  m.x = new WebAssembly.Instance(module, importsFor(module, m)).exports;
  enterThread(m.x, thread);
  return m.x;
}

// How this host starts threads, once: null where it cannot (no shared
// memory, a page without cross-origin isolation, no workers: Cloudflare
// workerd), else {cores, spawn(url) -> {post, on(message|error)}}.
let hostPromise;
function threadHost() {
  hostPromise ??= (async () => {
    if (typeof SharedArrayBuffer !== 'function' || globalThis.crossOriginIsolated === false) return null;
    try {
      new WebAssembly.Memory({ initial: 1, maximum: 1, shared: true });
    } catch {
      return null;
    }
    // Node, Bun and Deno: worker_threads, whose workers can be unreferenced
    // (Deno's Web Workers would keep the process alive).
    const serverSide = typeof process === 'object' || typeof globalThis.Deno === 'object';
    let wt = null, os = null;
    if (serverSide) {
      try {
        [wt, os] = await Promise.all([importNode('worker_threads'), importNode('os')]);
      } catch { /* no worker_threads: Web Workers if there are */ }
    }
    if (wt?.Worker) {
      return {
        cores: os.availableParallelism?.() ?? os.cpus().length,
        spawn(url) {
          const w = new wt.Worker(url);
          return {
            post: (m) => w.postMessage(m),
            on: (f) => {
              // Referenced until it is ready (a load awaits it), then not: a
              // parked worker does not keep the process alive.
              w.on('message', (m) => { w.unref(); f(m); });
              w.on('error', (e) => { w.unref(); f({ error: String(e?.stack ?? e) }); });
            },
          };
        },
      };
    }
    if (typeof Worker !== 'function') return null;
    return {
      cores: globalThis.navigator?.hardwareConcurrency ?? 1,
      spawn(url) {
        const w = new Worker(url, { type: 'module' });
        return { post: (m) => w.postMessage(m), on: (f) => { w.onmessage = (e) => f(e.data); w.onerror = (e) => f({ error: e.message ?? String(e) }); } };
      },
    };
  })();
  return hostPromise;
}

/** Whether this host runs dist/wnn-mt.wasm (shared memory and workers). */
export async function threadsSupported() {
  return simdSupported() && (await threadHost()) !== null;
}

// The threaded runtime of `module` with at least `threads - 1` worker
// threads parked in it (more are started when a load asks for more).
const mtRuntimes = new WeakMap(); // WebAssembly.Module -> Promise<Runtime>
async function mtRuntimeFor(module, host, threads) {
  let p = mtRuntimes.get(module);
  if (!p) {
    const m = { current: new WebAssembly.Memory(MT_MEMORY), x: null };
    p = WebAssembly.instantiate(module, importsFor(module, m)).then((instance) => {
      m.x = instance.exports;
      const rt = new Runtime(instance, m.current);
      rt.threading = { module, host, started: 0, starting: Promise.resolve(), defaults: defaultThreads(host) };
      return rt;
    });
    mtRuntimes.set(module, p);
    p.catch(() => mtRuntimes.delete(module));
  }
  const rt = await p;
  // One start at a time: two loads asking for 4 threads start 3 workers.
  const t = rt.threading;
  t.starting = t.starting.catch(() => {}).then(() => startWorkers(rt, threads - 1 - t.started));
  await t.starting;
  return rt;
}

// The threads a model loaded with options.threads = `requested` runs with.
function threadsOf(rt, requested) {
  return rt.threading ? requested ?? rt.threading.defaults : 1;
}

async function startWorkers(rt, count) {
  if (count <= 0) return;
  const t = rt.threading;
  const url = new URL('./thread.js', import.meta.url);
  const x = rt.x;
  const started = [];
  for (let i = 0; i < count; i++) {
    const thread = newThread(rt, 'load: starting a worker thread');
    const worker = t.host.spawn(url);
    started.push(new Promise((resolve, reject) => {
      worker.on((msg) => {
        if (msg?.ready) resolve();
        else if (msg?.error) reject(new WnnError('WNN_ERR_UNSUPPORTED', `load: a worker thread of dist/wnn-mt.wasm failed: ${msg.error}`));
      });
    }));
    worker.post({ module: t.module, memory: rt.memory, thread });
  }
  await Promise.all(started);
  t.started += count;
  // Each worker says it is ready just before it parks: wait until it has.
  const deadline = performance.now() + 10000;
  while (x.wnn_web_threads_serving() < t.started) {
    if (performance.now() > deadline) fail('WNN_ERR_UNSUPPORTED', `load: ${t.started} worker threads started but only ${x.wnn_web_threads_serving()} became ready within 10 s`);
    await new Promise((r) => setTimeout(r, 1));
  }
}

class Runtime {
  constructor(instance, memory, attached = false) {
    this.x = instance.exports;
    this.mem = memory ?? instance.exports.memory;
    this.threading = null; // dist/wnn-mt.wasm: its worker threads
    if (this.x._initialize) this.x._initialize();
    else if (!attached) this.x.__wasm_call_ctors?.();
    this.decoder = new TextDecoder();
    this.slot = this.malloc(8); // out-parameter for handles
    liveRuntimes.add(this);
    for (const id of jsCodecs.keys()) this.registerCodec(id);
  }

  // Tells the C registry of this instance whether JS decodes user codec id.
  registerCodec(id) {
    const codec = jsCodecs.get(id);
    const name = new TextEncoder().encode(`${codec?.name ?? ''}\0`);
    const p = this.malloc(name.length);
    new Uint8Array(this.memory.buffer, p, name.length).set(name);
    const status = this.x.wnn_web_codec_register(id, p, codec ? 1 : 0);
    this.x.free(p);
    this.check(status, 'registerCodec');
  }

  get memory() { return this.mem; }

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
    // A view of shared memory is copied first: TextDecoder refuses one in browsers.
    return this.decoder.decode(this.threading ? b.slice(ptr, end) : b.subarray(ptr, end));
  }

  u32(ptr) { return new DataView(this.memory.buffer).getUint32(ptr, true); }

  // Throws the C failure `status` with message `msg` (default wnn_last_error()).
  check(status, context, msg, map) {
    if (status === 0) return;
    const code = STATUS[status] ?? `WNN_STATUS_${status}`;
    const detail = translate(map, msg ?? this.cstr(this.x.wnn_last_error()));
    fail(code, `${context}: ${detail || this.cstr(this.x.wnn_status_str(status))}`);
  }

  tensorInfo(model, kind, i) {
    const x = this.x;
    const name = this.cstr(x.wnn_web_tensor_name(model, kind, i));
    const dtype = DTYPES[x.wnn_web_tensor_dtype(model, kind, i)] ?? 'invalid';
    const ndim = x.wnn_web_tensor_ndim(model, kind, i);
    const shape = Array.from({ length: ndim }, (_, d) => x.wnn_web_tensor_dim(model, kind, i, d));
    const info = { name, shape, dtype, nbytes: x.wnn_web_tensor_nbytes(model, kind, i) };
    if (kind === KIND_INPUT && shape.includes(-1)) {
      // Run-time shapes: a named dim shows its name, as onnxruntime-web shows it.
      info.dims = {};
      shape.forEach((size, d) => {
        const p = size === -1 ? x.wnn_web_input_dim_name(model, i, d) : 0;
        if (!p) return;
        const dim = this.cstr(p);
        shape[d] = dim;
        const field = (f) => x.wnn_web_input_dim_field(model, i, d, f);
        info.dims[dim] = { default: field(0), max: field(1) || null, multiple: field(2) };
      });
    }
    return info;
  }

  // An executor's current inputs (kind 0) or outputs (kind 1), as tensorInfo
  // gives them, with the executor's shapes and sizes.
  executorInfo(handle, kind, list) {
    const x = this.x;
    return list.map((t, i) => {
      const ndim = x.wnn_web_executor_tensor(handle, kind, i, -1);
      const shape = Array.from({ length: ndim }, (_, d) => x.wnn_web_executor_tensor(handle, kind, i, d));
      return { name: t.name, dtype: t.dtype, shape, nbytes: x.wnn_web_executor_tensor(handle, kind, i, -2) };
    });
  }
}

// -------------------------------------------------------------------- model

/**
 * Loads a .wnn artifact. `source`: URL string or URL, Request, Response (or a
 * promise of one), ArrayBuffer or Uint8Array. Options: wasm (a
 * WebAssembly.Module, URL or bytes; default this package's dist/wnn-relaxed.wasm
 * where the engine has relaxed SIMD, else dist/wnn.wasm, or
 * dist/wnn-full.wasm for an artifact using an op dist/wnn.wasm leaves out, or
 * dist/wnn-scalar.wasm without SIMD128), onProgress(loaded, total),
 * kernels ('auto' | 'scalar'), verifyChecksum (default true), convert (the
 * options of convert(), used when the source is an ONNX model), params (the
 * Params of loadParams() a graph artifact converted with --params-out needs;
 * the model then loads in the params' wasm instance).
 */
export async function load(source, options) {
  // Each option read once, before anything else happens.
  const { kernels: kernelsName, onProgress, wasm, verifyChecksum, convert: convertOptions, params, codecs, map: mapSource, threads: threadsOption } = readOptions(options, 'load',
    ['kernels', 'onProgress', 'wasm', 'verifyChecksum', 'convert', 'params', 'codecs', 'map', 'threads']);
  readThreads(threadsOption, 'load');
  const conversion = readConvertOptions(convertOptions);
  const kernelsKey = kernelsName ?? 'auto';
  const kernels = typeof kernelsKey === 'string' && Object.hasOwn(KERNELS, kernelsKey) ? KERNELS[kernelsKey] : undefined;
  if (kernels === undefined) {
    fail('WNN_ERR_INVALID_ARGUMENT', `options.kernels: ${typeof kernelsName === 'string' ? `"${kernelsName}"` : describe(kernelsName)}, expected "auto" or "scalar"`);
  }
  if (onProgress != null && typeof onProgress !== 'function') fail('WNN_ERR_INVALID_ARGUMENT', `options.onProgress: expected a function, got ${describe(onProgress)}`);
  if (params != null && !isParams(params)) {
    fail('WNN_ERR_INVALID_ARGUMENT', `options.params: expected the Params of wnn.loadParams(), got ${describe(params)}`);
  }
  const flags = LOAD_BORROW | (verifyChecksum === false ? LOAD_NO_CHECKSUM : 0);
  // dist/wnn.wasm has SIMD128 kernels only: the portable ones are
  // dist/wnn-scalar.wasm's, the default module for kernels: 'scalar'.
  const module = wasm ?? (kernels === KERNELS.scalar ? defaultWasmUrl(false) : undefined);
  // A model binds params of its own wasm instance: theirs, unless options.wasm
  // names another (refused below).
  let [bytes, rt] = await Promise.all([readSource(source, onProgress ?? undefined),
    params && module === undefined ? paramsRuntime(params) : runtimeFor(module, kernels === KERNELS.scalar ? 1 : threadsOption)]);
  if (params && paramsRuntime(params) !== rt) {
    fail('WNN_ERR_INVALID_ARGUMENT', 'options.params: the params were loaded into another wasm module than options.wasm picks; load both with the same options.wasm');
  }
  // ONNX bytes (told apart by content) are converted first (docs/js.md: why
  // converting ahead of time is better).
  if (looksLikeOnnx(bytes)) bytes = await convertOnnx(bytes, await placeOf(await source), conversion);
  const map = mapSource == null ? null : await readMap(mapSource, bytes);
  // From here to the C call no caller code runs: `bytes` is our own view.
  try {
    return await withLossless(() => loadInto(rt, bytes, flags, kernels, params ?? null, map, threadsOf(rt, threadsOption)), codecs);
  } catch (e) {
    // The default module leaves out a few rare ops: such an artifact loads in
    // dist/wnn-full.wasm (an explicit options.wasm is never replaced).
    if (module !== undefined || !simdSupported() || e.code !== 'WNN_ERR_UNKNOWN_OP' || !e.message.includes('leaves out')) throw e;
    if (params) {
      // Params live in one instance: they cannot follow the model to another.
      fail(e.code, `${e.message}; its params must then be loaded there too: loadParams(source, {wasm: new URL('dist/wnn-full.wasm' of this package)}) and load(graph, {params, wasm: the same URL})`);
    }
    const full = await runtimeFor(fullWasmUrl(), 1);
    return withLossless(() => loadInto(full, bytes, flags, kernels, null, map), codecs);
  }
}

function loadInto(rt, bytes, flags, kernels, params, map, threads = 1) {
  const size = bytes.length;
  const handle = params ? paramsBind(params, 'load') : 0; // throws when disposed
  if (bytes.buffer === rt.memory.buffer) bytes = bytes.slice(); // malloc may grow (and detach) it
  const data = rt.malloc(size);
  new Uint8Array(rt.memory.buffer, data, size).set(bytes);
  decodeFailure = null;
  const status = rt.x.wnn_web_model_load(data, size, handle, flags, kernels, rt.slot);
  if (status !== 0) {
    const err = loadError(rt, status, 'loading the model', map);
    rt.x.free(data);
    if (params) paramsUnbind(params);
    throw err;
  }
  return new Model(rt, rt.u32(rt.slot), data, params, map, threads);
}

// ---------------------------------------------------------------------- map

// The map file of a release artifact (docs/format.md, "Release artifacts and
// the map file"): its nodes and values by index, after checking that it
// belongs to `artifact` (its SHA-256 and size).
async function readMap(source, artifact) {
  let raw = source;
  if (typeof source === 'string' && source.trimStart().startsWith('{')) raw = parseMap(source);
  else if (source === null || typeof source !== 'object' || bytesOf(source) || (typeof Response !== 'undefined' && source instanceof Response) || source instanceof URL) {
    raw = parseMap(new TextDecoder().decode(await readSource(source, undefined, 'map')));
  }
  if (raw?.wnn_map !== 1) fail('WNN_ERR_INVALID_ARGUMENT', `options.map: not a wnn map file (JSON with "wnn_map": 1), got ${describe(raw?.wnn_map === undefined ? raw : raw.wnn_map)}`);
  const want = raw.artifact ?? {};
  if (typeof want.sha256 !== 'string' || typeof want.bytes !== 'number') fail('WNN_ERR_INVALID_ARGUMENT', 'options.map: the map has no artifact digest ("artifact": {"sha256", "bytes"})');
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) fail('WNN_ERR_UNSUPPORTED', 'options.map: checking a map needs crypto.subtle (a secure context: https or localhost)');
  const digest = new Uint8Array(await subtle.digest('SHA-256', artifact));
  const hex = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
  if (hex !== want.sha256 || want.bytes !== artifact.length) {
    fail('WNN_ERR_INVALID_ARGUMENT', `options.map is the map of another artifact (SHA-256 ${want.sha256}, ${want.bytes} bytes); this one's is ${hex} (${artifact.length} bytes)`);
  }
  const nodes = new Map(), values = new Map();
  for (const n of Array.isArray(raw.nodes) ? raw.nodes : []) if (Number.isInteger(n?.node)) nodes.set(n.node, n);
  for (const v of Array.isArray(raw.values) ? raw.values : []) if (Number.isInteger(v?.value)) values.set(v.value, v);
  return { raw, nodes, values };
}

function parseMap(text) {
  try {
    return JSON.parse(text);
  } catch (e) {
    return fail('WNN_ERR_INVALID_ARGUMENT', `options.map: not JSON (${e.message})`);
  }
}

// "Conv '/c1/Conv' + Relu '/r1/Relu'" for node i, or '' when the map does not know it.
function nodeSources(map, i) {
  const n = map?.nodes.get(i);
  if (!n) return '';
  if (n.added) return `(added: ${n.added})`;
  return (Array.isArray(n.onnx) ? n.onnx : []).map((s) => `${s?.op} '${s?.name ?? ''}'`).join(' + ');
}

// A message with the source names added after "node N (Op)", "value N" and
// "values[N]" (as the CLI's --map does).
function translate(map, msg) {
  if (!map || !msg) return msg;
  return msg.replace(/(?<![\w])(?:node (\d+)(?: \([^)]*\))?|values\[(\d+)\]|value (\d+))/g, (m, node, v1, v2) => {
    if (node !== undefined) {
      const names = nodeSources(map, Number(node));
      return names ? `${m} [ONNX ${names}]` : m;
    }
    const name = map.values.get(Number(v1 ?? v2))?.name;
    return typeof name === 'string' ? `${m} ['${name}']` : m;
  });
}

// ------------------------------------------------------------------- codecs

const jsCodecs = new Map(); // user codec id -> {name, decode}
const liveRuntimes = new Set(); // every Runtime: registerCodec reaches them all
let decodeFailure = null; // what the last JS decoder threw or returned instead of bytes

/**
 * Registers `decode(src, dstLength) => Uint8Array` as user codec `id`
 * (128-255) for every later load, in every wasm instance; null unregisters.
 * `src` is a copy of the stored bytes; the result must hold exactly
 * dstLength bytes (any TypedArray, DataView or ArrayBuffer). Options: name
 * (shown in messages; default "js-ID").
 */
export function registerCodec(id, decode, options) {
  if (!Number.isInteger(id) || id < 128 || id > 255) {
    fail('WNN_ERR_INVALID_ARGUMENT', `registerCodec: id must be an integer from 128 to 255 (the user codec ids), got ${typeof id === 'number' ? id : describe(id)}`);
  }
  if (decode !== null && typeof decode !== 'function') fail('WNN_ERR_INVALID_ARGUMENT', `registerCodec: decode must be a function or null, got ${describe(decode)}`);
  const { name } = readOptions(options, 'registerCodec', ['name']);
  if (name != null && (typeof name !== 'string' || !name)) fail('WNN_ERR_INVALID_ARGUMENT', `registerCodec: options.name must be a non-empty string, got ${describe(name)}`);
  if (decode) jsCodecs.set(id, { name: name ?? `js-${id}`, decode });
  else jsCodecs.delete(id);
  for (const rt of liveRuntimes) rt.registerCodec(id);
}

// env.wnn_js_decode: runs the registered decoder and writes its bytes at dst;
// returns how many bytes it produced (the C side refuses any count but size).
function jsDecode(memory, id, src, n, dst, size) {
  if (id === 1 || id === 2) return losslessDecode(memory, id, src, n, dst, size);
  const codec = jsCodecs.get(id);
  if (!codec) return 0;
  let out;
  try {
    out = codec.decode(new Uint8Array(memory.buffer, src, n).slice(), size);
  } catch (e) {
    decodeFailure = `the decoder of codec ${id} threw: ${e?.message ?? String(e)}`;
    return 0;
  }
  const bytes = bytesOf(out);
  if (!bytes) {
    decodeFailure = `the decoder of codec ${id} returned ${describe(out)}, not bytes`;
    return 0;
  }
  if (bytes.length === size) new Uint8Array(memory.buffer, dst, size).set(bytes);
  return bytes.length;
}

// ------------------------------------------------- lz4 and zstd (codecs 1, 2)
//
// The web modules leave liblz4's and libzstd's decoders out (size budget):
// their runtime hands lz4 and zstd streams to JS, which decodes them with
// dist/wnn-codecs.wasm. That module is fetched the first time a load needs
// it: the load fails asking for it, and withLossless loads it and retries.

let lossless = null; // the exports of the dist/wnn-codecs.wasm instance
let losslessWanted = false; // a decode asked for lz4/zstd before it was loaded

const codecsWasmUrl = () => new URL('../dist/wnn-codecs.wasm', import.meta.url);

async function loadLossless(option) {
  const module = await compileFrom(option ?? codecsWasmUrl());
  const instance = await WebAssembly.instantiate(module, { env: { emscripten_notify_memory_growth: () => {} } });
  instance.exports._initialize?.();
  lossless = instance.exports;
}

// Runs attempt(); when it failed only for want of the lossless decoders,
// loads them (options.codecs, or the package's dist/wnn-codecs.wasm) and
// runs it once more.
async function withLossless(attempt, option) {
  losslessWanted = false;
  try {
    return attempt();
  } catch (e) {
    if (!losslessWanted || lossless) throw e;
    try {
      await loadLossless(option);
    } catch (why) {
      fail('WNN_ERR_IO', `weights stored with lz4 or zstd need dist/wnn-codecs.wasm (options.codecs), which did not load: ${why.message}`);
    }
    return attempt();
  }
}

function losslessDecode(memory, id, src, n, dst, size) {
  if (!lossless) {
    losslessWanted = true;
    decodeFailure = 'the lz4/zstd decoders of dist/wnn-codecs.wasm were not loaded';
    return 0;
  }
  const x = lossless;
  const s = x.malloc(Math.max(1, n));
  const d = s ? x.malloc(Math.max(1, size)) : 0;
  let got = 0;
  if (s && d) {
    new Uint8Array(x.memory.buffer, s, n).set(new Uint8Array(memory.buffer, src, n));
    got = x.wnn_codecs_decode(id, s, n, d, size) >>> 0;
    if (got === size) new Uint8Array(memory.buffer, dst, size).set(new Uint8Array(x.memory.buffer, d, size));
  } else {
    decodeFailure = `dist/wnn-codecs.wasm: out of memory for ${n + size} bytes`;
  }
  if (s) x.free(s);
  if (d) x.free(d);
  return got;
}

// The message of a failed load, with what a JS decoder did when one failed.
function loadError(rt, status, what, map) {
  let msg = `${what}: ${translate(map, rt.cstr(rt.x.wnn_last_error()))}`;
  if (decodeFailure) msg += ` (${decodeFailure})`;
  decodeFailure = null;
  return new WnnError(STATUS[status], msg);
}

// ------------------------------------------------------------------- params

/**
 * Loads a params blob (.wnnp, written by `wnn convert --params-out`) for graph
 * artifacts converted against it: `load(graph, {params})`. `source` as for
 * load(). Options: onProgress(loaded, total), wasm (as for load(); a model
 * binds params only in the same wasm instance), verifyChecksum (default true:
 * the tensors' CRCs and the blob's SHA-256).
 */
export async function loadParams(source, options) {
  const { onProgress, wasm, verifyChecksum, codecs, threads } = readOptions(options, 'loadParams', ['onProgress', 'wasm', 'verifyChecksum', 'codecs', 'threads']);
  if (onProgress != null && typeof onProgress !== 'function') fail('WNN_ERR_INVALID_ARGUMENT', `loadParams: options.onProgress: expected a function, got ${describe(onProgress)}`);
  readThreads(threads, 'loadParams');
  const flags = LOAD_BORROW | (verifyChecksum === false ? LOAD_NO_CHECKSUM : 0);
  let [bytes, rt] = await Promise.all([readSource(source, onProgress ?? undefined, 'params'), runtimeFor(wasm, threads)]);
  if (bytes.buffer === rt.memory.buffer) bytes = bytes.slice();
  return withLossless(() => paramsInto(rt, bytes, flags), codecs);
}

function paramsInto(rt, bytes, flags) {
  const size = bytes.length;
  // 64-aligned, so that the tensors are used where they are (borrowed): the
  // weights then exist once in wasm memory, however many models bind them.
  const block = rt.malloc(size + 63);
  const data = (block + 63) & ~63;
  new Uint8Array(rt.memory.buffer, data, size).set(bytes);
  decodeFailure = null;
  const status = rt.x.wnn_web_params_load(data, size, flags, rt.slot);
  if (status !== 0) {
    const err = loadError(rt, status, 'loading the params');
    rt.x.free(block);
    throw err;
  }
  return new Params(rt, rt.u32(rt.slot), block, size);
}

// Module-private operations on params, set in Params' static block.
let isParams;
let paramsRuntime;
let paramsBind;
let paramsUnbind;

/**
 * A loaded params blob. dispose() defers: the blob stays in wasm memory until
 * the last model bound to it is disposed (a C reference count backs this), so
 * no order of dispose() calls breaks a live model; loading a model with
 * disposed params fails with WNN_ERR_DISPOSED.
 */
export class Params {
  #rt; #handle; #block; #models = 0;

  static {
    isParams = (p) => p !== null && typeof p === 'object' && #handle in p;
    paramsRuntime = (p) => p.#rt;
    paramsBind = (p, context) => {
      if (!p.#handle) fail('WNN_ERR_DISPOSED', `${context}: options.params was disposed`);
      p.#models++;
      return p.#handle;
    };
    paramsUnbind = (p) => {
      p.#models--;
      p.#release();
    };
  }

  constructor(rt, handle, block, byteLength) {
    this.#rt = rt;
    this.#handle = handle;
    this.#block = block;
    /** Tensors in the blob. */
    this.count = rt.x.wnn_params_count(handle);
    /** Bytes of the blob as loaded (its file size). */
    this.byteLength = byteLength;
  }

  get disposed() { return !this.#handle; }

  /** The WebAssembly.Memory the blob lives in. */
  get memory() { return this.#rt.memory; }

  /** Releases the blob now if no model uses it, else when the last one is disposed. Idempotent. */
  dispose() {
    if (!this.#handle) return;
    this.#rt.x.wnn_params_free(this.#handle); // models keep their own C references
    this.#handle = 0;
    this.#release();
  }

  // The bytes go once neither the caller nor a model holds the params.
  #release() {
    if (this.#handle || this.#models || !this.#block) return;
    this.#rt.x.free(this.#block);
    this.#block = 0;
  }
}

/**
 * The Model of another thread's share(), in this worker: the same weights in
 * the same shared memory, executors of this thread's own. Options: threads
 * (each run's threads; default the sharing model's), which use the worker
 * threads the sharing side started. Call it once per share() object.
 */
export async function attach(shared, options) {
  const { threads } = readOptions(options, 'attach', ['threads']);
  readThreads(threads, 'attach');
  const ok = shared !== null && typeof shared === 'object' && shared.wnnSharedModel === 1
    && shared.module instanceof WebAssembly.Module && shared.memory instanceof WebAssembly.Memory
    && ['model', 'data', 'refs', 'record', 'top', 'base', 'threads'].every((k) => Number.isInteger(shared[k]) && shared[k] > 0);
  if (!ok) fail('WNN_ERR_INVALID_ARGUMENT', `attach: expected the object of a model's share(), got ${describe(shared)}`);
  const { module, memory } = shared;
  const m = { current: memory, x: null };
  const instance = await WebAssembly.instantiate(module, importsFor(module, m));
  m.x = instance.exports;
  enterThread(m.x, shared);
  const rt = new Runtime(instance, memory, true);
  rt.threading = { module, host: null, started: 0, starting: Promise.resolve(), defaults: shared.threads };
  return new Model(rt, shared.model, shared.data, null, null, threads ?? shared.threads, shared.refs);
}

/** The C library's version ("0.1.0") of the wasm module `options.wasm` picks. */
export async function version(options) {
  const rt = await runtimeFor(readOptions(options, 'version').wasm, 1); // no workers for a version string
  return rt.cstr(rt.x.wnn_version());
}

// ---------------------------------------------------------------- convert

const defaultConvertWasmUrl = () => new URL('../dist/wnn-convert.wasm', import.meta.url);
const WNN_MAGIC = [0x89, 0x57, 0x4e, 0x4e, 0x0d, 0x0a, 0x1a, 0x0a];
const NPY_MAGIC = [0x93, 0x4e, 0x55, 0x4d, 0x50, 0x59];
const startsWith = (bytes, magic) => bytes.length >= magic.length && magic.every((b, i) => bytes[i] === b);

// Whether bytes look like an ONNX ModelProto rather than anything else: a
// protobuf whose first field is one of ModelProto's (ir_version, opset_import,
// producer_name/version, domain, model_version, doc_string, graph,
// metadata_props, training_info, functions) with a wire type that fits it.
function looksLikeOnnx(bytes) {
  if (bytes.length < 2 || startsWith(bytes, WNN_MAGIC)) return false;
  const tag = bytes[0];
  const field = tag >> 3;
  const wire = tag & 7;
  if (field === 1 || field === 5) return wire === 0; // ir_version, model_version
  return [2, 3, 4, 6, 7, 8, 14, 20, 25].includes(field) && wire === 2;
}

function readConvertOptions(options, context = 'convert') {
  const o = readOptions(options, context,
    ['shapes', 'defaultShapes', 'maxShapes', 'fixDims', 'consts', 'externalData', 'maxMemory', 'onWarning', 'wasm', 'weights', 'compress', 'release', 'onMap', 'keepSubnormals']);
  const args = [];
  // shapes: --shape; defaultShapes, maxShapes: --default-shape, --max-shape.
  for (const [key, flag] of [['shapes', '--shape'], ['defaultShapes', '--default-shape'], ['maxShapes', '--max-shape']]) {
    const list = o[key];
    if (list == null) continue;
    if (typeof list !== 'object') fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.${key}: expected {name: [dims]}, got ${describe(list)}`);
    for (const [name, shape] of Object.entries(list)) {
      const dims = readShape(shape, `convert: options.${key}['${name}']`);
      if (!dims.length) fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.${key}['${name}']: [] (a scalar has no dims)`);
      args.push(flag, `${name}=${dims.join('x')}`);
    }
  }
  if (o.fixDims != null && typeof o.fixDims !== 'boolean') fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.fixDims: expected a boolean, got ${describe(o.fixDims)}`);
  if (o.fixDims) args.push('--fix-dims');
  // release: --release; onMap(map): --map, the parsed map handed to it.
  if (o.release != null && typeof o.release !== 'boolean') fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.release: expected a boolean, got ${describe(o.release)}`);
  if (o.release) args.push('--release');
  // keepSubnormals: --keep-subnormals (docs/importer.md, "Subnormal weights").
  if (o.keepSubnormals != null && typeof o.keepSubnormals !== 'boolean') fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.keepSubnormals: expected a boolean, got ${describe(o.keepSubnormals)}`);
  if (o.keepSubnormals) args.push('--keep-subnormals');
  if (o.onMap != null && typeof o.onMap !== 'function') fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.onMap: expected a function, got ${describe(o.onMap)}`);
  if (o.onMap) args.push('--map', MAP_FILE);
  if (o.weights != null) {
    if (!['raw', 'fp16', 'int8'].includes(o.weights)) fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.weights: expected 'raw', 'fp16' or 'int8', got ${typeof o.weights === 'string' ? `'${o.weights}'` : describe(o.weights)}`);
    args.push('--weights', o.weights);
  }
  if (o.compress != null) {
    if (!['none', 'lz4', 'zstd'].includes(o.compress)) fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.compress: expected 'none', 'lz4' or 'zstd', got ${typeof o.compress === 'string' ? `'${o.compress}'` : describe(o.compress)}`);
    args.push('--compress', o.compress);
  }
  const files = new Map();
  if (o.consts != null) {
    if (typeof o.consts !== 'object') fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.consts: expected {name: bytes of a .npy or TensorProto .pb}, got ${describe(o.consts)}`);
    Object.entries(o.consts).forEach(([name, value], i) => {
      const bytes = bytesOf(value);
      if (!bytes) fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.consts['${name}']: expected the bytes of a .npy or an ONNX TensorProto .pb, got ${describe(value)}`);
      const file = `wnn-const-${i}${startsWith(bytes, NPY_MAGIC) ? '.npy' : '.pb'}`;
      files.set(file, bytes.slice());
      args.push('--const', `${name}=${file}`);
    });
  }
  if (o.maxMemory != null) {
    if (!Number.isSafeInteger(o.maxMemory) || o.maxMemory < 1) fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.maxMemory: expected a positive byte count, got ${describe(o.maxMemory)}`);
    args.push('--max-memory', String(o.maxMemory));
  }
  if (o.externalData != null && typeof o.externalData !== 'object') {
    fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.externalData: expected {location: bytes or URL}, got ${describe(o.externalData)}`);
  }
  if (o.onWarning != null && typeof o.onWarning !== 'function') fail('WNN_ERR_INVALID_ARGUMENT', `convert: options.onWarning: expected a function, got ${describe(o.onWarning)}`);
  return { args, files, externalData: o.externalData ?? {}, onWarning: o.onWarning, onMap: o.onMap, wasm: o.wasm };
}

// Where the model sits in the converter's in-memory folder, and which URL
// that folder stands for (so that the external data files the model names,
// relative to it, can be fetched). The CLI names a model after its file, or
// after its folder when the file is model.onnx: the same path gives the same
// artifact (its metadata "name") as `wnn convert` on the file.
async function placeOf(source) {
  if (typeof source === 'string') source = await toUrl(source);
  else if (typeof Request !== 'undefined' && source instanceof Request) source = new URL(source.url);
  else if (typeof Response !== 'undefined' && source instanceof Response) source = source.url ? new URL(source.url) : null;
  if (!(source instanceof URL)) return { path: 'model.onnx', root: null };
  const parts = source.pathname.split('/').map((p) => { try { return decodeURIComponent(p); } catch { return p; } });
  const file = parts.at(-1) || 'model.onnx';
  const folder = parts.at(-2);
  if (file === 'model.onnx' && folder && !folder.includes('..')) {
    return { path: `${folder}/${file}`, root: new URL('../', source) };
  }
  return { path: file, root: new URL('./', source) };
}

const ARTIFACT_FILE = 'out.wnn';
const REPORT_FILE = 'out.report.json';
const MAP_FILE = 'out.map.json';

/**
 * Converts an ONNX model to a .wnn artifact with the importer compiled to
 * WebAssembly (dist/wnn-convert.wasm, the CLI's `wnn convert`). `source` as
 * for load(). Options: shapes ({name: dims}, --shape), consts ({name: bytes of
 * a .npy or TensorProto}, --const), externalData ({location: bytes, URL,
 * Request or Response}: files the model's external tensors name; when the
 * source is a URL or path, missing ones are read next to it), maxMemory,
 * onWarning(message), wasm (the converter module; default this package's
 * dist/wnn-convert.wasm). Resolves the artifact's bytes.
 */
export async function convert(source, options) {
  const opts = readConvertOptions(options);
  const [onnx, place] = await Promise.all([readSource(source), Promise.resolve(source).then(placeOf)]);
  if (startsWith(onnx, WNN_MAGIC)) fail('WNN_ERR_INVALID_ARGUMENT', 'convert: the source is already a .wnn artifact; load() it');
  return convertOnnx(onnx, place, opts);
}

async function convertOnnx(onnx, place, { args, files, externalData, onWarning, onMap, wasm }) {
  const module = await compileFrom(wasm ?? defaultConvertWasmUrl());
  files.set(place.path, onnx.slice());
  const dir = place.path.includes('/') ? place.path.slice(0, place.path.lastIndexOf('/') + 1) : '';
  for (const [location, value] of Object.entries(externalData)) {
    files.set(dir + location, bytesOf(value)?.slice() ?? await readSource(value, undefined, `externalData['${location}']`));
  }
  const argv = ['wnn', 'convert', place.path, '-o', ARTIFACT_FILE, '--report', REPORT_FILE, ...args];
  // A file the importer opens that we do not have is fetched next to the
  // model and the conversion runs again (at most once per file).
  const tried = new Set();
  const { runWasiCommand } = await import('./wasi.js');
  for (;;) {
    const missing = [];
    const r = await runWasiCommand(module, {
      args: argv, files, lookup: (name) => { if (!tried.has(name)) missing.push(name); return null; },
    });
    let report = null;
    try {
      report = JSON.parse(new TextDecoder().decode(r.files.get(REPORT_FILE)));
    } catch { /* no report: a usage error, or a trap */ }
    if (report?.ok && r.code === 0) {
      for (const w of report.warnings) onWarning?.(w);
      if (onMap) onMap(JSON.parse(new TextDecoder().decode(r.files.get(MAP_FILE))));
      return r.files.get(ARTIFACT_FILE);
    }
    if (missing.length && place.root) {
      for (const name of missing) {
        tried.add(name);
        files.set(name, await readSource(new URL(name, place.root), undefined, `external data '${name.slice(dir.length)}'`));
      }
      continue;
    }
    for (const w of report?.warnings ?? []) onWarning?.(w);
    const stderr = r.stderr.split('\n').filter((l) => l && !l.startsWith('wnn: convert: warning:')).join('\n')
      .replace(/^wnn: (convert: )?/gm, '');
    let message = report?.message || stderr || `the converter exited with status ${r.code}`;
    if (missing.length) {
      const names = missing.map((m) => `'${m.slice(dir.length)}'`).join(', ');
      message += ` (the model names ${names}: pass ${missing.length > 1 ? 'them' : 'it'} in options.externalData, or convert from a URL or path)`;
    }
    const code = report ? (STATUS[report.status] ?? 'WNN_ERR_MALFORMED')
      : r.code === 2 ? 'WNN_ERR_INVALID_ARGUMENT' : r.code === 3 ? 'WNN_ERR_UNSUPPORTED' : 'WNN_ERR_MALFORMED';
    fail(code, `convert: ${message}`);
  }
}

// The named options of a call, each read once (undefined and null mean none).
function readOptions(options, context, names = ['kernels', 'onProgress', 'wasm', 'verifyChecksum']) {
  if (options === undefined || options === null) return {};
  if (typeof options !== 'object') fail('WNN_ERR_INVALID_ARGUMENT', `${context}: options must be an object, got ${describe(options)}`);
  const read = {};
  for (const name of names) read[name] = options[name];
  return read;
}

const publicInfo = ({ name, shape, dtype, dims }) => Object.freeze(dims
  ? { name, shape: Object.freeze(shape), dtype, dims: Object.freeze(dims) }
  : { name, shape: Object.freeze(shape), dtype });

// Module-private operations on executors, set in Executor's static block:
// the model and predict reach executors only through these, never through
// methods a caller could replace on an instance.
let executorDispose;
let executorWrite;
let modelMap; // Model -> its map (load's options.map), or null
let executorResize;

const ISA_NAMES = ['scalar', 'simd128', 'relaxed-simd'];

export class Model {
  #rt; #handle; #data; #params; #executors = new Set(); #in; #out; #map; #refs = 0;

  static {
    modelMap = (m) => m.#map;
  }

  constructor(rt, handle, data, params, map, threads, refs = 0) {
    this.#rt = rt;
    this.#refs = refs;
    /** Threads each run uses (load's options.threads where the threaded
     * module runs, else 1: docs/threads.md). */
    this.threads = threads;
    /** The instruction set of the wasm module the model runs in:
     * 'relaxed-simd' (dist/wnn-relaxed.wasm), 'simd128' or 'scalar'. */
    this.isa = ISA_NAMES[rt.x.wnn_web_isa()];
    this.#handle = handle;
    this.#data = data;
    this.#params = params;
    this.#map = map ?? null;
    const x = rt.x;
    const list = (kind, n) => Object.freeze(Array.from({ length: n }, (_, i) => Object.freeze(rt.tensorInfo(handle, kind, i))));
    this.#in = list(KIND_INPUT, x.wnn_model_num_inputs(handle));
    this.#out = list(KIND_OUTPUT, x.wnn_model_num_outputs(handle));
    this.inputs = Object.freeze(this.#in.map(publicInfo));
    this.outputs = Object.freeze(this.#out.map(publicInfo));
    this.numParams = x.wnn_model_num_params(handle);
    this.arenaBytes = x.wnn_model_arena_bytes(handle);
    this.weightsBytes = x.wnn_model_weights_bytes(handle);
    this.metadata = JSON.parse(rt.cstr(x.wnn_model_metadata(handle)));
  }

  #live(what) {
    if (!this.#handle) fail('WNN_ERR_DISPOSED', `${what}: the model was disposed`);
  }

  get disposed() { return !this.#handle; }

  /** The map file given to load() ({map}), as parsed, or null. */
  get map() { return this.#map?.raw ?? null; }

  /** The WebAssembly.Memory of the runtime instance this model lives in
   * (shared by every model loaded with the same wasm module). */
  get memory() { return this.#rt.memory; }

  /** In the threaded module: bytes its heap has in use now, on every thread
   * (the memory only ever grows); null in the others. */
  get heapUsed() { return this.#rt.x.wnn_web_heap_used?.() ?? null; }

  /** A new executor: allocates its arena now; run() allocates nothing.
   * Options: debug (true: TVM's debug executor, every value in memory of its
   * own, so that getValue reads any intermediate after a run; in
   * dist/wnn-full.wasm and dist/wnn-scalar.wasm only). */
  createExecutor(options) {
    const { debug, threads } = readOptions(options, 'createExecutor', ['debug', 'threads']);
    if (debug != null && typeof debug !== 'boolean') fail('WNN_ERR_INVALID_ARGUMENT', `createExecutor: options.debug must be true or false, got ${describe(debug)}`);
    readThreads(threads, 'createExecutor');
    return this.#createExecutor('createExecutor', !!debug, threads ?? this.threads);
  }

  #createExecutor(context, debug = false, threads = this.threads) {
    this.#live(context);
    const rt = this.#rt;
    if (debug && !rt.x.wnn_executor_create_debug) {
      fail('WNN_ERR_UNSUPPORTED', `${context}: debug executors are in dist/wnn-full.wasm and dist/wnn-scalar.wasm, not dist/wnn.wasm (its size budget): load the model with {wasm: new URL('dist/wnn-full.wasm' of this package)}`);
    }
    rt.check((debug ? rt.x.wnn_executor_create_debug : rt.x.wnn_executor_create)(this.#handle, rt.slot), context, undefined, this.#map);
    const handle = rt.u32(rt.slot);
    if (threads > 1 && !debug) {
      const status = rt.x.wnn_executor_set_threads(handle, rt.threading ? threads : 1);
      if (status !== 0) {
        const msg = rt.cstr(rt.x.wnn_last_error());
        rt.x.wnn_executor_destroy(handle);
        rt.check(status, context, msg);
      }
    }
    const ex = new Executor(this, rt, handle, (e) => this.#executors.delete(e), this.#in, this.#out);
    this.#executors.add(ex);
    return ex;
  }

  /**
   * Runs the model once on `inputs` ({name: typedArray or {data, shape}},
   * every input) and returns {name: tensor} for options.outputs (names or
   * indices; default all), copies.
   */
  async predict(inputs, options) {
    // 1. Everything read from the caller's objects, once.
    if (inputs === null || typeof inputs !== 'object') {
      fail('WNN_ERR_INVALID_ARGUMENT', `predict: inputs must be an object {name: typedArray or {data, shape}}, got ${describe(inputs)}`);
    }
    const given = [];
    for (const [name, value] of Object.entries(inputs)) {
      let data = value;
      let shape;
      // {data, shape}: any object that is not itself data (a TypedArray, an
      // Array, an ArrayBuffer or a DataView, which the dtype check refuses or takes).
      if (value !== null && typeof value === 'object' && taName(value) === undefined && !Array.isArray(value) && !bytesOf(value)) {
        ({ data, shape } = value);
      }
      given.push([name, readTensor(data, shape, 'predict')]);
    }
    const { outputs: chosen } = readOptions(options, 'predict', ['outputs']);
    let keys = null;
    if (chosen !== undefined && chosen !== null) {
      if (!Array.isArray(chosen)) fail('WNN_ERR_INVALID_ARGUMENT', `predict: options.outputs must be an array of output names or indices, got ${describe(chosen)}`);
      keys = Array.from({ length: Math.min(chosen.length, 1 << 16) }, (_, k) => chosen[k]);
    }
    // 2. Alive?
    this.#live('predict');
    // 3. Checks, before any wasm memory is touched.
    const wanted = keys ? keys.map((k) => indexIn(this.#out, 'output', k, 'predict')) : this.#out.map((_, i) => i);
    const resized = [];
    const writes = given.map(([name, tensor]) => {
      const i = indexIn(this.#in, 'input', name, 'predict');
      const info = this.#in[i];
      if (info.dims) {
        // Named dims: the shape given says which sizes this run uses.
        if (!tensor.shape) fail('WNN_ERR_SHAPE', `predict: input "${info.name}" has dynamic dims ${showShape(info.shape)}: pass {data, shape}`);
        checkInput({ ...info, shape: tensor.shape, nbytes: tensor.bytes.length }, tensor, 'predict');
        resized.push([i, tensor.shape]);
      } else {
        checkInput(info, tensor, 'predict');
      }
      return [i, tensor.bytes];
    });
    const set = new Set(writes.map(([i]) => i));
    const missing = this.#in.filter((_, i) => !set.has(i)).map((t) => `"${t.name}"`);
    if (missing.length) fail('WNN_ERR_NOT_FOUND', `predict: no value for input ${missing.join(', ')}`);
    // 4. A private executor: from here on no caller code runs.
    const ex = this.#createExecutor('predict');
    try {
      if (resized.length) executorResize(ex, resized.map(([i]) => i), resized.map(([, d]) => d));
      for (const [i, bytes] of writes) executorWrite(ex, i, bytes);
      ex.run();
      const result = {};
      for (const i of wanted) result[this.#out[i].name] = ex.getOutput(i);
      return result;
    } finally {
      executorDispose(ex);
    }
  }

  /**
   * What another thread needs to run this model on the same weights: a plain
   * object to post to a worker (worker_threads or a Web Worker started by
   * this page or process), where attach() turns it into a Model. The weights
   * stay where they are, once, in the threaded module's shared memory; each
   * thread's executors have activations of their own. One share() per
   * attach(): it carries a thread record and stack made for that worker. The
   * model is freed when the last of its handles (this one and every attached
   * one) is disposed. Only for models of dist/wnn-mt.wasm (threads > 1, or
   * load's options.wasm naming it), and not yet for a model bound to Params.
   */
  share() {
    this.#live('share');
    const rt = this.#rt;
    if (!rt.threading) {
      fail('WNN_ERR_UNSUPPORTED', 'share: the model was loaded in a single-threaded module, whose memory is not shared: load it with {threads: 2} or more where this host has shared memory and workers (wnn.threadsSupported())');
    }
    if (this.#params) fail('WNN_ERR_UNSUPPORTED', 'share: the model is bound to Params (loadParams), which share() does not carry yet: load a self-contained artifact to share it');
    const { record, top, base } = newThread(rt, 'share');
    if (!this.#refs) {
      this.#refs = rt.malloc(4);
      Atomics.store(new Int32Array(rt.memory.buffer), this.#refs >> 2, 1);
    }
    Atomics.add(new Int32Array(rt.memory.buffer), this.#refs >> 2, 1);
    return {
      wnnSharedModel: 1, module: rt.threading.module, memory: rt.memory, model: this.#handle,
      data: this.#data, refs: this.#refs, threads: this.threads, record, top, base,
    };
  }

  /** Index of the input with this exact name (or a checked index). */
  inputIndex(nameOrIndex) { return indexIn(this.#in, 'input', nameOrIndex, 'inputIndex'); }

  /** Index of the output with this exact name (or a checked index). */
  outputIndex(nameOrIndex) { return indexIn(this.#out, 'output', nameOrIndex, 'outputIndex'); }

  /** Frees the model, its artifact copy and every executor it still has. Idempotent. */
  dispose() {
    if (!this.#handle) return;
    for (const ex of [...this.#executors]) executorDispose(ex);
    // A shared model (share()/attach()) goes with the last of its handles,
    // on whichever thread that is.
    const last = !this.#refs || Atomics.sub(new Int32Array(this.#rt.memory.buffer), this.#refs >> 2, 1) === 1;
    if (last) {
      this.#rt.x.wnn_model_free(this.#handle);
      this.#rt.x.free(this.#data);
      if (this.#refs) this.#rt.x.free(this.#refs);
    }
    this.#refs = 0;
    this.#handle = 0;
    this.#data = 0;
    if (this.#params) paramsUnbind(this.#params);
    this.#params = null;
  }
}

// ----------------------------------------------------------------- executor

export class Executor {
  #model; #rt; #handle; #onDispose; #in; #out; #inputPtr = []; #outputPtr = []; #dynamic;

  static {
    executorDispose = (ex) => ex.#dispose();
    executorWrite = (ex, i, bytes) => ex.#write(i, bytes);
    executorResize = (ex, indices, dims) => ex.#resize(indices, dims, 'predict');
  }

  constructor(model, rt, handle, onDispose, inputs, outputs) {
    this.#model = model;
    this.#rt = rt;
    this.#handle = handle;
    this.#onDispose = onDispose;
    this.#in = inputs;
    this.#out = outputs;
    this.#dynamic = inputs.some((t) => t.dims);
    this.#refresh();
  }

  // Shapes, sizes and addresses after creation or a resize. Inputs live in
  // the arena at addresses fixed until the next resize (setInput writes
  // there; memory growth never moves them).
  #refresh() {
    const rt = this.#rt;
    if (this.#dynamic) {
      this.#in = rt.executorInfo(this.#handle, KIND_INPUT, this.#in);
      this.#out = rt.executorInfo(this.#handle, KIND_OUTPUT, this.#out);
    }
    this.#inputPtr = this.#in.map((_, i) => rt.x.wnn_web_input_data(this.#handle, i));
    this.#outputPtr = [];
  }

  /** The inputs' shapes now ({name, shape, dtype}): a dynamic model's
   * executor has the shapes of its last resize. */
  get inputs() { return this.#in.map(publicInfo); }

  /** The outputs' shapes now. */
  get outputs() { return this.#out.map(publicInfo); }

  /** Threads this executor's runs use (createExecutor's options.threads,
   * else the model's); a run uses fewer when fewer workers are idle, with
   * the same results. */
  get threads() {
    return this.#rt.x.wnn_executor_threads(this.#live('threads'));
  }

  /** Bytes of the executor's arena now (the largest plan it has used). */
  get arenaBytes() {
    return this.#rt.x.wnn_executor_arena_bytes(this.#live('arenaBytes'));
  }

  /**
   * Sets the shapes of inputs at once ({nameOrIndex: shape}): shapes are
   * inferred, memory is planned (and the arena grows if needed) now, so run()
   * still allocates nothing. All or nothing. Inputs must be set again after a
   * resize that changed a shape. Only a model with named dims
   * (model.inputs[i].dims) takes other shapes.
   */
  resize(shapes) {
    if (shapes === null || typeof shapes !== 'object') fail('WNN_ERR_INVALID_ARGUMENT', `resize: expected {name: shape}, got ${describe(shapes)}`);
    const list = Object.entries(shapes).map(([k, v]) => [k, readShape(v, `resize: input "${k}"`)]);
    this.#live('resize');
    const indices = list.map(([k]) => indexIn(this.#in, 'input', /^\d+$/.test(k) && !this.#in.some((t) => t.name === k) ? Number(k) : k, 'resize'));
    this.#resize(indices, list.map(([, v]) => v), 'resize');
    return this;
  }

  #resize(indices, dims, context) {
    const rt = this.#rt;
    const x = rt.x;
    const flat = dims.flat();
    const n = indices.length;
    const p = rt.malloc(8 * n + 8 * flat.length + 8);
    try {
      new Int32Array(rt.memory.buffer, p, n).set(indices);
      new Int32Array(rt.memory.buffer, p + 4 * n, n).set(dims.map((d) => d.length));
      const at = p + 8 * n;
      new Float64Array(rt.memory.buffer, at, flat.length).set(flat);
      const s = x.wnn_web_resize(this.#handle, n, p, p + 4 * n, at);
      if (s !== 0) rt.check(s, context, rt.cstr(x.wnn_executor_errmsg(this.#handle)) || undefined, modelMap(this.#model));
    } finally {
      x.free(p);
    }
    this.#refresh();
  }

  get model() { return this.#model; }
  get disposed() { return !this.#handle; }

  // The handle, or WNN_ERR_DISPOSED. (Disposing a model disposes its
  // executors first, so a live executor has a live model.)
  #live(what) {
    if (!this.#handle) fail('WNN_ERR_DISPOSED', `${what}: the executor was disposed`);
    return this.#handle;
  }

  /** Copies `data` into input `nameOrIndex`; its TypedArray type must match
   * the input's dtype and its length the input's element count; `shape`, when
   * given, must equal the input's shape. */
  setInput(nameOrIndex, data, shape) {
    const tensor = readTensor(data, shape, 'setInput'); // the caller's objects, read once
    this.#live('setInput');
    const i = indexIn(this.#in, 'input', nameOrIndex, 'setInput');
    // A dynamic model's input given another shape: resized first (one input;
    // inputs that share a dim are resized together with resize()).
    if (this.#dynamic && tensor.shape && !sameShape(tensor.shape, this.#in[i].shape)) {
      checkInput({ ...this.#in[i], shape: tensor.shape, nbytes: tensor.bytes.length }, tensor, 'setInput');
      this.#resize([i], [tensor.shape], 'setInput');
    }
    checkInput(this.#in[i], tensor, 'setInput');
    this.#write(i, tensor.bytes);
    return this;
  }

  // Copies bytes (already checked to be input i's nbytes) into input i.
  #write(i, bytes) {
    new Uint8Array(this.#rt.memory.buffer, this.#inputPtr[i], this.#in[i].nbytes).set(bytes);
  }

  /** Runs the graph once. */
  run() {
    const h = this.#live('run');
    const s = this.#rt.x.wnn_executor_run(h);
    if (s !== 0) this.#rt.check(s, 'run', this.#rt.cstr(this.#rt.x.wnn_executor_errmsg(h)), modelMap(this.#model));
    return this;
  }

  /** Output `nameOrIndex` as {name, shape, dtype, data}. data is a copy, or
   * with {view: true} a view of wasm memory valid until the next run(),
   * dispose() or memory growth (any load or createExecutor). */
  getOutput(nameOrIndex, options) {
    const view = readViewOption(options, 'getOutput');
    const h = this.#live('getOutput');
    const i = indexIn(this.#out, 'output', nameOrIndex, 'getOutput');
    if (this.#outputPtr[i] === undefined) {
      const p = this.#rt.x.wnn_web_output_data(h, i);
      if (!p) this.#rt.check(STATUS.indexOf('WNN_ERR_OUT_OF_RANGE'), 'getOutput', this.#rt.cstr(this.#rt.x.wnn_executor_errmsg(h)));
      this.#outputPtr[i] = p;
    }
    return this.#tensor(this.#out[i], this.#outputPtr[i], view);
  }

  /** Input `nameOrIndex` as the executor holds it: {name, shape, dtype, data},
   * a copy or with {view: true} a view (valid until the input is set again,
   * dispose() or memory growth). */
  getInput(nameOrIndex, options) {
    const view = readViewOption(options, 'getInput');
    this.#live('getInput');
    const i = indexIn(this.#in, 'input', nameOrIndex, 'getInput');
    return this.#tensor(this.#in[i], this.#inputPtr[i], view);
  }

  #tensor(info, ptr, view) {
    // float16 as a Float16Array where the engine has one (looked up now, not
    // at import), else as its bits in a Uint16Array.
    const F16 = info.dtype === 'float16' ? globalThis.Float16Array : undefined;
    const T = typeof F16 === 'function' ? F16 : ARRAYS[info.dtype];
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

  /** The model's named values (inputs, intermediates, outputs and params)
   * as {name, dtype, shape} (a debug executor's current shapes). */
  values() {
    const h = this.#live('values');
    const x = this.#rt.x;
    if (!x.wnn_web_value) fail('WNN_ERR_UNSUPPORTED', 'values: dist/wnn.wasm leaves the value API out: load the model with dist/wnn-full.wasm');
    const list = [];
    const slot = this.#rt.slot;
    for (let i = 0; i < x.wnn_executor_num_values(h); i++) {
      new DataView(this.#rt.memory.buffer).setUint32(slot, 0, true);
      const ndim = x.wnn_web_value?.(h, i, -1, slot) ?? -1;
      const name = this.#rt.cstr(this.#rt.u32(slot));
      if (ndim < 0 || !name) continue; // unnamed, or not readable yet
      const shape = Array.from({ length: ndim }, (_, d) => x.wnn_web_value(h, i, d, 0));
      list.push({ name, dtype: DTYPES[x.wnn_web_value(h, i, -3, 0)], shape });
    }
    return list;
  }

  /** Value `name` (an intermediate's source name, an input, output or param)
   * as {name, shape, dtype, data}, a copy (or a view with {view: true}).
   * Intermediates need a debug executor (createExecutor({debug: true})) and
   * a run; folded and fused values have no name of their own. */
  getValue(name, options) {
    const view = readViewOption(options, 'getValue');
    if (typeof name !== 'string') fail('WNN_ERR_INVALID_ARGUMENT', `getValue: name must be a string, got ${describe(name)}`);
    const h = this.#live('getValue');
    const rt = this.#rt;
    const x = rt.x;
    if (!x.wnn_web_value) fail('WNN_ERR_UNSUPPORTED', 'getValue: dist/wnn.wasm leaves the value API out: load the model with dist/wnn-full.wasm');
    const n = x.wnn_executor_num_values(h);
    let index = -1;
    for (let i = 0; i < n && index < 0; i++) {
      new DataView(rt.memory.buffer).setUint32(rt.slot, 0, true);
      x.wnn_web_value(h, i, -1, rt.slot);
      if (rt.u32(rt.slot) && rt.cstr(rt.u32(rt.slot)) === name) index = i;
    }
    if (index < 0) {
      // Unnamed here or not readable: the C message says which.
      const bytes = new TextEncoder().encode(`${name}\0`);
      const p = rt.malloc(bytes.length + 128); // the name, then room for the info and the DLTensor
      new Uint8Array(rt.memory.buffer, p, bytes.length).set(bytes);
      const at = (p + bytes.length + 7) & ~7;
      const st = x.wnn_executor_get_value_by_name(h, p, at, at + 56);
      x.free(p);
      rt.check(st || STATUS.indexOf('WNN_ERR_NOT_FOUND'), 'getValue', rt.cstr(x.wnn_executor_errmsg(h)) || `no value named '${name}'`);
    }
    const field = (what) => x.wnn_web_value(h, index, what, 0);
    const ndim = field(-1);
    if (ndim < 0) rt.check(-ndim - 100, 'getValue', rt.cstr(x.wnn_executor_errmsg(h)));
    const info = { name, dtype: DTYPES[field(-3)], shape: Array.from({ length: ndim }, (_, d) => field(d)), nbytes: field(-2) };
    return this.#tensor(info, field(-4), view);
  }

  /**
   * Times run() like TVM's time_evaluator: one warm-up run (discarded), then
   * `repeat` measurements of `number` runs each, `number` growing until one
   * measurement lasts at least minRepeatMs. Per-run milliseconds.
   */
  timeEvaluator(options) {
    const o = readOptions(options, 'timeEvaluator', ['number', 'repeat', 'minRepeatMs', 'profile']);
    if (o.profile !== undefined && typeof o.profile !== 'boolean') fail('WNN_ERR_INVALID_ARGUMENT', `timeEvaluator: profile must be true or false, got ${describe(o.profile)}`);
    let number = o.number === undefined ? 1 : o.number;
    const repeat = o.repeat === undefined ? 1 : o.repeat;
    const minRepeatMs = o.minRepeatMs === undefined ? 0 : o.minRepeatMs;
    // Checked without coercion: a valueOf must not run once the executor is known alive.
    for (const [k, v] of [['number', number], ['repeat', repeat]]) {
      if (!Number.isInteger(v) || v < 1) fail('WNN_ERR_INVALID_ARGUMENT', `timeEvaluator: ${k} must be an integer >= 1, got ${typeof v === 'number' ? v : describe(v)}`);
    }
    if (typeof minRepeatMs !== 'number' || !(minRepeatMs >= 0) || minRepeatMs === Infinity) {
      fail('WNN_ERR_INVALID_ARGUMENT', `timeEvaluator: minRepeatMs must be a finite number >= 0, got ${typeof minRepeatMs === 'number' ? minRepeatMs : describe(minRepeatMs)}`);
    }
    const h = this.#live('timeEvaluator');
    const x = this.#rt.x;
    const runOnce = () => {
      const s = x.wnn_executor_run(h);
      if (s !== 0) this.#rt.check(s, 'timeEvaluator', this.#rt.cstr(x.wnn_executor_errmsg(h)), modelMap(this.#model));
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
    const out = summarize(results);
    // The profile over as many more runs, apart from the timed ones (the
    // clock reads per node would count in them).
    if (o.profile) out.profile = this.profile({ runs: number });
    return out;
  }

  /**
   * Where the time goes, node by node (TVM's debug executor): one untimed
   * run, then `runs` runs (default 10) with per-node timing on. One row per
   * node that ran, slowest first: {node, op, name, shape (of its output 0),
   * ms (mean per run), share (of the nodes' summed time)}. Nodes that never
   * run (Reshape and other aliases, a dynamic model's shape nodes, untaken
   * If branches) are left out. The timing costs two clock reads per node.
   */
  profile(options) {
    const o = readOptions(options, 'profile', ['runs']);
    const runs = o.runs === undefined ? 10 : o.runs;
    if (!Number.isInteger(runs) || runs < 1) fail('WNN_ERR_INVALID_ARGUMENT', `profile: runs must be an integer >= 1, got ${typeof runs === 'number' ? runs : describe(runs)}`);
    const h = this.#live('profile');
    const rt = this.#rt;
    const x = rt.x;
    const runOnce = () => {
      const s = x.wnn_executor_run(h);
      if (s !== 0) rt.check(s, 'profile', rt.cstr(x.wnn_executor_errmsg(h)), modelMap(this.#model));
    };
    runOnce();
    const s = x.wnn_executor_set_profiling(h, 1);
    if (s !== 0) rt.check(s, 'profile', rt.cstr(x.wnn_executor_errmsg(h)));
    try {
      for (let r = 0; r < runs; r++) runOnce();
    } finally {
      x.wnn_executor_set_profiling(h, 0);
    }
    const rows = [];
    for (let i = 0; ; i++) {
      const count = x.wnn_web_profile_field(h, i, -2);
      if (Number.isNaN(count)) break;
      if (count === 0) continue;
      const ndim = x.wnn_web_profile_field(h, i, -1);
      const shape = [];
      for (let d = 0; d < ndim; d++) shape.push(x.wnn_web_profile_field(h, i, d));
      const row = {
        node: i, op: rt.cstr(x.wnn_web_profile_text(h, i, 0)), name: rt.cstr(x.wnn_web_profile_text(h, i, 1)),
        shape, ms: x.wnn_web_profile_field(h, i, -3) / count,
      };
      // A model loaded with {map}: the ONNX nodes each row computes.
      const mapped = modelMap(this.#model)?.nodes.get(i);
      if (mapped) row.onnx = Array.isArray(mapped.onnx) ? mapped.onnx : [];
      rows.push(row);
    }
    const total = rows.reduce((t, r) => t + r.ms, 0);
    for (const r of rows) r.share = total > 0 ? r.ms / total : 0;
    return rows.sort((a, b) => b.ms - a.ms || a.node - b.node);
  }

  /** Frees the executor's arena. Idempotent. */
  dispose() {
    this.#dispose();
  }

  #dispose() {
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
  Params.prototype[Symbol.dispose] = Params.prototype.dispose;
}
