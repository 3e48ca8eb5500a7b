#!/bin/bash
# compat_host_test.sh: builds tests/compat/host.c with `cc` against the
# installed C PMAPI only and runs it on a host context: the private pmcd
# of the interop tests (scripts/pmcd-private.sh), with the sample agent.
# Its output must be expected/host.out, which is what the same program
# prints when built against PCP 6.0.3's libpcp.
#
# Usage: compat_host_test.sh SOURCE_DIR BUILD_DIR WORK_DIR CMAKE CC PMCD_DIR [CFLAGS]
set -euo pipefail

src=$1 build=$2 work=$3 cmake=$4 cc=$5 pmcd_dir=$6
read -r -a cflags <<< "${7:-}"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
prefix=$work/prefix

rm -rf "$work"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; echo "FAIL: install" >&2; exit 1; }
libdir=$(dirname "$(find "$prefix" -name 'libpmapi.so' | head -1)")
"$cc" -Wall -Wextra -Werror "${cflags[@]}" -I"$prefix/include/pmapi-compat" -o "$work/host" \
  "$src/tests/compat/host.c" -L"$libdir" -lpmapi -Wl,-rpath,"$libdir"

port=$("$src/scripts/pmcd-private.sh" env "$pmcd_dir" | sed -n 's/^PMCD_PORT=//p')
[ -n "$port" ] || { echo "FAIL: no private pmcd port" >&2; exit 1; }
{ env TZ=UTC LC_ALL=C "$work/host" "localhost:$port" 2>&1; echo "exit status $?"; } > "$work/host.out" || true
if ! diff "$src/tests/compat/expected/host.out" "$work/host.out" >&2; then
  echo "FAIL: host context output differs from expected/host.out" >&2
  exit 1
fi
echo "ok: host context"
