#!/usr/bin/env node
// Reads the text in an image with PaddleOCR's PP-OCRv3 English detector and
// recognizer, two wnn models chained by their input and output names. Copy
// this file and examples/shared/ocr.js into your project (npm install wnn).
//
//   node examples/node/ocr.mjs [IMAGE.npy] [--det DET.wnn] [--rec REC.wnn] [--out RESULT.json]
//
// IMAGE.npy is uint8 [height, width, 3] RGB. Defaults: what
// `node examples/prepare.mjs` writes: build/examples/ocr-image.npy (rendered
// English text), ppocr-det.wnn, ppocr-rec.wnn; the result goes to
// build/examples/result-ocr.json.
import * as wnn from 'wnn';
import fs from 'node:fs/promises';
import { parseNpy } from 'wnn/io';
import { formatOcr, imageFromNpy, ocr, textRows } from '../shared/ocr.js';

const args = process.argv.slice(2);
const option = (flag, fallback) => {
  const at = args.indexOf(flag);
  return at >= 0 ? args.splice(at, 2)[1] : fallback;
};
const outFile = option('--out', 'build/examples/result-ocr.json');
const detFile = option('--det', 'build/examples/ppocr-det.wnn');
const recFile = option('--rec', 'build/examples/ppocr-rec.wnn');
const imageFile = args[0] ?? 'build/examples/ocr-image.npy';

// Without the prepared files, say why (ocr.json tells when the models could not be fetched).
for (const f of [imageFile, detFile, recFile]) {
  if (await fs.access(f).then(() => false, () => true)) {
    const info = await fs.readFile('build/examples/ocr.json', 'utf8').then(JSON.parse, () => ({}));
    console.error(`${f} is missing: ${info.unavailable ?? 'run node examples/prepare.mjs first'}`);
    process.exit(1);
  }
}
const image = imageFromNpy(parseNpy(await fs.readFile(imageFile)), imageFile);

const detector = await wnn.load(detFile);
const recognizer = await wnn.load(recFile);
const result = ocr(detector, recognizer, image);
detector.dispose();
recognizer.dispose();

console.log(formatOcr(result, 'node'));
await fs.writeFile(outFile, JSON.stringify({ host: 'node', image: imageFile, text: textRows(result.lines), ...result }, null, 2) + '\n');
console.log(`wrote ${outFile}`);
