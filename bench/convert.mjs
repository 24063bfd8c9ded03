// Converting a model folder's model.onnx with build/native/wnn the way the
// benchmarks do (bench/run.mjs, bench/codecs.mjs): every input with a shape
// fixed to its test data's shape; when the importer says an input must be
// constant ("pass --const NAME=FILE": it decides control flow, like silero's
// sample rate), the conversion is retried with that input frozen to the test
// data's value (wnn then runs the model without that input).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

// -> {ok, file, ms, args, consts} or {ok: false, why, args}
export function convertModel({ cli, onnx, out, inputs, dataDir, extra = [] }) {
  const consts = [];
  for (;;) {
    const shapes = inputs.filter((t) => t.shape.length > 0 && !consts.includes(t.name)).flatMap((t) => ['--shape', `${t.name}=${t.shape.join('x')}`]);
    const constArgs = consts.flatMap((n) => ['--const', `${n}=${path.join(dataDir, `input_${inputs.findIndex((t) => t.name === n)}.pb`)}`]);
    const args = ['convert', onnx, '-o', out, ...shapes, ...constArgs, ...extra];
    const t0 = performance.now();
    const r = spawnSync(cli, args, { encoding: 'utf8', timeout: 10 * 60 * 1000 });
    const ms = performance.now() - t0;
    if (r.status === 0) return { ok: true, file: out, ms, args, consts, stderr: r.stderr };
    const lines = (r.stderr || '').trim().split('\n').filter((l) => !/: warning: /.test(l));
    const why = (lines.pop() || r.error?.message || `exit status ${r.status}`).replace(/^wnn: convert: /, '');
    const ask = why.match(/pass --const (\S+)=FILE/);
    if (ask && !consts.includes(ask[1]) && inputs.some((t) => t.name === ask[1])) { consts.push(ask[1]); continue; }
    return { ok: false, why: `wnn convert fails (exit ${r.status}): ${why}`, args };
  }
}

// The models the codec and release benchmarks measure: every folder of
// ../shared/models and of build/torchvision (as tv_NAME) with a model.onnx
// and a test_data_set_0, by name; `only` (names) picks some. -> [{name, dir}]
export function benchModels(root, only) {
  const folders = (dir, prefix) => (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
    .filter((d) => fs.existsSync(path.join(dir, d, 'model.onnx')) && fs.existsSync(path.join(dir, d, 'test_data_set_0')))
    .sort().map((d) => ({ name: prefix + d, dir: path.join(dir, d) }));
  return [...folders(path.resolve(root, '../shared/models'), ''), ...folders(path.join(root, 'build/torchvision'), 'tv_')]
    .filter((m) => !only || only.includes(m.name));
}
