// Reading one serialized onnx.TensorProto (the input_<i>.pb / output_<i>.pb
// files of ONNX test data sets) as {name, shape, dtype, data}: the fields dims,
// data_type, raw_data and the typed float/int32/int64 lists, for the dtypes
// wnn runs (double becomes float32).

const DTYPE = { 1: 'float32', 2: 'uint8', 3: 'int8', 6: 'int32', 7: 'int64', 9: 'bool', 11: 'float64' };
const ARRAY = {
  float32: Float32Array, uint8: Uint8Array, int8: Int8Array, int32: Int32Array,
  int64: BigInt64Array, bool: Uint8Array, float64: Float64Array,
};

export function parseTensorProto(bytes) {
  // A plain Uint8Array even for a Node Buffer, whose slice() would not copy.
  bytes = ArrayBuffer.isView(bytes) ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : new Uint8Array(bytes);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 0;
  const varint = () => {
    let v = 0n;
    for (let shift = 0n; ; shift += 7n) {
      if (at >= bytes.length) throw new Error('TensorProto: truncated');
      const b = bytes[at++];
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
  };
  const t = { name: '', shape: [], type: 0, raw: null, floats: [], ints: [] };
  const packedOr = (wire, read, push) => {
    if (wire !== 2) { push(read()); return; }
    const len = Number(varint());
    const end = at + len;
    while (at < end) push(read());
  };
  while (at < bytes.length) {
    const key = Number(varint());
    const field = key >> 3;
    const wire = key & 7;
    const f32 = () => { const v = dv.getFloat32(at, true); at += 4; return v; };
    const f64 = () => { const v = dv.getFloat64(at, true); at += 8; return v; };
    if (field === 1) packedOr(wire, varint, (v) => t.shape.push(Number(BigInt.asIntN(64, v))));
    else if (field === 2 && wire === 0) t.type = Number(varint());
    else if (field === 4) packedOr(wire, f32, (v) => t.floats.push(v));
    else if (field === 10) packedOr(wire, f64, (v) => t.floats.push(v));
    else if (field === 5 || field === 7) packedOr(wire, varint, (v) => t.ints.push(BigInt.asIntN(64, v)));
    else if (wire === 2) {
      const len = Number(varint());
      const payload = bytes.subarray(at, at + len);
      if (field === 8) t.name = new TextDecoder().decode(payload);
      if (field === 9) t.raw = payload.slice();
      at += len;
    } else if (wire === 0) varint();
    else if (wire === 1) at += 8;
    else if (wire === 5) at += 4;
    else throw new Error(`TensorProto: wire type ${wire} (field ${field}) at byte ${at} not handled`);
  }
  const dtype = DTYPE[t.type];
  if (!dtype) throw new Error(`TensorProto: data_type ${t.type} not handled`);
  const T = ARRAY[dtype];
  let data;
  if (t.raw) data = new T(t.raw.buffer, 0, t.raw.length / T.BYTES_PER_ELEMENT);
  else if (dtype === 'float32' || dtype === 'float64') data = T.from(t.floats);
  else if (dtype === 'int64') data = BigInt64Array.from(t.ints);
  else data = T.from(t.ints, Number);
  if (dtype === 'float64') return { name: t.name, shape: t.shape, dtype: 'float32', data: Float32Array.from(data) };
  return { name: t.name, shape: t.shape, dtype, data };
}
