// A WASI preview1 host over files held in memory, for running the converter
// (dist/wnn-convert.wasm, a WASI command) where there is no file system: in a
// browser, a worker, or Node without touching the disk. Internal to the
// package: js/wnn.js's convert() is the public API (docs/js.md).
//
// It implements what wasi-libc's stdio needs and nothing else: arguments,
// clocks, one preopened directory "." holding the given files (read and
// written by name; "a/b.bin" is a file name with a slash, there are no
// directories), stdout and stderr collected as text, and proc_exit. Every
// other call a module might import answers ENOSYS.

const ERRNO = {
  SUCCESS: 0, BADF: 8, EXIST: 20, INVAL: 28, ISDIR: 31, NOENT: 44, NOSYS: 52, NOTDIR: 54,
  SPIPE: 70, NOTCAPABLE: 76,
};
const FILETYPE_CHARACTER_DEVICE = 2;
const FILETYPE_DIRECTORY = 3;
const FILETYPE_REGULAR_FILE = 4;
const OFLAGS_CREAT = 1;
const OFLAGS_DIRECTORY = 2;
const OFLAGS_EXCL = 4;
const OFLAGS_TRUNC = 8;
const FDFLAGS_APPEND = 1;
const ALL_RIGHTS = 0xffffffffffffffffn;
const PREOPEN_FD = 3;

// Thrown by proc_exit to unwind out of the module.
class Exit {
  constructor(code) { this.code = code; }
}

// A file: bytes[0, size) with room to grow.
class MemFile {
  constructor(bytes) {
    this.bytes = bytes ?? new Uint8Array(0);
    this.size = this.bytes.length;
  }

  reserve(n) {
    if (n <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(n, this.bytes.length * 2, 4096));
    grown.set(this.bytes.subarray(0, this.size));
    this.bytes = grown;
  }

  contents() { return this.bytes.subarray(0, this.size); }
}

// A path inside the preopened directory: "./x", "x" and "/x" are "x"; ".."
// and empty names are refused (null).
function normalize(p) {
  const parts = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') return null;
    parts.push(part);
  }
  return parts.join('/');
}

/**
 * Runs a WASI command once. `files`: Map of name -> Uint8Array (the module
 * reads them; files it writes appear in the result). `lookup(name)`: called
 * for a name not in `files` that the module opens for reading only; returns
 * bytes or null. Resolves {code, stdout, stderr, files}.
 */
