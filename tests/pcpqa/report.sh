#!/bin/bash
# Prints pcpqa.sh's table (test | PCP | ours | note) and counts from
# RESULTS/table ("TEST<TAB>pcp verdict<TAB>our verdict" lines). Exit
# status 0 unless a test that passes with PCP's tools fails with ours and
# is not listed in KNOWN ("TEST<TAB>reason" lines).
#   tests/pcpqa/report.sh RESULTS KNOWN
set -euo pipefail
res=$1
known=${2:-/dev/null}
[ -f "$known" ] || known=/dev/null
awk -F'\t' -v known="$known" -v secs="$(cat "$res/seconds" 2>/dev/null || echo '?')" '
  BEGIN {
    while ((getline line < known) > 0) {
      if (line ~ /^#/) continue
      split(line, f, "\t")
      if (f[2] != "") reason[f[1]] = f[2]
    }
  }
  {
    t = $1; p = $2; o = $3; note = ""
    n++
    if (p == "pass") np++
    if (o == "pass") no++
    if (p == "pass" && o == "pass") nb++
    if (p == "pass" && o != "pass" && o != "-") {
      if (t in reason) { note = "known: " reason[t]; nk++ }
      else { note = "REGRESSION"; bad = bad " " t }
    } else if (t in reason && o == "pass") {
      note = "listed as known but passes"; stale = stale " " t
    }
    printf "%-6s | %-6s | %-6s | %s\n", t, p, o, note
  }
  END {
    printf "\nselected %d; pass with PCP %d; pass with ours %d; pass with both %d; known differences %d; %s s\n", n, np, no, nb, nk, secs
    if (stale != "") printf "known.txt lists tests that now pass:%s\n", stale
    if (bad != "") { printf "pass with PCP, fail with ours, not in known.txt:%s\n", bad; exit 1 }
  }' "$res/table"
