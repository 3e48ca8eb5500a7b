#!/bin/bash
# man_functions_test.sh: fails when a function <pcp/pmda.h> declares is
# not named in its manual page, so pmda(3) grows with the header.
#
# Usage: man_functions_test.sh HEADER MAN_PAGE
set -euo pipefail
header=$1 page=$2
functions=$(sed -n 's/^PMDA_CALL extern [^(]*[ *]\([A-Za-z_][A-Za-z0-9_]*\)(.*/\1/p' "$header" | sort -u)
count=0
missing=""
for f in $functions; do
  count=$((count + 1))
  grep -q "\b$f\b" "$page" || missing="$missing $f"
done
[ "$count" -gt 0 ] || { echo "FAIL: no functions found in $header" >&2; exit 1; }
if [ -n "$missing" ]; then
  echo "FAIL: $(basename "$page") does not name:$missing" >&2
  exit 1
fi
echo "ok: all $count functions of $(basename "$header") are in $(basename "$page")"
