#!/usr/bin/env bash
# Everything `npm test` runs:
#   setup (Debian packages, .deps/) -> build (all presets) ->
#   ctest in build/native, build/asan (gcc's ASan+UBSan), build/asan-clang
#   (clang's) and build/wasi (the same C tests as WASI modules under Node) ->
#   the kernel and op tests with relaxed SIMD (build/wasi-relaxed) ->
#   the thread tests under ThreadSanitizer (build/tsan) -> the fuzz harnesses
#   in their short mode (scripts/fuzz.sh --short: a fixed number of runs each,
#   and every committed regression input) -> build/fixtures via
#   build/native/make_fixtures ->
#   npm install (the dev dependencies the JS host and package tests run: deno,
#   bun, workerd, playwright-core, esbuild; and those `npm run bench` compares
#   against: onnxruntime-web, onnxruntime-node; skipped when node_modules is up
#   to date) ->
#   node --test tests/js/*.test.mjs
# A failed setup stops here; otherwise every test step runs even if an earlier
# one failed, a summary follows, and the exit status is non-zero if any step
# failed.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

start=$SECONDS
summary=()
status=0

step() {
  local name=$1 t0=$SECONDS rc
  shift
  printf '\n======== %s\n' "$name"
  "$@"
  rc=$?
  if [ $rc -eq 0 ]; then
    summary+=("$(printf 'ok    %-22s %4ds' "$name" $((SECONDS - t0)))")
  else
    summary+=("$(printf 'FAIL  %-22s %4ds  (exit %d)' "$name" $((SECONDS - t0)) $rc)")
    status=1
  fi
  return $rc
}

ctest_in() {
  local dir=build/$1
  if [ ! -f "$dir/CTestTestfile.cmake" ]; then
    printf '%s was not configured\n' "$dir" >&2
    return 1
  fi
  ctest --test-dir "$dir" --output-on-failure -j2
}

# The thread tests under ThreadSanitizer: only what they need is built.
tsan_tests() {
  cmake --preset tsan >build/configure-tsan.log 2>&1 || { cat build/configure-tsan.log; return 1; }
  cmake --build --preset tsan --target test_unit_test_threads test_unit_test_intra_threads || return 1
  TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
    ctest --test-dir build/tsan --output-on-failure -R '^unit/test_(intra_)?threads$'
}

# dist/wnn-relaxed.wasm's kernels under WASI: the kernel and op tests built
# by clang-19 with -mrelaxed-simd (the wasi-relaxed preset: only those
# targets), run by Node with relaxed SIMD on. Left out: ops/test_conv and
# ops/test_quant_nbits, whose fixed tolerances assume the unfused sums of the
# other builds (docs/kernels.md, "Relaxed SIMD").
relaxed_tests() {
  cmake --preset wasi-relaxed >build/configure-wasi-relaxed.log 2>&1 || { cat build/configure-wasi-relaxed.log; return 1; }
  local targets=() f
  for f in tests/kernels/test_*.c tests/ops/test_*.c; do
    targets+=("test_$(basename "$(dirname "$f")")_$(basename "$f" .c)")
  done
  cmake --build --preset wasi-relaxed --target "${targets[@]}" || return 1
  ctest --test-dir build/wasi-relaxed --output-on-failure -j2 -L '^(kernels|ops)$' \
    -E '^ops/(test_conv|test_quant_nbits)$'
}

fixtures() {
  if [ -x build/native/make_fixtures ]; then
    rm -rf build/fixtures
    build/native/make_fixtures build/fixtures
  else
    echo "build/native/make_fixtures not built (no tests/fixtures/make_fixtures.c): the JS fixture tests skip"
  fi
}

# node_modules is stale when package.json is newer than npm's record of the
# last install. No package-lock.json is written: package.json pins exact
# versions, and a lock file would record registry addresses.
npm_deps() {
  local stamp=node_modules/.package-lock.json
  if [ -f "$stamp" ] && [ ! package.json -nt "$stamp" ]; then
    echo "node_modules is up to date"
    return 0
  fi
  # onnxruntime-node ships its CPU binary inside the package; its install
  # script (which npm 11 does not run anyway) would only fetch optional GPU
  # libraries: ONNXRUNTIME_NODE_INSTALL=skip tells it not to.
  ONNXRUNTIME_NODE_INSTALL=skip npm install --no-audit --no-fund --no-package-lock
}

js_tests() {
  local files=(tests/js/*.test.mjs)
  [ -e "${files[0]}" ] || { echo "no tests/js/*.test.mjs"; return 0; }
  node --test "${files[@]}"
}

step setup bash scripts/setup.sh || {
  printf '\nsetup failed; nothing else can run\n' >&2
  exit 1
}
step build bash scripts/build.sh
step "ctest native" ctest_in native
step "ctest asan" ctest_in asan
step "ctest asan-clang" ctest_in asan-clang
step "ctest wasi (node)" ctest_in wasi
step "ctest wasi-relaxed" relaxed_tests
step "tsan threads" tsan_tests
if [ -f scripts/fuzz.sh ]; then
  step "fuzz (short)" bash scripts/fuzz.sh --short
fi
step fixtures fixtures
step "npm install" npm_deps
step "node --test tests/js" js_tests

printf '\n======== summary\n'
printf '%s\n' "${summary[@]}"
printf 'total %ds: %s\n' $((SECONDS - start)) "$([ $status -eq 0 ] && echo passed || echo FAILED)"
exit $status
