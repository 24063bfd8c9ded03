#!/usr/bin/python3
"""Test models with com.microsoft MatMulNBits (weight-only block quantization,
as web LLM exports ship it), written with onnx and numpy, weights quantized
here the way onnxruntime's MatMul4BitsQuantizer lays them out: per block of
block_size along K, scale = (max - min) / (2^bits - 1) with the range widened
to 0, zero point round(-min / scale) (packed, low bits first), codes
clip(round(w / scale) + zp), packed low bits first into
B [N, ceil(K / block_size), block_size * bits / 8].

    /usr/bin/python3 tests/quant/nbits.py OUTDIR [--bench]

Writes OUTDIR/NAME.onnx for each model of MODELS (tests/js/nbits.test.mjs runs
them against onnxruntime-node), or with --bench those of BENCH_MODELS
(bench/nbits.mjs times them)."""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


def quantize(w, bits, block, with_zp, rng):
    """w [K, N] float -> (B, scales, zero_points or None)."""
    k, n = w.shape
    blocks = (k + block - 1) // block
    qmax = (1 << bits) - 1
    wt = np.zeros((n, blocks * block), np.float32)
    wt[:, :k] = w.T
    wt = wt.reshape(n, blocks, block)
    if with_zp:
        lo = np.minimum(wt.min(axis=2), 0.0)
        hi = np.maximum(wt.max(axis=2), 0.0)
        scale = ((hi - lo) / qmax).astype(np.float32)
        scale[scale == 0] = 1.0
        zp = np.clip(np.rint(-lo / scale), 0, qmax).astype(np.int64)
    else:
        amax = np.abs(wt).max(axis=2)
        scale = (amax / (qmax // 2 + 0.5)).astype(np.float32)
        scale[scale == 0] = 1.0
        zp = np.full((n, blocks), 1 << (bits - 1), np.int64)
    codes = np.clip(np.rint(wt / scale[:, :, None]) + zp[:, :, None], 0, qmax).astype(np.int64)

    def pack(values, per_row):
        """values [n, count] of `bits` each -> uint8 [n, per_row], low bits first."""
        out = np.zeros((values.shape[0], per_row), np.uint8)
        for i in range(values.shape[1]):
            bit = i * bits
            out[:, bit // 8] |= (values[:, i] << (bit % 8)).astype(np.uint8)
        return out

    b = pack(codes.reshape(n, -1), blocks * block * bits // 8).reshape(n, blocks, block * bits // 8)
    zps = pack(zp, (blocks * bits + 7) // 8).reshape(-1) if with_zp else None
    return b, scale.reshape(-1), zps


def nbits_node(name, x, out, k, n, bits, block, rng, with_zp, with_bias, inits):
    w = rng.standard_normal((k, n)).astype(np.float32) / np.sqrt(k)
    b, scales, zps = quantize(w, bits, block, with_zp, rng)
    inits += [numpy_helper.from_array(b, name + '_B'), numpy_helper.from_array(scales, name + '_scales')]
    inputs = [x, name + '_B', name + '_scales']
    if with_zp:
        inits.append(numpy_helper.from_array(zps, name + '_zp'))
        inputs.append(name + '_zp')
    if with_bias:
        inits.append(numpy_helper.from_array(rng.standard_normal(n).astype(np.float32) * 0.1, name + '_bias'))
        inputs += [''] * (5 - len(inputs)) + [name + '_bias']
    return helper.make_node('MatMulNBits', inputs, [out], name=name, domain='com.microsoft',
                            K=k, N=n, bits=bits, block_size=block)


def model(name, shape, layers, seed):
    """layers: [(k, n, bits, block, with_zp, with_bias), ...] with Relu between."""
    rng = np.random.default_rng(seed)
    inits, nodes = [], []
    x = 'x'
    for i, (k, n, bits, block, zp, bias) in enumerate(layers):
        y = 'y' if i == len(layers) - 1 else f'h{i}'
        nodes.append(nbits_node(f'fc{i}', x, y + ('_pre' if i < len(layers) - 1 else ''), k, n, bits,
                                block, rng, zp, bias, inits))
        if i < len(layers) - 1:
            nodes.append(helper.make_node('Relu', [y + '_pre'], [y]))
        x = y
    out_shape = list(shape[:-1]) + [layers[-1][1]]
    graph = helper.make_graph(nodes, name, [helper.make_tensor_value_info('x', TensorProto.FLOAT, shape)],
                              [helper.make_tensor_value_info('y', TensorProto.FLOAT, out_shape)], inits)
    m = helper.make_model(graph, opset_imports=[helper.make_opsetid('', 17),
                                                helper.make_opsetid('com.microsoft', 1)])
    m.ir_version = 8
    return m


MODELS = {
    # a small decoder MLP: 3-D activations, 4-bit, zero points and bias, then symmetric
    'nbits_mlp_q4': ([1, 7, 96], [(96, 160, 4, 32, True, True), (160, 96, 4, 16, False, False)]),
    # 8-bit, K ending inside a block, N not a multiple of the panel, 2-D A
    'nbits_q8_ragged': ([5, 200], [(200, 33, 8, 64, True, True)]),
    # one token (M = 1, the decoding case), 4-bit, block 128, 2 layers
    'nbits_decode_q4': ([1, 512], [(512, 384, 4, 128, True, False), (384, 256, 4, 32, True, True)]),
    # 2-bit weights
    'nbits_q2': ([3, 64], [(64, 48, 2, 16, True, True)]),
}


# A decoder MLP of TinyLlama's width (d 2048, hidden 5632; 4-bit, blocks of 32,
# zero points), one token and a 64-token prompt.
BENCH_MODELS = {
    'nbits_mlp2048_decode': ([1, 2048], [(2048, 5632, 4, 32, True, False), (5632, 2048, 4, 32, True, False)]),
    'nbits_mlp2048_prompt64': ([1, 64, 2048], [(2048, 5632, 4, 32, True, False), (5632, 2048, 4, 32, True, False)]),
}


def main():
    out = sys.argv[1]
    models = BENCH_MODELS if '--bench' in sys.argv[2:] else MODELS
    os.makedirs(out, exist_ok=True)
    for i, (name, (shape, layers)) in enumerate(models.items()):
        m = model(name, shape, layers, 1000 + i)
        onnx.save(m, os.path.join(out, name + '.onnx'))
        print(name)


if __name__ == '__main__':
    main()
