// Type declarations of js/wnn.js, the `wnn` package. docs/js.md is the guide.

/** Element types of wnn tensors. */
export type DType = 'float32' | 'float16' | 'int64' | 'int32' | 'int8' | 'uint8' | 'bool' | 'float64';

/** The TypedArray that holds each dtype (float16 as raw bits, or a Float16Array where the engine has one). */
export interface DTypeArray {
  float32: Float32Array;
  float16: Uint16Array;
  int64: BigInt64Array;
  int32: Int32Array;
  int8: Int8Array;
  uint8: Uint8Array;
  bool: Uint8Array;
  float64: Float64Array;
}

/** Any TypedArray setInput accepts. */
export type TensorData = DTypeArray[DType];

/** An input or output of a model, as the artifact names it. */
export interface TensorInfo {
  readonly name: string;
  /** A model's input shows the name of each dynamic dim (docs/dynamic-shapes.md), as onnxruntime-web
   *  does; an executor's inputs and outputs, and every output, hold numbers. */
  readonly shape: readonly (number | string)[];
  readonly dtype: DType;
  /** A model's input with dynamic dims: each dim's default (what the artifact is planned for), max
   *  (null: unbounded) and multiple. */
  readonly dims?: Readonly<Record<string, { default: number; max: number | null; multiple: number }>>;
}

/** An input for predict with its shape: the shape, when given, must equal the input's shape exactly. */
export interface TensorInput {
  data: TensorData;
  shape?: readonly number[];
}

/** A tensor read from an executor. */
export interface Tensor {
  name: string;
  shape: number[];
  dtype: DType;
  data: TensorData;
}

// BEGIN enums generated from include/wnn.h by scripts/gen-js-enums.mjs
/** Status names of the C library, plus WNN_ERR_DISPOSED for use of a disposed object. */
export type ErrorCode =
  | 'WNN_ERR_INVALID_ARGUMENT' | 'WNN_ERR_OUT_OF_MEMORY' | 'WNN_ERR_TRUNCATED' | 'WNN_ERR_BAD_MAGIC'
  | 'WNN_ERR_VERSION' | 'WNN_ERR_FEATURE' | 'WNN_ERR_BAD_SECTION' | 'WNN_ERR_CHECKSUM'
  | 'WNN_ERR_MALFORMED' | 'WNN_ERR_UNKNOWN_OP' | 'WNN_ERR_BAD_ATTRIBUTE' | 'WNN_ERR_BAD_PLAN'
  | 'WNN_ERR_NOT_FOUND' | 'WNN_ERR_OUT_OF_RANGE' | 'WNN_ERR_DTYPE' | 'WNN_ERR_SHAPE'
  | 'WNN_ERR_SIZE' | 'WNN_ERR_UNSUPPORTED' | 'WNN_ERR_IO' | 'WNN_ERR_LIMIT' | 'WNN_ERR_DISPOSED';
// END enums

/** Every failure wnn reports. `message` carries the C library's detailed message. */
export class WnnError extends Error {
  readonly name: 'WnnError';
  readonly code: ErrorCode;
  /** The C wnn_status number; undefined for WNN_ERR_DISPOSED. */
  readonly status: number | undefined;
}

/** Where bytes come from. A string that is not an absolute URL is relative to the page in a browser and a file path in Node, Deno and Bun. */
export type Source = string | URL | Request | Response | ArrayBuffer | Uint8Array;

export interface LoadOptions {
  /** The runtime: a precompiled module (required on Cloudflare Workers), a URL or bytes.
   *  Default: this package's dist/wnn-relaxed.wasm where the engine has relaxed SIMD (results within
   *  FMA rounding of dist/wnn.wasm's), else dist/wnn.wasm, or dist/wnn-scalar.wasm where SIMD128 is missing;
   *  an artifact using one of the rare ops dist/wnn.wasm leaves out loads in dist/wnn-full.wasm.
   *  Every model loaded with the same module shares one instance. */
  wasm?: WebAssembly.Module | Source | Promise<Response>;
  /** Called as the artifact streams in; total is 0 when the size is unknown. */
  onProgress?: (loaded: number, total: number) => void;
  /** Kernel variants; 'scalar' forces the portable ones, which dist/wnn-scalar.wasm has
   *  (the default module for 'scalar'; dist/wnn.wasm refuses it). Default 'auto'. */
  kernels?: 'auto' | 'scalar';
  /** Verify section checksums (default true). */
  verifyChecksum?: boolean;
  /** When the source is an ONNX model (told apart by content), it is converted first with these options. */
  convert?: ConvertOptions;
  /** The params blob a graph artifact converted with `--params-out` needs (required for such an
   *  artifact, refused for a self-contained one). The model loads in the params' wasm instance. */
  params?: Params;
  /** dist/wnn-codecs.wasm (a module, URL or bytes): liblz4's and libzstd's decoders, fetched only
   *  for weights stored with lz4 or zstd. Default: this package's file. */
  codecs?: WebAssembly.Module | Source | Promise<Response>;
  /** Threads each run uses, 1 to 64. Default: the host's cores (at most 8) where it has shared
   *  memory and workers (threadsSupported()), else 1. More than 1 loads dist/wnn-mt.wasm and starts
   *  worker threads; where threads cannot run the model loads single-threaded with no error
   *  (model.threads says 1). Same bits at any count. */
  threads?: number;
}

