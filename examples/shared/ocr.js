// PP-OCR with two wnn models, host-independent (Node, Deno, Bun, browsers,
// workers): the detector finds text, the recognizer reads each piece.
//
//   const result = ocr(detector, recognizer, image);
//
// image is {width, height, data} with data height * width * 3 RGB bytes.
// The models are chained by their names: the detector's input and output
// (model.inputs[0].name, model.outputs[0].name) and the recognizer's, as the
// source ONNX models named them. Pre- and post-processing follow PaddleOCR's
// inference defaults:
//   detector:   BGR, (pixel / 255 - mean) / std with ImageNet's mean and std,
//               resized (keeping the aspect ratio) into the model's fixed input;
//   DB post:    probability > 0.3, connected components, mean probability in
//               the box >= 0.6, each box grown by area * 1.5 / perimeter
//               (the "unclip" of DB, ratio 1.5);
//   recognizer: the box cropped, resized to height 48 keeping its aspect
//               ratio, BGR, (pixel / 255 - 0.5) / 0.5. A recognizer whose
//               width is dynamic (converted without --shape: its input shape
//               shows the dim's name) runs each box at its own width,
//               rounded up to a multiple of 8 (at most 2048); one with a fixed
//               width (320) takes at most that width, padded with 0 on the
//               right;
//   CTC:        per time step the best class; class 0 is the blank; repeats
//               collapse; class k >= 1 is EN_DICT[k - 1].

// PaddleOCR's en_dict.txt (95 entries: ASCII 0x30-0x7E, then 0x21-0x2F,
// then a space) and the space the English models add at the end: with the
// blank, 97 classes, the recognizer's output size.
export const EN_DICT = [
  ...Array.from({ length: 0x7f - 0x30 }, (_, i) => String.fromCharCode(0x30 + i)),
  ...Array.from({ length: 0x30 - 0x21 }, (_, i) => String.fromCharCode(0x21 + i)),
  ' ', ' ',
];

export const DEFAULTS = { threshold: 0.3, boxThreshold: 0.6, unclipRatio: 1.5, minSize: 3 };

const IMAGENET_MEAN = [0.485, 0.456, 0.406];
const IMAGENET_STD = [0.229, 0.224, 0.225];
const now = () => (globalThis.performance ? performance.now() : Date.now());

// Bilinear sample of channel k at (x, y) in image pixel coordinates.
function sample(image, x, y, k) {
  const { width: w, height: h, data } = image;
  x = Math.min(Math.max(x, 0), w - 1);
  y = Math.min(Math.max(y, 0), h - 1);
  const x0 = Math.floor(x);
  const y0 = Math.floor(y);
  const x1 = Math.min(x0 + 1, w - 1);
  const y1 = Math.min(y0 + 1, h - 1);
  const fx = x - x0;
  const fy = y - y0;
  const at = (xx, yy) => data[(yy * w + xx) * 3 + k];
  return (at(x0, y0) * (1 - fx) + at(x1, y0) * fx) * (1 - fy) + (at(x0, y1) * (1 - fx) + at(x1, y1) * fx) * fy;
}

// The detector's input: the image scaled by `scale` into [1, 3, H, W], BGR,
// ImageNet-normalized; the area outside the scaled image is 0.
export function detectorInput(image, H, W) {
  const scale = Math.min(W / image.width, H / image.height);
  const sw = Math.min(W, Math.round(image.width * scale));
  const sh = Math.min(H, Math.round(image.height * scale));
  const out = new Float32Array(3 * H * W);
  for (let c = 0; c < 3; c++) {
    const k = 2 - c; // BGR
    for (let y = 0; y < sh; y++) {
      for (let x = 0; x < sw; x++) {
        const v = sample(image, (x + 0.5) / scale - 0.5, (y + 0.5) / scale - 0.5, k) / 255;
        out[(c * H + y) * W + x] = (v - IMAGENET_MEAN[c]) / IMAGENET_STD[c];
      }
    }
  }
  return { data: out, scale };
}

