#!/usr/bin/env bash
# Builds the libFuzzer harnesses of tests/fuzz with Debian's clang (ASan+UBSan, coverage on every
# library; -O1 with assertions on, line tables for the reports) and runs them, each from a seed corpus built at run time out of HYDRA_TESTDATA (the
# shared real logs, never copied into the repository), the shipped configs and rules, and the
# committed reproducers of tests/fuzz/regressions/.
#   scripts/fuzz.sh [--time SECONDS] [--build-only | --no-build] [--build-dir DIR] [TARGET...] [-- LIBFUZZER_FLAGS...]
# TARGET: mjai_line mjai_file tenhou_xml tenhou6 config rules hand bot shuffle log_rules (default: all, one after
# another). Each run's log goes to DIR/logs/TARGET.log and its summary line (executions, cov, ft,
# findings) to stdout; a crashing input is saved under DIR/artifacts/TARGET/ and the run stops.
# The normal build needs none of this: CTest replays the reproducers with gcc (tests/fuzz).
set -euo pipefail
source "$(dirname "$0")/common.sh"

seconds=60; build_only=false; build=true; build_dir=$HYDRA_ROOT/build-fuzz; targets=(); extra=()
all_targets=(mjai_line mjai_file tenhou_xml tenhou6 config rules hand bot shuffle log_rules)
while [ $# -gt 0 ]; do
  case "$1" in
    --time) seconds=$2; shift 2 ;;
    --build-only) build_only=true; shift ;;
    --no-build) build=false; shift ;;  # another run of this script built them (runs in parallel)
    --build-dir) build_dir=$2; shift 2 ;;
    --) shift; extra=("$@"); break ;;  # e.g. -fork=1 -ignore_crashes=1 past a known finding
    -*) echo "fuzz.sh: unknown option '$1'" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")

if $build; then
  CC=${CC:-clang-14}; CXX=${CXX:-clang++-14}
  command -v "$CXX" >/dev/null || { echo "fuzz.sh: $CXX not found (Debian: apt-get install clang-14)" >&2; exit 1; }
  fuzzer_rt=$("$CXX" -print-file-name=libclang_rt.fuzzer-x86_64.a)
  [ -f "$fuzzer_rt" ] || fuzzer_rt=$(ls /usr/lib/llvm-14/lib/clang/14*/lib/linux/libclang_rt.fuzzer-x86_64.a 2>/dev/null | head -1)
  [ -f "${fuzzer_rt:-}" ] || { echo "fuzz.sh: no libFuzzer runtime (Debian: apt-get install libclang-rt-14-dev)" >&2; exit 1; }

  say "configuring $build_dir (clang, ASan+UBSan, libFuzzer)"
  mkdir -p "$build_dir"
  cmake -G Ninja -S "$HYDRA_ROOT" -B "$build_dir" -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -gline-tables-only" \
    -DHYDRA_FUZZ=ON -DHYDRA_SANITIZE=address -DHYDRA_WITH_TORCH=OFF -DHYDRA_BUILD_BENCHMARKS=OFF > "$build_dir/configure.log" 2>&1 || { cat "$build_dir/configure.log"; exit 1; }
  say "building ${targets[*]}"
  cmake --build "$build_dir" -j "$(jobs_default)" --target "${targets[@]/#/fuzz_}"
fi
$build_only && exit 0

