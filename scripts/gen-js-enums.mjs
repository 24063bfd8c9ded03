#!/usr/bin/env node
// Writes the enums of include/wnn.h into js/wnn.js (and the ErrorCode type
// into js/wnn.d.ts), between the lines
//   // BEGIN enums generated from include/wnn.h by scripts/gen-js-enums.mjs
//   // END enums
// so the JS shim's status names, dtype names, load flags and kernel choices
// come from the C header and are never copied by hand (scripts/build.sh runs
// this; tests/js/enums.test.mjs fails when js/wnn.js is out of date).
//
//   node scripts/gen-js-enums.mjs            rewrite the files that changed
//   node scripts/gen-js-enums.mjs --check    exit 1 if one is out of date
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const BEGIN = '// BEGIN enums generated from include/wnn.h by scripts/gen-js-enums.mjs';
const END = '// END enums';

/** The members of `typedef enum NAME { ... } NAME;` as [{name, value, comment}]. */
function enumMembers(header, name) {
  const m = header.match(new RegExp(`typedef enum ${name} \\{([\\s\\S]*?)\\} ${name};`));
  if (!m) throw new Error(`include/wnn.h: no typedef enum ${name}`);
  const members = [];
  let next = 0;
  for (const line of m[1].split('\n')) {
    const e = line.match(/^\s*(WNN_[A-Z0-9_]+)\s*(?:=\s*([^,/]+?))?\s*,?\s*(?:\/\*(.*?)\*\/)?\s*$/);
    if (!e) continue;
    const value = e[2] === undefined ? next : evaluate(e[2]);
    members.push({ name: e[1], value, comment: (e[3] ?? '').trim() });
    next = value + 1;
  }
  if (!members.length) throw new Error(`include/wnn.h: enum ${name} has no members`);
  return members;
}

/** An enum value: a decimal number or `1u << k`. */
function evaluate(text) {
  const t = text.trim();
  let m = t.match(/^(\d+)u?$/);
  if (m) return Number(m[1]);
  m = t.match(/^(\d+)u?\s*<<\s*(\d+)$/);
  if (m) return Number(m[1]) * 2 ** Number(m[2]);
  throw new Error(`include/wnn.h: cannot evaluate enum value '${t}'`);
}

const q = (s) => `'${s}'`;
/** Items joined with ', ' into lines of at most 100 columns, indented by 2. */
function wrap(items) {
  const lines = [];
  let line = '';
  for (const it of items) {
    const next = line ? `${line}, ${it}` : it;
    if (line && next.length + 3 > 100) {
      lines.push(`  ${line},`);
      line = it;
    } else line = next;
  }
  if (line) lines.push(`  ${line},`);
  return lines.join('\n');
}

/** The d.ts block: the ErrorCode union (every status but WNN_OK, plus the
 * JavaScript-only WNN_ERR_DISPOSED). */
export function generateTypes(header) {
  const codes = enumMembers(header, 'wnn_status').filter((m) => m.value !== 0).map((m) => q(m.name));
  codes.push(q('WNN_ERR_DISPOSED'));
  const lines = [];
  let line = '';
  for (const c of codes) {
    if (line && line.length + c.length + 3 > 98) {
      lines.push(`  ${line}`);
      line = '';
    }
    line = line ? `${line} | ${c}` : `| ${c}`;
  }
  lines.push(`  ${line};`);
  const doc = '/** Status names of the C library, plus WNN_ERR_DISPOSED for use of a disposed object. */';
  return [BEGIN, doc, 'export type ErrorCode =', ...lines, END].join('\n');
}

export function generate(header) {
  const status = enumMembers(header, 'wnn_status');
  const dtypes = enumMembers(header, 'wnn_dtype');
  const kernels = enumMembers(header, 'wnn_kernels');
  const flags = header.match(/enum \{([^}]*WNN_LOAD_BORROW[^}]*)\}/);
  if (!flags) throw new Error('include/wnn.h: no WNN_LOAD_* enum');
  const load = [];
  for (const m of flags[1].matchAll(/(WNN_LOAD_[A-Z_]+)\s*=\s*([^,/\n]+)/g)) load.push([m[1], evaluate(m[2])]);

  const byValue = (list) => {
    const out = [];
    for (const { name, value } of list) out[value] = name;
    return out;
  };
  const statusNames = byValue(status);
  if (statusNames.some((n) => n === undefined)) throw new Error('wnn_status values are not 0..N-1');
  // dtype names are the strings the header's comments give ("float32").
  const dtypeNames = [];
  for (const { name, value, comment } of dtypes) {
    const q = comment.match(/"([a-z0-9]+)"/);
    if (value !== 0 && !q) throw new Error(`include/wnn.h: ${name} has no "name" in its comment`);
    dtypeNames[value] = value === 0 ? null : q[1];
  }
  const kernelValues = Object.fromEntries(kernels.map(({ name, value }) => [name.replace('WNN_KERNELS_', '').toLowerCase(), value]));

  const lines = [
    BEGIN,
    '// wnn_status values -> names.',
    `const STATUS = [\n${wrap(statusNames.map(q))}\n];`,
    '// wnn_dtype values -> the names wnn_dtype_name gives (null: WNN_DTYPE_INVALID).',
    `const DTYPES = [${dtypeNames.map((n) => (n === null ? 'null' : q(n))).join(', ')}];`,
    ...load.map(([n, v]) => `const ${n.replace('WNN_', '')} = ${v};`),
    '// wnn_kernels values by lower-case name.',
    `const KERNEL_VALUES = { ${Object.entries(kernelValues).map(([k, v]) => `${k}: ${v}`).join(', ')} };`,
    END,
  ];
  return lines.join('\n');
}

export function splice(text, block, file) {
  const a = text.indexOf(BEGIN), b = text.indexOf(END);
  if (a < 0 || b < a) throw new Error(`${file}: no generated enums block (BEGIN/END lines)`);
  return text.slice(0, a) + block + text.slice(b + END.length);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const header = readFileSync(`${root}/include/wnn.h`, 'utf8');
  let stale = false;
  for (const [file, block] of [['js/wnn.js', generate(header)], ['js/wnn.d.ts', generateTypes(header)]]) {
    const path = `${root}/${file}`;
    const text = readFileSync(path, 'utf8');
    const updated = splice(text, block, file);
    if (updated === text) continue;
    if (process.argv.includes('--check')) {
      console.error(`${file}: the enums block is out of date with include/wnn.h: run node scripts/gen-js-enums.mjs`);
      stale = true;
    } else {
      writeFileSync(path, updated);
      console.log(`${file}: enums regenerated from include/wnn.h`);
    }
  }
  if (stale) process.exit(1);
}
