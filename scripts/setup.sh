#!/usr/bin/env bash
# Installs what the build needs on Debian 12 and fetches the third-party
# sources the wasm builds compile. Idempotent: with everything present it only
# checks and returns.
#
#   1. Debian packages (apt-get when root; otherwise prints the command and
#      fails).
#   2. .deps/ (gitignored):
#        .deps/cjson/cJSON.c              cJSON's source, from `apt-get source cjson`
#        .deps/include/cjson/cJSON.h      its header, where <cjson/cJSON.h> finds it
#        .deps/include/dlpack/dlpack.h    copied from libdlpack-dev
#        .deps/protobuf-c/protobuf-c.c    protobuf-c's runtime, from `apt-get source protobuf-c`
#        .deps/include/protobuf-c/protobuf-c.h
#        .deps/lz4/lz4.c, lz4.h           liblz4 (block format), from `apt-get source lz4`
#        .deps/zstd/{common,compress,decompress}, zstd.h, zstd_errors.h
#                                         libzstd's lib/, from `apt-get source libzstd`
#      `apt-get source` needs deb-src entries; when none are configured they are
#      derived from the existing apt sources (same archives, type deb-src) into
#      /etc/apt/sources.list.d/wnn-deb-src.{sources,list}.
# Every build compiles its own private copy of cJSON from .deps/cjson
# (CMakeLists.txt renames its symbols); native builds read DLPack from
# libdlpack-dev. libcjson-dev serves tests/isolation, a host program that
# uses the system cJSON around a model load. The weight codecs lz4 and zstd
# link Debian's liblz4-dev and libzstd-dev natively; the WASI commands and
# dist/wnn-codecs.wasm compile them from .deps/lz4 and .deps/zstd.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
DEPS=$ROOT/.deps

say() { printf 'setup: %s\n' "$*"; }
die() { printf 'setup: error: %s\n' "$*" >&2; exit 1; }

is_root() { [ "$(id -u)" -eq 0 ]; }

# ------------------------------------------------------------------ packages
# lld-14 provides wasm-ld-14 and /usr/lib/llvm-14/bin/wasm-ld, which clang-14
# runs for --target=wasm32-wasi; lld provides the unversioned /usr/bin/wasm-ld.
# wasi-libc and libclang-rt-14-dev-wasm32 are the WASI SDK's libc and
# compiler-rt builtins; llvm-14 gives llvm-ar-14 (GNU ar cannot index wasm
# objects); binaryen gives wasm-opt, wabt gives wasm-objdump. clang-19,
# lld-19 and llvm-19 build dist/wnn-relaxed.wasm (emcc driving them: clang 14
# cannot encode relaxed SIMD), libclang-rt-19-dev-wasm32 the relaxed kernel
# benchmark (bench/kernels/run-wasm.sh).
# The importer parses ONNX with protobuf-c (C code generated at build time from
# the onnx.proto in libonnx-dev); libonnx-testdata is the ONNX conformance
# suite; chromium runs the browser example headless. tests/torch/export.py
# (the torchvision exports that tests/js/torchvision.test.mjs and the bench
# use) runs /usr/bin/python3 with python3-torch, python3-torchvision,
# python3-onnx (onnx.numpy_helper writes the test data) and python3-skimage
# (its sample photographs are the inputs); none of their recommends is needed.
PACKAGES=(
  cmake ninja-build clang lld lld-14 llvm-14 wasi-libc libclang-rt-14-dev-wasm32
  emscripten binaryen wabt libcjson-dev libdlpack-dev dpkg-dev gzip nodejs npm libclang-rt-14-dev
  libprotobuf-c-dev protobuf-c-compiler libonnx-dev libonnx-testdata chromium
  liblz4-dev libzstd-dev clang-19 lld-19 llvm-19 libclang-rt-19-dev-wasm32
  python3-torch python3-torchvision python3-onnx python3-skimage
)

pkg_installed() {
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = installed ] && return 0
  # A Node.js build from another vendor ships npm inside its nodejs package
  # (which then "Provides: npm"); the command is what we need.
  case $1 in
    npm) command -v npm >/dev/null 2>&1 ;;
    nodejs) command -v node >/dev/null 2>&1 ;;
    *) return 1 ;;
  esac
}

missing=()
for p in "${PACKAGES[@]}"; do
  pkg_installed "$p" || missing+=("$p")
