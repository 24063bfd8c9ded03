// Release artifacts measured model by model (issue 11, section 3; the table
// in docs/performance.md, "Release artifacts"): every model of
// ../shared/models and the torchvision exports (build/torchvision) converted
// by build/native/wnn as the benchmarks convert it, then again with
// `--release --map`: the GRAPH section's bytes (and its gzip -9) each way,
// the whole artifact's bytes, and the map file's; the release artifact's
// outputs on test_data_set_0 must be bitwise the named artifact's (checked).
//
//   node bench/release.mjs [--models a,b] [--out FILE.json]
//
// Prints a markdown table; writes the numbers as JSON (default
// bench/release.json). Needs build/native/wnn and dist/wnn.wasm.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import * as wnn from '../js/wnn.js';
import { parseTensorProto } from '../js/io.js';
import { benchModels, convertModel } from './convert.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const CLI = path.join(ROOT, 'build/native/wnn');

const opt = { models: null, out: path.join(ROOT, 'bench/release.json') };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const val = () => argv[++i];
  if (argv[i] === '--models') opt.models = val().split(',');
  else if (argv[i] === '--out') opt.out = path.resolve(val());
  else { console.error(`release: unknown option '${argv[i]}' (--models a,b --out FILE)`); process.exit(2); }
}
for (const f of [CLI, path.join(ROOT, 'dist/wnn.wasm')]) {
  if (!fs.existsSync(f)) { console.error(`release: ${path.relative(ROOT, f)} is missing (npm run build)`); process.exit(1); }
}

const models = benchModels(ROOT, opt.models);

// The GRAPH section (kind 1) of an artifact (docs/format.md, "Section table").
function graphSection(bytes) {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = v.getUint32(40, true), entry = v.getUint32(44, true), header = v.getUint32(12, true);
  for (let i = 0; i < count; i++) {
    const e = header + i * entry;
    if (v.getUint32(e, true) === 1) {
      const offset = Number(v.getBigUint64(e + 8, true)), size = Number(v.getBigUint64(e + 16, true));
      return bytes.subarray(offset, offset + size);
    }
  }
  throw new Error('no GRAPH section');
}

async function outputs(bytes, inputs, map) {
  const model = await wnn.load(bytes, map ? { map } : undefined);
  const feeds = {};
  model.inputs.forEach((t, i) => { feeds[t.name] = { data: inputs[i].data, shape: inputs[i].shape }; });
  const out = await model.predict(feeds);
  model.dispose();
  return Object.values(out).map((t) => Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wnn-release-'));
const results = [];
for (const { name, dir } of models) {
  const data = path.join(dir, 'test_data_set_0');
  const inputs = [];
  for (let i = 0; fs.existsSync(path.join(data, `input_${i}.pb`)); i++) inputs.push(parseTensorProto(fs.readFileSync(path.join(data, `input_${i}.pb`))));
  const named = path.join(tmp, `${name}.wnn`), release = path.join(tmp, `${name}.release.wnn`), mapFile = path.join(tmp, `${name}.map.json`);
  const a = convertModel({ cli: CLI, onnx: path.join(dir, 'model.onnx'), out: named, inputs, dataDir: data });
  const b = a.ok && convertModel({ cli: CLI, onnx: path.join(dir, 'model.onnx'), out: release, inputs, dataDir: data, extra: ['--release', '--map', mapFile] });
  if (!a.ok || !b.ok) { console.error(`${name}: ${(a.ok ? b : a).why}`); results.push({ model: name, error: (a.ok ? b : a).why }); continue; }
  const nb = fs.readFileSync(named), rb = fs.readFileSync(release), map = JSON.parse(fs.readFileSync(mapFile, 'utf8'));
  const gn = graphSection(nb), gr = graphSection(rb);
  // The consts the conversion froze are not inputs of the artifact.
  const live = inputs.filter((t) => !a.consts.includes(t.name));
  const [on, or] = await Promise.all([outputs(nb, live), outputs(rb, live, map)]);
  const same = on.length === or.length && on.every((o, i) => o.equals(or[i]));
  if (!same) console.error(`${name}: the release artifact's outputs differ from the named one's`);
  const row = {
    model: name, nodes: map.nodes.length, graph: gn.length, graphGzip: zlib.gzipSync(gn, { level: 9 }).length,
    releaseGraph: gr.length, releaseGraphGzip: zlib.gzipSync(gr, { level: 9 }).length,
    artifact: nb.length, releaseArtifact: rb.length, map: fs.statSync(mapFile).size, sameOutputs: same,
  };
  results.push(row);
}
fs.rmSync(tmp, { recursive: true, force: true });
fs.writeFileSync(opt.out, `${JSON.stringify({ date: new Date().toISOString().slice(0, 10), results }, null, 1)}\n`);

const pct = (x, y) => `${(100 * (1 - x / y)).toFixed(1)} %`;
console.log('| model | nodes | GRAPH bytes | with --release | saved | GRAPH gzip | with --release | artifact bytes | with --release | map file | same outputs |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of results) {
  if (r.error) { console.log(`| ${r.model} | ${r.error} ||||||||||`); continue; }
  console.log(`| ${r.model} | ${r.nodes} | ${r.graph.toLocaleString('en')} | ${r.releaseGraph.toLocaleString('en')} | ${pct(r.releaseGraph, r.graph)} | ${r.graphGzip.toLocaleString('en')} | ${r.releaseGraphGzip.toLocaleString('en')} | ${r.artifact.toLocaleString('en')} | ${r.releaseArtifact.toLocaleString('en')} | ${r.map.toLocaleString('en')} | ${r.sameOutputs ? 'yes' : 'NO'} |`);
}
