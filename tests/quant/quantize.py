#!/usr/bin/python3
"""Quantized test models for issue 17 (docs/quantization.md, "Test models"),
written the way onnxruntime's quantizer writes them, from the float models of
tests/torch/export.py. There is no onnxruntime for Python here: the graphs
are rewritten with onnx.helper and numpy, and onnxruntime-node runs the
calibration and the reference outputs (tests/quant/ort.mjs).

    /usr/bin/python3 tests/quant/quantize.py OUTDIR [--torchvision DIR]
        [--models a,b,...] [--force] [--list]
    /usr/bin/python3 tests/quant/quantize.py --describe MODEL.onnx

OUTDIR/NAME/ for every model NAME (the ONNX backend-test layout):
    model.onnx                  the quantized (or, for bert_encoder, float) model
    test_data_set_K/input_*.pb  inputs; output_0.pb is onnxruntime's output
                                with graphOptimizationLevel 'disabled' (the
                                graph as written): onnxruntime-node's for the
                                QDQ models, onnxruntime-web's for the dynamic
                                ones (see DYNAMIC_REFERENCE); torch's for the
                                float bert_encoder
    quant.json                  how it was made (the stamp, see below)

Static QDQ (quantize_static, QuantFormat.QDQ, its defaults except
per_channel=True for Conv):
  - Conv weights int8, symmetric per output channel (axis 0, range
    [-127, 127], scale absmax / 127, zero point 0); MatMul and Gemm weights
    int8 symmetric per tensor (ORT's per_channel=False; the classifiers'
    final Gemm is the only one here);
  - activations uint8, asymmetric, min/max calibration (MinMax calibrater,
    no moving average) on the four CALIBRATION photos, the range widened to
    include 0: scale = (max - min) / 255, zero point = round(-min / scale);
  - Conv and Gemm bias int32 with scale x_scale * w_scale[c] and zero point 0;
  - a QuantizeLinear -> DequantizeLinear pair on every quantized activation,
    the graph input included; every consumer of the tensor reads the
    DequantizeLinear's output (a graph output keeps its name: the
    DequantizeLinear writes it); DequantizeLinear on the weights and biases;
  - quantized ops: Conv, MatMul, Gemm, Add, Mul, GlobalAveragePool,
    AveragePool, MaxPool, Concat, Resize (inputs that are not constants,
    and the output; constant inputs of Add and Mul stay float); MaxPool's and
    Resize's outputs take their input's scale and zero point, as ORT's
    QDQ "direct 8-bit" ops do. Everything else (Flatten, Sigmoid, Clip,
    Relu not after a Conv, ...) runs in float between a DequantizeLinear and
    a QuantizeLinear;
  - a Relu or Clip right after a Conv (its only reader) is removed, as ORT's
    QDQRemovableActivation does: the Conv writes the activation's output
    tensor, whose calibrated range starts at 0 (and ends at most at Clip's
    max), so the uint8 saturation of the QuantizeLinear does the Relu/Clip.
    The *_relu variant keeps them explicit: DQ -> Conv -> Relu/Clip -> Q, the
    Conv's output not quantized (the pattern of the importer's activation
    fusion).

Dynamic (quantize_dynamic, its defaults): every MatMul whose B is a 2-D float
initializer, and every Gemm with a constant B (alpha = beta = 1, transA = 0),
becomes DynamicQuantizeLinear(x) -> MatMulInteger(x_q, W_q, x_zp, W_zp) ->
Cast(float) -> Mul(., Mul(x_scale, W_scale)); a MatMul's bias Add stays as it
was, a Gemm's C becomes an Add after the Mul. One DynamicQuantizeLinear per
quantized tensor, shared by its readers (the q, k, v projections). W int8
symmetric per tensor (ORT's default), or per column (scale and zero point
[N]) for the *_pc variant. Gather (embeddings) stays float: ORT's dynamic
quantizer would quantize it too (to a Gather of int8 then a
DequantizeLinear); wnn's integer paths are about MatMul.

Models: q_tv_{mobilenet_v2, resnet18, squeezenet1_1, efficientnet_b0} and
q_tv_mobilenet_v2_relu (static QDQ of build/torchvision's exports);
qdyn_tv_transformer_encoder, and its _pc (W per column) and _rr
(reduce_range: W in [-64, 64], 7 bits) variants (dynamic);
bert_encoder (float, built here in torch with a seed: 4 layers, d 256, 4
heads, FFN 1024, sequence 128, BERT's vocabulary size, word + position +
token-type embeddings, attention mask) and qdyn_bert_encoder.

Idempotent: a model is skipped when its files exist and quant.json records
the same stamp (SHA-256 of this script, ort.mjs and export.py, of the float
model it was made from, and the onnx, numpy and onnxruntime-node versions).
Each model is written into a temporary folder and renamed into place. One
line per model on stdout. Exit status 0 when every requested model is there,
1 when one failed (the others are still written), 2 on a usage error.
"""

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXPORT_PY = os.path.join(ROOT, 'tests', 'torch', 'export.py')
ORT_MJS = os.path.join(HERE, 'ort.mjs')

