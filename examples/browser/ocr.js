// Fetches the wasm, PP-OCRv3's detector and recognizer and an image, reads
// the text, draws the image with the boxes and prints what they say. Query
// parameters choose the files (defaults: what examples/prepare.mjs writes):
//   ?det=/build/examples/ppocr-det.wnn&rec=/build/examples/ppocr-rec.wnn&image=/build/examples/ocr-image.npy
// The image is a uint8 [height, width, 3] RGB .npy. document.body.dataset.status
// ends as "done" or "error"; window.ocrResult holds the result.
import * as wnn from 'wnn';
import { parseNpy } from 'wnn/io';
import { formatOcr, imageFromNpy, ocr, textRows } from '/examples/shared/ocr.js';

const params = new URLSearchParams(location.search);
const detUrl = params.get('det') ?? '/build/examples/ppocr-det.wnn';
const recUrl = params.get('rec') ?? '/build/examples/ppocr-rec.wnn';
const imageUrl = params.get('image') ?? '/build/examples/ocr-image.npy';
const $ = (id) => document.getElementById(id);

const progress = (id) => (loaded, total) => { $(id).max = total || loaded; $(id).value = loaded; };

function draw(canvas, image, lines) {
  canvas.width = image.width;
  canvas.height = image.height;
  const img = new ImageData(image.width, image.height);
  for (let p = 0; p < image.width * image.height; p++) {
    img.data.set(image.data.subarray(3 * p, 3 * p + 3), 4 * p);
    img.data[4 * p + 3] = 255;
  }
  const ctx = canvas.getContext('2d');
  ctx.putImageData(img, 0, 0);
  ctx.lineWidth = 2;
  ctx.font = '16px sans-serif';
  for (const { box: [x0, y0, x1, y1], text } of lines) {
    ctx.strokeStyle = '#d33';
    ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
    ctx.fillStyle = '#d33';
    ctx.fillText(text, x0, y1 + 16);
  }
}

try {
  $('det').textContent = detUrl;
  $('rec').textContent = recUrl;
  const [detector, recognizer, response] = await Promise.all([
    wnn.load(detUrl, { onProgress: progress('det-progress') }),
    wnn.load(recUrl, { onProgress: progress('rec-progress') }),
    fetch(imageUrl),
  ]);
  if (!response.ok) throw new Error(`${imageUrl}: HTTP ${response.status}`);
  const image = imageFromNpy(parseNpy(await response.arrayBuffer()), imageUrl);
  const result = ocr(detector, recognizer, image);
  detector.dispose();
  recognizer.dispose();
  draw($('image'), image, result.lines);
  const host = `browser (${wnn.simdSupported() ? 'SIMD128' : 'scalar'})`;
  window.ocrResult = { host, text: textRows(result.lines), ...result };
  $('result').textContent = formatOcr(result, host);
  document.body.dataset.status = 'done';
} catch (e) {
  $('result').textContent = `error: ${e.code ?? ''} ${e.message}`;
  document.body.dataset.status = 'error';
  throw e;
}