export interface LoadParamsOptions {
  /** As for load(); a model binds params only in the same wasm instance. */
  wasm?: WebAssembly.Module | Source | Promise<Response>;
  /** Called as the blob streams in; total is 0 when the size is unknown. */
  onProgress?: (loaded: number, total: number) => void;
  /** Verify the tensors' CRC-32s and the blob's SHA-256 (default true). */
  verifyChecksum?: boolean;
  /** As for load(). */
  codecs?: WebAssembly.Module | Source | Promise<Response>;
  /** As for load(): more than 1 puts the blob in dist/wnn-mt.wasm, where models bound to it run threaded. */
  threads?: number;
}

/** What Model.share() gives: post it to a worker, which passes it to attach(). */
export interface SharedModel {
  readonly wnnSharedModel: 1;
  readonly module: WebAssembly.Module;
  readonly memory: WebAssembly.Memory;
  readonly threads: number;
}

/** Options of convert(): the `wnn convert` flags of docs/cli.md. */
export interface ConvertOptions {
  /** Input shapes to fix (`--shape NAME=DIMS`), for inputs with symbolic or unknown dims. Without it
   *  such dims stay dynamic (docs/dynamic-shapes.md). */
  shapes?: Record<string, readonly number[]>;
  /** The shapes a dynamic input's plan is made for (`--default-shape`; default: its maxShapes, else 1). */
  defaultShapes?: Record<string, readonly number[]>;
  /** Bounds of dynamic dims (`--max-shape`): an executor plans for them once and never grows. */
  maxShapes?: Record<string, readonly number[]>;
  /** Fix every dim not given in `shapes` to its default, with a warning (`--fix-dims`), as before dynamic dims. */
  fixDims?: boolean;
  /** Inputs frozen to a tensor (`--const NAME=FILE`): the bytes of a .npy or ONNX TensorProto .pb file. */
  consts?: Record<string, ArrayBuffer | ArrayBufferView>;
  /** Files the model's external tensors name, by their `location`. When the model comes from a URL or a
   *  path, files not given here are read next to it. */
  externalData?: Record<string, ArrayBuffer | ArrayBufferView | string | URL | Request | Response>;
  /** Most bytes of tensor data held while converting (`--max-memory`; default 4 GiB). */
  maxMemory?: number;
  /** How float32 weights are stored (`--weights`): 'raw' (default), 'fp16' (IEEE half) or 'int8'
   *  (per-channel scales); decoded to float32 at load (docs/format.md, "Param codecs"). */
  weights?: 'raw' | 'fp16' | 'int8';
  /** Lossless compression of each weight of 1 KB or more where it saves bytes (`--compress`): 'none'
   *  (default), 'lz4' or 'zstd'; decoded at load (in the web modules by dist/wnn-codecs.wasm). */
  compress?: 'none' | 'lz4' | 'zstd';
  /** A release artifact (`--release`): no names but the inputs' and outputs' (docs/format.md). */
  release?: boolean;
  /** `--map`: called with the map file (parsed) before convert() returns; pass it to load(artifact, {map}). */
  onMap?: (map: object) => void;
  /** Keep the subnormal values (below 1.18e-38) of Conv, ConvTranspose, MatMul and Gemm weights
   *  (`--keep-subnormals`); by default they are set to 0, as they slow every product they enter on
   *  x86 (docs/importer.md, "Subnormal weights"). */
  keepSubnormals?: boolean;
  /** Called with each warning of the importer (a dim set to 1, a branch left out, ...). */
  onWarning?: (message: string) => void;
  /** The converter: a precompiled module, a URL or bytes. Default: this package's dist/wnn-convert.wasm. */
  wasm?: WebAssembly.Module | Source | Promise<Response>;
}

