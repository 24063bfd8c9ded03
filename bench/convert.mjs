// Converting a model folder's model.onnx with build/native/wnn the way the
// benchmarks do (bench/run.mjs, bench/codecs.mjs): every input with a shape
// fixed to its test data's shape; when the importer says an input must be
// constant ("pass --const NAME=FILE": it decides control flow, like silero's
// sample rate), the conversion is retried with that input frozen to the test
// data's value (wnn then runs the model without that input).
import { spawnSync } from 'node:child_process';
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