# scikit-image photographs that ship with the package (no download): the
# calibration set, then two more that calibration never saw. Every
# classifier gets one test data set per photo, in this order.
CALIBRATION = ('astronaut', 'coffee', 'chelsea', 'rocket')
PHOTOS = CALIBRATION + ('immunohistochemistry', 'hubble_deep_field')

# The reference outputs of the dynamic models come from onnxruntime-web (wasm):
# onnxruntime-node's MatMulInteger with uint8 x int8 on an x86-64 CPU with
# AVX2 but no VNNI multiplies with VPMADDUBSW, whose int16 pair sums saturate
# (255 * 127 * 2 > 32767): onnxruntime's documentation says so and
# recommends reduce_range (7-bit weights) there. On the 2-layer encoder with
# full-range weights its output is 0.23 off the exact result, which
# onnxruntime-web and wnn agree on to 1e-6; the *_rr variant (reduce_range)
# is computed exactly by both.
DYNAMIC_REFERENCE = 'web'

QDQ_OPS = ('Conv', 'MatMul', 'Gemm', 'Add', 'Mul', 'GlobalAveragePool', 'AveragePool', 'MaxPool', 'Concat', 'Resize')
SAME_AS_INPUT = ('MaxPool', 'Resize')

# BERT-like encoder (bert_encoder).
BERT_SEED = 20261117
BERT_VOCAB = 30522
BERT_SEQ = 128
BERT_D = 256
BERT_HEADS = 4
BERT_FFN = 1024
BERT_LAYERS = 4
BERT_PAD = 24   # the last BERT_PAD positions of the test input are padding (mask 0)

# name -> (kind, source, options, description)
MODELS = {
    'q_tv_mobilenet_v2': ('qdq', 'mobilenet_v2', {}, 'static QDQ of tv mobilenet_v2 (Clip after Conv removed)'),
    'q_tv_mobilenet_v2_relu': ('qdq', 'mobilenet_v2', {'explicit_activation': True},
                               'static QDQ of tv mobilenet_v2, Clip kept between Conv and Q'),
    'q_tv_resnet18': ('qdq', 'resnet18', {}, 'static QDQ of tv resnet18 (Relu after Conv removed)'),
    'q_tv_squeezenet1_1': ('qdq', 'squeezenet1_1', {}, 'static QDQ of tv squeezenet1_1 (Relu after Conv removed)'),
    'q_tv_efficientnet_b0': ('qdq', 'efficientnet_b0', {}, 'static QDQ of tv efficientnet_b0'),
    'qdyn_tv_transformer_encoder': ('dynamic', 'transformer_encoder', {},
                                    'dynamic quantization of tv transformer_encoder, W per tensor'),
    'qdyn_tv_transformer_encoder_pc': ('dynamic', 'transformer_encoder', {'per_column': True},
                                       'dynamic quantization of tv transformer_encoder, W per column'),
    'qdyn_tv_transformer_encoder_rr': ('dynamic', 'transformer_encoder', {'reduce_range': True},
                                       'dynamic quantization of tv transformer_encoder, W per tensor, reduce_range'),
    'bert_encoder': ('bert', None, {}, f'BERT-like encoder in float: {BERT_LAYERS} layers, d {BERT_D}, '
                     f'{BERT_HEADS} heads, FFN {BERT_FFN}, seq {BERT_SEQ}, vocab {BERT_VOCAB}'),
    'qdyn_bert_encoder': ('dynamic', 'bert_encoder', {}, 'dynamic quantization of bert_encoder, W per tensor'),
}

# The benchmark name of each model's float version (bench/run.mjs).
FLOAT_BENCH_NAME = {
    'mobilenet_v2': 'tv_mobilenet_v2', 'resnet18': 'tv_resnet18', 'squeezenet1_1': 'tv_squeezenet1_1',
    'efficientnet_b0': 'tv_efficientnet_b0', 'transformer_encoder': 'tv_transformer_encoder',
    'bert_encoder': 'bert_encoder',
}


def sha256_file(path):
    h = hashlib.sha256()
    with open(path, 'rb') as f:
        for chunk in iter(lambda: f.read(1 << 20), b''):
            h.update(chunk)
    return h.hexdigest()


def node_binary():
    return os.environ.get('WNN_NODE') or shutil.which('node') or 'node'


def ort_version():
    try:
        with open(os.path.join(ROOT, 'node_modules', 'onnxruntime-node', 'package.json')) as f:
            return json.load(f)['version']
    except (OSError, ValueError, KeyError):
        return None


def load_export_py():
    spec = importlib.util.spec_from_file_location('wnn_torch_export', EXPORT_PY)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def run_ort(model_path, sets, minmax=None, runtime='node'):
    """Runs tests/quant/ort.mjs: sets = [{'inputs': {name: npy}, 'outDir': dir?}]."""
    with tempfile.NamedTemporaryFile('w', suffix='.json', delete=False) as f:
        json.dump({'model': model_path, 'runtime': runtime, 'sets': sets, 'minmax': minmax}, f)
        job = f.name
    try:
        r = subprocess.run([node_binary(), ORT_MJS, job], cwd=ROOT, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f'tests/quant/ort.mjs failed (exit {r.returncode}): {r.stderr.strip()[-2000:]}')
    finally:
        os.unlink(job)


