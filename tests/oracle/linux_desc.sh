#!/bin/sh
# Driver for linux_desc.c: PCP's local context needs a name space, and the
# installed one may not be built, so the linux agent's own PMNS is run
# through pmcpp into a scratch root. The names are every leaf of our
# pmdas/linux/root_linux.
#   linux_desc.sh BINARY OUTDIR
set -eu
bin=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
/usr/lib/pcp/bin/pmcpp /var/lib/pcp/pmns/root_linux > "$work/root"
# leaves of our namespace file: "path { name ID ... }" blocks
names=$(awk '
  /^[a-z][a-z0-9_.]* *{/ { path = $1; if (path == "root") path = ""; next }
  /^}/ { path = ""; next }
  NF == 2 && $2 ~ /:/ { print (path == "" ? "" : path ".") $1 }
' "$here/../../pmdas/linux/root_linux")
PMNS_DEFAULT="$work/root" "$bin" $names > "$out/linux_desc.tsv"
