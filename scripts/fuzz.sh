#!/usr/bin/env bash
# Coverage-guided fuzzing with libFuzzer (docs/fuzzing.md): builds the fuzz
# preset (clang, ASan + UBSan, tests/fuzz), makes the seed corpora and runs
# the harnesses one at a time.
#
#   bash scripts/fuzz.sh [--short] [--seconds N] [--runs N] [--reseed] [HARNESS...]
#   npm run fuzz -- --seconds 600 fuzz_importer
#
#   HARNESS     fuzz_loader fuzz_loader_resealed fuzz_params fuzz_importer fuzz_npy
#               fuzz_tensorproto fuzz_map (default: all of them, in that order)
#   --seconds N run each harness for N seconds (default 300 when neither
#               --seconds nor --runs is given)
#   --runs N    stop each harness after N executions (with --seconds: whichever
#               comes first)
#   --short     what `npm test` runs: a fixed, small number of executions per
#               harness (SHORT_RUNS, fixed random seed) over the seed corpus and
#               the committed regression inputs (tests/fuzz/regressions/), in a
#               scratch corpus; the working corpus is left alone
#   --reseed    regenerate build/fuzz/seeds/ (otherwise made once)
#   --no-build  use the harnesses already in build/fuzz/bin
#
# Layout (all under build/fuzz/, never committed):
#   bin/<harness>          the harnesses
#   seeds/<kind>/          seed inputs, generated here (see make_seeds)
#   corpus/<harness>/      the working corpus: starts as a copy of the seeds,
#                          grows with every campaign
#   findings/<harness>/    crash-*, leak-*, timeout-*, oom-* reproducers
#   logs/<harness>.log     libFuzzer's output of the last run
#
# Environment: WNN_FUZZ_AVOID=name,... makes the harnesses step around known,
# not yet fixed bugs (docs/fuzzing.md, "Findings"); ASAN_OPTIONS and
# UBSAN_OPTIONS replace the script's defaults.
#
# A finding (any libFuzzer failure: crash, sanitizer report, leak, timeout,
# out-of-memory) makes the exit status non-zero after every harness has run.
# Reproduce one with: build/fuzz/bin/<harness> build/fuzz/findings/<harness>/crash-...
# One fuzzer process at a time (the machine is shared); builds use the
# preset's 2 jobs.
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

ALL=(fuzz_loader fuzz_loader_resealed fuzz_params fuzz_importer fuzz_npy fuzz_tensorproto fuzz_map)
SHORT_RUNS=10000
SHORT_MAX_SECONDS=40 # a safety cap per harness in --short mode, not the budget
B=build/fuzz

short=0
seconds=""
runs=""
reseed=0
build=1
harnesses=()
usage() { sed -n '2,/^set -uo/p' "${BASH_SOURCE[0]}" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
  case $1 in
    --short) short=1 ;;
    --seconds) seconds=${2:?--seconds needs a value}; shift ;;
    --runs) runs=${2:?--runs needs a value}; shift ;;
    --reseed) reseed=1 ;;
    --no-build) build=0 ;;
    -h|--help) usage; exit 0 ;;
    -*) echo "fuzz.sh: unknown option $1" >&2; usage >&2; exit 2 ;;
    *)
      case " ${ALL[*]} " in
        *" $1 "*) harnesses+=("$1") ;;
        *) echo "fuzz.sh: unknown harness $1 (known: ${ALL[*]})" >&2; exit 2 ;;
      esac ;;
  esac
  shift
done
[ ${#harnesses[@]} -gt 0 ] || harnesses=("${ALL[@]}")
if [ $short = 0 ] && [ -z "$seconds" ] && [ -z "$runs" ]; then seconds=300; fi

# ----------------------------------------------------------------- build
if [ $build = 1 ]; then
  echo "== fuzz.sh: building the fuzz preset"
  mkdir -p "$B"
  cmake --preset fuzz >"$B/configure.log" 2>&1 || { cat "$B/configure.log" >&2; exit 1; }
  cmake --build --preset fuzz || exit 1
fi
for h in "${harnesses[@]}"; do
  [ -x "$B/bin/$h" ] || { echo "fuzz.sh: $B/bin/$h was not built" >&2; exit 1; }
done

# ----------------------------------------------------------------- seeds
# Per harness, which seed folder it starts from, its dictionary, its largest
# input and its libFuzzer -malloc_limit_mb.
seed_kind() {
  case $1 in
    fuzz_loader|fuzz_loader_resealed) echo artifacts ;;
    fuzz_importer) echo onnx ;;
    fuzz_params) echo params ;;
    fuzz_npy) echo npy ;;
    fuzz_tensorproto) echo tensorproto ;;
    fuzz_map) echo map ;;
  esac
}
dict_of() {
  case $1 in
    fuzz_loader_resealed) echo tests/fuzz/fuzz_loader.dict ;;
    *) echo "tests/fuzz/$1.dict" ;;
  esac
}
max_len_of() {
  case $1 in
    fuzz_loader|fuzz_loader_resealed|fuzz_importer|fuzz_params) echo 65536 ;;
    *) echo 4096 ;;
  esac
}

