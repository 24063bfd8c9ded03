// The Node OCR example for Deno, in TypeScript (types from js/wnn.d.ts):
//
//   node_modules/.bin/deno run --config examples/deno/deno.json --allow-read --allow-write=build/examples examples/deno/ocr.ts
//
// Reads build/examples/ppocr-det.wnn, ppocr-rec.wnn and ocr-image.npy (written
// by `node examples/prepare.mjs`), writes build/examples/result-ocr-deno.json.
import * as wnn from 'wnn';
import { parseNpy } from 'wnn/io';
import { formatOcr, imageFromNpy, ocr, textRows } from '../shared/ocr.js';

const [imageFile = 'build/examples/ocr-image.npy'] = Deno.args;

const detector: wnn.Model = await wnn.load('build/examples/ppocr-det.wnn');
const recognizer: wnn.Model = await wnn.load('build/examples/ppocr-rec.wnn');
const image = imageFromNpy(parseNpy(await Deno.readFile(imageFile)), imageFile);
const result = ocr(detector, recognizer, image);
detector.dispose();
recognizer.dispose();

console.log(formatOcr(result, 'deno'));
const out = 'build/examples/result-ocr-deno.json';
await Deno.writeTextFile(out, JSON.stringify({ host: 'deno', image: imageFile, text: textRows(result.lines), ...result }, null, 2) + '\n');
console.log(`wrote ${out}`);
