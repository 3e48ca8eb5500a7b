#!/bin/sh
# Compares the names and symbol versions libpmapi's libpcp.so.3 exports
# with those of PCP 6.0.3's (dropin/libpcp.versions, read off Debian's
# library) and prints the counts.
#
#   tests/dropin/names.sh OUR_LIBPCP [PCP_LIBPCP]
#
# Fails when our library exports a name PCP's does not (a C++ or Abseil
# symbol, say), exports a name with another version, leaves a version node
# out, exports a data name as a function (or the reverse), or leaves out a
# name that tests/dropin/absent.txt does not give a reason for; and when
# absent.txt gives a reason for a name that is exported. With PCP_LIBPCP
# (Debian's library, when installed) dropin/libpcp.versions is also checked
# against it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ours=$1
theirs=${2:-}
facts="$root/dropin/libpcp.versions"
reasons="$here/absent.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

problem() {
  echo "names: $*"
  fail=1
}

"$root/dropin/read-versions.sh" "$ours" > "$work/ours"
sort "$facts" > "$work/facts"
if [ -n "$theirs" ] && [ -e "$theirs" ]; then
  "$root/dropin/read-versions.sh" "$theirs" | sort > "$work/theirs"
  cmp -s "$work/facts" "$work/theirs" || problem "dropin/libpcp.versions differs from $theirs"
fi

# Every exported name with PCP's version, and no other name.
join -a1 -e MISSING -o 0,1.2,2.2 "$work/ours" "$work/facts" > "$work/joined"
awk '$3 == "MISSING" { print $1 }' "$work/joined" > "$work/extra"
awk '$3 != "MISSING" && $2 != $3 { print $1, $2, "(PCP: " $3 ")" }' "$work/joined" > "$work/wrong"
[ -s "$work/extra" ] && problem "exported but not PCP's: $(head -20 "$work/extra" | tr '\n' ' ')"
[ -s "$work/wrong" ] && problem "other versions: $(tr '\n' ';' < "$work/wrong")"
# Any unversioned dynamic symbol would mean the version script leaked.
objdump -T "$ours" | awk '$0 !~ /\*UND\*/ && NF >= 6 && $(NF-1) !~ /^PCP_/ { print $NF }' > "$work/unversioned"
[ -s "$work/unversioned" ] && problem "exported without a version: $(head -20 "$work/unversioned" | tr '\n' ' ')"

# Every version node PCP defines.
objdump -p "$ours" | awk '/^Version definitions:/ { on = 1; next } /^Version References:/ { on = 0 } on && NF >= 4 { print $4 }' |
  grep '^PCP_' | sort > "$work/nodes"
awk '{ print $2 }' "$work/facts" | sort -u > "$work/pcp_nodes"
missing_nodes=$(comm -13 "$work/nodes" "$work/pcp_nodes" | tr '\n' ' ')
[ -n "$missing_nodes" ] && problem "version nodes missing: $missing_nodes"

# Data stays data: each of PCP's data objects we export is an object here.
for name in pmProgname pmDebug pmDebugOptions __pmPDUCntIn __pmPDUCntOut __pmNativeConfig; do
  objdump -T "$ours" | awk -v n="$name" '$NF == n && $0 !~ /\*UND\*/ && / DO / { found = 1 } END { exit !found }' ||
    problem "$name is not exported as a data object"
done

# Absent names: each has a reason, and no reason is stale.
awk '{ print $1 }' "$work/ours" | sort > "$work/ours_names"
awk '{ print $1 }' "$work/facts" | sort > "$work/pcp_names"
comm -13 "$work/ours_names" "$work/pcp_names" > "$work/absent"
grep -v '^#' "$reasons" | awk -F'\t' 'NF == 2 { print $1 }' | sort > "$work/reasoned"
unexplained=$(comm -23 "$work/absent" "$work/reasoned" | tr '\n' ' ')
stale=$(comm -13 "$work/absent" "$work/reasoned" | tr '\n' ' ')
[ -n "$unexplained" ] && problem "absent without a reason in absent.txt: $unexplained"
[ -n "$stale" ] && problem "exported, yet absent.txt gives a reason: $stale"

total=$(wc -l < "$work/pcp_names")
exported=$(wc -l < "$work/ours_names")
echo "libpcp.so.3: PCP exports $total names in $(wc -l < "$work/pcp_nodes") version nodes; ours exports $exported, each with PCP's version"
echo "absent: $(wc -l < "$work/absent"), by reason:"
grep -v '^#' "$reasons" | awk -F'\t' 'NF == 2 { n[$2]++ } END { for (r in n) printf "  %-8s %d\n", r, n[r] }' | sort
exit $fail