// DB post-processing of a probability map [H, W]: boxes {x0, y0, x1, y1,
// score} in map coordinates (x1, y1 exclusive), top to bottom, left to right.
export function textBoxes(prob, H, W, options = {}) {
  const { threshold, boxThreshold, unclipRatio, minSize } = { ...DEFAULTS, ...options };
  const label = new Int32Array(H * W);
  const stack = new Int32Array(H * W);
  const boxes = [];
  let next = 0;
  for (let start = 0; start < H * W; start++) {
    if (label[start] || !(prob[start] > threshold)) continue;
    label[start] = ++next;
    let top = 0;
    stack[top++] = start;
    let x0 = W;
    let y0 = H;
    let x1 = -1;
    let y1 = -1;
    while (top) {
      const p = stack[--top];
      const px = p % W;
      const py = (p - px) / W;
      if (px < x0) x0 = px;
      if (px > x1) x1 = px;
      if (py < y0) y0 = py;
      if (py > y1) y1 = py;
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const qx = px + dx;
          const qy = py + dy;
          if (qx < 0 || qx >= W || qy < 0 || qy >= H) continue;
          const q = qy * W + qx;
          if (!label[q] && prob[q] > threshold) { label[q] = next; stack[top++] = q; }
        }
      }
    }
    const bw = x1 - x0 + 1;
    const bh = y1 - y0 + 1;
    if (Math.min(bw, bh) < minSize) continue;
    let sum = 0;
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) sum += prob[y * W + x];
    const score = sum / (bw * bh);
    if (score < boxThreshold) continue;
    const d = (bw * bh * unclipRatio) / (2 * (bw + bh));
    const box = { x0: x0 - d, y0: y0 - d, x1: x1 + 1 + d, y1: y1 + 1 + d, score };
    if (Math.min(box.x1 - box.x0, box.y1 - box.y0) < minSize + 2) continue;
    box.x0 = Math.max(0, box.x0);
    box.y0 = Math.max(0, box.y0);
    box.x1 = Math.min(W, box.x1);
    box.y1 = Math.min(H, box.y1);
    boxes.push(box);
  }
  // Reading order: by top edge; boxes whose tops are within 10 pixels form a row, left to right.
  boxes.sort((a, b) => a.y0 - b.y0 || a.x0 - b.x0);
  for (let i = 1; i < boxes.length; i++) {
    for (let j = i; j > 0 && Math.abs(boxes[j].y0 - boxes[j - 1].y0) < 10 && boxes[j].x0 < boxes[j - 1].x0; j--) {
      [boxes[j - 1], boxes[j]] = [boxes[j], boxes[j - 1]];
    }
  }
  return boxes;
}

// The width a dynamic-width recognizer gets for a box: its aspect ratio at
// height H, rounded up to a multiple of 8, in [8, 2048].
export function recognizerWidth(box, H) {
  const w = Math.ceil((H * (box.x1 - box.x0)) / (box.y1 - box.y0));
  return Math.min(2048, Math.max(8, Math.ceil(w / 8) * 8));
}

// The recognizer's input [1, 3, H, W] for one box of the image (image
// coordinates): height H, width min(W, ceil(H * box width / box height)).
export function recognizerInput(image, box, H, W) {
  const bw = box.x1 - box.x0;
  const bh = box.y1 - box.y0;
  const rw = Math.max(1, Math.min(W, Math.ceil((H * bw) / bh)));
  const out = new Float32Array(3 * H * W);
  for (let c = 0; c < 3; c++) {
    const k = 2 - c; // BGR
    for (let y = 0; y < H; y++) {
      const sy = box.y0 + ((y + 0.5) * bh) / H - 0.5;
      for (let x = 0; x < rw; x++) {
        const sx = box.x0 + ((x + 0.5) * bw) / rw - 0.5;
        out[(c * H + y) * W + x] = (sample(image, sx, sy, k) / 255 - 0.5) / 0.5;
      }
    }
  }
  return out;
}

// Greedy CTC decoding of [T, C] scores (the recognizer's softmax output).
export function ctcDecode(data, T, C, dict = EN_DICT) {
  if (C !== dict.length + 1) throw new Error(`ctcDecode: ${C} classes, but the dictionary has ${dict.length} characters plus the blank`);
  let text = '';
  let sum = 0;
  let n = 0;
  let prev = 0;
  for (let t = 0; t < T; t++) {
    let best = 0;
    for (let c = 1; c < C; c++) if (data[t * C + c] > data[t * C + best]) best = c;
    if (best !== 0 && best !== prev) {
      text += dict[best - 1];
      sum += data[t * C + best];
      n++;
    }
    prev = best;
  }
  return { text, score: n ? sum / n : 0 };
}

// One executor per model, kept across calls (a model's dispose() frees it):
// a dynamic-width recognizer then resizes to a width it has seen before from
// its plan cache, without planning again.
const executors = new WeakMap();
function executorOf(model) {
  let ex = executors.get(model);
  if (!ex || ex.disposed) executors.set(model, (ex = model.createExecutor()));
  return ex;
}

