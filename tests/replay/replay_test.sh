#!/bin/bash
# replay_test.sh: replays archives through the C PMAPI with the same C
# client (replay.c) built twice, against PCP 6.0.3's libpcp and against
# this library (installed into a scratch prefix, as tests/compat does),
# and compares what the two print, case by case.
#
# Cases: every archive under each ARCHIVE_DIR (a directory holding several
# archives' .meta files directly is also replayed as one multi-archive
# set), in each mode: forward, backward, interpolated forward at three
# steps (the archive's extent in 7, 40 and 250 steps) and at 1 s, and
# interpolated backward. Interpolation is run again with
# PCP_IGNORE_MARK_RECORDS set. Each case prints the descriptors of every
# metric, then every value set of every fetch (replay.c).
#
# Prints "identical N/M" and the cases that differ (a diff excerpt each);
# fails if any case differs.
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

# The archives: NAME<TAB>ARCHIVE, one a line.
list_archives() {
  local dir meta base
  for dir in "$@"; do
    find "$dir" \( -name '*.meta' -o -name '*.meta.xz' \) | sort | while read -r meta; do
      base=${meta%.xz}
      base=${base%.meta}
      printf '%s\t%s\n' "${base#"$dir"/}" "$base"
    done
    # Directories holding two or more archives: multi-archive sets.
    find "$dir" -type d | sort | while read -r d; do
      n=$(find "$d" -maxdepth 1 \( -name '*.meta' -o -name '*.meta.xz' \) | wc -l)
      if [ "$n" -ge 2 ]; then printf '%s\t%s\n' "${d#"$dir"/}/ (set)" "$d"; fi
    done
  done
}

# Cases: NAME<TAB>ARCHIVE<TAB>ENV<TAB>MODE ARGS
list_archives "$@" | while IFS=$'\t' read -r name path; do
  for m in "forw" "back" "interp /7" "interp /40" "interp /250" "interp 1" "interp-back /40"; do
    printf '%s\t%s\t-\t%s\n' "$name" "$path" "$m"
  done
  # PCP_IGNORE_MARK_RECORDS empty ignores every <mark>; an interval,
  # those between records at most that far apart.
  printf '%s\t%s\tPCP_IGNORE_MARK_RECORDS=\t%s\n' "$name" "$path" "interp /40"
  printf '%s\t%s\tPCP_IGNORE_MARK_RECORDS=\t%s\n' "$name" "$path" "interp-back /7"
  printf '%s\t%s\tPCP_IGNORE_MARK_RECORDS=2sec\t%s\n' "$name" "$path" "interp /40"
done > "$work/cases"

# run_case LINE_NUMBER: runs case N with both builds, writes N.same or N.diff.
run_case() {
  local n=$1 name path envs mode
  IFS=$'\t' read -r name path envs mode < <(sed -n "${n}p" "$work/cases")
  [ "$envs" = - ] && envs=
  local args
  read -r -a args <<< "$mode"
  for lib in ours pcp; do
    # shellcheck disable=SC2086
    env TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= $envs timeout 120 \
      "$work/replay-$lib" -n 1000 "$path" "${args[@]}" > "$work/out/$n.$lib" 2>&1 ||
      echo "exit status $?" >> "$work/out/$n.$lib"
  done
  if cmp -s "$work/out/$n.ours" "$work/out/$n.pcp"; then
    : > "$work/out/$n.same"
  else
    { echo "== $name: $mode ${envs}"
      diff "$work/out/$n.pcp" "$work/out/$n.ours" | head -12; } > "$work/out/$n.diff" || true
  fi
  rm -f "$work/out/$n.ours" "$work/out/$n.pcp"
}
export -f run_case
export work

total=$(wc -l < "$work/cases")
seq 1 "$total" | xargs -P "$(nproc)" -I{} bash -c 'run_case {}'
same=$(find "$work/out" -name '*.same' | wc -l)
if [ "$same" != "$total" ]; then
  find "$work/out" -name '*.diff' | sort -t/ -k1 -V | xargs cat
fi
echo "identical $same/$total"
[ "$same" = "$total" ]
