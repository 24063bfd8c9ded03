#!/usr/bin/env python3
"""A decoder step for the matrix-vector benchmark (docs/kernels.md, "Matrix-vector products"):
2 layers of an opset-23 decoder (RMSNormalization, RotaryEmbedding, grouped-query Attention with
a KV cache, a SiLU MLP), seeded random weights, one new token after 127 cached ones, written in
the ONNX backend-test layout (OUT/decode/model.onnx and test_data_set_0/).

Usage: /usr/bin/python3 bench/decoder.py OUT
"""
import os
import sys

import numpy as np
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
from onnx import helper, TensorProto, numpy_helper
rng = np.random.default_rng(1)
def mk(name, seq, past, hid=512, hq=8, hkv=2, d=64, layers=2):
    f = TensorProto.FLOAT
    nodes, inits = [], []
    inits.append(('cos', np.cos(rng.uniform(0, 6, (1024, d // 2))).astype(np.float32)))
    inits.append(('sin', np.sin(rng.uniform(0, 6, (1024, d // 2))).astype(np.float32)))
    x = 'x'
    ins = [helper.make_tensor_value_info('x', f, [1, seq, hid]), helper.make_tensor_value_info('pos', TensorProto.INT64, [1, seq])]
    outs = []
    for l in range(layers):
        p = f'l{l}_'
        for w, shp in (('g', (hid,)), ('wq', (hid, hq * d)), ('wk', (hid, hkv * d)), ('wv', (hid, hkv * d)), ('wo', (hq * d, hid)), ('g2', (hid,)), ('w1', (hid, 4 * hid)), ('w2', (4 * hid, hid))):
            inits.append((p + w, (rng.standard_normal(shp) * (0.05 if len(shp) > 1 else 1)).astype(np.float32)))
        ins += [helper.make_tensor_value_info(p + 'pk', f, [1, hkv, past, d]), helper.make_tensor_value_info(p + 'pv', f, [1, hkv, past, d])]
        nodes += [
            helper.make_node('RMSNormalization', [x, p + 'g'], [p + 'n']),
            helper.make_node('MatMul', [p + 'n', p + 'wq'], [p + 'q']),
            helper.make_node('MatMul', [p + 'n', p + 'wk'], [p + 'k']),
            helper.make_node('MatMul', [p + 'n', p + 'wv'], [p + 'v']),
            helper.make_node('RotaryEmbedding', [p + 'q', 'cos', 'sin', 'pos'], [p + 'qr'], num_heads=hq),
            helper.make_node('RotaryEmbedding', [p + 'k', 'cos', 'sin', 'pos'], [p + 'kr'], num_heads=hkv),
            helper.make_node('Attention', [p + 'qr', p + 'kr', p + 'v', '', p + 'pk', p + 'pv'], [p + 'a', p + 'prk', p + 'prv'], is_causal=1, q_num_heads=hq, kv_num_heads=hkv),
            helper.make_node('MatMul', [p + 'a', p + 'wo'], [p + 'o']),
            helper.make_node('Add', [x, p + 'o'], [p + 'r']),
            helper.make_node('RMSNormalization', [p + 'r', p + 'g2'], [p + 'n2']),
            helper.make_node('MatMul', [p + 'n2', p + 'w1'], [p + 'h']),
            helper.make_node('Sigmoid', [p + 'h'], [p + 'hsig']),
            helper.make_node('Mul', [p + 'h', p + 'hsig'], [p + 'hs']),
            helper.make_node('MatMul', [p + 'hs', p + 'w2'], [p + 'f']),
            helper.make_node('Add', [p + 'r', p + 'f'], [p + 'y'])]
        outs += [helper.make_tensor_value_info(p + 'prk', f, [1, hkv, past + seq, d]), helper.make_tensor_value_info(p + 'prv', f, [1, hkv, past + seq, d])]
        x = p + 'y'
    outs.insert(0, helper.make_tensor_value_info(x, f, [1, seq, hid]))
    g = helper.make_graph(nodes, name, ins, outs, [numpy_helper.from_array(a, n) for n, a in inits])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 23)]); m.ir_version = 10
    d_ = os.path.join(OUT, name); os.makedirs(d_ + '/test_data_set_0', exist_ok=True)
    open(d_ + '/model.onnx', 'wb').write(m.SerializeToString())
    vals = [rng.standard_normal((1, seq, hid)).astype(np.float32), np.arange(past, past + seq, dtype=np.int64)[None]]
    for l in range(layers):
        vals += [rng.standard_normal((1, hkv, past, d)).astype(np.float32) for _ in range(2)]
    for i, v in enumerate(vals):
        open(f'{d_}/test_data_set_0/input_{i}.pb', 'wb').write(numpy_helper.from_array(v).SerializeToString())
mk('decode', 1, 127)
