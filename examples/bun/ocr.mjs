// The Node OCR example for Bun:
//
//   node_modules/.bin/bun examples/bun/ocr.mjs [IMAGE.npy]
//
// Reads build/examples/ppocr-det.wnn, ppocr-rec.wnn and ocr-image.npy (written
// by `node examples/prepare.mjs`), writes build/examples/result-ocr-bun.json.
import * as wnn from 'wnn';
import { parseNpy } from 'wnn/io';
import { formatOcr, imageFromNpy, ocr, textRows } from '../shared/ocr.js';

const [imageFile = 'build/examples/ocr-image.npy'] = Bun.argv.slice(2);

// Bun.file(...) is a Blob; wnn.load takes its bytes.
const detector = await wnn.load(await Bun.file('build/examples/ppocr-det.wnn').arrayBuffer());
const recognizer = await wnn.load(await Bun.file('build/examples/ppocr-rec.wnn').arrayBuffer());
const image = imageFromNpy(parseNpy(await Bun.file(imageFile).arrayBuffer()), imageFile);
const result = ocr(detector, recognizer, image);
detector.dispose();
recognizer.dispose();

console.log(formatOcr(result, 'bun'));
const out = 'build/examples/result-ocr-bun.json';
await Bun.write(out, JSON.stringify({ host: 'bun', image: imageFile, text: textRows(result.lines), ...result }, null, 2) + '\n');
console.log(`wrote ${out}`);
