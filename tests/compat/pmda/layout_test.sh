#!/bin/sh
# Compiles layout.c against PCP's installed <pcp/pmda.h> (the oracle) and
# against ours, and fails on any difference in what the two print.
#
# usage: layout_test.sh SRCDIR INCLUDEDIR WORKDIR
set -u
src=$1 inc=$2 work=$3
CC=${CC:-cc}
[ -e /usr/include/pcp/pmda.h ] || { echo "FAIL: PCP's headers are needed as the oracle"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
$CC -std=c99 -Wall -Werror -I/usr/include "$src/layout.c" -o "$work/layout_pcp" || exit 1
$CC -std=c99 -Wall -Werror -I"$inc" "$src/layout.c" -o "$work/layout_ours" || exit 1
"$work/layout_pcp" > "$work/pcp.txt" && "$work/layout_ours" > "$work/ours.txt" || exit 1
if diff -u "$work/pcp.txt" "$work/ours.txt"; then
    echo "ok: $(wc -l < "$work/ours.txt") layout facts agree with PCP's <pcp/pmda.h>"
else
    exit 1
fi
