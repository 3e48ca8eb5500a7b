#!/bin/sh
# Prints the names a PCP shared library exports, each with its symbol
# version, one "NAME VERSION" pair a line, sorted by name: the facts the
# drop-in libraries' version scripts are made from.
#
#   dropin/read-versions.sh /usr/lib/libpcp.so.3 > dropin/libpcp.versions
#   dropin/read-versions.sh /usr/lib/libpcp_pmda.so.3 > dropin/libpcp_pmda.versions
#
# A defined dynamic symbol line of objdump -T reads
#   ADDRESS FLAGS SECTION SIZE VERSION NAME
# and a version node itself appears as a symbol named after its version.
set -eu
objdump -T "$1" | awk '$0 !~ /\*UND\*/ && NF >= 6 && $(NF-1) ~ /^PCP_/ && $NF != $(NF-1) { print $NF, $(NF-1) }' |
  LC_ALL=C sort
