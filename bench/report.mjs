// bench/results.md from the object bench/run.mjs writes as bench/results.json.

const ms = (x) => (x == null ? '–' : x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const mib = (b) => (b == null ? '–' : (b / 1048576).toFixed(b >= 10 * 1048576 ? 0 : 1));
const kb = (b) => (b / 1024).toFixed(1);
const x = (r) => (r == null ? '–' : r.toFixed(2));
const esc = (s) => String(s).replace(/\|/g, '\\|');

export function renderMarkdown(r) {
  const L = [];
  const v = r.runtimes;
  L.push('# wnn benchmark results', '');
  L.push(`${r.date.slice(0, 16).replace('T', ' ')} UTC · \`${r.command}\` · Node ${r.node} · ${r.cpu} (${r.cores} cores; ${r.cpuSimd.join(', ') || 'no AVX'}) · `
    + `load average ${r.loadAverage.before.join(' ')} before, ${r.loadAverage.after.join(' ')} after · `
    + `median and min of ${r.runs} runs after ${r.warmups} warm-ups continued to at least half a second, each runtime in its own Node process.`, '');
  L.push(`Runtimes: **wnn** ${v.wnn.version ?? ''} (${v.wnn.wasm} through ${v.wnn.via}); **ORT-web** onnxruntime-web ${v['ort-web'].version ?? ''} (${v['ort-web'].settings}); `
    + `**ORT-node** onnxruntime-node ${v['ort-node'].version ?? ''} (${v['ort-node'].settings}). Chart: [results.svg](results.svg). `
    + 'What is measured and how: [docs/performance.md](../docs/performance.md).', '');

  L.push('## Targets', '');
  L.push('| target | limit | measured | |', '|---|---|---|---|');
  for (const t of r.targets) L.push(`| ${esc(t.target)} | ${t.limit} | ${t.value == null ? '–' : typeof t.value === 'number' ? +t.value.toFixed(3) : t.value} | ${t.met ? 'met' : '**not met**'} |`);
  L.push('');

  L.push('## Latency (ms per inference)', '');
  L.push('wnn: dist/wnn.wasm (SIMD128); wnn-relaxed: dist/wnn-relaxed.wasm (relaxed SIMD\'s multiply-add), in a Node run with --experimental-wasm-relaxed-simd.', '');
  L.push('| model | wnn median | wnn min | wnn-relaxed median | ORT-web median | ORT-web min | ORT-node median | ORT-node min | wnn / ORT-web | wnn / ORT-node | wnn-relaxed / ORT-web | wnn-relaxed / wnn |');
  L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const m of r.models) {
    if (m.skipped) { L.push(`| ${m.name} | skipped: ${esc(m.skipped)} |||||||||||`); continue; }
    const w = m.results.wnn, web = m.results['ort-web'], nat = m.results['ort-node'], rx = m.results['wnn-relaxed'] ?? { error: 'not run' };
    const cell = (q, k) => (q.error ? `error: ${esc(q.error)}` : ms(q[k]));
    L.push(`| ${m.name} | ${ms(w.medianMs)} | ${ms(w.minMs)} | ${cell(rx, 'medianMs')} | ${cell(web, 'medianMs')} | ${web.error ? '' : ms(web.minMs)} | ${cell(nat, 'medianMs')} | ${nat.error ? '' : ms(nat.minMs)} | ${x(m.ratios.latencyVsWeb)} | ${x(m.ratios.latencyVsNode)} | ${x(m.ratios.relaxedVsWeb)} | ${x(m.ratios.relaxedVsWnn)} |`);
  }
  const s = r.summary;
  L.push(`| **geometric mean** | | | | | | | | **${x(s.latencyGeomeanVsWeb)}** | **${x(s.latencyGeomeanVsNode)}** | **${x(s.relaxedGeomeanVsWeb)}** (float) | **${x(s.relaxedGeomeanVsWnn)}** (float) |`, '');
  for (const m of r.models) if (m.note) L.push(`- ${m.name}: ${m.note}.`);
  if (r.models.some((m) => m.note)) L.push('');
  L.push('Conversions: ' + r.models.map((m) => `\`${m.convert.command}\``).join('; ') + '.', '');

  if (r.quantized?.length) {
    L.push('## Quantized models (issue 17)', '');
    L.push('Each quantized model (tests/quant/quantize.py) against onnxruntime-web on the same quantized model, and against wnn on the float model of the same network: from the separate runs of the latency table, and paired, the two sides\' runs alternating in one process (bench/pair.mjs; the targets use these: the machine\'s speed drifts between processes).', '');
    L.push(...renderQuantizedTable(r), '');
  }

  L.push('## Load time and memory', '');
  L.push('Load: artifact bytes in memory to ready to run, the first time in the process (includes compiling the runtime\'s wasm); '
    + '"again": a second load in the same process. Memory: wasm linear memory after the first run; RSS: process RSS growth from before the load to after the first run.', '');
  L.push('| model | .onnx KB | .wnn KB | wnn load ms | ORT-web create ms | ORT-node create ms | wnn / ORT-web | wnn again ms | ORT-web again ms | wnn wasm MiB | ORT-web wasm MiB | wnn / ORT-web | RSS MiB wnn / web / node |');
  L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|');
  for (const m of r.models) {
    if (m.skipped) continue;
    const w = m.results.wnn, web = m.results['ort-web'], nat = m.results['ort-node'];
    const f = (q, k, fmt) => (q.error ? '–' : fmt(q[k]));
    L.push(`| ${m.name} | ${kb(m.onnxBytes)} | ${kb(m.wnnBytes)} | ${ms(w.loadMs)} | ${f(web, 'loadMs', ms)} | ${f(nat, 'loadMs', ms)} | ${x(m.ratios.loadVsWeb)} | `
      + `${ms(w.warmLoadMs)} | ${f(web, 'warmLoadMs', ms)} | ${mib(w.wasmMemoryBytes)} | ${f(web, 'wasmMemoryBytes', mib)} | ${x(m.ratios.memoryVsWeb)} | `
      + `${mib(w.rssDeltaBytes)} / ${f(web, 'rssDeltaBytes', mib)} / ${f(nat, 'rssDeltaBytes', mib)} |`);
  }
  L.push('');

  L.push('## Download size', '');
  L.push('| runtime | file | what | KB | gzip KB |', '|---|---|---|---:|---:|');
  for (const z of r.sizes) L.push(`| ${z.runtime} | ${z.file} | ${z.role} | ${kb(z.bytes)} | ${kb(z.gzipBytes)} |`);
  L.push('');

  L.push('## GEMM microkernel against the SIMD128 peak', '');
  if (!r.gemm) L.push('Not run (--no-gemm).');
  else if (r.gemm.error) L.push(`Failed: ${r.gemm.error}`);
  else {
    L.push(`\`${r.gemm.command}\`: peak mul+add ${r.gemm.peakGflops} GFLOP/s with SIMD128 (${r.gemm.scalarPeakGflops} GFLOP/s scalar). `
      + `Fraction of the peak over the cases: median ${x(r.gemm.medianOfPeak)}, min ${x(r.gemm.minOfPeak)}, max ${x(r.gemm.maxOfPeak)}.`, '');
    L.push('| kernel | case | M | N | K | GFLOP/s | of peak |', '|---|---|---:|---:|---:|---:|---:|');
    for (const c of r.gemm.cases) L.push(`| ${c.kernel} | ${c.case} | ${c.m} | ${c.n} | ${c.k} | ${c.gflops} | ${x(c.ofPeak)} |`);
  }
  L.push('');
  const checks = r.models.filter((m) => m.results).flatMap((m) => Object.values(m.results).filter((q) => !q.error && q.matchesExpected === false).map((q) => `${m.name} (${q.runtime}: max |diff| ${q.maxAbsDiff})`));
  L.push('Outputs were compared with each model\'s expected outputs (rtol 1e-3 of the largest expected value, atol 1e-5): '
    + (checks.length ? `outside the tolerance: ${checks.join('; ')}.` : 'every runtime matched on every model run.'), '');
  return L.join('\n');
}

