#!/usr/bin/python3
"""Exports torchvision architectures and a small transformer encoder to ONNX,
each with one test data set, for tests/js/torchvision.test.mjs and
bench/run.mjs.

    /usr/bin/python3 tests/torch/export.py OUTDIR [--models a,b,...] [--force] [--list]

For every model NAME this writes, in the ONNX backend-test layout that
../shared/models uses:

    OUTDIR/NAME/model.onnx                    torch.onnx.export, opset 17, batch 1
    OUTDIR/NAME/test_data_set_0/input_0.pb    the input, a serialized onnx.TensorProto
    OUTDIR/NAME/test_data_set_0/output_0.pb   torch's own output on that input (the reference)
    OUTDIR/NAME/export.json                   how it was made (the stamp, see below)

No pretrained weights (there is no network here): each model is built with
weights=None after torch.manual_seed(SEED). A network with random weights and
BatchNorm running statistics of 0 and 1 has activations that drift far from
unit scale layer after layer, so the BatchNorm statistics are first
recalibrated: one forward pass over the three sample images with the
BatchNorms (only) in training mode, then eval mode. The BatchNorms then
normalize as in a trained network, and the logits have a realistic scale.
Dropout and stochastic depth are off in eval mode, so the export and the
reference output are deterministic.

Inputs are real photographs from scikit-image's sample data (astronaut,
coffee, chelsea), resized as ImageNet models expect: shorter side to 256
(bilinear, antialiased), center crop 224x224, scaled to [0, 1], normalized
with the ImageNet mean and standard deviation, NCHW float32. The transformer
takes a seeded standard-normal [1, 32, 128] sequence.

Idempotent: a model is skipped when its files exist and export.json records
the SHA-256 of this script and the same torch and torchvision versions; it
is exported again otherwise (or with --force). A model is written into a
temporary folder beside its final one and renamed into place, so an
interrupted run leaves no half-written model. One line per model on stdout.
Exit status: 0 when every requested model is there, 1 when one failed (the
others are still written), 2 on a usage error.
"""

import argparse
import functools
import hashlib
import json
import os
import shutil
import sys
import time

SEED = 20260401
OPSET = 17
IMAGE_SIZE = 224
RESIZE_TO = 256
IMAGENET_MEAN = (0.485, 0.456, 0.406)
IMAGENET_STD = (0.229, 0.224, 0.225)

# The transformer encoder: sequence length, model width, heads, layers.
SEQ = 32
D_MODEL = 128
HEADS = 4
LAYERS = 2
FFN = 256


