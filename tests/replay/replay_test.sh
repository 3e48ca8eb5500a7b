#!/bin/bash
# replay_test.sh: replays archives through the C PMAPI with the same C
# client (replay.c) built twice, against PCP 6.0.3's libpcp and against
# this library (installed into a scratch prefix, as tests/compat does),
# and compares what the two print, case by case.
#
# Cases: every archive under each ARCHIVE_DIR (a directory holding several
# archives' .meta files directly is also replayed as one multi-archive
# set), in each mode: forward, backward, interpolated forward at three
# steps (the archive's extent in 7 and 40 steps, and 1 s; at most 1,000
# fetches), and interpolated backward. Interpolation is run again with
# PCP_IGNORE_MARK_RECORDS empty (forward and backward) and set to 2sec.
# Each case prints the descriptors of every metric, then every value set
# of every fetch (replay.c).
#
# Prints "identical N/M" and the cases that differ (a diff excerpt each).
# Fails if a case differs that known.txt does not list, or if one it lists
# no longer differs (so the list shrinks as differences are fixed).
#
# Usage: replay_test.sh SOURCE_DIR BUILD_DIR WORK_DIR CMAKE CC "CFLAGS" ARCHIVE_DIR...
set -euo pipefail

src=$1 build=$2 work=$3 cmake=$4 cc=$5
read -r -a cflags <<< "${6:-}"
shift 6
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
here=$src/tests/replay
prefix=$work/prefix

[ -f /usr/include/pcp/pmapi.h ] || { echo "FAIL: PCP's libpcp3-dev is not installed" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/out"
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; echo "FAIL: install" >&2; exit 1; }
libdir=$(dirname "$(find "$prefix" -name 'libpmapi.so' | head -1)")
"$cc" -O1 -Wall -Wextra -Werror "${cflags[@]}" -I"$prefix/include" -o "$work/replay-ours" \
  "$here/replay.c" -L"$libdir" -lpmapi -Wl,-rpath,"$libdir"
# PCP's build: its header and library only, without the sanitizer flags.
"$cc" -O1 -Wall -Wextra -Werror -o "$work/replay-pcp" "$here/replay.c" -lpcp

# The archives: NAME<TAB>ARCHIVE, one a line. A name is the path below the
# archive directory given, or below $REPLAY_NAME_ROOT when that is set (a
# run over a subdirectory names its cases as the whole run does).
list_archives() {
  local dir root meta base
  for dir in "$@"; do
    root=${REPLAY_NAME_ROOT:-$dir}
    find "$dir" \( -name '*.meta' -o -name '*.meta.xz' \) | sort | while read -r meta; do
      base=${meta%.xz}
      base=${base%.meta}
      printf '%s\t%s\n' "${base#"$root"/}" "$base"
    done
    # Directories holding two or more archives: multi-archive sets.
    find "$dir" -type d | sort | while read -r d; do
      n=$(find "$d" -maxdepth 1 \( -name '*.meta' -o -name '*.meta.xz' \) | wc -l)
      if [ "$n" -ge 2 ]; then printf '%s\t%s\n' "${d#"$root"/}/ (set)" "$d"; fi
    done
  done
}

# Runs: NAME<TAB>ARCHIVE<TAB>ENV<TAB>MODES; each run replays the archive in
# every mode of MODES in one process (replay.c), and each mode is a case.
modes="forw back interp:/7 interp:/40 interp:1 interp-back:/40"
list_archives "$@" | while IFS=$'\t' read -r name path; do
  printf '%s\t%s\t-\t%s\n' "$name" "$path" "$modes"
  # PCP_IGNORE_MARK_RECORDS empty ignores every <mark>; an interval,
  # those between records at most that far apart.
  printf '%s\t%s\tPCP_IGNORE_MARK_RECORDS=\t%s\n' "$name" "$path" "interp:/40 interp-back:/7"
  printf '%s\t%s\tPCP_IGNORE_MARK_RECORDS=2sec\t%s\n' "$name" "$path" "interp:/40"
done > "$work/runs"

# run_case LINE_NUMBER: runs line N of the runs with both builds, and for
# each of its modes K writes N.K.same, or N.K.case and N.K.diff.
run_case() {
  local n=$1 name path envs modes
  IFS=$'\t' read -r name path envs modes < <(sed -n "${n}p" "$work/runs")
  [ "$envs" = - ] && envs=
  local args
  read -r -a args <<< "$modes"
  for lib in ours pcp; do
    # shellcheck disable=SC2086
    env TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= $envs timeout 120 \
      "$work/replay-$lib" -n 1000 "$path" "${args[@]}" > "$work/out/$n.$lib" 2>&1 ||
      echo "exit status $?" >> "$work/out/$n.$lib"
    # One file per mode: N.LIB.1, N.LIB.2, ...
    awk -v base="$work/out/$n.$lib" '/^=== /{k++} {print > (base "." k+0)}' "$work/out/$n.$lib"
  done
  local k=0 mode case
  for mode in "${args[@]}"; do
    k=$((k + 1))
    case="$name: ${mode/:/ } ${envs}"
    # Anything printed after the last mode (an exit status) belongs to it.
    if cmp -s "$work/out/$n.ours.$k" "$work/out/$n.pcp.$k"; then
      echo "$case" > "$work/out/$n.$k.same"
    else
      echo "$case" > "$work/out/$n.$k.case"
      { echo "== $case"
        diff "$work/out/$n.pcp.$k" "$work/out/$n.ours.$k" | head -12; } > "$work/out/$n.$k.diff" || true
    fi
  done
  rm -f "$work/out/$n".ours* "$work/out/$n".pcp*
}
export -f run_case
export work

seq 1 "$(wc -l < "$work/runs")" | xargs -P "$(nproc)" -I{} bash -c 'run_case {}'
same=$(find "$work/out" -name '*.same' | wc -l)
total=$(find "$work/out" -name '*.same' -o -name '*.case' | wc -l)
find "$work/out" -name '*.diff' | sort -V | xargs -r cat
echo "identical $same/$total"

# Differences against the known list (cases named as "NAME: MODE ENV").
grep -v '^#' "$here/known.txt" | sed 's/[[:space:]]*$//' | grep . | sort > "$work/known" || true
find "$work/out" -name '*.case' | xargs -r cat | sed 's/[[:space:]]*$//' | sort > "$work/differ"
find "$work/out" -name '*.same' | xargs -r cat | sed 's/[[:space:]]*$//' | sort > "$work/identical"
new=$(comm -23 "$work/differ" "$work/known")
fixed=$(comm -12 "$work/identical" "$work/known")
[ -z "$new" ] || { echo "FAIL: differences not in known.txt:"; echo "$new"; }
[ -z "$fixed" ] || { echo "FAIL: listed in known.txt but identical now:"; echo "$fixed"; }
[ -z "$new" ] && [ -z "$fixed" ]