# ------------------------------------------------------------ graph helpers

class Graph:
    """The parts of a float model's graph the rewrites need."""

    def __init__(self, model):
        import numpy as np
        from onnx import numpy_helper, shape_inference, TensorProto
        self.model = model
        g = model.graph
        self.inits = {t.name: numpy_helper.to_array(t) for t in g.initializer}
        self.consts = dict(self.inits)
        for n in g.node:
            if n.op_type == 'Constant':
                for a in n.attribute:
                    if a.name == 'value':
                        self.consts[n.output[0]] = numpy_helper.to_array(a.t)
        self.consumers = defaultdict(list)
        for n in g.node:
            for x in n.input:
                if x:
                    self.consumers[x].append(n)
        self.outputs = [o.name for o in g.output]
        inferred = shape_inference.infer_shapes(model)
        self.float_tensors = set()
        for v in list(inferred.graph.value_info) + list(inferred.graph.input) + list(inferred.graph.output):
            if v.type.tensor_type.elem_type == TensorProto.FLOAT:
                self.float_tensors.add(v.name)
        self.np = np

    def is_const(self, name):
        return name in self.consts

    def is_float_activation(self, name):
        return bool(name) and name in self.float_tensors and name not in self.consts


def attr(node, name, default=None):
    from onnx import helper
    for a in node.attribute:
        if a.name == name:
            return helper.get_attribute_value(a)
    return default


def activation_params(rmin, rmax):
    """uint8 asymmetric scale and zero point of ORT's compute_scale_zp."""
    import numpy as np
    rmin = min(float(rmin), 0.0)
    rmax = max(float(rmax), 0.0)
    scale = np.float32((rmax - rmin) / 255.0)
    if scale == 0 or not np.isfinite(scale):
        return np.float32(1.0), np.uint8(0)
    zp = int(np.round(0 - rmin / float(scale)))
    return scale, np.uint8(min(max(zp, 0), 255))


def symmetric_int8(w, axis=None, qmax=127):
    """int8 symmetric weights (range [-qmax, qmax]): (w_q, scale, zero point)."""
    import numpy as np
    w = w.astype(np.float32)
    if axis is None:
        absmax = np.float32(np.max(np.abs(w))) if w.size else np.float32(0)
        scale = np.float32(absmax / qmax) if absmax > 0 else np.float32(1.0)
        q = np.clip(np.round(w / scale), -qmax, qmax).astype(np.int8)
        return q, scale, np.int8(0)
    red = tuple(i for i in range(w.ndim) if i != axis)
    absmax = np.max(np.abs(w), axis=red).astype(np.float32)
    scale = np.where(absmax > 0, absmax / np.float32(qmax), np.float32(1.0)).astype(np.float32)
    shape = [1] * w.ndim
    shape[axis] = -1
    q = np.clip(np.round(w / scale.reshape(shape)), -qmax, qmax).astype(np.int8)
    return q, scale, np.zeros(scale.shape, np.int8)


# ------------------------------------------------------------ static QDQ

def fold_constant_identities(model):
    """Identity nodes of a constant (torch's exporter writes one per repeated
    initializer, e.g. every all-zero Conv bias of a model shares one tensor)
    are removed and their readers read the constant, as onnxruntime's
    quantization pre-processing (its graph optimizer) does before quantizing:
    a quantizer that kept them would quantize such a bias as an activation."""
    g = model.graph
    consts = {t.name for t in g.initializer}
    consts |= {n.output[0] for n in g.node if n.op_type == 'Constant'}
    outputs = {o.name for o in g.output}
    alias = {}
    keep = []
    for n in g.node:
        src = alias.get(n.input[0], n.input[0]) if n.input else None
        if n.op_type == 'Identity' and src in consts and n.output[0] not in outputs:
            alias[n.output[0]] = src
            continue
        keep.append(n)
    if not alias:
        return 0
    for n in keep:
        for i, x in enumerate(n.input):
            if x in alias:
                n.input[i] = alias[x]
    del g.node[:]
    g.node.extend(keep)
    return len(alias)



def plan_static(model, explicit_activation):
    """What the static quantizer does to the graph: the activation tensors to
    quantize (in order), the Relu/Clip nodes removed (each with its Conv), and
    the Conv outputs left float (explicit variant)."""
    G = Graph(model)
    g = model.graph
    act_after = {}  # Conv node name -> its Relu/Clip
    for n in g.node:
        if n.op_type != 'Conv':
            continue
        c = G.consumers[n.output[0]]
        if (len(c) == 1 and c[0].op_type in ('Relu', 'Clip') and n.output[0] not in G.outputs
                and all(x == '' or G.is_const(x) for x in c[0].input[1:])):
            act_after[id(n)] = c[0]
    tensors = []
    seen = set()

    def add(t):
        if t not in seen and G.is_float_activation(t):
            seen.add(t)
            tensors.append(t)

    for n in g.node:
        if n.op_type not in QDQ_OPS:
            continue
        for i, x in enumerate(n.input):
            if n.op_type == 'Resize' and i > 0:
                continue
            if n.op_type in ('Conv', 'Gemm', 'MatMul') and i > 0 and G.is_const(x):
                continue  # a weight or a bias
            add(x)
        out = n.output[0]
        act = act_after.get(id(n))
        if act is not None:
            add(act.output[0])  # removed: the Conv writes it; explicit: the activation does
        else:
            add(out)
    # Every tensor's range is calibrated on the float model; the Relu/Clip
    # outputs exist there.
    return G, act_after, tensors