def script_hash():
    with open(os.path.abspath(__file__), 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


# ------------------------------------------------------------------ inputs

def image_input(name):
    """One scikit-image sample photograph as a [1, 3, 224, 224] ImageNet input."""
    import torch
    import torchvision.transforms.functional as TF
    from skimage import data as skdata

    rgb = getattr(skdata, name)()  # H x W x 3, uint8
    x = torch.from_numpy(rgb.copy()).permute(2, 0, 1).float().div(255.0)
    x = TF.resize(x, RESIZE_TO, interpolation=TF.InterpolationMode.BILINEAR, antialias=True)
    x = TF.center_crop(x, [IMAGE_SIZE, IMAGE_SIZE])
    x = TF.normalize(x, IMAGENET_MEAN, IMAGENET_STD)
    return x.unsqueeze(0).contiguous()


@functools.lru_cache(maxsize=None)
def calibration_batch():
    """The three sample photographs: [3, 3, 224, 224]."""
    import torch
    return torch.cat([image_input(n) for n in ('astronaut', 'coffee', 'chelsea')])


def recalibrate_batchnorm(model, batch):
    """One pass over batch with the BatchNorms in training mode, so that their
    running means and variances become the batch's statistics (momentum None:
    a cumulative average, here over one pass). Everything else stays in eval
    mode (no dropout, no stochastic depth); afterwards all of it is."""
    import torch
    model.eval()
    for m in model.modules():
        if isinstance(m, torch.nn.modules.batchnorm._BatchNorm):
            m.reset_running_stats()
            m.momentum = None
            m.train()
    with torch.no_grad():
        model(batch)
    model.eval()


# ------------------------------------------------------------------ models

def torchvision_model(arch, image):
    def build():
        import torchvision
        model = getattr(torchvision.models, arch)(weights=None)
        recalibrate_batchnorm(model, calibration_batch())
        return model, image_input(image), ['input'], ['logits'], {'input': {0: 'batch'}, 'logits': {0: 'batch'}}
    return build


def transformer_encoder():
    import torch

    class Encoder(torch.nn.Module):
        """nn.TransformerEncoder (post-norm layers, GELU feed-forward) with a final
        LayerNorm, on batch-first [1, SEQ, D_MODEL] sequences; every layer has
        weights of its own."""

        def __init__(self):
            super().__init__()
            layer = torch.nn.TransformerEncoderLayer(
                d_model=D_MODEL, nhead=HEADS, dim_feedforward=FFN, dropout=0.1,
                activation='gelu', batch_first=True)
            self.encoder = torch.nn.TransformerEncoder(
                layer, num_layers=LAYERS, norm=torch.nn.LayerNorm(D_MODEL), enable_nested_tensor=False)
            # nn.TransformerEncoder deep-copies one layer, so every layer would
            # start with the same weights (and the exporter would store them
            # once), and LayerNorm's affine starts as 1 and 0: draw each
            # layer's weights anew and give every LayerNorm a random affine.
            with torch.no_grad():
                for m in self.encoder.modules():
                    if isinstance(m, torch.nn.MultiheadAttention):
                        m._reset_parameters()
                        torch.nn.init.normal_(m.in_proj_bias, std=0.02)
                    elif isinstance(m, torch.nn.Linear):
                        m.reset_parameters()
                    elif isinstance(m, torch.nn.LayerNorm):
                        m.weight.copy_(1.0 + 0.1 * torch.randn(D_MODEL))
                        m.bias.copy_(0.1 * torch.randn(D_MODEL))

        def forward(self, x):
            return self.encoder(x)

    model = Encoder().eval()
    g = torch.Generator().manual_seed(SEED + 1)
    x = torch.randn(1, SEQ, D_MODEL, generator=g)
    return model, x, ['input'], ['hidden'], {'input': {1: 'seq'}, 'hidden': {1: 'seq'}}


# name -> (builder, one-line description). Each builder runs after
# torch.manual_seed(SEED), so a model does not depend on which others ran.
MODELS = {
    'mobilenet_v2': (torchvision_model('mobilenet_v2', 'astronaut'), 'torchvision.models.mobilenet_v2, input: astronaut'),
    'resnet18': (torchvision_model('resnet18', 'coffee'), 'torchvision.models.resnet18, input: coffee'),
    'efficientnet_b0': (torchvision_model('efficientnet_b0', 'chelsea'), 'torchvision.models.efficientnet_b0, input: chelsea'),
    'squeezenet1_1': (torchvision_model('squeezenet1_1', 'astronaut'), 'torchvision.models.squeezenet1_1, input: astronaut'),
    'transformer_encoder': (transformer_encoder,
                            f'nn.TransformerEncoder, {LAYERS} layers, d_model {D_MODEL}, {HEADS} heads, '
                            f'feed-forward {FFN} (GELU), seq {SEQ}, batch_first; input: seeded randn'),
}


# ------------------------------------------------------------------ export

def stamp(name):
    import torch
    import torchvision
    return {
        'model': name,
        'description': MODELS[name][1],
        'script_sha256': script_hash(),
        'torch': torch.__version__,
        'torchvision': torchvision.__version__,
        'opset': OPSET,
        'seed': SEED,
    }


def up_to_date(folder, want):
    files = ['model.onnx', 'model_dynamic.onnx', 'test_data_set_0/input_0.pb', 'test_data_set_0/output_0.pb',
             'export.json']
    if not all(os.path.isfile(os.path.join(folder, f)) for f in files):
        return False
    try:
        with open(os.path.join(folder, 'export.json')) as f:
            have = json.load(f)
    except (OSError, ValueError):
        return False
    return all(have.get(k) == v for k, v in want.items())


def write_tensor(path, array, name):
    from onnx import numpy_helper
    t = numpy_helper.from_array(array, name)
    with open(path, 'wb') as f:
        f.write(t.SerializeToString())


def export_one(name, outdir):
    import numpy as np
    import torch

    torch.manual_seed(SEED)
    model, x, input_names, output_names, dynamic_axes = MODELS[name][0]()
    model.eval()
    with torch.no_grad():
        y = model(x)

    final = os.path.join(outdir, name)
    tmp = os.path.join(outdir, f'.{name}.tmp{os.getpid()}')
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(os.path.join(tmp, 'test_data_set_0'))
    try:
        # Exported with autograd on (parameters require grad): in eval mode
        # under no_grad, nn.TransformerEncoderLayer would take its fused fast
        # path, which has no ONNX export.
        torch.onnx.export(
            model, (x,), os.path.join(tmp, 'model.onnx'), opset_version=OPSET,
            input_names=input_names, output_names=output_names, do_constant_folding=True,
            training=torch.onnx.TrainingMode.EVAL)
        # The same model with its batch (or sequence) dim symbolic: the
        # run-time shapes tests (tests/js/dynamic.test.mjs) convert it
        # without --shape and run it at several sizes.
        torch.onnx.export(
            model, (x,), os.path.join(tmp, 'model_dynamic.onnx'), opset_version=OPSET,
            input_names=input_names, output_names=output_names, do_constant_folding=True,
            training=torch.onnx.TrainingMode.EVAL, dynamic_axes=dynamic_axes)
        write_tensor(os.path.join(tmp, 'test_data_set_0', 'input_0.pb'),
                     x.numpy().astype(np.float32), input_names[0])
        write_tensor(os.path.join(tmp, 'test_data_set_0', 'output_0.pb'),
                     y.detach().numpy().astype(np.float32), output_names[0])
        meta = stamp(name)
        meta['input'] = {'name': input_names[0], 'shape': list(x.shape)}
        meta['output'] = {'name': output_names[0], 'shape': list(y.shape),
                          'min': float(y.min()), 'max': float(y.max()), 'std': float(y.std())}
        with open(os.path.join(tmp, 'export.json'), 'w') as f:
            json.dump(meta, f, indent=1)
            f.write('\n')
        shutil.rmtree(final, ignore_errors=True)
        os.rename(tmp, final)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return os.path.getsize(os.path.join(final, 'model.onnx'))


def main(argv):
    ap = argparse.ArgumentParser(description='Export torchvision models and a transformer encoder to ONNX with test data.')
    ap.add_argument('outdir', nargs='?', help='where the model folders go (e.g. build/torchvision)')
    ap.add_argument('--models', help=f'comma-separated subset of: {",".join(MODELS)}')
    ap.add_argument('--force', action='store_true', help='export even the models that are up to date')
    ap.add_argument('--list', action='store_true', help='print the model names and exit')
    args = ap.parse_args(argv)
    if args.list:
        for n, (_, desc) in MODELS.items():
            print(f'{n}\t{desc}')
        return 0
    if not args.outdir:
        ap.error('OUTDIR is required')
    names = list(MODELS) if not args.models else [n for n in args.models.split(',') if n]
    unknown = [n for n in names if n not in MODELS]
    if unknown:
        ap.error(f'unknown model(s) {", ".join(unknown)}; known: {", ".join(MODELS)}')

    import torch
    import warnings
    # The two cores of the machine are shared; torch's reference outputs do not
    # depend on the thread count beyond float rounding.
    torch.set_num_threads(min(2, os.cpu_count() or 1))
    # torch.onnx prints UserWarnings about constant folding and tracing that
    # say nothing about these models.
    warnings.filterwarnings('ignore', category=UserWarning)
    warnings.filterwarnings('ignore', category=torch.jit.TracerWarning)

    os.makedirs(args.outdir, exist_ok=True)
    failed = 0
    for name in names:
        folder = os.path.join(args.outdir, name)
        if not args.force and up_to_date(folder, stamp(name)):
            print(f'{name}: up to date ({folder})', flush=True)
            continue
        t0 = time.monotonic()
        try:
            size = export_one(name, args.outdir)
        except Exception as e:  # report and go on with the other models
            failed += 1
            print(f'{name}: FAILED: {type(e).__name__}: {e}', flush=True)
            continue
        print(f'{name}: exported in {time.monotonic() - t0:.1f} s ({size / 1e6:.1f} MB, opset {OPSET}) -> {folder}', flush=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