export interface TensorOptions {
  /** true: a zero-copy view of wasm memory, valid until the next run(), setInput of that input,
   *  dispose(), or wasm memory growth (any load() or createExecutor() on the same runtime). */
  view?: boolean;
}

export interface TimeEvaluatorOptions {
  /** Runs per measurement (grows until one measurement lasts minRepeatMs). Default 1. */
  number?: number;
  /** Measurements. Default 1. */
  repeat?: number;
  /** Shortest measurement in milliseconds. Default 0. */
  minRepeatMs?: number;
  /** Also profile node by node over `number` more runs (result.profile). Default false. */
  profile?: boolean;
}

/** One node's share of the time (Executor.profile). */
export interface NodeProfile {
  /** The node's index in the model (its run order). */
  node: number;
  /** The ONNX op type. */
  op: string;
  /** The node's name in the artifact, or "". */
  name: string;
  /** Its output 0's shape. */
  shape: number[];
  /** Mean milliseconds per run. */
  ms: number;
  /** Its fraction of the nodes' summed time. */
  share: number;
}

/** Milliseconds per run; results has one entry per repeat. */
export interface TimeEvaluatorResult {
  mean: number;
  median: number;
  std: number;
  min: number;
  max: number;
  results: number[];
  /** With {profile: true}: Executor.profile's rows. */
  profile?: NodeProfile[];
}

export class Model {
  /** The real inputs (weights are not inputs). */
  readonly inputs: readonly TensorInfo[];
  readonly outputs: readonly TensorInfo[];
  /** Number of weight tensors. */
  readonly numParams: number;
  /** Bytes of the arena each executor allocates, and of the weights (the
   * artifact's weights plus those the loader expands from constant fills). */
  readonly arenaBytes: number;
  readonly weightsBytes: number;
  /** The artifact's metadata JSON as a plain object. */
  readonly metadata: Record<string, unknown>;
  readonly disposed: boolean;
  /** The wasm memory of the runtime instance this model lives in (shared by every model loaded with the same wasm module). */
  readonly memory: WebAssembly.Memory;
  /** A new executor with its own arena. `debug: true`: every value in memory of its own (nothing
   *  reused), so getValue reads intermediates after a run; dist/wnn-full.wasm and
   *  dist/wnn-scalar.wasm only (WNN_ERR_UNSUPPORTED in dist/wnn.wasm). */
  createExecutor(options?: { debug?: boolean; threads?: number }): Executor;
  /** Threads each run of its executors uses (load's options.threads where threads run, else 1). */
  readonly threads: number;
  /** The instruction set of the wasm module the model runs in. */
  readonly isa: 'relaxed-simd' | 'simd128' | 'scalar';
  /** dist/wnn-mt.wasm: bytes its heap has in use on every thread; null in the other modules. */
  readonly heapUsed: number | null;
  /** For a worker of this host: attach(shared) there gives a Model on the same weights (one copy,
   *  in the shared memory). One share() per attach(). WNN_ERR_UNSUPPORTED outside dist/wnn-mt.wasm
   *  and for a model bound to Params. */
  share(): SharedModel;
  /** Stateless: runs once on every input (a TypedArray, or {data, shape} to have the shape checked too)
   *  and returns copies of the chosen outputs (names or indices; default all). */
  predict(inputs: Record<string, TensorData | TensorInput>, options?: { outputs?: readonly (string | number)[] }): Promise<Record<string, Tensor>>;
  inputIndex(nameOrIndex: string | number): number;
  outputIndex(nameOrIndex: string | number): number;
  /** Frees the model and every executor it still has. Idempotent. */
  dispose(): void;
  [Symbol.dispose](): void;
}