def calibrate(model, tensors, photos_npy, input_name, work):
    """min/max of each tensor over the calibration photos (onnxruntime-node)."""
    import onnx
    from onnx import helper, TensorProto
    m = onnx.ModelProto()
    m.CopyFrom(model)
    have = {o.name for o in m.graph.output}
    for t in tensors:
        if t not in have:
            m.graph.output.append(helper.make_tensor_value_info(t, TensorProto.FLOAT, None))
    path = os.path.join(work, 'calibration.onnx')
    onnx.save(m, path)
    out = os.path.join(work, 'ranges.json')
    run_ort(path, [{'inputs': {input_name: f}} for f in photos_npy], minmax=out)
    with open(out) as f:
        ranges = json.load(f)
    os.unlink(path)
    missing = [t for t in tensors if t not in ranges]
    if missing:
        raise RuntimeError(f'calibration has no range for {len(missing)} tensors, e.g. {missing[:3]}')
    return ranges


def rebuilt(model, new_nodes, new_inits):
    """model's graph with new_nodes, its initializers that some node still
    reads (a removed Clip's min and max, a weight replaced by its quantized
    form are dropped, as ORT does) and new_inits; checked."""
    import onnx
    from onnx import helper
    g = model.graph
    used = {x for nd in new_nodes for x in nd.input}
    kept = [t for t in g.initializer if t.name in used]
    graph = helper.make_graph(new_nodes, g.name, list(g.input), list(g.output), kept + new_inits)
    out = helper.make_model(graph, opset_imports=list(model.opset_import), producer_name='wnn tests/quant/quantize.py',
                            ir_version=model.ir_version)
    onnx.checker.check_model(out)
    return out


def quantize_static(model, ranges, plan, explicit_activation):
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper
    G, act_after, tensors = plan
    g = model.graph
    quantized = set(tensors)
    graph_outputs = set(G.outputs)
    params = {}
    new_inits = []
    new_nodes = []
    dq_of = {}  # quantized tensor -> the name its readers read

    def init(name, array):
        new_inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    def tensor_params(t, producer):
        if t in params:
            return params[t]
        if producer is not None and producer.op_type in SAME_AS_INPUT and producer.input[0] in params:
            p = params[producer.input[0]]
        else:
            lo, hi = ranges[t]
            p = activation_params(lo, hi)
        params[t] = p
        return p

    def emit_qdq(t, src, producer):
        s, zp = tensor_params(t, producer)
        s_name = init(f'{t}_scale', np.float32(s))
        zp_name = init(f'{t}_zero_point', np.uint8(zp))
        q = f'{t}_QuantizeLinear_Output'
        dq = t if t in graph_outputs else f'{t}_DequantizeLinear_Output'
        new_nodes.append(helper.make_node('QuantizeLinear', [src, s_name, zp_name], [q], name=f'{t}_QuantizeLinear'))
        new_nodes.append(helper.make_node('DequantizeLinear', [q, s_name, zp_name], [dq], name=f'{t}_DequantizeLinear'))
        dq_of[t] = dq

    def weight_dq(name, q, scale, zp, axis):
        init(f'{name}_quantized', q)
        init(f'{name}_scale', scale)
        init(f'{name}_zero_point', zp)
        out = f'{name}_DequantizeLinear_Output'
        kw = {'axis': axis} if axis is not None and np.ndim(scale) > 0 else {}
        new_nodes.append(helper.make_node('DequantizeLinear', [f'{name}_quantized', f'{name}_scale', f'{name}_zero_point'],
                                          [out], name=f'{name}_DequantizeLinear', **kw))
        return out

    for x in g.input:
        if x.name in quantized:
            emit_qdq(x.name, x.name, None)

    removed = {id(a) for a in act_after.values()} if not explicit_activation else set()
    for n in g.node:
        if id(n) in removed:
            continue
        node = onnx.NodeProto()
        node.CopyFrom(n)
        act = act_after.get(id(n))
        if act is not None and not explicit_activation:
            node.output[0] = act.output[0]  # the activation is gone: the Conv writes its output
        # Weights and biases of Conv, Gemm, MatMul.
        if n.op_type in ('Conv', 'Gemm', 'MatMul') and len(n.input) > 1 and n.input[1] in G.inits \
                and n.input[0] in quantized:
            x_s = float(tensor_params(n.input[0], None)[0])
            w = G.inits[n.input[1]]
            if n.op_type == 'Conv':
                wq, ws, wzp = symmetric_int8(w, axis=0)
                node.input[1] = weight_dq(n.input[1], wq, ws, wzp, 0)
            else:
                wq, ws, wzp = symmetric_int8(w)
                node.input[1] = weight_dq(n.input[1], wq, ws, wzp, None)
            bias = n.input[2] if len(n.input) > 2 else ''
            n_out = w.shape[0] if n.op_type == 'Conv' else (w.shape[0] if attr(n, 'transB', 0) else w.shape[-1])
            if (bias and bias in G.inits and G.inits[bias].ndim == 1 and G.inits[bias].shape[0] == n_out
                    and (n.op_type != 'Gemm' or attr(n, 'beta', 1.0) == 1.0)):
                b = G.inits[bias].astype(np.float64)
                bs = (np.float32(x_s) * np.asarray(ws, np.float32)).astype(np.float32)
                bq = np.clip(np.round(b / bs.astype(np.float64)), -2**31, 2**31 - 1).astype(np.int32)
                bzp = np.zeros(bs.shape, np.int32) if np.ndim(bs) else np.int32(0)
                # A bias tensor several Convs share (torch's exporter shares
                # equal initializers) gets one quantized copy per Conv: each
                # has its own scale.
                qname = bias if len(G.consumers[bias]) == 1 else f'{bias}_{n.output[0]}'
                node.input[2] = weight_dq(qname, bq, bs, bzp, 0)
        for i, x in enumerate(node.input):
            if x in dq_of:
                node.input[i] = dq_of[x]
        q_out = [t for t in node.output[:1] if t in quantized]
        for t in q_out:
            if t in graph_outputs:
                node.output[0] = f'{t}_float'
        new_nodes.append(node)
        for t in q_out:
            emit_qdq(t, node.output[0], n)

    return rebuilt(model, new_nodes, new_inits), params


