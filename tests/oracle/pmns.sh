#!/bin/sh
# Driver for pmns.c: runs PCP's pmLoadASCIINameSpace over every input in
# tests/data/pmns (from inside that directory, so diagnostics name files by
# their relative paths) and writes
#   pmns_<file>.tsv   the full dump for each good name space (dupok 1)
#   pmns_errors.tsv   the load row, with stderr, for each bad input
#   pmns_add_<file>.tsv  (by pmns_add.sh) name spaces built name by name
#   usage: pmns.sh BINARY OUTDIR
set -eu
bin=$1
out=$2
cd "$(dirname "$0")/../data/pmns"
for f in root root_linux root_pmcd root_proc root_xfs root_mmv root_kvm root_root \
         sample_root features unclosed empty_root; do
  "$bin" "$f" 1 > "$out/pmns_$f.tsv"
done
{
  for f in bad/*; do "$bin" -l "$f" 0; done
  # duplicate PMIDs are only an error when dupok is 0
  for f in bad/dup_pmid features sample_root root; do
    "$bin" -l "$f" 0
    "$bin" -l "$f" 1
  done
  "$bin" -l no_such_file 1
} > "$out/pmns_errors.tsv"