// The quantized models' table (issue 17): median ms and the ratios, from the
// separate runs and paired (the two sides alternating in one process,
// bench/pair.mjs), which the targets use; the geometric means are the
// targets' (paired where there is a pair).
export function renderQuantizedTable(r) {
  const L = [];
  L.push('| quantized model | kind | float model | wnn ms | ORT-web ms | wnn float ms | ORT-web float ms | wnn / ORT-web | wnn / wnn float | paired: wnn / ORT-web (ms) | paired: wnn / wnn float (ms) | ORT-web / ORT-web float |');
  L.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const q of r.quantized) {
    const p = q.paired ?? {};
    const pw = p.vsWeb == null ? '–' : `**${x(p.vsWeb)}** (${ms(p.wnnMs)} / ${ms(p.webMs)})`;
    const pf = p.vsWnnFloat == null ? '–' : `**${x(p.vsWnnFloat)}** (${ms(p.wnnMsVsFloat)} / ${ms(p.wnnFloatMs)})`;
    L.push(`| ${q.name} | ${q.kind} | ${q.float} | ${ms(q.wnnMs)} | ${ms(q.webMs)} | ${ms(q.wnnFloatMs)} | ${ms(q.webFloatMs)} | ${x(q.vsWeb)} | ${x(q.vsWnnFloat)} | ${pw} | ${pf} | ${x(q.webVsWebFloat)} |`);
  }
  const s = r.summary;
  L.push(`| **geometric mean** (paired where measured) | | | | | | | | | **${x(s.quantizedGeomeanVsWeb)}** | **${x(s.quantizedGeomeanVsWnnFloat)}** | |`);
  return L;
}

