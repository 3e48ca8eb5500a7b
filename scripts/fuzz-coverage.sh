#!/bin/sh
# Measures how much of each input decoder the saved fuzz corpora reach: a
# clang source-coverage build (-fprofile-instr-generate -fcoverage-mapping)
# of the replay programs, each run once over its corpus and regressions
# (tests/fuzz/corpus/TARGET, tests/fuzz/regressions/TARGET), then llvm-cov
# line and region coverage per decoder source, over all targets merged.
#
#   scripts/fuzz-coverage.sh                 build-cov, every target
#   scripts/fuzz-coverage.sh -b DIR          another build directory
#
# Prints a table (source, target that drives it, lines, line %, regions,
# region %) and writes it, with llvm-cov's full report, to DIR/fuzz-coverage/.
# No fuzzing is done: only the saved inputs are replayed.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
build="$top/build-cov"
while getopts "b:" opt; do
  case $opt in
    b) build=$OPTARG ;;
    *) sed -n '2,13p' "$0" >&2; exit 2 ;;
  esac
done
case "$build" in /*) ;; *) build="$PWD/$build" ;; esac

llvm_cov=$(command -v llvm-cov-14 || command -v llvm-cov || true)
llvm_profdata=$(command -v llvm-profdata-14 || command -v llvm-profdata || true)
if ! command -v clang++ >/dev/null 2>&1 || [ -z "$llvm_cov" ] || [ -z "$llvm_profdata" ]; then
  echo "fuzz-coverage: needs clang++, llvm-cov and llvm-profdata (scripts/install-deps.sh --fuzz)" >&2
  exit 2
fi

# Each decoder source and the fuzz target that drives it.
decoders="
libpmapi/src/host/pdu_codec.cc pdu
core/src/result_codec.cc pdu
archive/src/meta_decoder.cc archive_record
archive/src/archive.cc archive_open
pmns/src/pmns_parse.cc pmns
pmns/src/pmns_cpp.cc pmns
core/src/units.cc units
core/src/interval.cc interval
core/src/timewindow.cc timewindow
core/src/metricspec.cc metricspec
libpmapi/src/pmda/pmda_cache_file.cc pmda_cache
core/src/events_unpack.cc events
core/src/labels.cc labels
"

flags="-fprofile-instr-generate -fcoverage-mapping"
if [ ! -f "$build/build.ninja" ]; then
  launcher=""
  if command -v ccache >/dev/null 2>&1; then
    launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
  fi
  # shellcheck disable=SC2086
  CC=clang CXX=clang++ cmake -S "$top" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    $launcher -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_C_FLAGS="$flags" \
    -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" >/dev/null
fi
targets=$(sed -n '/^set(PMAPI_FUZZ_TARGETS/,/)/p' "$top/tests/fuzz/CMakeLists.txt" |
  sed -e 's/set(PMAPI_FUZZ_TARGETS//' -e 's/)//' | tr -s ' \n' ' ')
# shellcheck disable=SC2086
cmake --build "$build" --target $(for t in $targets; do printf 'replay_%s ' "$t"; done)

out="$build/fuzz-coverage"
rm -rf "$out"
mkdir -p "$out"
for t in $targets; do
  LLVM_PROFILE_FILE="$out/$t.profraw" "$build/tests/fuzz/replay_$t" \
    "$top/tests/fuzz/corpus/$t" "$top/tests/fuzz/regressions/$t" >"$out/$t.log" 2>&1 ||
    { echo "fuzz-coverage: replay_$t failed (see $out/$t.log)" >&2; exit 1; }
done
"$llvm_profdata" merge -sparse -o "$out/all.profdata" "$out"/*.profraw
lib=$(find "$build/libpmapi" -name 'libpmapi.so*' -type f | head -n 1)
"$llvm_cov" report "$lib" -instr-profile="$out/all.profdata" >"$out/report.txt"

# llvm-cov's columns (paths relative to the source tree): Filename Regions
# Missed Cover Functions Missed Executed Lines Missed Cover [Branches ...].
table="$out/table.txt"
printf '| %s | %s | %s | %s |\n' Decoder Target "Lines covered" "Regions covered" >"$table"
printf '|---|---|---|---|\n' >>"$table"
echo "$decoders" | while read -r src target; do
  [ -n "$src" ] || continue
  awk -v f="$src" -v t="$target" '
    $1 == f {
      printf "| %s | %s | %d / %d (%s) | %d / %d (%s) |\n",
        f, t, $8 - $9, $8, $10, $2 - $3, $2, $4
    }' "$out/report.txt" >>"$table"
done
cat "$table"
