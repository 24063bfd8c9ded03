// Runs a WASI preview1 command (a module with _start) once under Node's
// node:wasi: the package's `wnn` command (js/cli.js) and the repository's
// test runner (wasm/run-wasi.mjs) share it. Node only; the browser-side host
// is js/wasi.js.

/** node:wasi's WASI class, without the ExperimentalWarning Node prints when
 * it loads (it would land in the command's stderr). */
export async function importWasi() {
  const emitWarning = process.emitWarning;
  process.emitWarning = function (warning, ...rest) {
    const type = typeof rest[0] === 'string' ? rest[0] : rest[0]?.type;
    if ((warning?.name ?? type) === 'ExperimentalWarning' || type === 'ExperimentalWarning') return;
    return emitWarning.call(process, warning, ...rest);
  };
  return (await import('node:wasi')).WASI;
}

/**
 * Runs `bytes` with `args` (args[0] is the program's name), `env` and
 * `preopens` ({guest: host}); resolves its exit status. A trap (unreachable,
 * out-of-bounds access, stack overflow) is reported on stderr after
 * `trapPrefix` and gives `trapStatus`, the way a crashed program fails.
 */
export async function runWasi(bytes, { args, env = {}, preopens, trapPrefix, trapStatus }) {
  const WASI = await importWasi();
  const wasi = new WASI({ version: 'preview1', args, env, preopens, returnOnExit: true });
  const module = await WebAssembly.compile(bytes);
  // getImportObject arrived in Node 19.8; before, wasiImport is the preview1 set.
  const imports = wasi.getImportObject ? wasi.getImportObject() : { wasi_snapshot_preview1: wasi.wasiImport };
  const instance = await WebAssembly.instantiate(module, imports);
  try {
    return wasi.start(instance) ?? 0;
  } catch (e) {
    process.stderr.write(`${trapPrefix}${e instanceof Error ? e.message : e}\n`);
    return trapStatus;
  }
}
