// bench/results.svg from the object bench/run.mjs writes as bench/results.json:
// three panels of horizontal bars on log scales sharing the model axis:
// latency (median), load time and wasm memory, one bar per runtime.

const COLORS = { wnn: '#1c7ed6', 'ort-web': '#f08c00', 'ort-node': '#9aa0a6' };
const LABELS = { wnn: 'wnn (wasm SIMD128)', 'ort-web': 'onnxruntime-web (wasm SIMD, 1 thread)', 'ort-node': 'onnxruntime-node (native, 1 thread)' };
const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (v, unit) => {
  const s = v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 1 ? v.toFixed(2) : v.toFixed(3);
  return `${s}${unit === 'MiB' ? ' MiB' : ''}`;
};

export function renderSvg(r) {
  const models = r.models.filter((m) => m.results);
  const panels = [
    { title: 'latency, median ms (log)', key: 'medianMs', unit: 'ms', runtimes: ['wnn', 'ort-web', 'ort-node'] },
    { title: 'load ms: bytes to ready (log)', key: 'loadMs', unit: 'ms', runtimes: ['wnn', 'ort-web', 'ort-node'] },
    { title: 'wasm memory after 1st run, MiB (log)', key: 'wasmMemoryBytes', unit: 'MiB', runtimes: ['wnn', 'ort-web'] },
  ];
  const W = 1280, labelW = 230, gap = 26, top = 118, barH = 8, groupGap = 12;
  const panelW = (W - labelW - 20 - gap * (panels.length - 1)) / panels.length;
  const groupH = (p) => p.runtimes.length * barH;
  const rowH = 3 * barH + groupGap;
  const skipped = r.models.filter((m) => m.skipped);
  const H = top + models.length * rowH + 40 + (skipped.length ? 18 + 15 * skipped.length : 0) + 20;
  const o = [];
  o.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">`);
  o.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  const s = r.summary;
  const g = (v) => (v == null ? '–' : v.toFixed(2));
  o.push(`<text x="16" y="26" font-size="18" font-weight="bold">wnn vs onnxruntime-web vs onnxruntime-node: ${models.length} real models${skipped.length ? ` (${skipped.length} more not run by wnn, listed below)` : ''}</text>`);
  o.push(`<text x="16" y="46" fill="#444">wnn / ORT-web, geometric means over the models: latency ${g(s.latencyGeomeanVsWeb)}× (target ≤ 0.6), load ${g(s.loadGeomeanVsWeb)}×, wasm memory ${g(s.memoryGeomeanVsWeb)}× (targets, per model: ≤ 0.3, ≤ 0.5); dist/wnn.wasm ${(s.wasmBytes / 1024).toFixed(0)} KB, ${(s.wasmGzipBytes / 1024).toFixed(0)} KB gzip. Shorter is better.</text>`);
  o.push(`<text x="16" y="64" fill="#777" font-size="11">${esc(r.date.slice(0, 16).replace('T', ' '))} UTC · Node ${esc(r.node)} · ${esc(r.cpu)}, ${r.cores} cores · load average ${r.loadAverage.before.join(' ')} · median of ${r.runs} runs after ${r.warmups} warm-ups, each runtime in its own process</text>`);
  let lx = 16;
  for (const k of ['wnn', 'ort-web', 'ort-node']) {
    o.push(`<rect x="${lx}" y="76" width="12" height="12" fill="${COLORS[k]}"/><text x="${lx + 17}" y="86">${esc(LABELS[k])}</text>`);
    lx += 40 + LABELS[k].length * 6.6;
  }

  const bottom = top + models.length * rowH;
  models.forEach((m, mi) => {
    if (mi % 2) o.push(`<rect x="8" y="${top + mi * rowH - groupGap / 2}" width="${W - 16}" height="${rowH}" fill="#f3f4f6"/>`);
  });
  panels.forEach((p, pi) => {
    const x0 = labelW + pi * (panelW + gap);
    const get = (q) => (q && !q.error && q[p.key] > 0 ? (p.unit === 'MiB' ? q[p.key] / 1048576 : q[p.key]) : null);
    const vals = models.flatMap((m) => p.runtimes.map((k) => get(m.results[k]))).filter((v) => v > 0);
    if (!vals.length) return;
    let lo = Math.floor(Math.log10(Math.min(...vals))), hi = Math.ceil(Math.log10(Math.max(...vals)));
    if (hi === lo) hi++;
    const X = (v) => x0 + ((Math.log10(v) - lo) / (hi - lo)) * (panelW - 48);
    o.push(`<text x="${x0}" y="${top - 10}" font-weight="bold">${esc(p.title)}</text>`);
    for (let e = lo; e <= hi; e++) {
      const v = 10 ** e, xx = X(v).toFixed(1);
      o.push(`<line x1="${xx}" y1="${top - 4}" x2="${xx}" y2="${bottom}" stroke="#e3e3e3"/>`);
      const t = `${+v.toPrecision(1)}`;
      o.push(`<text x="${xx}" y="${bottom + 14}" text-anchor="middle" fill="#777" font-size="10">${t}</text>`);
    }
    models.forEach((m, mi) => {
      const y0 = top + mi * rowH + (3 * barH - groupH(p)) / 2;
      p.runtimes.forEach((k, ki) => {
        const q = m.results[k];
        const y = y0 + ki * barH;
        const v = get(q);
        if (v == null) {
          o.push(`<text x="${x0 + 2}" y="${y + barH - 1}" font-size="9" fill="#c00">${esc(k)}: ${q?.error ? 'error' : 'n/a'}</text>`);
          return;
        }
        const w = Math.max(1, X(v) - x0);
        o.push(`<rect x="${x0}" y="${y}" width="${w.toFixed(1)}" height="${barH - 1}" fill="${COLORS[k]}"><title>${esc(m.name)} ${esc(k)}: ${fmt(v, p.unit)}${p.unit === 'ms' ? ' ms' : ''}</title></rect>`);
        o.push(`<text x="${(x0 + w + 3).toFixed(1)}" y="${y + barH - 1}" font-size="8.5" fill="#333">${fmt(v, p.unit)}</text>`);
      });
    });
  });
  models.forEach((m, mi) => {
    const y = top + mi * rowH + 1.5 * barH + 4;
    const ratio = m.ratios.latencyVsWeb;
    o.push(`<text x="${labelW - 10}" y="${y - 3}" text-anchor="end">${esc(m.name.replace(/_infer$/, ''))}</text>`);
    if (ratio != null) o.push(`<text x="${labelW - 10}" y="${y + 9}" text-anchor="end" font-size="10" fill="${ratio <= 1 ? '#2b8a3e' : '#c92a2a'}">wnn/web ${ratio.toFixed(2)}×</text>`);
  });
  if (skipped.length) {
    let y = bottom + 40;
    o.push(`<text x="16" y="${y}" fill="#555" font-weight="bold">not run by wnn (so not compared):</text>`);
    for (const m of skipped) {
      y += 15;
      const why = m.skipped.length > 170 ? `${m.skipped.slice(0, 167)}...` : m.skipped;
      o.push(`<text x="24" y="${y}" fill="#555" font-size="11">${esc(m.name)}: ${esc(why)}</text>`);
    }
  }
  o.push('</svg>');
  return o.join('\n') + '\n';
}
