#!/bin/sh
# Builds the libFuzzer targets (clang, AddressSanitizer and UBSan) and runs
# each for a while, then prints a summary: executions, time, coverage at
# start and end, new corpus entries, and findings.
#
#   scripts/fuzz.sh                  every target, 60 s each
#   scripts/fuzz.sh -t 300 pdu pmns  five minutes each for two targets
#   scripts/fuzz.sh -n 10000000      every target until ten million
#                                    executions or an hour, whichever first
#   scripts/fuzz.sh -l               list the targets
#
# Options: -t SECONDS per target; -n EXECUTIONS per target (the time limit
# then defaults to 3600 s); -b DIR build directory (default build-fuzz);
# -j N fuzzing jobs per target (default 1); -o FILE where the summary is
# written (default DIR/fuzz-work/summary.txt), so that runs in parallel keep
# their own.
# New inputs the fuzzer keeps go to DIR/fuzz-work/TARGET/corpus (copy the
# interesting ones to tests/fuzz/corpus/TARGET); crashing inputs go to
# DIR/fuzz-work/TARGET/artifacts and belong, once fixed, in
# tests/fuzz/regressions/TARGET. The summary is also written to the -o
# file. Exits 1 if any target had a finding.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
seconds=""
runs=""
build="$top/build-fuzz"
jobs=1
targets=""
list=0
summary=""
while getopts "t:n:b:j:o:l" opt; do
  case $opt in
    t) seconds=$OPTARG ;;
    n) runs=$OPTARG ;;
    b) build=$OPTARG ;;
    j) jobs=$OPTARG ;;
    o) summary=$OPTARG ;;
    l) list=1 ;;
    *) sed -n '2,23p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
if [ -z "$seconds" ]; then
  if [ -n "$runs" ]; then seconds=3600; else seconds=60; fi
fi
runlimit=""
[ -n "$runs" ] && runlimit="-runs=$runs"

all=$(sed -n '/^set(PMAPI_FUZZ_TARGETS/,/)/p' "$top/tests/fuzz/CMakeLists.txt" |
  sed -e 's/set(PMAPI_FUZZ_TARGETS//' -e 's/)//' | tr -s ' \n' ' ')
if [ "$list" = 1 ]; then
  for t in $all; do echo "$t"; done
  exit 0
fi
targets=${*:-$all}

if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz.sh: clang++ not found (scripts/install-deps.sh --fuzz installs it)" >&2
  exit 2
fi
if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ cmake -S "$top" -B "$build" -G Ninja -DPMAPI_FUZZ=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
# shellcheck disable=SC2086
cmake --build "$build" --target $(for t in $targets; do printf 'fuzz_%s ' "$t"; done)

work="$build/fuzz-work"
mkdir -p "$work"
summary=${summary:-$work/summary.txt}
printf '%-15s %12s %8s %9s %9s %8s %s\n' target executions seconds cov_start cov_end new findings >"$summary"
found_any=0
for t in $targets; do
  dir="$work/$t"
  mkdir -p "$dir/corpus" "$dir/artifacts" "$dir/previous-artifacts"
  # Findings count only this run's; earlier ones are kept aside.
  find "$dir/artifacts" -type f -exec mv {} "$dir/previous-artifacts/" \;
  log="$dir/log.txt"
  start=$(date +%s)
  # The first corpus directory receives new inputs; the seeds and past
  # crashes are read only. -timeout flags any input slower than 10 s.
  # (-jobs writes per-job logs fuzz-N.log into the current directory.)
  parallel=""
  [ "$jobs" -gt 1 ] && parallel="-jobs=$jobs -workers=$jobs"
  # targets whose code writes PCP's diagnostics to stderr for odd input:
  # closed for the target (libFuzzer keeps its own reports and the
  # sanitizers')
  case $t in tty_drivers) parallel="$parallel -close_fd_mask=2" ;; esac
  # shellcheck disable=SC2086
  (cd "$dir" && ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 $runlimit $parallel -artifact_prefix="$dir/artifacts/" \
    "$dir/corpus" "$top/tests/fuzz/corpus/$t" "$top/tests/fuzz/regressions/$t" >"$log" 2>&1) || true
  [ -n "$parallel" ] && cat "$dir"/fuzz-*.log >>"$log" 2>/dev/null
  took=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | awk '{s+=$1} END {print s+0}')
  new=$(sed -n 's/^stat::new_units_added: *//p' "$log" | awk '{s+=$1} END {print s+0}')
  cov0=$(grep -m1 'INITED cov:' "$log" | sed 's/.*INITED cov: \([0-9]*\).*/\1/' || true)
  cov1=$(grep -E '(DONE|NEW|REDUCE|pulse)[[:space:]]+cov:' "$log" | tail -1 |
    sed 's/.*cov: \([0-9]*\).*/\1/' || true)
  findings=$(find "$dir/artifacts" -type f | wc -l)
  [ "$findings" -gt 0 ] && found_any=1
  printf '%-15s %12s %8s %9s %9s %8s %s\n' "$t" "$execs" "$took" "${cov0:-?}" "${cov1:-${cov0:-?}}" \
    "$new" "$findings" >>"$summary"
done
cat "$summary"
if [ "$found_any" = 1 ]; then
  echo "findings under $work/*/artifacts (logs: $work/*/log.txt)"
  exit 1
fi