# Seeds: whole files for the file readers, single lines for the line parser, hands as batch
# requests. Rebuilt each run (cheap), so a change of the shared data is picked up.
data=${HYDRA_TESTDATA:-}
[ -n "$data" ] && [ -d "$data" ] || say "HYDRA_TESTDATA not set: seeding from the repository's files only"
seed() {  # seed TARGET: fills $build_dir/seeds/TARGET
  local t=$1 dir=$build_dir/seeds/$1
  rm -rf "$dir"; mkdir -p "$dir"
  cp "$HYDRA_ROOT"/tests/fuzz/regressions/"$t"/* "$dir"/ 2>/dev/null || true
  case "$t" in
    mjai_file|bot)
      if [ -n "$data" ]; then
        for f in "$data"/mjai/*.json.gz "$data"/other_rules/mjai/*; do
          case "$f" in *.gz) zcat "$f" ;; *) cat "$f" ;; esac > "$dir/$(basename "$f" .gz)"
        done
      fi ;;
    mjai_line)
      if [ -n "$data" ]; then
        local i=0
        for f in "$data"/mjai/*.json.gz; do
          { zcat "$f" || true; } | head -n 150 | while IFS= read -r line; do i=$((i + 1)); printf '%s' "$line" > "$dir/$(basename "$f" .json.gz)-$i"; done
        done
      fi ;;
    tenhou_xml) [ -n "$data" ] && cp "$data"/tenhou_xml/* "$data"/other_rules/xml/* "$dir"/ ;;
    tenhou6) [ -n "$data" ] && cp "$data"/tenhou6/* "$dir"/ ;;
    config) cp "$HYDRA_ROOT"/configs/*.json "$dir"/; cp "$HYDRA_ROOT"/tests/cli/configs/*.json "$dir"/ 2>/dev/null || true ;;
    rules) cp "$HYDRA_ROOT"/configs/rules/*.json "$dir"/ ;;
    shuffle)
      # The SHUFFLE seed of every real log that has one (the Tenhou XML logs, the 2022 Houou
      # games), one attribute text per file.
      if [ -n "$data" ]; then
        local f
        for f in "$data"/tenhou_xml/*.xml "$data"/other_rules/xml/* "$data"/houou/*/*.xml.gz; do
          [ -f "$f" ] || continue
          { case "$f" in *.gz) zcat "$f" ;; *) cat "$f" ;; esac | grep -o '<SHUFFLE seed="[^"]*"' | head -1 |
            sed 's/^<SHUFFLE seed="//; s/"$//' | tr -d '\n' > "$dir/$(basename "$f")"; } || true
          [ -s "$dir/$(basename "$f")" ] || rm -f "$dir/$(basename "$f")"
        done
      fi ;;
    log_rules)
      # The names of the real logs (their ids: lobby type and date) as uris, once without a GO
      # type and once with the type of the first mjlog (169, the Houou hanchan); see the harness.
      if [ -n "$data" ]; then
        local f
        find "$data" -type f -name '*gm-*' | while IFS= read -r f; do
          printf '\000\000\000%s' "$f" > "$dir/$(basename "$f")-uri"
          printf '\001\251\000%s' "$(basename "$f")" > "$dir/$(basename "$f")-go"
        done
      fi ;;
    hand)
      # 14-tile hands of the shanten tables as compact notation requests: the hand alone, and its
      # first 13 tiles winning on the 14th by tsumo; 50 lines per seed file.
      if [ -n "$data" ]; then
        for f in "$data"/shanten/*.txt; do
          head -n 100 "$f" | awk -v out="$dir/$(basename "$f" .txt)" '
            function compact(n,   h, s, i, d) { h = ""
              for (s = 0; s < 4; s++) { d = ""; for (i = 1; i <= n; i++) if (int($i / 9) == s) d = d ($i % 9 + 1)
                if (d != "") h = h d substr("mpsz", s + 1, 1) }
              return h }
            { file = out "-" int(NR / 25)
              printf "{\"hand\":\"%s\"}\n", compact(14) > file
              printf "{\"hand\":\"%s\",\"win\":\"%d%s\",\"tsumo\":true}\n", compact(13), $14 % 9 + 1, substr("mpsz", int($14 / 9) + 1, 1) > file }'
        done
      fi ;;
  esac
}

mkdir -p "$build_dir/logs"
for t in "${targets[@]}"; do
  seed "$t"
  corpus=$build_dir/corpus/$t; artifacts=$build_dir/artifacts/$t
  mkdir -p "$corpus" "$artifacts"
  log=$build_dir/logs/$t.log
  say "fuzzing $t for ${seconds}s (log: $log)"
  rc=0
  nice -n 10 "$build_dir/tests/fuzz/fuzz_$t" "$corpus" "$build_dir/seeds/$t" \
    -max_total_time="$seconds" -timeout=60 -rss_limit_mb=2048 -max_len=262144 -print_final_stats=1 \
    -artifact_prefix="$artifacts/" "${extra[@]}" > "$log" 2>&1 || rc=$?
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$log" | grep -E 'cov: ' | tail -1)
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last"); ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
  [ -n "$execs" ] || execs=$(sed -n 's/^#\([0-9]*\).*/\1/p' <<<"$last")  # -fork mode prints no stat:: lines
  findings=$(find "$artifacts" -type f | wc -l)
  echo "$t: ${seconds}s, ${execs:-?} executions, cov ${cov:-?}, ft ${ft:-?}, corpus $(ls "$corpus" | wc -l) files, findings $findings (exit $rc)"
done
