// `npm pack` yields a tarball that a fresh `npm init -y` project installs
// (offline, from the tarball's path) and uses with `import * as wnn from 'wnn'`:
// the package finds its own wasm inside node_modules and runs a model; the
// TypeScript declarations resolve through the exports map (checked with Deno's
// type checker when node_modules/.bin/deno runs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function sh(cmd, args, cwd, env = {}) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 180_000, env: { ...process.env, ...env } });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, `${cmd} ${args.join(' ')} (in ${cwd}) failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

test('npm pack -> npm install in a fresh project -> import * as wnn from "wnn"', async (t) => {
  for (const f of ['dist/wnn.wasm', 'dist/wnn-scalar.wasm']) {
    assert.ok(fs.existsSync(path.join(root, f)), `${f} missing: npm run build`);
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-pack-'));
  t.after(() => fs.rmSync(tmp, { recursive: true, force: true }));
  // Keep npm's cache and logs out of the user's home.
  const env = { npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_update_notifier: 'false' };

  const packed = JSON.parse(sh(npm, ['pack', '--json', '--pack-destination', tmp], root, env));
  const files = packed[0].files.map((f) => f.path).sort();
  for (const f of ['package.json', 'js/wnn.js', 'js/wnn.d.ts', 'js/thread.js', 'dist/wnn.wasm', 'dist/wnn-scalar.wasm', 'dist/wnn-codecs.wasm', 'dist/wnn-mt.wasm', 'dist/wnn-relaxed.wasm', 'dist/wnn-mt-relaxed.wasm']) {
    assert.ok(files.includes(f), `the tarball lacks ${f}: ${files.join(' ')}`);
  }
  for (const f of files) {
    assert.match(f, /^(package\.json|README\.md|LICENSE.*|docs\/js\.md|js\/[\w.-]+|dist\/[\w.-]+\.wasm)$/, `unexpected file in the tarball: ${f}`);
  }
  const tarball = path.join(tmp, packed[0].filename);
  assert.ok(fs.existsSync(tarball));

  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  sh(npm, ['init', '-y'], app, env);
  sh(npm, ['install', '--offline', '--no-audit', '--no-fund', tarball], app, env);
  const pkg = JSON.parse(fs.readFileSync(path.join(app, 'package.json'), 'utf8'));
  assert.ok(pkg.dependencies?.wnn, 'wnn is a dependency of the app');
  assert.ok(fs.existsSync(path.join(app, 'node_modules/wnn/dist/wnn.wasm')));

  // A model and an input from build/fixtures when there, else only the API surface.
  const fixtures = path.join(root, 'build/fixtures');
  const haveFixture = fs.existsSync(path.join(fixtures, 'two_outputs.wnn'));
  if (haveFixture) {
    fs.copyFileSync(path.join(fixtures, 'two_outputs.wnn'), path.join(app, 'model.wnn'));
  }
  fs.writeFileSync(path.join(app, 'main.mjs'), `
import * as wnn from 'wnn';
import fs from 'node:fs';
const out = { exports: Object.keys(wnn).sort(), simd: wnn.simdSupported(), version: await wnn.version(),
  wasmUrl: import.meta.resolve('wnn/wnn.wasm') };
if (fs.existsSync('model.wnn')) {
  const model = await wnn.load('model.wnn');
  const input = new Float32Array(16).map((_, i) => i / 16 - 0.5);
  const result = await model.predict({ [model.inputs[0].name]: input });
  out.outputs = Object.fromEntries(Object.entries(result).map(([k, v]) => [k, Array.from(v.data)]));
  model.dispose();
}
console.log(JSON.stringify(out));
`);
  const got = JSON.parse(sh(process.execPath, ['main.mjs'], app));
  assert.deepEqual(got.exports, ['Executor', 'Model', 'Params', 'WnnError', 'attach', 'convert', 'load', 'loadParams', 'registerCodec', 'relaxedSimdSupported', 'simdSupported', 'threadInstance', 'threadsSupported', 'version']);
  assert.equal(got.simd, true);
  assert.match(got.version, /^\d+\.\d+\.\d+$/);
  assert.equal(fileURLToPath(got.wasmUrl), fs.realpathSync(path.join(app, 'node_modules/wnn/dist/wnn.wasm')));
  if (haveFixture) {
    // The same numbers as the package in the repository computes.
    const wnn = await import('../../js/wnn.js');
    const model = await wnn.load(path.join(fixtures, 'two_outputs.wnn'));
    const input = new Float32Array(16).map((_, i) => i / 16 - 0.5);
    const want = await model.predict({ [model.inputs[0].name]: input });
    model.dispose();
    assert.deepEqual(Object.keys(got.outputs), Object.keys(want));
    for (const [k, v] of Object.entries(want)) assert.deepEqual(got.outputs[k], Array.from(v.data));
  } else {
    t.diagnostic('no build/fixtures/two_outputs.wnn: the installed package was not run on a model');
  }

  // A bundler: esbuild bundles the installed package for browsers with no
  // warning; the bundle, given the wasm as bytes, runs the model.
  const esbuild = path.join(root, 'node_modules/.bin/esbuild');
  if (fs.existsSync(esbuild) && spawnSync(esbuild, ['--version']).status === 0) {
    fs.writeFileSync(path.join(app, 'entry.mjs'), `
import * as wnn from 'wnn';
export async function classify(wasmBytes, modelBytes, input) {
  const model = await wnn.load(modelBytes, { wasm: wasmBytes });
  const out = await model.predict({ [model.inputs[0].name]: input });
  model.dispose();
  return Object.fromEntries(Object.entries(out).map(([k, v]) => [k, Array.from(v.data)]));
}
`);
    const b = spawnSync(esbuild, ['entry.mjs', '--bundle', '--format=esm', '--platform=browser', '--outfile=bundle.mjs', '--log-level=warning'],
      { cwd: app, encoding: 'utf8' });
    assert.equal(b.status, 0, `esbuild failed:\n${b.stderr}`);
    assert.equal(b.stderr.trim(), '', 'esbuild warned');
    const bundled = fs.readFileSync(path.join(app, 'bundle.mjs'), 'utf8');
    assert.ok(!/from ['"]wnn['"]/.test(bundled), 'wnn was bundled in');
    if (haveFixture) {
      const { classify } = await import(pathToFileURL(path.join(app, 'bundle.mjs')).href);
      const input = new Float32Array(16).map((_, i) => i / 16 - 0.5);
      const out = await classify(fs.readFileSync(path.join(app, 'node_modules/wnn/dist/wnn.wasm')), fs.readFileSync(path.join(app, 'model.wnn')), input);
      assert.deepEqual(out, got.outputs, 'the bundle computes what the installed package computes');
    }
  } else {
    t.diagnostic('node_modules/.bin/esbuild does not run: no bundler test');
  }

  // TypeScript users get js/wnn.d.ts through the exports map's "types".
  const deno = path.join(root, 'node_modules/.bin/deno');
  if (fs.existsSync(deno) && spawnSync(deno, ['--version']).status === 0) {
    fs.writeFileSync(path.join(app, 'check.ts'), `
import * as wnn from 'wnn';
const model: wnn.Model = await wnn.load(new Uint8Array(0));
const info: readonly wnn.TensorInfo[] = model.inputs;
const out: wnn.Tensor = model.createExecutor().setInput(info[0].name, new Float32Array(1)).run().getOutput(0, { view: true });
const t: wnn.TimeEvaluatorResult = model.createExecutor().timeEvaluator({ number: 1, repeat: 2, minRepeatMs: 0 });
export { out, t };
`);
    fs.writeFileSync(path.join(app, 'bad.ts'), `
import * as wnn from 'wnn';
const model = await wnn.load('m.wnn');
model.createExecutor().setInput(0, [1, 2, 3]);
`);
    const denoEnv = { ...process.env, NO_COLOR: '1', DENO_NO_UPDATE_CHECK: '1' };
    const ok = spawnSync(deno, ['check', 'check.ts'], { cwd: app, encoding: 'utf8', env: denoEnv });
    assert.equal(ok.status, 0, `deno check of a correct use failed:\n${ok.stderr}`);
    const bad = spawnSync(deno, ['check', 'bad.ts'], { cwd: app, encoding: 'utf8', env: denoEnv });
    assert.notEqual(bad.status, 0, 'passing a plain array to setInput type-checked');
    assert.match(bad.stderr, /TensorData/);
  } else {
    t.diagnostic('node_modules/.bin/deno does not run: the declarations were not type-checked');
  }
});
