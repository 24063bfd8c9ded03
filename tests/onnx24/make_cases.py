#!/usr/bin/env python3
"""The opset-23/24 transformer ops and the opset 22-24 headers, as test cases.

Writes one folder per case into OUT_DIR, in the ONNX backend-test layout
(model.onnx, test_data_set_0/input_<i>.pb and output_<i>.pb), and OUT_DIR/cases.json
listing them. The expected outputs come from the numpy references below, written
from the operators' definitions; tests/js/onnx24.test.mjs checks them against
onnxruntime-node too, and wnn against them, natively and under WASI.

python3-onnx 1.12 cannot check opset-23 graphs, but it writes them: the nodes are
made without a schema lookup.

Usage: make_cases.py OUT_DIR
"""
import json
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1]
rng = np.random.default_rng(23)
CASES = []

ONNX_TYPE = {np.dtype('float32'): TensorProto.FLOAT, np.dtype('float16'): TensorProto.FLOAT16,
             np.dtype('float64'): TensorProto.DOUBLE, np.dtype('int64'): TensorProto.INT64,
             np.dtype('bool'): TensorProto.BOOL}


def case(name, opset, nodes, inputs, outputs, inits=(), ort=True):
    """inputs: [(name, array)]; outputs: [(name, array)] expected."""
    g = helper.make_graph(
        nodes, name,
        [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype], list(a.shape)) for n, a in inputs],
        [helper.make_tensor_value_info(n, ONNX_TYPE[a.dtype], list(a.shape)) for n, a in outputs],
        [numpy_helper.from_array(a, n) for n, a in inits])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid('', opset)], producer_name='wnn-tests')
    m.ir_version = 10
    d = os.path.join(OUT, name)
    os.makedirs(os.path.join(d, 'test_data_set_0'), exist_ok=True)
    with open(os.path.join(d, 'model.onnx'), 'wb') as f:
        f.write(m.SerializeToString())
    for kind, items in (('input', inputs), ('output', outputs)):
        for i, (n, a) in enumerate(items):
            t = numpy_helper.from_array(np.ascontiguousarray(a), n)
            with open(os.path.join(d, 'test_data_set_0', f'{kind}_{i}.pb'), 'wb') as f:
                f.write(t.SerializeToString())
    # ort: a reason when onnxruntime-node 1.30 refuses what the specification allows.
    CASES.append({'name': name, 'opset': opset, 'op': nodes[0].op_type, 'ort': ort})


def randn(*shape, dtype=np.float32):
    return rng.standard_normal(shape).astype(dtype)


# ---- RMSNormalization ----

def rms_ref(x, scale, axis=-1, eps=1e-5):
    xf = x.astype(np.float32)
    axes = tuple(range(axis % x.ndim, x.ndim))
    rms = np.sqrt(np.mean(xf * xf, axis=axes, keepdims=True) + np.float32(eps))
    return (xf / rms * scale.astype(np.float32)).astype(x.dtype)


def rms_case(name, shape, scale_shape, dtype=np.float32, **attrs):
    x, scale = randn(*shape, dtype=dtype), randn(*scale_shape, dtype=dtype)
    y = rms_ref(x, scale, attrs.get('axis', -1), attrs.get('epsilon', 1e-5))
    node = helper.make_node('RMSNormalization', ['x', 'scale'], ['y'], **attrs)
    case(name, 23, [node], [('x', x)], [('y', y)], inits=[('scale', scale)])


rms_case('rms_last_axis', (2, 5, 16), (16,))
rms_case('rms_axis1_eps', (2, 3, 4, 5), (3, 4, 5), axis=1, epsilon=1e-3)
rms_case('rms_axis_neg2', (3, 6, 8), (6, 8), axis=-2)
rms_case('rms_float16', (2, 8), (8,), dtype=np.float16)


# ---- RotaryEmbedding ----