// The block bench/run.mjs writes into docs/performance.md between
// <!-- bench:begin --> and <!-- bench:end -->: the targets and one row per model.
export function renderDocSection(r) {
  const L = [];
  L.push(`Measured ${r.date.slice(0, 16).replace('T', ' ')} UTC with \`${r.command}\`: Node ${r.node}, ${r.cpu} (${r.cores} cores), `
    + `load average ${r.loadAverage.before.join(' ')} at the start and ${r.loadAverage.after.join(' ')} at the end. `
    + 'Full tables: [bench/results.md](../bench/results.md); data: [bench/results.json](../bench/results.json).', '');
  L.push('![wnn, onnxruntime-web and onnxruntime-node: latency, load time and wasm memory per model](../bench/results.svg)', '');
  L.push('| target | limit | measured | |', '|---|---|---|---|');
  for (const t of r.targets) L.push(`| ${esc(t.target)} | ${t.limit} | ${t.value == null ? '–' : +t.value.toFixed(3)} | ${t.met ? 'met' : '**not met**'} |`);
  L.push('');
  L.push('| model | wnn ms | ORT-web ms | ORT-node ms | latency wnn / web | load ms wnn / web | load ratio | wasm MiB wnn / web | memory ratio |');
  L.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const m of r.models) {
    if (m.skipped) { L.push(`| ${m.name} | skipped: ${esc(m.skipped)} ||||||||`); continue; }
    const w = m.results.wnn, web = m.results['ort-web'], nat = m.results['ort-node'];
    const f = (q, k, fmt) => (q.error ? 'error' : fmt(q[k]));
    L.push(`| ${m.name} | ${ms(w.medianMs)} | ${f(web, 'medianMs', ms)} | ${f(nat, 'medianMs', ms)} | ${x(m.ratios.latencyVsWeb)} | `
      + `${ms(w.loadMs)} / ${f(web, 'loadMs', ms)} | ${x(m.ratios.loadVsWeb)} | ${mib(w.wasmMemoryBytes)} / ${f(web, 'wasmMemoryBytes', mib)} | ${x(m.ratios.memoryVsWeb)} |`);
  }
  const s = r.summary;
  L.push(`| **geometric mean** | | | | **${x(s.latencyGeomeanVsWeb)}** | | **${x(s.loadGeomeanVsWeb)}** | | **${x(s.memoryGeomeanVsWeb)}** |`);
  const notes = r.models.filter((m) => m.note);
  if (notes.length) L.push('', ...notes.map((m) => `${m.name}: ${m.note}.`));
  return L.join('\n');
}