# ------------------------------------------------------------ dynamic

def quantize_dynamic(model, per_column, reduce_range=False):
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper, TensorProto
    G = Graph(model)
    g = model.graph
    new_nodes = []
    new_inits = []
    dql = {}
    count = 0

    def init(name, array):
        new_inits.append(numpy_helper.from_array(np.asarray(array), name))
        return name

    for n in g.node:
        w = None
        if n.op_type == 'MatMul' and n.input[1] in G.inits and G.inits[n.input[1]].ndim == 2 \
                and G.inits[n.input[1]].dtype == np.float32:
            w = G.inits[n.input[1]]
        elif n.op_type == 'Gemm' and n.input[1] in G.inits and attr(n, 'alpha', 1.0) == 1.0 \
                and attr(n, 'beta', 1.0) == 1.0 and not attr(n, 'transA', 0):
            w = G.inits[n.input[1]]
            if attr(n, 'transB', 0):
                w = np.ascontiguousarray(w.T)
        if w is None:
            node = onnx.NodeProto()
            node.CopyFrom(n)
            new_nodes.append(node)
            continue
        count += 1
        x = n.input[0]
        if x not in dql:
            names = (f'{x}_quantized', f'{x}_scale', f'{x}_zero_point')
            new_nodes.append(helper.make_node('DynamicQuantizeLinear', [x], list(names), name=f'{x}_QuantizeLinear'))
            dql[x] = names
        xq, xs, xzp = dql[x]
        wname = f'{n.input[1]}_{n.name.strip("/").replace("/", "_")}' if n.op_type == 'Gemm' else n.input[1]
        wq, ws, wzp = symmetric_int8(w, axis=1 if per_column else None, qmax=64 if reduce_range else 127)
        init(f'{wname}_quantized', wq)
        init(f'{wname}_scale', ws)
        init(f'{wname}_zero_point', wzp)
        out = n.output[0]
        mm = f'{out}_MatMulInteger'
        new_nodes.append(helper.make_node('MatMulInteger', [xq, f'{wname}_quantized', xzp, f'{wname}_zero_point'],
                                          [mm], name=f'{n.name}_quant'))
        new_nodes.append(helper.make_node('Mul', [xs, f'{wname}_scale'], [f'{out}_scales_mul'], name=f'{n.name}_scales_mul'))
        new_nodes.append(helper.make_node('Cast', [mm], [f'{mm}_cast'], to=TensorProto.FLOAT, name=f'{n.name}_output_cast'))
        has_c = n.op_type == 'Gemm' and len(n.input) > 2 and n.input[2]
        mul_out = f'{out}_unbiased' if has_c else out
        new_nodes.append(helper.make_node('Mul', [f'{mm}_cast', f'{out}_scales_mul'], [mul_out], name=f'{n.name}_output_scale_mul'))
        if has_c:
            new_nodes.append(helper.make_node('Add', [mul_out, n.input[2]], [out], name=f'{n.name}_bias_add'))

    return rebuilt(model, new_nodes, new_inits), count


# ------------------------------------------------------------ BERT-like encoder