def rotary_ref(x, cos_cache, sin_cache, pos, interleaved=0, num_heads=0, rotary_embedding_dim=0):
    x3 = x.ndim == 3
    if x3:
        b, s, hid = x.shape
        xb = x.reshape(b, s, num_heads, hid // num_heads)
    else:
        xb = x.transpose(0, 2, 1, 3)  # [B, S, H, D]
    d = xb.shape[-1]
    rot = rotary_embedding_dim or d
    cos = (cos_cache[pos] if pos is not None else cos_cache)[..., :rot // 2]  # [B, S, rot/2]
    sin = (sin_cache[pos] if pos is not None else sin_cache)[..., :rot // 2]
    cos, sin = cos[:, :, None, :], sin[:, :, None, :]
    xr, xp = xb[..., :rot], xb[..., rot:]
    if interleaved:
        x1, x2 = xr[..., 0::2], xr[..., 1::2]
    else:
        x1, x2 = xr[..., :rot // 2], xr[..., rot // 2:]
    real = cos * x1 - sin * x2
    imag = sin * x1 + cos * x2
    if interleaved:
        out = np.stack([real, imag], axis=-1).reshape(xr.shape)
    else:
        out = np.concatenate([real, imag], axis=-1)
    y = np.concatenate([out, xp], axis=-1).astype(x.dtype)
    return y.reshape(x.shape) if x3 else y.transpose(0, 2, 1, 3)


def rotary_case(name, xshape, rot_half, max_pos=None, ort=True, **attrs):
    x = randn(*xshape)
    b = xshape[0]
    s = xshape[1] if len(xshape) == 3 else xshape[2]
    if max_pos:
        angles = rng.uniform(0, 6.3, (max_pos, rot_half)).astype(np.float32)
        pos = rng.integers(0, max_pos, (b, s)).astype(np.int64)
    else:
        angles = rng.uniform(0, 6.3, (b, s, rot_half)).astype(np.float32)
        pos = None
    cos_cache, sin_cache = np.cos(angles), np.sin(angles)
    y = rotary_ref(x, cos_cache, sin_cache, pos, **attrs)
    ins = [('x', x), ('cos_cache', cos_cache), ('sin_cache', sin_cache)]
    if pos is not None:
        ins.append(('position_ids', pos))
    node = helper.make_node('RotaryEmbedding', [n for n, _ in ins], ['y'], **attrs)
    case(name, 23, [node], ins, [('y', y)], ort=ort)


rotary_case('rotary_4d_positions', (2, 3, 5, 8), 4, max_pos=16)
rotary_case('rotary_4d_interleaved', (2, 3, 5, 8), 4, max_pos=16, interleaved=1)
rotary_case('rotary_3d_no_positions', (2, 5, 24), 4, num_heads=3)
rotary_case('rotary_3d_partial_interleaved', (1, 4, 32), 4, max_pos=10, num_heads=2,
            rotary_embedding_dim=8, interleaved=1)
rotary_case('rotary_4d_partial', (1, 2, 3, 8), 2, max_pos=6, rotary_embedding_dim=4)
rotary_case('rotary_wide_caches', (1, 2, 3, 8), 4, max_pos=6, rotary_embedding_dim=4,
            ort='onnxruntime 1.30 wants caches exactly rotary_embedding_dim / 2 wide')


# ---- Attention ----

def softmax(x):
    m = np.max(x, axis=-1, keepdims=True)
    e = np.exp(x - m)
    return e / np.sum(e, axis=-1, keepdims=True)


def attention_ref(q, k, v, mask=None, past_k=None, past_v=None, nonpad=None, is_causal=0,
                  q_num_heads=0, kv_num_heads=0, scale=None, softcap=0.0, qk_matmul_output_mode=0):
    three = q.ndim == 3

    def heads(x, h):
        return x.reshape(x.shape[0], x.shape[1], h, -1).transpose(0, 2, 1, 3) if three else x

    qh, kh, vh = heads(q, q_num_heads), heads(k, kv_num_heads), heads(v, kv_num_heads)
    if past_k is not None:
        kh = np.concatenate([past_k, kh], axis=2)
        vh = np.concatenate([past_v, vh], axis=2)
    present_k, present_v = kh, vh
    hq, hkv = qh.shape[1], kh.shape[1]
    kr, vr = np.repeat(kh, hq // hkv, axis=1), np.repeat(vh, hq // hkv, axis=1)
    d = qh.shape[-1]
    sc = scale if scale is not None else 1.0 / np.sqrt(d)
    qk = (qh.astype(np.float64) @ kr.astype(np.float64).transpose(0, 1, 3, 2)) * sc
    s, t = qk.shape[-2], qk.shape[-1]
    past = 0 if past_k is None else past_k.shape[2]
    bias = np.zeros(qk.shape)
    if mask is not None:
        m = np.where(mask, 0.0, -np.inf) if mask.dtype == bool else mask.astype(np.float64)
        if m.shape[-1] < t:  # opset 24: missing columns are masked
            m = np.concatenate([m, np.full(m.shape[:-1] + (t - m.shape[-1],), -np.inf)], axis=-1)
        bias = bias + m
    i = np.arange(s)[None, None, :, None]
    j = np.arange(t)[None, None, None, :]
    if is_causal:
        # The queries follow the past; without one, in opset 24, they end at
        # nonpad_kv_seqlen[b]; else they start at key 0 (upper-left).
        offset = past if past or nonpad is None else (nonpad - s)[:, None, None, None]
        bias = bias + np.where(j > i + offset, -np.inf, 0.0)
    if nonpad is not None:
        bias = bias + np.where(j >= nonpad[:, None, None, None], -np.inf, 0.0)
    stages = [qk]
    x = qk
    if softcap > 0:
        x = softcap * np.tanh(x / softcap)
    stages.append(x)
    x = x + bias
    stages.append(x)
    p = softmax(x)
    stages.append(p)
    y = p @ vr.astype(np.float64)
    if three:
        y = y.transpose(0, 2, 1, 3).reshape(y.shape[0], y.shape[2], -1)
    f = q.dtype
    return (y.astype(f), present_k.astype(f), present_v.astype(f),
            stages[qk_matmul_output_mode].astype(f))


def attention_case(name, q, k, v, mask=None, past=None, nonpad=None, outputs=('Y',), opset=23,
                   ort=True, **attrs):
    ins = [('Q', q), ('K', k), ('V', v)]
    names = ['Q', 'K', 'V']
    if mask is not None:
        ins.append(('attn_mask', mask))
    names.append('attn_mask' if mask is not None else '')
    if past is not None:
        ins += [('past_key', past[0]), ('past_value', past[1])]
    names += ['past_key', 'past_value'] if past is not None else ['', '']
    if nonpad is not None:
        ins.append(('nonpad_kv_seqlen', nonpad))
        names.append('nonpad_kv_seqlen')
    while names and names[-1] == '':
        names.pop()
    y, pk, pv, qk = attention_ref(q, k, v, mask, *(past or (None, None)), nonpad, **attrs)
    all_outs = {'Y': y, 'present_key': pk, 'present_value': pv, 'qk_matmul_output': qk}
    out_names = ['Y', 'present_key', 'present_value', 'qk_matmul_output']
    last = max(out_names.index(o) for o in outputs)
    node_outs = [o if o in outputs else '' for o in out_names[:last + 1]]
    node = helper.make_node('Attention', names, node_outs, **attrs)
    case(name, opset, [node], ins, [(o, all_outs[o]) for o in out_names if o in outputs], ort=ort)


def causal_ok_mask(shape):
    m = rng.random(shape) < 0.7
    m[..., 0] = True  # every query attends to at least one key
    return m


attention_case('attention_4d', randn(2, 4, 5, 8), randn(2, 4, 7, 8), randn(2, 4, 7, 6))
attention_case('attention_3d_gqa', randn(2, 5, 32), randn(2, 7, 16), randn(2, 7, 12),
               q_num_heads=4, kv_num_heads=2)
attention_case('attention_bool_mask', randn(2, 4, 5, 8), randn(2, 4, 7, 8), randn(2, 4, 7, 8),
               mask=causal_ok_mask((2, 1, 5, 7)))
attention_case('attention_float_mask', randn(1, 2, 5, 8), randn(1, 2, 7, 8), randn(1, 2, 7, 8),
               mask=randn(5, 7))
attention_case('attention_causal_past', randn(1, 2, 3, 8), randn(1, 2, 3, 8), randn(1, 2, 3, 8),
               past=(randn(1, 2, 4, 8), randn(1, 2, 4, 8)), is_causal=1,
               outputs=('Y', 'present_key', 'present_value'))
attention_case('attention_causal_3d_gqa', randn(1, 6, 24), randn(1, 6, 8), randn(1, 6, 8),
               q_num_heads=6, kv_num_heads=2, is_causal=1)
attention_case('attention_causal_mask', randn(2, 2, 4, 8), randn(2, 2, 4, 8), randn(2, 2, 4, 8),
               mask=causal_ok_mask((2, 2, 4, 4)), is_causal=1)
attention_case('attention_scale_softcap', randn(1, 2, 4, 8), randn(1, 2, 6, 8), randn(1, 2, 6, 8),
               scale=0.3, softcap=2.0)
for mode in range(4):
    attention_case(f'attention_qk_output_mode{mode}', randn(1, 2, 3, 8), randn(1, 2, 5, 8),
                   randn(1, 2, 5, 8), mask=randn(3, 5), softcap=1.5, qk_matmul_output_mode=mode,
                   outputs=('Y', 'qk_matmul_output'))
attention_case('attention_past_present_3d', randn(2, 1, 16), randn(2, 1, 16), randn(2, 1, 16),
               past=(randn(2, 2, 5, 8), randn(2, 2, 5, 8)), q_num_heads=2, kv_num_heads=2,
               outputs=('Y', 'present_key', 'present_value'))
attention_case('attention_opset24_nonpad', randn(2, 2, 3, 8), randn(2, 2, 6, 8), randn(2, 2, 6, 8),
               nonpad=np.array([4, 6], dtype=np.int64), opset=24)
attention_case('attention_causal_upper_left', randn(1, 2, 3, 8), randn(1, 2, 5, 8),
               randn(1, 2, 5, 8), is_causal=1)
attention_case('attention_opset24_causal_nonpad', randn(2, 2, 3, 8), randn(2, 2, 6, 8),
               randn(2, 2, 6, 8), nonpad=np.array([5, 6], dtype=np.int64), is_causal=1, opset=24)
attention_case('attention_opset24_short_mask', randn(1, 2, 3, 8), randn(1, 2, 6, 8),
               randn(1, 2, 6, 8), mask=causal_ok_mask((1, 1, 3, 4)), opset=24,
               ort='onnxruntime 1.30 refuses a mask with fewer columns than keys')
attention_case('attention_float16', randn(1, 2, 3, 8, dtype=np.float16),
               randn(1, 2, 4, 8, dtype=np.float16), randn(1, 2, 4, 8, dtype=np.float16))


# ---- Swish (opset 24): x * sigmoid(alpha * x) ----

for name, alpha in (('swish', None), ('swish_alpha', 1.7)):
    x = randn(2, 3, 7)
    a = 1.0 if alpha is None else alpha
    y = (x / (1 + np.exp(-a * x.astype(np.float64)))).astype(np.float32)
    node = helper.make_node('Swish', ['x'], ['y'], **({} if alpha is None else {'alpha': alpha}))
    case(name, 24, [node], [('x', x)], [('y', y)])


# ---- the opset 22-24 headers on ops whose new versions only widened types ----

for opset in (22, 23, 24):
    x = randn(1, 3, 6, 6)
    w = randn(4, 3, 3, 3)
    y = np.maximum(sum(
        np.pad(x, ((0, 0), (0, 0), (1, 1), (1, 1)))[:, None, c, i:i + 6, j:j + 6] * w[None, :, c, i, j, None, None]
        for c in range(3) for i in range(3) for j in range(3)), 0).astype(np.float32)
    nodes = [helper.make_node('Conv', ['x', 'w'], ['c'], pads=[1, 1, 1, 1]),
             helper.make_node('Relu', ['c'], ['y'])]
    case(f'opset{opset}_conv_relu', opset, nodes, [('x', x)], [('y', y)], inits=[('w', w)])

# ---- attributes opsets 23 and 24 added, at values that keep the older meaning ----

x = (randn(2, 9) * 3).astype(np.float32)
scale, zp = np.float32(0.05), np.uint8(128)
q = np.clip(np.round(x / scale) + 128, 0, 255)
y = ((q - 128) * scale).astype(np.float32) * 2
nodes = [helper.make_node('QuantizeLinear', ['x', 'scale', 'zp'], ['q'], precision=1),
         helper.make_node('DequantizeLinear', ['q', 'scale', 'zp'], ['d'], output_dtype=1),
         helper.make_node('Cast', ['d'], ['c'], to=TensorProto.FLOAT, round_mode='up'),
         helper.make_node('Add', ['c', 'c'], ['y'])]
case('opset24_qdq_cast_attrs', 24, nodes, [('x', x)], [('y', y)],
     inits=[('scale', np.array(scale)), ('zp', np.array(zp))])

# ---- float64 at the boundary: DOUBLE inputs and outputs keep their dtype
# (wnn computes in float32 between them) ----

x = randn(3, 5).astype(np.float64)
w = randn(5, 4)
nodes = [helper.make_node('Cast', ['x'], ['xf'], to=TensorProto.FLOAT),
         helper.make_node('MatMul', ['xf', 'w'], ['m']),
         helper.make_node('Relu', ['m'], ['r']),
         helper.make_node('Cast', ['r'], ['y'], to=TensorProto.DOUBLE),
         helper.make_node('Mul', ['x', 'x'], ['sq'])]
case('dtype_float64_io', 22, nodes, [('x', x)],
     [('y', np.maximum(x @ w.astype(np.float64), 0)), ('sq', x * x)], inits=[('w', w)])


# ---- Loop (a constant trip count) and Scan, unrolled ----

def loop_case():
    # y_{i+1} = y_i * 0.9 + w[i] (w an outer initializer the body captures, sliced by the
    # iteration number), scanned: the partial results and i * scale (a body initializer).
    trips, n = 5, 4
    y0, w = randn(n), randn(trips, n)
    body = helper.make_graph(
        [helper.make_node('Identity', ['cond_in'], ['cond_out']),
         helper.make_node('Unsqueeze', ['i', 'zero_axis'], ['i1']),
         helper.make_node('Add', ['i1', 'one'], ['i2']),
         helper.make_node('Slice', ['w', 'i1', 'i2'], ['wi2']),
         helper.make_node('Squeeze', ['wi2', 'zero_axis'], ['wi']),
         helper.make_node('Mul', ['y_in', 'decay'], ['yd']),
         helper.make_node('Add', ['yd', 'wi'], ['y_out']),
         helper.make_node('Cast', ['i'], ['fi'], to=TensorProto.FLOAT),
         helper.make_node('Mul', ['fi', 'scale'], ['s_out'])],
        'body',
        [helper.make_tensor_value_info('i', TensorProto.INT64, []),
         helper.make_tensor_value_info('cond_in', TensorProto.BOOL, []),
         helper.make_tensor_value_info('y_in', TensorProto.FLOAT, [n])],
        [helper.make_tensor_value_info('cond_out', TensorProto.BOOL, []),
         helper.make_tensor_value_info('y_out', TensorProto.FLOAT, [n]),
         helper.make_tensor_value_info('y_out', TensorProto.FLOAT, [n]),
         helper.make_tensor_value_info('s_out', TensorProto.FLOAT, [])],
        [numpy_helper.from_array(np.array([0], np.int64), 'zero_axis'),
         numpy_helper.from_array(np.array([1], np.int64), 'one'),
         numpy_helper.from_array(np.array(0.9, np.float32), 'decay'),
         numpy_helper.from_array(np.array(2.5, np.float32), 'scale')])
    ys, y = [], y0
    for i in range(trips):
        y = (y * np.float32(0.9) + w[i]).astype(np.float32)
        ys.append(y)
    loop = helper.make_node('Loop', ['M', '', 'y0'], ['y_final', 'ys', 'ss'], body=body)
    case('loop_constant_trips', 16, [loop], [('y0', y0)],
         [('y_final', y), ('ys', np.stack(ys)), ('ss', np.arange(trips, dtype=np.float32) * 2.5)],
         inits=[('M', np.array(trips, np.int64)), ('w', w)])


def scan_case():
    # Two sequences, the second read from its end on axis 1; a running sum and
    # product of the two, the products stacked on axis 1 from the end.
    a, b, s0 = randn(6, 3), randn(2, 6), randn(3)
    body = helper.make_graph(
        [helper.make_node('Add', ['acc_in', 'x'], ['acc_out']),
         helper.make_node('ReduceSum', ['z'], ['zs'], keepdims=0),
         helper.make_node('Mul', ['x', 'zs'], ['p'])],
        'scan_body',
        [helper.make_tensor_value_info('acc_in', TensorProto.FLOAT, [3]),
         helper.make_tensor_value_info('x', TensorProto.FLOAT, [3]),
         helper.make_tensor_value_info('z', TensorProto.FLOAT, [2])],
        [helper.make_tensor_value_info('acc_out', TensorProto.FLOAT, [3]),
         helper.make_tensor_value_info('p', TensorProto.FLOAT, [3])])
    acc, ps = s0, []
    for t in range(6):
        x, z = a[t], b[:, 5 - t]
        acc = acc + x
        ps.append(x * z.sum())
    p = np.stack(ps[::-1], axis=1)
    node = helper.make_node('Scan', ['s0', 'a', 'b'], ['acc', 'p'], body=body, num_scan_inputs=2,
                            scan_input_axes=[0, 1], scan_input_directions=[0, 1],
                            scan_output_axes=[1], scan_output_directions=[1])
    case('scan_two_inputs_reversed', 16, [node], [('s0', s0), ('a', a), ('b', b)],
         [('acc', acc.astype(np.float32)), ('p', p.astype(np.float32))])


def loop_refusals():
    """Loops wnn does not unroll (no expected outputs: the test checks the message)."""
    def body(cond_node):
        return helper.make_graph(
            [cond_node, helper.make_node('Add', ['y_in', 'y_in'], ['y_out'])], 'body',
            [helper.make_tensor_value_info('i', TensorProto.INT64, []),
             helper.make_tensor_value_info('cond_in', TensorProto.BOOL, []),
             helper.make_tensor_value_info('y_in', TensorProto.FLOAT, [2])],
            [helper.make_tensor_value_info('cond_out', TensorProto.BOOL, []),
             helper.make_tensor_value_info('y_out', TensorProto.FLOAT, [2])],
            [numpy_helper.from_array(np.array(3, np.int64), 'three')])
    f, i64 = TensorProto.FLOAT, TensorProto.INT64
    models = {
        # The body ends the loop early: i < 3.
        'refuse_loop_early_exit': (helper.make_node('Less', ['i', 'three'], ['cond_out']), [], [('M', 8)]),
        # The trip count is a graph input.
        'refuse_loop_input_trips': (helper.make_node('Identity', ['cond_in'], ['cond_out']),
                                    [helper.make_tensor_value_info('M', i64, [])], []),
    }
    for name, (cond_node, extra_inputs, inits) in models.items():
        g = helper.make_graph(
            [helper.make_node('Loop', ['M', '', 'y0'], ['y'], body=body(cond_node))], name,
            [helper.make_tensor_value_info('y0', f, [2])] + extra_inputs,
            [helper.make_tensor_value_info('y', f, [2])],
            [numpy_helper.from_array(np.array(v, np.int64), n) for n, v in inits])
        m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 16)])
        m.ir_version = 8
        with open(os.path.join(OUT, f'{name}.onnx'), 'wb') as fh:
            fh.write(m.SerializeToString())


loop_case()
scan_case()
loop_refusals()


# ---- a decoder block with run-time sequence and past lengths (no expected
# outputs: the test compares wnn with onnxruntime-node at several lengths) ----

def decoder_block():
    hid, hq, hkv, d = 32, 4, 2, 8
    inits = [('gamma', randn(hid)), ('wq', randn(hid, hq * d) * 0.3), ('wk', randn(hid, hkv * d) * 0.3),
             ('wv', randn(hid, hkv * d) * 0.3)]
    angles = rng.uniform(0, 6.3, (512, d // 2)).astype(np.float32)
    inits += [('cos', np.cos(angles)), ('sin', np.sin(angles))]
    nodes = [
        helper.make_node('RMSNormalization', ['x', 'gamma'], ['n'], epsilon=1e-6),
        helper.make_node('MatMul', ['n', 'wq'], ['q']),
        helper.make_node('MatMul', ['n', 'wk'], ['k']),
        helper.make_node('MatMul', ['n', 'wv'], ['v']),
        helper.make_node('RotaryEmbedding', ['q', 'cos', 'sin', 'position_ids'], ['qr'], num_heads=hq),
        helper.make_node('RotaryEmbedding', ['k', 'cos', 'sin', 'position_ids'], ['kr'], num_heads=hkv,
                         interleaved=1),
        helper.make_node('Attention', ['qr', 'kr', 'v', '', 'past_key', 'past_value'],
                         ['a', 'present_key', 'present_value'], is_causal=1, q_num_heads=hq,
                         kv_num_heads=hkv),
        helper.make_node('Swish', ['a'], ['y'], alpha=1.2),
    ]
    f, i64 = TensorProto.FLOAT, TensorProto.INT64
    g = helper.make_graph(
        nodes, 'decoder_block',
        [helper.make_tensor_value_info('x', f, [1, 'seq', hid]),
         helper.make_tensor_value_info('position_ids', i64, [1, 'seq']),
         helper.make_tensor_value_info('past_key', f, [1, hkv, 'past', d]),
         helper.make_tensor_value_info('past_value', f, [1, hkv, 'past', d])],
        [helper.make_tensor_value_info('y', f, [1, 'seq', hid]),
         helper.make_tensor_value_info('present_key', f, [1, hkv, 'total', d]),
         helper.make_tensor_value_info('present_value', f, [1, hkv, 'total', d])],
        [numpy_helper.from_array(a, n) for n, a in inits])
    m = helper.make_model(g, opset_imports=[helper.make_opsetid('', 24)], producer_name='wnn-tests')
    m.ir_version = 10
    with open(os.path.join(OUT, 'decoder_block.onnx'), 'wb') as f:
        f.write(m.SerializeToString())


decoder_block()

with open(os.path.join(OUT, 'cases.json'), 'w') as f:
    json.dump(CASES, f, indent=1)
print(f'{len(CASES)} cases in {OUT}')
