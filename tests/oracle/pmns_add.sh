#!/bin/sh
# Driver for pmns_add.c: builds name spaces name by name (as PCP does for an
# archive) from each tests/data/pmns/add/*.txt and writes
# pmns_add_<name>.tsv.
#   usage: pmns_add.sh BINARY OUTDIR
set -eu
bin=$1
out=$2
cd "$(dirname "$0")/../data/pmns/add"
for f in *.txt; do
  "$bin" "$f" > "$out/pmns_add_${f%.txt}.tsv"
done
