#!/bin/sh
# Rebuilds the golden truth tables in tests/data/oracle from PCP 6.0.3's own
# libpcp. This links Debian's libpcp (tests only: the product never does);
# run scripts/install-deps.sh --pcp first. Not part of the normal test run.
#
#   tests/oracle/regen.sh            all tables
#   tests/oracle/regen.sh NAME...    only tests/oracle/NAME.c
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="$here/../data/oracle"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
export TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG=

names="$*"
if [ -z "$names" ]; then
  names=$(cd "$here" && ls *.c | sed 's/\.c$//')
fi
for n in $names; do
  cc -O1 -Wall -o "$work/$n" "$here/$n.c" -lpcp -lm
  if [ -x "$here/$n.sh" ]; then
    # a table whose inputs come from a driver script
    "$here/$n.sh" "$work/$n" "$out"
  else
    "$work/$n" > "$out/$n.tsv"
  fi
  echo "regen: $n"
done
# Tables over 1 MB are kept xz-compressed; the tests read either form.
for t in "$out"/*.tsv; do
  [ "$(wc -c < "$t")" -gt 1048576 ] || continue
  xz -9 -f "$t"
done