export async function runWasiCommand(module, { args, files = new Map(), lookup = null }) {
  const table = new Map(); // name -> MemFile
  for (const [name, bytes] of files) table.set(normalize(name), new MemFile(bytes));
  const out = [[], []]; // stdout, stderr chunks
  const fds = new Map(); // fd -> {file, pos, append} | {dir: true}
  fds.set(PREOPEN_FD, { dir: true });
  let nextFd = PREOPEN_FD + 1;
  const encoder = new TextEncoder();
  const argBytes = args.map((a) => encoder.encode(`${a}\0`));
  let memory;
  const u8 = () => new Uint8Array(memory.buffer);
  const view = () => new DataView(memory.buffer);
  const iovecs = (ptr, n) => {
    const dv = view();
    const list = [];
    for (let i = 0; i < n; i++) list.push([dv.getUint32(ptr + 8 * i, true), dv.getUint32(ptr + 8 * i + 4, true)]);
    return list;
  };

  const wasi = {
    args_sizes_get(argcPtr, bufSizePtr) {
      const dv = view();
      dv.setUint32(argcPtr, argBytes.length, true);
      dv.setUint32(bufSizePtr, argBytes.reduce((s, b) => s + b.length, 0), true);
      return ERRNO.SUCCESS;
    },
    args_get(argvPtr, bufPtr) {
      const dv = view();
      const mem = u8();
      argBytes.forEach((b, i) => {
        dv.setUint32(argvPtr + 4 * i, bufPtr, true);
        mem.set(b, bufPtr);
        bufPtr += b.length;
      });
      return ERRNO.SUCCESS;
    },
    environ_sizes_get(countPtr, sizePtr) {
      view().setUint32(countPtr, 0, true);
      view().setUint32(sizePtr, 0, true);
      return ERRNO.SUCCESS;
    },
    environ_get() { return ERRNO.SUCCESS; },
    clock_time_get(id, _precision, timePtr) {
      // 0 realtime, 1 monotonic; the process and thread clocks read monotonic.
      const ns = id === 0 ? BigInt(Date.now()) * 1000000n
        : BigInt(Math.round((globalThis.performance?.now() ?? Date.now()) * 1e6));
      view().setBigUint64(timePtr, ns, true);
      return ERRNO.SUCCESS;
    },
    random_get(ptr, len) {
      globalThis.crypto.getRandomValues(u8().subarray(ptr, ptr + len));
      return ERRNO.SUCCESS;
    },
    fd_prestat_get(fd, ptr) {
      if (fd !== PREOPEN_FD) return ERRNO.BADF;
      const dv = view();
      dv.setUint8(ptr, 0); // a directory
      dv.setUint32(ptr + 4, 1, true); // its name: "."
      return ERRNO.SUCCESS;
    },
    fd_prestat_dir_name(fd, ptr, len) {
      if (fd !== PREOPEN_FD) return ERRNO.BADF;
      if (len < 1) return ERRNO.INVAL;
      u8()[ptr] = 0x2e;
      return ERRNO.SUCCESS;
    },
    fd_fdstat_get(fd, ptr) {
      let type;
      if (fd <= 2) type = FILETYPE_CHARACTER_DEVICE;
      else if (fds.get(fd)?.dir) type = FILETYPE_DIRECTORY;
      else if (fds.has(fd)) type = FILETYPE_REGULAR_FILE;
      else return ERRNO.BADF;
      const dv = view();
      dv.setUint8(ptr, type);
      dv.setUint16(ptr + 2, 0, true);
      // wasi-libc's isatty() takes a character device without the seek and
      // tell rights for a terminal: with every right, stderr is not one (so
      // the converter shows no progress).
      dv.setBigUint64(ptr + 8, ALL_RIGHTS, true);
      dv.setBigUint64(ptr + 16, ALL_RIGHTS, true);
      return ERRNO.SUCCESS;
    },
    fd_fdstat_set_flags(fd) { return fds.has(fd) || fd <= 2 ? ERRNO.SUCCESS : ERRNO.BADF; },
    path_open(dirFd, _dirflags, pathPtr, pathLen, oflags, _rightsBase, _rightsInheriting, fdflags, fdPtr) {
      if (dirFd !== PREOPEN_FD) return ERRNO.BADF;
      const name = normalize(new TextDecoder().decode(u8().slice(pathPtr, pathPtr + pathLen)));
      if (name === null) return ERRNO.NOTCAPABLE;
      if (name === '') {
        if (oflags & (OFLAGS_CREAT | OFLAGS_TRUNC)) return ERRNO.ISDIR;
        fds.set(nextFd, { dir: true });
      } else {
        if (oflags & OFLAGS_DIRECTORY) return ERRNO.NOTDIR;
        let file = table.get(name);
        if (!file && lookup && !(oflags & (OFLAGS_CREAT | OFLAGS_TRUNC))) {
          const bytes = lookup(name);
          if (bytes) table.set(name, (file = new MemFile(bytes)));
        }
        if (file && (oflags & OFLAGS_EXCL)) return ERRNO.EXIST;
        if (!file) {
          if (!(oflags & OFLAGS_CREAT)) return ERRNO.NOENT;
          table.set(name, (file = new MemFile()));
        }
        if (oflags & OFLAGS_TRUNC) {
          // A file given by the caller is never written into: replace it.
          file = new MemFile();
          table.set(name, file);
        }
        fds.set(nextFd, { file, pos: 0, append: !!(fdflags & FDFLAGS_APPEND) });
      }
      view().setUint32(fdPtr, nextFd++, true);
      return ERRNO.SUCCESS;
    },
    fd_read(fd, iovsPtr, iovsLen, nreadPtr) {
      let n = 0;
      if (fd !== 0) {
        const h = fds.get(fd);
        if (!h) return ERRNO.BADF;
        if (h.dir) return ERRNO.ISDIR;
        const mem = u8();
        for (const [buf, len] of iovecs(iovsPtr, iovsLen)) {
          const take = Math.max(0, Math.min(len, h.file.size - h.pos));
          mem.set(h.file.bytes.subarray(h.pos, h.pos + take), buf);
          h.pos += take;
          n += take;
          if (take < len) break;
        }
      }
      view().setUint32(nreadPtr, n, true);
      return ERRNO.SUCCESS;
    },
    fd_write(fd, iovsPtr, iovsLen, nwrittenPtr) {
      let n = 0;
      const mem = u8();
      if (fd === 1 || fd === 2) {
        for (const [buf, len] of iovecs(iovsPtr, iovsLen)) {
          out[fd - 1].push(mem.slice(buf, buf + len));
          n += len;
        }
      } else {
        const h = fds.get(fd);
        if (!h) return ERRNO.BADF;
        if (h.dir) return ERRNO.ISDIR;
        if (h.append) h.pos = h.file.size;
        for (const [buf, len] of iovecs(iovsPtr, iovsLen)) {
          h.file.reserve(h.pos + len);
          h.file.bytes.set(mem.subarray(buf, buf + len), h.pos);
          h.pos += len;
          h.file.size = Math.max(h.file.size, h.pos);
          n += len;
        }
      }
      view().setUint32(nwrittenPtr, n, true);
      return ERRNO.SUCCESS;
    },
    fd_seek(fd, offset, whence, newOffsetPtr) {
      if (fd <= 2) return ERRNO.SPIPE;
      const h = fds.get(fd);
      if (!h) return ERRNO.BADF;
      if (h.dir) return ERRNO.ISDIR;
      const base = whence === 0 ? 0n : whence === 1 ? BigInt(h.pos) : whence === 2 ? BigInt(h.file.size) : null;
      if (base === null) return ERRNO.INVAL;
      const pos = base + BigInt(offset);
      if (pos < 0n || pos > BigInt(Number.MAX_SAFE_INTEGER)) return ERRNO.INVAL;
      h.pos = Number(pos);
      view().setBigUint64(newOffsetPtr, pos, true);
      return ERRNO.SUCCESS;
    },
    fd_close(fd) {
      if (!fds.has(fd) || fd === PREOPEN_FD) return fd <= 2 ? ERRNO.SUCCESS : ERRNO.BADF;
      fds.delete(fd);
      return ERRNO.SUCCESS;
    },
    proc_exit(code) { throw new Exit(code); },
  };

  const imports = {};
  for (const { module: mod, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== 'function') continue;
    const fn = mod === 'wasi_snapshot_preview1' && Object.hasOwn(wasi, name) ? wasi[name] : () => ERRNO.NOSYS;
    (imports[mod] ??= {})[name] = fn;
  }
  const instance = await WebAssembly.instantiate(module, imports);
  memory = instance.exports.memory;
  let code = 0;
  try {
    instance.exports._start();
  } catch (e) {
    if (!(e instanceof Exit)) throw e;
    code = e.code;
  }
  const text = (chunks) => new TextDecoder().decode(concat(chunks));
  const written = new Map();
  for (const [name, f] of table) written.set(name, f.contents());
  return { code, stdout: text(out[0]), stderr: text(out[1]), files: written };
}

function concat(chunks) {
  const n = chunks.reduce((s, c) => s + c.length, 0);
  const all = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) { all.set(c, at); at += c.length; }
  return all;
}
