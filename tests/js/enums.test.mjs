// The JS shim's enums (status names, dtype names, load flags, kernel choices,
// the ErrorCode type) are generated from include/wnn.h by
// scripts/gen-js-enums.mjs, which scripts/build.sh runs. This fails when the
// header changed and js/ was not regenerated, and checks the generated names
// against what the wasm module itself reports.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { generate, generateTypes, splice } from '../../scripts/gen-js-enums.mjs';

const header = readFileSync(new URL('../../include/wnn.h', import.meta.url), 'utf8');

test('js/wnn.js and js/wnn.d.ts hold the enums of include/wnn.h', () => {
  for (const [file, block] of [['js/wnn.js', generate(header)], ['js/wnn.d.ts', generateTypes(header)]]) {
    const text = readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
    assert.equal(splice(text, block, file), text, `${file} is out of date: run node scripts/gen-js-enums.mjs`);
  }
});

test('every status the header declares is a WnnError code, WNN_ERR_LIMIT included', async () => {
  const wnn = await import('../../js/wnn.js');
  const names = [...header.matchAll(/^\s*(WNN_(?:OK|ERR_[A-Z_]+)) = (\d+)/gm)];
  assert.ok(names.length >= 21);
  for (const [, name, value] of names) {
    if (name === 'WNN_OK') continue;
    assert.equal(new wnn.WnnError(name, 'x').status, Number(value), name);
  }
});

test('the dtype names match wnn_dtype_name in the wasm module', async (t) => {
  const wasm = new URL('../../dist/wnn.wasm', import.meta.url);
  if (!existsSync(wasm)) return t.skip('dist/wnn.wasm is not built');
  const { instance } = await WebAssembly.instantiate(readFileSync(wasm), {
    env: { emscripten_notify_memory_growth() {}, wnn_js_decode: () => 0 },
    wasi_snapshot_preview1: new Proxy({}, { get: () => () => 0 }),
  });
  const x = instance.exports;
  const mem = () => new Uint8Array(x.memory.buffer);
  const cstr = (p) => {
    const m = mem();
    let e = p;
    while (m[e]) e++;
    return new TextDecoder().decode(m.subarray(p, e));
  };
  const dtypes = [...header.matchAll(/WNN_DTYPE_[A-Z0-9]+ = (\d+),?\s*\/\* "([a-z0-9]+)" \*\//g)];
  assert.ok(dtypes.length >= 7);
  for (const [, value, name] of dtypes) assert.equal(cstr(x.wnn_dtype_name(Number(value))), name);
});
