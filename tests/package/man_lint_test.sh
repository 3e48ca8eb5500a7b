#!/bin/bash
# man_lint_test.sh: fails when groff warns about any of the given man pages
# (unknown macros, bad escapes, lines it cannot fill).
#
# Usage: man_lint_test.sh PAGE...
set -euo pipefail
status=0
for page in "$@"; do
  warnings=$(groff -man -ww -z "$page" 2>&1)
  if [ -n "$warnings" ]; then
    echo "FAIL: $page" >&2
    echo "$warnings" >&2
    status=1
  fi
done
[ $status -eq 0 ] && echo "ok: $# pages format without warnings"
exit $status
