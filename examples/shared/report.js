// What every example prints and writes: per output its name, shape, dtype,
// the index of its largest element and the five largest elements; for a
// 10-class output (MNIST) the softmax probability of each top class too.
// Host-independent, so the tests compare the reports of all hosts.

export function summarize(model, outputs, host) {
  const report = { host, model: model.metadata.name ?? null, outputs: [] };
  for (const { name, shape, dtype, data } of Object.values(outputs)) {
    const values = Array.from(data, Number);
    const order = values.map((v, i) => i).sort((a, b) => values[b] - values[a] || a - b);
    const top = order.slice(0, 5).map((i) => ({ index: i, value: values[i] }));
    if (values.length === 10) {
      const max = values[order[0]];
      const sum = values.reduce((s, v) => s + Math.exp(v - max), 0);
      for (const t of top) t.probability = Math.exp(t.value - max) / sum;
    }
    report.outputs.push({ name, shape, dtype, argmax: order[0], top });
  }
  return report;
}

export function formatReport(report) {
  const lines = [`wnn on ${report.host}: model ${report.model}`];
  for (const o of report.outputs) {
    lines.push(`  ${o.name} [${o.shape.join(', ')}] ${o.dtype}: argmax ${o.argmax}`);
    for (const t of o.top) {
      lines.push(`    ${String(t.index).padStart(5)}  ${t.value.toFixed(5)}${t.probability !== undefined ? `  p=${t.probability.toFixed(4)}` : ''}`);
    }
  }
  return lines.join('\n');
}
