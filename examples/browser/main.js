// Fetches the wasm, a model and an input, runs the model, draws the input and
// the first output, and prints the summary. Query parameters choose the files:
//   ?model=/build/examples/model.wnn&input=/build/examples/input_0.npy
// (input may repeat, one per model input). document.body.dataset.status ends
// as "done" or "error"; window.wnnReport holds the summary.
import * as wnn from 'wnn';
import { parseNpy } from 'wnn/io';
import { formatReport, summarize } from '/examples/shared/report.js';

const params = new URLSearchParams(location.search);
const modelUrl = params.get('model') ?? '/build/examples/model.wnn';
const $ = (id) => document.getElementById(id);

function drawImage(canvas, { shape, data }) {
  // [1, C, H, W] or [1, H, W] or [H, W]: channel 0 (or RGB when C = 3), scaled to 0..255.
  const [h, w] = shape.slice(-2);
  const c = shape.length === 4 ? shape[1] : 1;
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of data) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  const scale = hi > lo ? 255 / (hi - lo) : 0;
  const img = new ImageData(w, h);
  for (let p = 0; p < w * h; p++) {
    for (let k = 0; k < 3; k++) img.data[4 * p + k] = (data[(c === 3 ? k : 0) * w * h + p] - lo) * scale;
    img.data[4 * p + 3] = 255;
  }
  const tmp = new OffscreenCanvas(w, h);
  tmp.getContext('2d').putImageData(img, 0, 0);
  const ctx = canvas.getContext('2d');
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(tmp, 0, 0, canvas.width, canvas.height);
}

function drawBars(canvas, output) {
  const ctx = canvas.getContext('2d');
  const values = Array.from(output.data, Number).slice(0, 20);
  const max = Math.max(...values.map(Math.abs), 1e-9);
  const bw = canvas.width / values.length;
  const best = values.indexOf(Math.max(...values));
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  ctx.font = '12px sans-serif';
  values.forEach((v, i) => {
    const bh = (Math.abs(v) / max) * (canvas.height / 2 - 20);
    ctx.fillStyle = i === best ? '#d33' : '#48c';
    ctx.fillRect(i * bw + 4, v >= 0 ? canvas.height / 2 - bh : canvas.height / 2, bw - 8, bh);
    ctx.fillStyle = '#222';
    ctx.fillText(String(i), i * bw + bw / 2 - 4, canvas.height - 4);
  });
}

try {
  $('model').textContent = modelUrl;
  const model = await wnn.load(modelUrl, {
    onProgress: (loaded, total) => { $('progress').max = total || loaded; $('progress').value = loaded; },
  });
  const inputUrls = params.getAll('input');
  const inputs = {};
  for (const [i, info] of model.inputs.entries()) {
    const response = await fetch(inputUrls[i] ?? `/build/examples/input_${i}.npy`);
    if (!response.ok) throw new Error(`input ${info.name}: HTTP ${response.status}`);
    const npy = parseNpy(await response.arrayBuffer());
    inputs[info.name] = npy.data;
    if (i === 0) drawImage($('input'), npy);
  }
  const outputs = await model.predict(inputs);
  drawBars($('chart'), outputs[model.outputs[0].name]);
  const report = summarize(model, outputs, `browser (${wnn.simdSupported() ? 'SIMD128' : 'scalar'})`);
  model.dispose();
  $('result').textContent = formatReport(report);
  window.wnnReport = report;
  document.body.dataset.status = 'done';
} catch (e) {
  $('result').textContent = `error: ${e.code ?? ''} ${e.message}`;
  document.body.dataset.status = 'error';
  throw e;
}
