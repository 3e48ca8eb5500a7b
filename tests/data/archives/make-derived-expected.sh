#!/bin/sh
# Makes the golden outputs of PCP 6.0.3's pminfo and pmval with derived
# metrics on by default: PCP_DERIVED_CONFIG unset and PCP_VAR_DIR pointing
# at tests/data/derived/var (Debian's stock configuration). Run by hand with
# PCP installed; writes {reference,qa}-derived-expected/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
var=$(cd "$here/../derived/var" && pwd)
tab=$(printf '\t')
run() {  # corpus tool file command...
  corpus=$1; tool=$2; file=$3; shift 3
  out="$here/$corpus-derived-expected"
  mkdir -p "$out/$(dirname "$file")"
  status=0
  (cd "$here/$corpus" && env -i PATH=/usr/bin:/bin TZ=UTC LC_ALL=C HOME=/nonexistent \
      PCP_VAR_DIR="$var" "$@" > "$out/$file" 2> "$out/$file.err") || status=$?
  [ -s "$out/$file.err" ] || rm -f "$out/$file.err"
  printf '%s\t%s\t%s\n' "$file" "$status" "$*" >> "$out/COMMANDS-$tool.txt"
}
for c in reference qa; do rm -rf "$here/$c-derived-expected"; done
for a in small-v3/small-v3 small-v2/small-v2 multiarchive/seg1 marks/marks events/events \
         multivol-v3/multivol-v3 compressed/compressed; do
  d=${a%%/*}
  run reference pminfo "$d/pminfo.txt" pminfo -a "$a"
  run reference pminfo "$d/pminfo-d.txt" pminfo -a "$a" -d
  run reference pminfo "$d/pminfo-f.txt" pminfo -a "$a" -f
  run reference pminfo "$d/pminfo-T.txt" pminfo -a "$a" -T
  run reference pminfo "$d/pminfo-m.txt" pminfo -a "$a" -m
  run reference pminfo "$d/pminfo-dfmT-derived.txt" pminfo -a "$a" -dfmT kernel.cpu.util disk.dev disk.all event
done
for m in kernel.cpu.util.user kernel.cpu.util.sys disk.dev.await disk.dev.total_bytes \
         disk.all.total_bytes mem.util.used event.flags; do
  run reference pmval "small-v3/pmval-$m.txt" pmval -a small-v3/small-v3 "$m"
  run reference pmval "small-v3/pmval-t2-$m.txt" pmval -a small-v3/small-v3 -t 2 "$m"
done
run reference pmval "small-v3/pmval-badname.txt" pmval -a small-v3/small-v3 no.such.metric
run reference pmval "small-v3/pmval-r.txt" pmval -a small-v3/small-v3 -r kernel.cpu.util.user
run reference pmval "small-v3/pmval-f3.txt" pmval -a small-v3/small-v3 -f 3 -t 0.5 kernel.cpu.util.sys
run reference pmval "small-v3/pmval-i.txt" pmval -a small-v3/small-v3 -i sda disk.dev.total_bytes
run reference pmval "small-v3/pmval-x.txt" pmval -a small-v3/small-v3 -x . disk.dev.total
run reference pmval "small-v3/pmval-sT.txt" pmval -a small-v3/small-v3 -s 3 -T +2 disk.all.total
run reference pmval "small-v3/pmval-1min.txt" pmval -a small-v3/small-v3 -t 1min kernel.cpu.util.idle
run reference pmval "small-v3/pmval-X.txt" pmval -a small-v3/small-v3 -X kernel.cpu.util.user
run reference pmval "small-v2/pmval-util.txt" pmval -a small-v2/small-v2 kernel.cpu.util.user
run reference pmval "multiarchive/pmval-total.txt" pmval -a multiarchive/seg1,multiarchive/seg2 disk.all.total_bytes
# configuration files with errors, and -c / --derived
run reference pminfo "small-v3/pminfo-c-bad.txt" pminfo -c ../../derived/bad.conf -a small-v3/small-v3 -dfT good sem syn dup
run reference pminfo "small-v3/pminfo-c-missing.txt" pminfo -c ../../derived/no-such-file -a small-v3/small-v3 good
run reference pmval "small-v3/pmval-derived-bad.txt" pmval --derived ../../derived/bad.conf -a small-v3/small-v3 good.three
run reference pmval "small-v3/pmval-derived-missing.txt" pmval --derived ../../derived/no-such-file -a small-v3/small-v3 good.three
for a in ok-mv-foo/ok-mv-foo sample-proc_v3/sample-proc_v3 omnibus_v3/omnibus_v3 wrap/wrap; do
  d=${a%%/*}
  run qa pminfo "$d/pminfo.txt" pminfo -a "$a"
  run qa pminfo "$d/pminfo-dmT.txt" pminfo -a "$a" -dmT
  run qa pminfo "$d/pminfo-f.txt" pminfo -a "$a" -f
done
run qa pmval "sample-proc_v3/pmval-proc.hog.cpu.txt" pmval -a sample-proc_v3/sample-proc_v3 proc.hog.cpu