ONNX_DATA=/usr/share/libonnx-testdata/data
MODELS=$(cd .. && pwd)/shared/models  # ../shared/models, beside the checkout
SEEDS=$B/seeds

# add_seeds DIR MAX FILE...: copies each FILE of at most MAX bytes into DIR
# under the name of its SHA-1 (as libFuzzer names corpus files, so equal seeds
# collapse). One process for all of them: a process per file costs minutes.
add_seeds() {
  local dir=$1 max=$2
  shift 2
  [ $# -gt 0 ] || return 0
  python3 - "$dir" "$max" "$@" <<'PY'
import hashlib, os, sys
out, limit = sys.argv[1], int(sys.argv[2])
for f in sys.argv[3:]:
    try:
        data = open(f, "rb").read()
    except OSError:
        continue
    if len(data) <= limit:
        with open(os.path.join(out, hashlib.sha1(data).hexdigest()), "wb") as g:
            g.write(data)
PY
}

make_seeds() {
  local tmp wnn
  echo "== fuzz.sh: making seeds in $SEEDS"
  rm -rf "$SEEDS"
  mkdir -p "$SEEDS"/{artifacts,onnx,npy,tensorproto,params,map}
  tmp=$(mktemp -d "$B/seeds-tmp.XXXXXX")
  # The CLI that converts: the native build's when there is one (faster),
  # else the fuzz build's own (instrumented, but the same code).
  wnn=build/native/wnn
  [ -x "$wnn" ] || wnn=$B/wnn

  # The fixtures (tests/fixtures/make_fixtures.c): .wnn, .npy and .pb files.
  if [ -x build/native/make_fixtures ]; then
    build/native/make_fixtures "$tmp/fixtures" >/dev/null 2>&1 ||
      echo "fuzz.sh: make_fixtures failed; going on without the fixtures" >&2
  else
    echo "fuzz.sh: build/native/make_fixtures not built: no fixture seeds" >&2
  fi
  # The small ONNX models (at most 64 KB): every model of the ONNX test data
  # (the node tests are one or a few nodes each, every op family) and mnist.
  # The light_* conv nets stay out: one run of theirs takes 0.5-3 s under ASan.
  local onnx_models=()
  mapfile -t onnx_models < <(find "$ONNX_DATA"/{node,pytorch-converted,pytorch-operator,simple} \
    -name model.onnx -size -65537c 2>/dev/null | sort)
  [ -f "$MODELS/mnist/model.onnx" ] && onnx_models+=("$MODELS/mnist/model.onnx")
  # The opset 22-24 cases of tests/onnx24 (transformer ops, Loop, Scan,
  # float64), made here as the tests make them.
  if /usr/bin/python3 tests/onnx24/make_cases.py "$tmp/onnx24" >/dev/null 2>&1; then
    mapfile -t -O "${#onnx_models[@]}" onnx_models < <(find "$tmp/onnx24" -name '*.onnx' -size -65537c | sort)
  else
    echo "fuzz.sh: tests/onnx24/make_cases.py failed: no opset 22-24 seeds" >&2
  fi
  [ ${#onnx_models[@]} -gt 0 ] ||
    echo "fuzz.sh: no ONNX test data ($ONNX_DATA: apt-get install libonnx-testdata)" >&2

  # Artifacts: the fixtures and those models converted by `wnn convert`
  # (about 700 of them convert).
  mkdir -p "$tmp/converted"
  if [ -x "$wnn" ]; then
    local i=0
    for m in "${onnx_models[@]}"; do
      i=$((i + 1))
      "$wnn" convert "$m" -o "$tmp/converted/$i.wnn" >/dev/null 2>&1
    done
  else
    echo "fuzz.sh: no wnn CLI to convert models with: only fixture artifacts" >&2
  fi
  add_seeds "$SEEDS/artifacts" 65536 "$tmp"/fixtures/*.wnn "$tmp"/converted/*.wnn

  # Params blobs: mnist's weights in every codec (wnn convert --params-out).
  mkdir -p "$tmp/params"
  if [ -x "$wnn" ] && [ -f "$MODELS/mnist/model.onnx" ]; then
    local w c
    for w in raw fp16 int8; do
      for c in none lz4 zstd; do
        "$wnn" convert "$MODELS/mnist/model.onnx" -o "$tmp/params/g.wnn" \
          --params-out "$tmp/params/$w-$c.wnnp" --weights $w --compress $c >/dev/null 2>&1
      done
    done
    rm -f "$tmp/params/g.wnn"
  fi
  add_seeds "$SEEDS/params" 65536 "$tmp"/params/*.wnnp

  # ONNX models for the importer: the same models, as they are.
  add_seeds "$SEEDS/onnx" 65536 "${onnx_models[@]}"

  # TensorProtos: the small inputs and outputs of the ONNX test data and of
  # the shared models, and the fixtures' .pb files.
  add_seeds "$SEEDS/tensorproto" 4096 \
    "$ONNX_DATA"/{node,pytorch-converted,pytorch-operator,simple}/*/test_data_set_*/*.pb \
    "$MODELS"/*/test_data_set_0/*.pb "$tmp"/fixtures/*.pb

  # .npy: the fixtures' files, and files of every dtype and several shapes
  # with numpy's header layout (version 1.0, padded so the data starts at a
  # multiple of 64), plus the variants other writers produce: versions 2.0 and
  # 3.0, Python 2 longs, double quotes, keys in another order, NUL padding,
  # Fortran order, dtypes wnn rejects.
  python3 - "$tmp/npy" <<'PY' || echo "fuzz.sh: the .npy seed generator failed" >&2
import os, struct, sys
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
n = 0
def put(header, data=b"", major=1, align=64):
    global n
    pre = 10 if major == 1 else 12
    h = header.encode("latin-1") + b"\n"
    while (pre + len(h)) % align:
        h = h[:-1] + b" \n"
    ln = struct.pack("<H", len(h)) if major == 1 else struct.pack("<I", len(h))
    with open(os.path.join(out, "%03d.npy" % n), "wb") as f:
        f.write(b"\x93NUMPY" + bytes([major, 0]) + ln + h + data)
    n += 1
def shape_text(s):
    return "(%s,)" % s[0] if len(s) == 1 else "(%s)" % ", ".join(map(str, s))
sizes = {"<f4": 4, "<f2": 2, "<f8": 8, "<i8": 8, "<i4": 4, "|i1": 1, "|u1": 1, "|b1": 1}
for descr, es in sizes.items():
    for s in [(), (0,), (3,), (2, 3), (1, 2, 2, 1), (2, 0, 3)]:
        count = 1
        for d in s:
            count *= d
        data = bytes((i % 2) for i in range(count * es))
        put("{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape_text(s)), data)
for descr in [">f4", "<u8", "<U2", "<c8", "=f4", "|f4"]:
    put("{'descr': '%s', 'fortran_order': False, 'shape': (2,), }" % descr, bytes(8))
put("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }", bytes(8))
put("{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }", bytes(8), major=2)
put("{'descr': '<i8', 'fortran_order': False, 'shape': (1L, 2L), }", bytes(16), major=3)
put('{"descr": "|u1", "shape": (3,), "fortran_order": False}', bytes(3), align=16)
put("{'shape':(),'descr':'<f2','fortran_order':False}\0\0\0", bytes(2), align=1)
put("{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 1, 1, 1, 1, 1, 1), }", bytes(4))
put("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }", bytes(16))
PY
  add_seeds "$SEEDS/npy" 4096 "$tmp"/fixtures/*.npy "$tmp"/npy/*.npy

  # Map files (fuzz_map: "@SHA@" is the digest of its 3-byte artifact): a
  # map with nodes, params, intermediates and an added node, and a few that
  # break one rule each.
  local head='{"wnn_map":1,"artifact":{"sha256":"@SHA@","bytes":3},"source":{"format":"onnx","opset":13,"nodes":4}'
  local nodes='"nodes":[{"node":0,"op":"Conv","name":"c","onnx":[{"index":0,"name":"c","op":"Conv"},{"index":1,"name":"r","op":"Relu","in":"then_branch of If node 3 '"'"'if'"'"'"}],"outputs":["y"]},{"node":1,"op":"Cast","onnx":[],"added":"float16 graph output"},{"node":2,"op":"Add"}]'
  local values='"values":[{"value":1,"kind":"param","name":"w","param":0,"initializers":["w","s"],"onnx":[{"index":2,"name":"bn","op":"BatchNormalization"}]},{"value":3,"kind":"intermediate","name":"y"}]'
  printf '%s,%s,%s}' "$head" "$nodes" "$values" >"$SEEDS/map/full.json"
  printf '%s,"nodes":[],"values":[]}' "$head" >"$SEEDS/map/empty.json"
  printf '%s,"nodes":[{"node":70000},{"node":-1},{"node":1.5},{"node":2,"onnx":7}],"values":{"value":2}}' "$head" >"$SEEDS/map/odd.json"
  printf '{"wnn_map":2,"artifact":{"sha256":"@SHA@","bytes":3}}' >"$SEEDS/map/version.json"
  printf '{"wnn_map":1,"artifact":{"sha256":"@SHA@","bytes":4}}' >"$SEEDS/map/size.json"

  rm -rf "$tmp"
  for k in artifacts onnx npy tensorproto params map; do
    printf '   %-12s %5d seeds\n' "$k" "$(find "$SEEDS/$k" -type f | wc -l)"
  done
  touch "$SEEDS/.done"
}

if [ $reseed = 1 ] || [ ! -f "$SEEDS/.done" ] || [ ! -d "$SEEDS/map" ]; then make_seeds; fi

# ------------------------------------------------------------------ run
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:symbolize=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# "execs exec/s cov ft corpus" of a libFuzzer log (its last status line and
# -print_final_stats=1's stat:: lines).
stats_of() {
  local log=$1 execs eps last cov ft corp
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  eps=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+.*cov: ' "$log" | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  corp=$(sed -n 's/.* corp: \([0-9]*\/[0-9A-Za-z]*\).*/\1/p' <<<"$last")
  echo "${execs:--} ${eps:--} ${cov:--} ${ft:--} ${corp:--}"
}

results=()
status=0
start=$SECONDS
for h in "${harnesses[@]}"; do
  kind=$(seed_kind "$h")
  findings=$B/findings/$h
  mkdir -p "$findings" "$B/logs"
  log=$B/logs/$h.log
  flags=(
    -max_len="$(max_len_of "$h")"
    -dict="$(dict_of "$h")"
    -timeout=10
    -rss_limit_mb=2048
    -malloc_limit_mb=1024
    -artifact_prefix="$findings/"
    -print_final_stats=1
  )
  dirs=()
  if [ $short = 1 ]; then
    # A scratch corpus first (libFuzzer writes new inputs to the first folder),
    # then the seeds, read only.
    rm -rf "$B/short/$h"
    mkdir -p "$B/short/$h"
    dirs+=("$B/short/$h" "$SEEDS/$kind")
    flags+=(-runs="$SHORT_RUNS" -seed=1 -max_total_time="$SHORT_MAX_SECONDS")
  else
    corpus=$B/corpus/$h
    if [ ! -d "$corpus" ]; then
      mkdir -p "$corpus"
      cp "$SEEDS/$kind"/* "$corpus"/ 2>/dev/null
    fi
    dirs+=("$corpus")
    [ -n "$seconds" ] && flags+=(-max_total_time="$seconds")
    [ -n "$runs" ] && flags+=(-runs="$runs")
  fi
  # The committed regression inputs: every one must pass, in both modes.
  reg=tests/fuzz/regressions/$h
  [ -d "$reg" ] && [ -n "$(ls -A "$reg")" ] && dirs+=("$reg")

  before=$(find "$findings" -type f | wc -l)
  echo "== fuzz.sh: $h ${flags[*]} ${dirs[*]}"
  t0=$SECONDS
  "$B/bin/$h" "${flags[@]}" "${dirs[@]}" >"$log" 2>&1
  rc=$?
  after=$(find "$findings" -type f | wc -l)
  read -r execs eps cov ft corp <<<"$(stats_of "$log")"
  new=$((after - before))
  if [ $rc -ne 0 ] || [ $new -gt 0 ]; then
    status=1
    verdict="FINDING (exit $rc, $new new in $findings)"
    grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|wnn fuzz:|artifact_prefix)' "$log" |
      head -8 | sed 's/^/   /'
  else
    verdict=ok
  fi
  results+=("$(printf '%-22s %10s %8s %6s %7s %12s %5ds  %s' "$h" "$execs" "$eps" "$cov" "$ft" \
    "$corp" $((SECONDS - t0)) "$verdict")")
done

printf '\n%-22s %10s %8s %6s %7s %12s %6s  %s\n' harness execs exec/s cov ft corpus time result
printf '%s\n' "${results[@]}"
printf 'total %ds; logs in %s/logs/\n' $((SECONDS - start)) "$B"
exit $status
