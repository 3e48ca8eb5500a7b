#!/bin/sh
# Compares the names and symbol versions the drop-in exports with those of
# PCP 6.0.3's libpcp.so.3 and libpcp_pmda.so.3 (dropin/libpcp.versions and
# dropin/libpcp_pmda.versions, read off Debian's libraries) and prints the
# counts.
#
#   tests/dropin/names.sh OUR_LIBPCP OUR_LIBPCP_PMDA [PCP_LIBPCP [PCP_LIBPCP_PMDA]]
#
# The drop-in libpcp.so.3 holds the names of both of PCP's libraries, each
# with PCP's version; its libpcp_pmda.so.3 defines the PCP_PMDA_3.* version
# nodes and nothing else. Fails when our libpcp.so.3 exports a name neither
# of PCP's does (a C++ or Abseil symbol, say), exports a name with another
# version, leaves a version node out, exports a data name as a function
# (or the reverse), or leaves out a name that tests/dropin/absent.txt does
# not give a reason for; when absent.txt gives a reason for a name that is
# exported; and when our libpcp_pmda.so.3 defines anything but the nodes.
# With PCP's libraries (Debian's, when installed) the two .versions files
# are also checked against them.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
ours=$1
ours_pmda=$2
theirs=${3:-}
theirs_pmda=${4:-}
reasons="$here/absent.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0

problem() {
  echo "names: $*"
  fail=1
}

# check_facts FACTS PCP_LIBRARY: the .versions file is what the library says.
check_facts() {
  [ -n "$2" ] && [ -e "$2" ] || return 0
  "$root/dropin/read-versions.sh" "$2" | sort > "$work/theirs"
  sort "$1" | cmp -s - "$work/theirs" || problem "$1 differs from $2"
}
check_facts "$root/dropin/libpcp.versions" "$theirs"
check_facts "$root/dropin/libpcp_pmda.versions" "$theirs_pmda"

"$root/dropin/read-versions.sh" "$ours" > "$work/ours"
sort "$root/dropin/libpcp.versions" "$root/dropin/libpcp_pmda.versions" > "$work/facts"

# Every exported name with PCP's version, and no other name.
join -a1 -e MISSING -o 0,1.2,2.2 "$work/ours" "$work/facts" > "$work/joined"
awk '$3 == "MISSING" { print $1 }' "$work/joined" > "$work/extra"
awk '$3 != "MISSING" && $2 != $3 { print $1, $2, "(PCP: " $3 ")" }' "$work/joined" > "$work/wrong"
[ -s "$work/extra" ] && problem "exported but not PCP's: $(head -20 "$work/extra" | tr '\n' ' ')"
[ -s "$work/wrong" ] && problem "other versions: $(tr '\n' ';' < "$work/wrong")"
# Any unversioned dynamic symbol would mean the version script leaked.
objdump -T "$ours" | awk '$0 !~ /\*UND\*/ && NF >= 6 && $(NF-1) !~ /^PCP_/ { print $NF }' > "$work/unversioned"
[ -s "$work/unversioned" ] && problem "exported without a version: $(head -20 "$work/unversioned" | tr '\n' ' ')"

# defined_nodes LIBRARY: the PCP version nodes the library defines.
defined_nodes() {
  objdump -p "$1" | awk '/^Version definitions:/ { on = 1; next } /^Version References:/ { on = 0 } on && NF >= 4 { print $4 }' |
    grep '^PCP_' | sort
}

# Every version node PCP defines.
defined_nodes "$ours" > "$work/nodes"
awk '{ print $2 }' "$work/facts" | sort -u > "$work/pcp_nodes"
missing_nodes=$(comm -13 "$work/nodes" "$work/pcp_nodes" | tr '\n' ' ')
[ -n "$missing_nodes" ] && problem "version nodes missing: $missing_nodes"

# Our libpcp_pmda.so.3: PCP's PMDA nodes, and no name, code or data.
defined_nodes "$ours_pmda" > "$work/pmda_nodes"
awk '{ print $2 }' "$root/dropin/libpcp_pmda.versions" | sort -u > "$work/pcp_pmda_nodes"
cmp -s "$work/pmda_nodes" "$work/pcp_pmda_nodes" || problem "$ours_pmda does not define exactly PCP's PMDA version nodes"
objdump -T "$ours_pmda" | awk '$0 !~ /\*UND\*/ && NF >= 6 && $NF != $(NF-1) { print $NF }' > "$work/pmda_defined"
[ -s "$work/pmda_defined" ] && problem "$ours_pmda defines names: $(head -20 "$work/pmda_defined" | tr '\n' ' ')"

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

# report LIBRARY PREFIX: PCP's count of names and nodes against ours.
report() {
  total=$(awk -v p="$2" 'index($2, p) == 1' "$work/facts" | wc -l)
  nodes=$(grep -c "^$2" "$work/pcp_nodes")
  exported=$(awk -v p="$2" 'index($2, p) == 1' "$work/ours" | wc -l)
  echo "$1: PCP exports $total names in $nodes version nodes; ours exports $exported, each with PCP's version"
}
report libpcp.so.3 PCP_3.
report libpcp_pmda.so.3 PCP_PMDA_3.
echo "absent: $(wc -l < "$work/absent"), by reason:"
grep -v '^#' "$reasons" | awk -F'\t' 'NF == 2 { n[$2]++ } END { for (r in n) printf "  %-8s %d\n", r, n[r] }' | sort
exit $fail