done

if [ ${#missing[@]} -gt 0 ]; then
  cmd="apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}"
  if is_root; then
    say "installing: ${missing[*]}"
    apt-get update >&2  # stdout is fetch_source's answer (the folder)
    DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
  else
    printf 'setup: missing Debian packages: %s\nsetup: run as root:\n  %s\n' "${missing[*]}" "$cmd" >&2
    exit 1
  fi
fi

node_major=$(node -p 'process.versions.node.split(".")[0]')
[ "$node_major" -ge 18 ] || die "Node.js >= 18 is needed (node:wasi preview1, node --test); found $(node --version)"

# ------------------------------------------------------------ DLPack for wasm
mkdir -p "$DEPS/include/dlpack"
[ -f /usr/include/dlpack/dlpack.h ] || die "/usr/include/dlpack/dlpack.h missing (libdlpack-dev)"
if ! cmp -s /usr/include/dlpack/dlpack.h "$DEPS/include/dlpack/dlpack.h"; then
  cp /usr/include/dlpack/dlpack.h "$DEPS/include/dlpack/dlpack.h"
  say "copied dlpack.h into .deps/include"
fi

# ------------------------------------------------------------- cJSON for wasm
have_deb_src() {
  # Any enabled deb-src entry in the apt configuration.
  local f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] && grep -Eq '^[[:space:]]*deb-src[[:space:]]' "$f" && return 0
  done
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && grep -Eiq '^Types:.*deb-src' "$f" && return 0
  done
  return 1
}

# Writes deb-src twins of the configured deb entries. deb822 stanzas are copied
# with "Types:" set to deb-src (comments dropped, disabled stanzas skipped);
# one-line entries get their leading "deb" replaced.
add_deb_src() {
  local f out_sources=/etc/apt/sources.list.d/wnn-deb-src.sources
  local out_list=/etc/apt/sources.list.d/wnn-deb-src.list
  local tmp_sources tmp_list
  tmp_sources=$(mktemp) tmp_list=$(mktemp)
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    [ "$f" = "$out_sources" ] && continue
    awk '
      function flush() {
        if (n > 0 && isdeb && !disabled) {
          for (i = 1; i <= n; i++) print lines[i]
          print ""
        }
        n = 0; isdeb = 0; disabled = 0
      }
      /^[[:space:]]*$/ { flush(); next }
      /^#/ { next }
      /^[Tt]ypes:/ {
        for (i = 2; i <= NF; i++) if ($i == "deb") isdeb = 1
        lines[++n] = "Types: deb-src"; next
      }
      /^[Ee]nabled:[[:space:]]*[Nn]o/ { disabled = 1 }
      { lines[++n] = $0 }
      END { flush() }
    ' "$f" >>"$tmp_sources"
  done
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    [ "$f" = "$out_list" ] && continue
    sed -nE 's/^[[:space:]]*deb([[:space:]])/deb-src\1/p' "$f" >>"$tmp_list"
  done
  [ -s "$tmp_sources" ] || [ -s "$tmp_list" ] || { rm -f "$tmp_sources" "$tmp_list"; return 1; }
  if [ -s "$tmp_sources" ]; then install -m 644 "$tmp_sources" "$out_sources"; say "wrote $out_sources"; fi
  if [ -s "$tmp_list" ]; then install -m 644 "$tmp_list" "$out_list"; say "wrote $out_list"; fi
  rm -f "$tmp_sources" "$tmp_list"
}

need_deb_src() {
  have_deb_src && return 0
  if is_root; then
    add_deb_src >&2 || die "no deb entries found in the apt sources to derive deb-src entries from"
    apt-get update >&2  # stdout is fetch_source's answer (the folder)
  else
    printf 'setup: the sources of %s for the wasm builds need deb-src entries in the apt sources.\n' "$1" >&2
    printf 'setup: as root, add deb-src twins of your deb entries (or run this script as root), then:\n' >&2
    printf '  apt-get update\n' >&2
    exit 1
  fi
}

# fetch_source PKG: `apt-get source PKG` into .deps/src; prints the unpacked
# folder. Debian's patches are applied (dpkg-source -x).
fetch_source() {
  local pkg=$1 srcdir
  need_deb_src "$pkg"
  mkdir -p "$DEPS/src"
  rm -rf "$DEPS/src/$pkg"-* "$DEPS/src/$pkg"_*
  say "fetching $pkg sources (apt-get source $pkg)" >&2
  (cd "$DEPS/src" && apt-get source -qq "$pkg" >&2) ||
    die "apt-get source $pkg failed; needs deb-src entries and dpkg-dev"
  srcdir=$(find "$DEPS/src" -mindepth 1 -maxdepth 1 -type d -name "$pkg-*" | head -n 1)
  [ -n "$srcdir" ] || die "no $pkg-* folder after apt-get source $pkg"
  printf '%s\n' "$srcdir"
}

if [ ! -f "$DEPS/cjson/cJSON.c" ] || [ ! -f "$DEPS/include/cjson/cJSON.h" ]; then
  srcdir=$(fetch_source cjson)
  [ -f "$srcdir/cJSON.c" ] || die "cJSON.c not found after apt-get source"
  mkdir -p "$DEPS/cjson" "$DEPS/include/cjson"
  cp "$srcdir/cJSON.c" "$srcdir/cJSON.h" "$DEPS/cjson/"
  cp "$srcdir/cJSON.h" "$DEPS/include/cjson/cJSON.h"
  basename "$srcdir" >"$DEPS/cjson/VERSION"
  say "cJSON sources ready: $(cat "$DEPS/cjson/VERSION")"
fi

# -------------------------------------------------- protobuf-c for wasm
# The converter as a WASI command (dist/wnn-convert.wasm) compiles
# protobuf-c's runtime (one C file) from Debian's source package, the same
# version as libprotobuf-c-dev (whose protoc-c generates the ONNX parser).
#   .deps/protobuf-c/protobuf-c.c
#   .deps/include/protobuf-c/protobuf-c.h
if [ ! -f "$DEPS/protobuf-c/protobuf-c.c" ] || [ ! -f "$DEPS/include/protobuf-c/protobuf-c.h" ]; then
  srcdir=$(fetch_source protobuf-c)
  [ -f "$srcdir/protobuf-c/protobuf-c.c" ] || die "protobuf-c/protobuf-c.c not found after apt-get source"
  mkdir -p "$DEPS/protobuf-c" "$DEPS/include/protobuf-c"
  cp "$srcdir/protobuf-c/protobuf-c.c" "$DEPS/protobuf-c/"
  cp "$srcdir/protobuf-c/protobuf-c.h" "$DEPS/include/protobuf-c/protobuf-c.h"
  basename "$srcdir" >"$DEPS/protobuf-c/VERSION"
  say "protobuf-c sources ready: $(cat "$DEPS/protobuf-c/VERSION")"
fi

# ---------------------------------------------------- lz4 and zstd for wasm
#
# The weight codecs' real libraries (docs/format.md, "Param codecs") from
# Debian's source packages, the same versions as liblz4-dev and libzstd-dev.
if [ ! -f "$DEPS/lz4/lz4.c" ] || [ ! -f "$DEPS/lz4/lz4.h" ]; then
  srcdir=$(fetch_source lz4)
  [ -f "$srcdir/lib/lz4.c" ] || die "lib/lz4.c not found after apt-get source lz4"
  mkdir -p "$DEPS/lz4"
  cp "$srcdir/lib/lz4.c" "$srcdir/lib/lz4.h" "$DEPS/lz4/"
  basename "$srcdir" >"$DEPS/lz4/VERSION"
  say "lz4 sources ready: $(cat "$DEPS/lz4/VERSION")"
fi
if [ ! -f "$DEPS/zstd/zstd.h" ] || [ ! -d "$DEPS/zstd/decompress" ]; then
  srcdir=$(fetch_source libzstd)
  [ -f "$srcdir/lib/zstd.h" ] || die "lib/zstd.h not found after apt-get source libzstd"
  rm -rf "$DEPS/zstd"
  mkdir -p "$DEPS/zstd"
  cp -r "$srcdir/lib/common" "$srcdir/lib/compress" "$srcdir/lib/decompress" \
    "$srcdir/lib/zstd.h" "$srcdir/lib/zstd_errors.h" "$DEPS/zstd/"
  basename "$srcdir" >"$DEPS/zstd/VERSION"
  say "zstd sources ready: $(cat "$DEPS/zstd/VERSION")"
fi

say "ok"