export class Executor {
  readonly model: Model;
  readonly disposed: boolean;
  /** Threads its runs use (1 in a single-threaded module). */
  readonly threads: number;
  /** Copies data into an input; the TypedArray type must match the dtype and the length the element count.
   *  `shape`, when given, must equal the input's shape exactly (else WNN_ERR_SHAPE). The data is read
   *  through the built-in TypedArray getters (a subclass's own `length` or `buffer` is not consulted). */
  setInput(nameOrIndex: string | number, data: TensorData, shape?: readonly number[]): this;
  /** Sets input shapes of a model with dynamic dims, all at once (inputs sharing a dim together):
   *  shapes are inferred and memory planned now, the arena grows if needed; run() allocates nothing.
   *  All or nothing. Inputs must be set again afterwards. setInput with another shape resizes that
   *  one input itself. */
  resize(shapes: Record<string, readonly number[]>): this;
  /** The inputs' and outputs' shapes now (after the last resize). */
  readonly inputs: readonly TensorInfo[];
  readonly outputs: readonly TensorInfo[];
  /** Bytes of the executor's arena now: the largest plan it has used. */
  readonly arenaBytes: number;
  run(): this;
  getOutput(nameOrIndex: string | number, options?: TensorOptions): Tensor;
  getInput(nameOrIndex: string | number, options?: TensorOptions): Tensor;
  /** The model's named values (inputs, intermediates, outputs, params) at the current shapes;
   *  intermediates are listed by a debug executor after a run. */
  values(): { name: string; dtype: string; shape: number[] }[];
  /** A value by its source name: a copy, or a view with {view: true}. Intermediates need a debug
   *  executor and a run (WNN_ERR_UNSUPPORTED otherwise); folded or fused values have no name. */
  getValue(name: string, options?: TensorOptions): Tensor;
  /** TVM's time_evaluator: one warm-up run discarded, then `repeat` measurements. */
  timeEvaluator(options?: TimeEvaluatorOptions): TimeEvaluatorResult;
  /** Node by node: one untimed run, then `runs` (default 10) runs with per-node timing;
   *  the nodes that ran, slowest first. */
  profile(options?: { runs?: number }): NodeProfile[];
  /** Frees the arena. Idempotent. */
  dispose(): void;
  [Symbol.dispose](): void;
}

/** A params blob (.wnnp) shared by any number of models in one wasm instance. */
export class Params {
  /** Tensors in the blob. */
  readonly count: number;
  /** Bytes of the blob (its file size); the weights are held once, in place. */
  readonly byteLength: number;
  readonly disposed: boolean;
  /** The wasm memory the blob lives in. */
  readonly memory: WebAssembly.Memory;
  /** Deferred: the blob is released when the last model bound to it is disposed (at once if none);
   *  loading a model with disposed params fails with WNN_ERR_DISPOSED. Idempotent. */
  dispose(): void;
  [Symbol.dispose](): void;
}

/** Registers a decoder for user codec `id` (128-255) in every wasm instance, for every later load;
 *  `null` unregisters. `src` is a copy of the stored bytes; the result must hold exactly `dstLength`
 *  bytes. A load of weights stored with an unregistered codec fails with WNN_ERR_FEATURE naming the
 *  codec and the tensor; a decoder that throws or returns another length, WNN_ERR_MALFORMED. */
export function registerCodec(id: number, decode: ((src: Uint8Array, dstLength: number) => ArrayBuffer | ArrayBufferView) | null,
  options?: { name?: string }): void;

/** Loads a params blob written by `wnn convert --params-out`. */
export function loadParams(source: Source | Promise<Request | Response>, options?: LoadParamsOptions): Promise<Params>;

/** Loads a .wnn artifact. */
export function load(source: Source | Promise<Request | Response>, options?: LoadOptions): Promise<Model>;

/** Converts an ONNX model to a .wnn artifact with the converter compiled to WebAssembly
 *  (dist/wnn-convert.wasm): the same bytes as the native `wnn convert`. */
export function convert(source: Source | Promise<Request | Response>, options?: ConvertOptions): Promise<Uint8Array>;

/** The C library's version string of the runtime `options.wasm` selects. */
export function version(options?: Pick<LoadOptions, 'wasm'>): Promise<string>;

/** Whether this engine supports WebAssembly SIMD128. */
export function simdSupported(): boolean;

/** Whether this engine supports WebAssembly relaxed SIMD (dist/wnn-relaxed.wasm, the default there). */
export function relaxedSimdSupported(): boolean;

/** Whether this host runs dist/wnn-mt.wasm: SIMD128, shared memory (a cross-origin isolated page)
 *  and workers (worker_threads in Node, Deno and Bun; Web Workers in browsers). */
export function threadsSupported(): Promise<boolean>;

/** In a worker: the Model of another thread's share(), on the same weights. */
export function attach(shared: SharedModel, options?: { threads?: number }): Promise<Model>;

/** A worker thread's instance of dist/wnn-mt.wasm, entered as the C thread it was given
 *  (js/thread.js uses it): its exports. */
export function threadInstance(module: WebAssembly.Module, memory: WebAssembly.Memory,
  thread: { record: number; top: number; base: number }): WebAssembly.Exports;