// Detects and reads the text of an image: {lines: [{text, score, box:
// [x0, y0, x1, y1] in image pixels, boxScore}], timing: {detectMs,
// recognizeMs}, names: the tensors chained}.
export function ocr(detector, recognizer, image, options = {}) {
  const detIn = detector.inputs[0];
  const detOut = detector.outputs[0];
  const recIn = recognizer.inputs[0];
  const recOut = recognizer.outputs[0];
  const [, , DH, DW] = detIn.shape;
  // A dynamic dim shows its name; the recognizer's height is 48 (its default).
  const size = (d) => (typeof d === 'string' ? recIn.dims[d].default : d);
  const RH = size(recIn.shape[2]);
  const dynamicWidth = typeof recIn.shape[3] === 'string';
  const RW = size(recIn.shape[3]);

  let t0 = now();
  const { data: x, scale } = detectorInput(image, DH, DW);
  const det = executorOf(detector);
  det.setInput(detIn.name, x);
  det.run();
  const prob = det.getOutput(detOut.name, { view: true }).data;
  const boxes = textBoxes(prob, DH, DW, options);
  const detectMs = now() - t0;

  t0 = now();
  const rec = executorOf(recognizer);
  const lines = [];
  for (const b of boxes) {
    const box = { x0: b.x0 / scale, y0: b.y0 / scale, x1: Math.min(image.width, b.x1 / scale), y1: Math.min(image.height, b.y1 / scale) };
    // A dynamic width: this box's own (setInput with the shape resizes).
    const w = dynamicWidth ? recognizerWidth(box, RH) : RW;
    rec.setInput(recIn.name, recognizerInput(image, box, RH, w), [1, 3, RH, w]);
    rec.run();
    const out = rec.getOutput(recOut.name, { view: true });
    const [T, C] = out.shape.slice(-2);
    const { text, score } = ctcDecode(out.data, T, C, options.dict);
    lines.push({ text, score, box: [box.x0, box.y0, box.x1, box.y1].map((v) => Math.round(v)), boxScore: b.score });
  }
  const recognizeMs = now() - t0;
  return {
    lines,
    timing: { detectMs, recognizeMs },
    names: { detector: [detIn.name, detOut.name], recognizer: [recIn.name, recOut.name] },
  };
}

// The recognized pieces grouped into rows (boxes whose vertical extents
// overlap by more than half the smaller height), each row's texts joined by a
// space, top to bottom: ['HELLO WORLD', ...].
export function textRows(lines) {
  const rows = [];
  for (const line of lines) {
    const [, y0, , y1] = line.box;
    const row = rows.find((r) => Math.min(r.y1, y1) - Math.max(r.y0, y0) > 0.5 * Math.min(r.y1 - r.y0, y1 - y0));
    if (row) {
      row.items.push(line);
      row.y0 = Math.min(row.y0, y0);
      row.y1 = Math.max(row.y1, y1);
    } else {
      rows.push({ y0, y1, items: [line] });
    }
  }
  return rows.sort((a, b) => a.y0 - b.y0)
    .map((r) => r.items.sort((a, b) => a.box[0] - b.box[0]).map((l) => l.text.trim()).filter(Boolean).join(' '));
}

// {width, height, data} from a parsed .npy ({shape, dtype, data}) that holds
// uint8 [height, width, 3] RGB; `what` names it in the error.
export function imageFromNpy(npy, what = 'image') {
  if (npy.dtype !== 'uint8' || npy.shape.length !== 3 || npy.shape[2] !== 3) {
    throw new Error(`${what}: want uint8 [height, width, 3] RGB, got ${npy.dtype} [${npy.shape.join(', ')}]`);
  }
  return { height: npy.shape[0], width: npy.shape[1], data: npy.data };
}

// What every OCR example prints: the chain, each box and its text, the text
// by rows, the time taken.
export function formatOcr(result, host) {
  return [
    `wnn on ${host}: PP-OCRv3`,
    `  ${result.names.detector.join(' -> ')} (detector) -> boxes -> ${result.names.recognizer.join(' -> ')} (recognizer) -> CTC`,
    ...result.lines.map((l) => `  [${l.box.join(', ')}] ${JSON.stringify(l.text)} (score ${l.score.toFixed(3)})`),
    'text:',
    ...textRows(result.lines).map((r) => `  ${r}`),
    `  detect ${result.timing.detectMs.toFixed(0)} ms, recognize ${result.timing.recognizeMs.toFixed(0)} ms (${result.lines.length} boxes)`,
  ].join('\n');
}
