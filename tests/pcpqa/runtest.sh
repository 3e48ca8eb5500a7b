#!/bin/bash
# Runs one QA test the way PCP's `check` runs it and judges it the same
# way, without check's per-run setup (which costs tens of seconds of
# process starts each time). Runs as the pcpqa user in the testsuite
# directory:
#   runtest.sh TEST OUTDIR
# Prints pass, fail or notrun; copies the test's .out.bad, .full and
# .notrun files into OUTDIR.
#
# As check does: the environment of check's `common` (_setenvironment and
# the QA_* variables), the test run under `timeout -s 6 5m` with stdout
# and stderr merged, "not run" when the test leaves TEST.notrun, else a
# failure on a non-zero exit, a core file or output that differs from
# TEST.out.
set -u
seq=$1
out=$2
cd /var/lib/pcp/testsuite || exit 2
export MSGVERB="text:action" PCP_DERIVED_CONFIG=""
export PCP_BINADM_DIR=/usr/lib/pcp/bin
export QA_HOST
QA_HOST=$(hostname)
export QA_DIR="" QA_USER=""
tmp=/var/tmp/pcpqa-$$
rm -f "$seq.notrun" "$seq.full" "$seq.out.bad" core
timeout -s 6 5m "./$seq" >"$tmp.out" 2>&1
sts=$?
verdict=pass
if [ -f "$seq.notrun" ]; then
  verdict=notrun
  cp "$seq.notrun" "$out/$seq.notrun"
elif [ "$sts" -ne 0 ] || [ -f core ] || ! diff "$seq.out" "$tmp.out" >/dev/null 2>&1; then
  verdict=fail
  {
    [ "$sts" -eq 0 ] || echo "exit status $sts"
    [ -f core ] && echo "dumped core"
    diff "$seq.out" "$tmp.out"
  } >"$out/$seq.diff"
  cp "$tmp.out" "$out/$seq.out.bad"
fi
[ -f "$seq.full" ] && cp "$seq.full" "$out/$seq.full"
rm -f "$tmp.out" "$seq.notrun" core
echo "$verdict"
