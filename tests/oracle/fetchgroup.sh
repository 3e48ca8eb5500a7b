#!/bin/sh
# Driver for fetchgroup.c: replays tests/oracle/fetchgroup_cases.txt with
# PCP's fetchgroups over the archives in tests/data/archives.
#   fetchgroup.sh BINARY OUTDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../data/archives"
unset PCP_COUNTER_WRAP PCP_DISCRETE_ONCE
"$1" < "$here/fetchgroup_cases.txt" > "$2/fetchgroup.tsv"
