#!/bin/bash
# man_names_test.sh: fails unless every function of PCP's C interface that
# the library exports has a manual page that `man -w` finds once the
# development files are installed, and every name a page lists is such a
# function (so no page documents a function we do not have).
#
# Usage: man_names_test.sh BUILD_DIR LIBRARY WORK_DIR CMAKE HEADER...
# LIBRARY is the built libpmapi.so; HEADER... are PCP's C headers
# (<pcp/pmapi.h> and the headers it includes, <pcp/pmda.h>).
set -euo pipefail
build=$1 lib=$2 work=$3 cmake=$4
shift 4

rm -rf "$work"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$work/prefix" --component development > /dev/null

# The functions the headers declare and the library exports.
nm -D --defined-only "$lib" | awk '$2 == "T" || $2 == "W" {sub(/@.*/, "", $3); print $3}' |
  sort -u > "$work/exported"
grep -ohE '\b_{0,2}pm[A-Za-z0-9_]+ *\(' "$@" | sed 's/ *($//' | sort -u > "$work/declared"
comm -12 "$work/exported" "$work/declared" > "$work/functions"
count=$(wc -l < "$work/functions")
[ "$count" -gt 200 ] || { echo "FAIL: only $count exported functions found" >&2; exit 1; }

manpath=$(find "$work/prefix" -type d -name man3 -printf '%h:' | sed 's/:$//')
[ -n "$manpath" ] || { echo "FAIL: no man3 directory installed under $work/prefix" >&2; exit 1; }
missing=""
found=0
while read -r name; do
  if page=$(man -M "$manpath" -w 3 "$name" 2>/dev/null) && [ -e "$page" ]; then
    found=$((found + 1))
  else
    missing="$missing $name"
  fi
done < "$work/functions"

# Every name a C function page lists must be one of those functions.
extra=""
for dir in ${manpath//:/ }; do
  for page in "$dir"/man3/*.3.gz; do
    [ -e "$page" ] || continue
    base=$(basename "$page" .3.gz)
    case "$base" in pmapi-*|libpmapi*|pmda) continue ;; esac
    grep -qxF "$base" "$work/functions" || extra="$extra $base"
  done
done

status=0
if [ -n "$missing" ]; then
  echo "FAIL: no page for$missing" >&2
  status=1
fi
if [ -n "$extra" ]; then
  echo "FAIL: pages for names that are not exported functions of the C interface:$extra" >&2
  status=1
fi
echo "$found of $count exported functions of <pcp/pmapi.h> and <pcp/pmda.h> have a page (man -w 3)"
exit $status
