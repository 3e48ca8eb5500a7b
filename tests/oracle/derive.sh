#!/bin/sh
# Driver for derive.c: replays tests/oracle/derive_cases.txt over the
# archives in tests/data/archives.
#   derive.sh BINARY OUTDIR
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../data/archives"
"$1" < "$here/derive_cases.txt" > "$2/derive.tsv" 2>/dev/null
