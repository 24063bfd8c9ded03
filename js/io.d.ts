// Type declarations of js/io.js, `wnn/io`. docs/js.md ("wnn/io") is the guide.

/** The TypedArray each dtype is read into: wnn's dtypes plus float64 (float16 as raw bits). */
export interface IoDTypeArray {
  float32: Float32Array;
  float16: Uint16Array;
  float64: Float64Array;
  int64: BigInt64Array;
  int32: Int32Array;
  int8: Int8Array;
  uint8: Uint8Array;
  bool: Uint8Array;
}

/** The dtypes wnn/io reads and writes. */
export type IoDType = keyof IoDTypeArray;

/** A tensor read from a file: `data` is its own copy, `data.length` is the product of `shape`. */
export type ArrayTensor = {
  [D in IoDType]: { dtype: D; shape: number[]; data: IoDTypeArray[D] };
}[IoDType];

/** A TensorProto also has a name (empty when it has none). */
export type NamedArrayTensor = ArrayTensor & { name: string };

/** What bytes the readers take. */
export type Bytes = ArrayBuffer | ArrayBufferView;

export interface ReadOptions {
  /** What float64 data becomes: 'float64' (the default: a Float64Array, dtype 'float64') or
   *  'float32' (converted, dtype 'float32'). */
  double?: 'float64' | 'float32';
}

/** A .npy file (format 1.0, 2.0, 3.0; little-endian f4, f2, f8, i8, i4, i1, u1, b1; C order).
 *  Throws an Error naming what is wrong for anything else, a truncated file or bytes after the data. */
export function parseNpy(bytes: Bytes, options?: ReadOptions): ArrayTensor;

/** A tensor as the bytes of a .npy file (format 1.0, or 2.0 for a header over 64 KiB). `data` must be the
 *  TypedArray of `dtype` (a Float16Array is taken for float16) with exactly the shape's element count. */
export function formatNpy(tensor: { dtype: IoDType; shape: readonly number[]; data: ArrayBufferView }): Uint8Array;

/** One serialized onnx.TensorProto (the input_<i>.pb / output_<i>.pb of ONNX test data): dims, data_type,
 *  name, and raw_data or the typed field of its data_type. Throws an Error naming what is wrong. */
export function parseTensorProto(bytes: Bytes, options?: ReadOptions): NamedArrayTensor;
