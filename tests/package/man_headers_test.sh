#!/bin/bash
# man_headers_test.sh: fails when a public header is missing from the
# HEADERS section of libpmapi(3), so the overview grows with the API.
#
# Usage: man_headers_test.sh MAN_PAGE INCLUDE_DIR...
# Each INCLUDE_DIR holds a pmapi/ directory of public headers.
set -euo pipefail
page=$1; shift

listed=$(awk '/^\.SH HEADERS/ {on = 1; next} /^\.SH/ {on = 0} on && prev == ".TP" {print} {prev = $0}' "$page" |
  sed -E 's/^\.I +//' | sort -u)
count=0
missing=""
for dir in "$@"; do
  for header in "$dir"/pmapi/*.h; do
    name=pmapi/$(basename "$header")
    count=$((count + 1))
    grep -qxF "$name" <<< "$listed" || missing="$missing $name"
  done
done
[ "$count" -gt 0 ] || { echo "FAIL: no headers found in $*" >&2; exit 1; }
if [ -n "$missing" ]; then
  echo "FAIL: $(basename "$page") does not list:$missing" >&2
  exit 1
fi
echo "ok: all $count public headers are listed in $(basename "$page")"