def bert_model():
    import math
    import torch

    class Layer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.q = torch.nn.Linear(BERT_D, BERT_D)
            self.k = torch.nn.Linear(BERT_D, BERT_D)
            self.v = torch.nn.Linear(BERT_D, BERT_D)
            self.o = torch.nn.Linear(BERT_D, BERT_D)
            self.ln1 = torch.nn.LayerNorm(BERT_D, eps=1e-12)
            self.ff1 = torch.nn.Linear(BERT_D, BERT_FFN)
            self.ff2 = torch.nn.Linear(BERT_FFN, BERT_D)
            self.ln2 = torch.nn.LayerNorm(BERT_D, eps=1e-12)

        def forward(self, x, ext_mask):
            dh = BERT_D // BERT_HEADS

            def heads(t):
                return t.reshape(1, BERT_SEQ, BERT_HEADS, dh).transpose(1, 2)
            q, k, v = heads(self.q(x)), heads(self.k(x)), heads(self.v(x))
            s = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(dh) + ext_mask
            a = torch.matmul(torch.softmax(s, dim=-1), v).transpose(1, 2).reshape(1, BERT_SEQ, BERT_D)
            x = self.ln1(x + self.o(a))
            return self.ln2(x + self.ff2(torch.nn.functional.gelu(self.ff1(x))))

    class Bert(torch.nn.Module):
        """BERT's encoder (post-norm, erf GELU, extended attention mask) at a small width."""

        def __init__(self):
            super().__init__()
            self.word = torch.nn.Embedding(BERT_VOCAB, BERT_D)
            self.pos = torch.nn.Embedding(BERT_SEQ, BERT_D)
            self.token_type = torch.nn.Embedding(2, BERT_D)
            self.ln = torch.nn.LayerNorm(BERT_D, eps=1e-12)
            self.layers = torch.nn.ModuleList([Layer() for _ in range(BERT_LAYERS)])
            with torch.no_grad():  # BERT's initialization, LayerNorms with a random affine
                for m in self.modules():
                    if isinstance(m, (torch.nn.Linear, torch.nn.Embedding)):
                        m.weight.normal_(0.0, 0.02)
                    if isinstance(m, torch.nn.Linear):
                        m.bias.normal_(0.0, 0.02)
                    if isinstance(m, torch.nn.LayerNorm):
                        m.weight.copy_(1.0 + 0.1 * torch.randn(BERT_D))
                        m.bias.copy_(0.1 * torch.randn(BERT_D))

        def forward(self, input_ids, attention_mask, token_type_ids):
            pos = torch.arange(BERT_SEQ).unsqueeze(0)
            x = self.ln(self.word(input_ids) + self.pos(pos) + self.token_type(token_type_ids))
            ext = (1.0 - attention_mask[:, None, None, :].to(torch.float32)) * -10000.0
            for layer in self.layers:
                x = layer(x, ext)
            return x

    torch.manual_seed(BERT_SEED)
    model = Bert().eval()
    g = torch.Generator().manual_seed(BERT_SEED + 1)
    ids = torch.randint(1000, BERT_VOCAB, (1, BERT_SEQ), generator=g)
    ids[0, 0] = 101  # [CLS]
    mask = torch.ones(1, BERT_SEQ, dtype=torch.int64)
    mask[0, BERT_SEQ - BERT_PAD:] = 0
    ids[0, BERT_SEQ - BERT_PAD:] = 0  # [PAD]
    types = torch.zeros(1, BERT_SEQ, dtype=torch.int64)
    types[0, BERT_SEQ // 2:BERT_SEQ - BERT_PAD] = 1
    return model, (ids, mask, types)


def write_bert(tmp):
    import numpy as np
    import torch
    import warnings
    warnings.filterwarnings('ignore', category=UserWarning)
    model, inputs = bert_model()
    with torch.no_grad():
        y = model(*inputs)
    names = ['input_ids', 'attention_mask', 'token_type_ids']
    torch.onnx.export(model, inputs, os.path.join(tmp, 'model.onnx'), opset_version=17, input_names=names,
                      output_names=['last_hidden_state'], do_constant_folding=True)
    d = os.path.join(tmp, 'test_data_set_0')
    os.makedirs(d)
    for i, (n, t) in enumerate(zip(names, inputs)):
        write_tensor(os.path.join(d, f'input_{i}.pb'), t.numpy().astype(np.int64), n)
    write_tensor(os.path.join(d, 'output_0.pb'), y.numpy().astype(np.float32), 'last_hidden_state')
    return {'inputs': names, 'output': 'last_hidden_state', 'reference': 'torch', 'seed': BERT_SEED}


# ------------------------------------------------------------ writing

def write_tensor(path, array, name):
    from onnx import numpy_helper
    with open(path, 'wb') as f:
        f.write(numpy_helper.from_array(array, name).SerializeToString())


def read_tensor(path):
    import onnx
    from onnx import numpy_helper
    t = onnx.TensorProto()
    with open(path, 'rb') as f:
        t.ParseFromString(f.read())
    return numpy_helper.to_array(t)


def reference_outputs(model_path, input_sets, tmp, runtime='node'):
    """onnxruntime's outputs (the graph as written) for every test data set:
    input_sets = [(set_dir, {input name: array})]; writes set_dir/output_<i>.pb."""
    import numpy as np
    import onnx
    names = [o.name for o in onnx.load(model_path, load_external_data=False).graph.output]
    sets = []
    for k, (d, feeds) in enumerate(input_sets):
        ins = {}
        for n, a in feeds.items():
            f = os.path.join(tmp, f'.in{k}_{len(ins)}.npy')
            np.save(f, a)
            ins[n] = f
        sets.append({'inputs': ins, 'outDir': os.path.join(tmp, f'.out{k}')})
    run_ort(model_path, sets, runtime=runtime)
    for k, (d, feeds) in enumerate(input_sets):
        for i, n in enumerate(names):
            a = np.load(os.path.join(tmp, f'.out{k}', f'output_{i}.npy'))
            write_tensor(os.path.join(d, f'output_{i}.pb'), a, n)
        shutil.rmtree(os.path.join(tmp, f'.out{k}'))
        for f in sets[k]['inputs'].values():
            os.unlink(f)


def photo_arrays():
    exp = load_export_py()
    return {p: exp.image_input(p).numpy().astype('float32') for p in PHOTOS}


def stamp(name, source_file):
    import numpy
    import onnx
    return {
        'model': name,
        'description': MODELS[name][3],
        'script_sha256': sha256_file(os.path.abspath(__file__)),
        'ort_mjs_sha256': sha256_file(ORT_MJS),
        'export_py_sha256': sha256_file(EXPORT_PY),
        'source_sha256': sha256_file(source_file) if source_file else None,
        'onnx': onnx.__version__,
        'numpy': numpy.__version__,
        'onnxruntime_node': ort_version(),
    }


def up_to_date(folder, want):
    if not os.path.isfile(os.path.join(folder, 'model.onnx')) or not os.path.isdir(os.path.join(folder, 'test_data_set_0')):
        return False
    try:
        with open(os.path.join(folder, 'quant.json')) as f:
            have = json.load(f)
    except (OSError, ValueError):
        return False
    return all(have.get(k) == v for k, v in want.items())


def make_one(name, outdir, tvdir, photos):
    import numpy as np
    import onnx
    kind, source, opts, _ = MODELS[name]
    final = os.path.join(outdir, name)
    tmp = os.path.join(outdir, f'.{name}.tmp{os.getpid()}')
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    try:
        if kind == 'bert':
            meta = write_bert(tmp)
            meta.update(stamp(name, None))
        else:
            src_dir = os.path.join(outdir, source) if source == 'bert_encoder' else os.path.join(tvdir, source)
            src = os.path.join(src_dir, 'model.onnx')
            if not os.path.isfile(src):
                raise RuntimeError(f'{src} is missing (tests/torch/export.py {tvdir}, or bert_encoder first)')
            model = onnx.load(src)
            fold_constant_identities(model)
            meta = stamp(name, src)
            meta['source'] = os.path.relpath(src, ROOT)
            meta['float'] = FLOAT_BENCH_NAME[source]
            if kind == 'qdq':
                explicit = bool(opts.get('explicit_activation'))
                input_name = [i.name for i in model.graph.input][0]
                cal = []
                for p in CALIBRATION:
                    f = os.path.join(tmp, f'.cal_{p}.npy')
                    np.save(f, photos[p])
                    cal.append(f)
                plan = plan_static(model, explicit)
                ranges = calibrate(model, plan[2], cal, input_name, tmp)
                for f in cal:
                    os.unlink(f)
                q, params = quantize_static(model, ranges, plan, explicit)
                onnx.save(q, os.path.join(tmp, 'model.onnx'))
                sets = []
                for k, p in enumerate(PHOTOS):
                    d = os.path.join(tmp, f'test_data_set_{k}')
                    os.makedirs(d)
                    write_tensor(os.path.join(d, 'input_0.pb'), photos[p], input_name)
                    sets.append((d, {input_name: photos[p]}))
                reference_outputs(os.path.join(tmp, 'model.onnx'), sets, tmp)
                ops = defaultdict(int)
                for n in q.graph.node:
                    ops[n.op_type] += 1
                meta.update({
                    'kind': 'static QDQ', 'reference': 'onnxruntime-node', 'photos': list(PHOTOS), 'calibration': list(CALIBRATION),
                    'weights': 'Conv: int8 symmetric per output channel; MatMul/Gemm: int8 symmetric per tensor',
                    'activations': 'uint8 asymmetric, min/max, range includes 0',
                    'activation_after_conv': 'explicit (Conv -> Relu/Clip -> Q)' if explicit else 'removed (Q saturates)',
                    'quantized_tensors': len(plan[2]),
                    'removed_activations': 0 if explicit else len(plan[1]),
                    'ops': dict(sorted(ops.items())),
                })
            else:
                q, count = quantize_dynamic(model, bool(opts.get('per_column')), bool(opts.get('reduce_range')))
                onnx.save(q, os.path.join(tmp, 'model.onnx'))
                src_data = os.path.join(src_dir, 'test_data_set_0')
                d = os.path.join(tmp, 'test_data_set_0')
                os.makedirs(d)
                feeds = {}
                for i, inp in enumerate([x for x in model.graph.input if x.name not in {t.name for t in model.graph.initializer}]):
                    shutil.copy(os.path.join(src_data, f'input_{i}.pb'), os.path.join(d, f'input_{i}.pb'))
                    feeds[inp.name] = read_tensor(os.path.join(d, f'input_{i}.pb'))
                reference_outputs(os.path.join(tmp, 'model.onnx'), [(d, feeds)], tmp, runtime=DYNAMIC_REFERENCE)
                meta.update({
                    'kind': 'dynamic', 'quantized_matmuls': count, 'reference': f'onnxruntime-{DYNAMIC_REFERENCE}',
                    'weights': ('int8 symmetric per column' if opts.get('per_column') else 'int8 symmetric per tensor')
                    + (', reduce_range (7 bits: [-64, 64])' if opts.get('reduce_range') else ', [-127, 127]'),
                })
        with open(os.path.join(tmp, 'quant.json'), 'w') as f:
            json.dump(meta, f, indent=1)
            f.write('\n')
        shutil.rmtree(final, ignore_errors=True)
        os.rename(tmp, final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return os.path.getsize(os.path.join(final, 'model.onnx'))


def describe(path):
    """For each graph output: the scale and zero point of the DequantizeLinear
    that writes it, directly or through ops that only move values (Flatten,
    Reshape, Identity, ...), or null; the op counts; and how many Relu/Clip
    read a Conv's output; as JSON."""
    import onnx
    from onnx import numpy_helper
    m = onnx.load(path)
    consts = {t.name: numpy_helper.to_array(t) for t in m.graph.initializer}
    producer = {o: n for n in m.graph.node for o in n.output}
    out = {}
    for o in m.graph.output:
        n = producer.get(o.name)
        while n is not None and n.op_type in ('Flatten', 'Reshape', 'Identity', 'Squeeze', 'Unsqueeze', 'Transpose'):
            n = producer.get(n.input[0])
        if n is not None and n.op_type == 'DequantizeLinear' and n.input[1] in consts:
            s = consts[n.input[1]]
            zp = consts.get(n.input[2]) if len(n.input) > 2 else None
            out[o.name] = {'scale': float(s.max()), 'zero_point': None if zp is None else int(zp.max())}
        else:
            out[o.name] = None
    ops = defaultdict(int)
    for n in m.graph.node:
        ops[n.op_type] += 1
    after_conv = sum(1 for n in m.graph.node if n.op_type in ('Relu', 'Clip')
                     and getattr(producer.get(n.input[0]), 'op_type', None) == 'Conv')
    return {'outputs': out, 'ops': dict(sorted(ops.items())), 'activations_after_conv': after_conv}


def main(argv):
    ap = argparse.ArgumentParser(description='Write quantized test models (static QDQ and dynamic) with test data.')
    ap.add_argument('outdir', nargs='?', help='where the model folders go (e.g. build/quant)')
    ap.add_argument('--torchvision', default=os.path.join(ROOT, 'build', 'torchvision'),
                    help='the float models of tests/torch/export.py (default build/torchvision)')
    ap.add_argument('--models', help=f'comma-separated subset of: {",".join(MODELS)}')
    ap.add_argument('--force', action='store_true', help='write even the models that are up to date')
    ap.add_argument('--list', action='store_true', help='print the model names and exit')
    ap.add_argument('--describe', metavar='MODEL', help='print the output scales of a quantized model as JSON and exit')
    args = ap.parse_args(argv)
    if args.list:
        for n, m in MODELS.items():
            print(f'{n}\t{m[0]}\t{FLOAT_BENCH_NAME.get(m[1], "") if m[1] else ""}\t{m[3]}')
        return 0
    if args.describe:
        print(json.dumps(describe(args.describe)))
        return 0
    if not args.outdir:
        ap.error('OUTDIR is required')
    names = list(MODELS) if not args.models else [n for n in args.models.split(',') if n]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        ap.error(f'unknown model(s) {", ".join(unknown)}; known: {", ".join(MODELS)}')
    # qdyn_bert_encoder is made from bert_encoder.
    if 'qdyn_bert_encoder' in names and 'bert_encoder' not in names:
        names.insert(names.index('qdyn_bert_encoder'), 'bert_encoder')
    tvdir = os.path.abspath(args.torchvision)
    outdir = os.path.abspath(args.outdir)
    os.makedirs(outdir, exist_ok=True)

    import torch
    torch.set_num_threads(min(2, os.cpu_count() or 1))
    photos = None
    failed = 0
    for name in names:
        kind, source, _, _ = MODELS[name]
        folder = os.path.join(outdir, name)
        src = None
        if source:
            src = os.path.join(outdir if source == 'bert_encoder' else tvdir, source, 'model.onnx')
        if not args.force and up_to_date(folder, stamp(name, src if src and os.path.isfile(src) else None)) \
                and (src is None or os.path.isfile(src)):
            print(f'{name}: up to date ({os.path.relpath(folder, ROOT)})', flush=True)
            continue
        t0 = time.monotonic()
        try:
            if kind == 'qdq' and photos is None:
                photos = photo_arrays()
            size = make_one(name, outdir, tvdir, photos)
        except Exception as e:  # report and go on with the other models
            failed += 1
            print(f'{name}: FAILED: {type(e).__name__}: {e}', flush=True)
            continue
        print(f'{name}: written in {time.monotonic() - t0:.1f} s ({size / 1e6:.1f} MB) -> {os.path.relpath(folder, ROOT)}',
              flush=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
