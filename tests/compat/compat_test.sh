#!/bin/bash
# compat_test.sh: builds C client programs against the installed C PMAPI
# (<pcp/pmapi.h> and -lpmapi, nothing else) and compares what they print
# with the expected output.
#
#   1. The build tree is installed into WORK/prefix.
#   2. The header alone compiles as strict C99 and as C++, and is the one
#      installed under WORK/prefix.
#   3. Each program in tests/compat is built with `cc`.
#   4. The archive cases (cases.txt) run in tests/data/archives/reference
#      and must print exactly expected/NAME.out (stdout, stderr, exit status). Those files
#      were printed by the same programs built against PCP 6.0.3's libpcp,
#      except local.out (PCP cannot host this library's test agent), whose
#      values are the test agent's documented ones.
#   5. The local-context case with the test agent uses the build tree's
#      configuration (the test agent is not installed); the live monitor
#      uses the installed one, which the installed library finds by itself.
#
# Usage: compat_test.sh SOURCE_DIR BUILD_DIR WORK_DIR CMAKE CC CXX [CFLAGS]
# CFLAGS is added to every program build (a sanitized library's flags).
set -euo pipefail

src=$1 build=$2 work=$3 cmake=$4 cc=$5 cxx=$6
read -r -a cflags <<< "${7:-}"
# Programs leave some memory to the exit, as C programs do.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
here=$src/tests/compat
prefix=$work/prefix
failures=0

fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

rm -rf "$work"
mkdir -p "$work/bin/v3"
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; echo "FAIL: install" >&2; exit 1; }
libdir=$(dirname "$(find "$prefix" -name 'libpmapi.so' | head -1)")
# PCP's C headers live in a directory of their own, never in place of
# PCP's (libpcp3-dev).
inc=$prefix/include/pmapi-compat
[ -f "$inc/pcp/pmapi.h" ] || { echo "FAIL: pcp/pmapi.h not installed" >&2; exit 1; }
[ ! -e "$prefix/include/pcp" ] || { echo "FAIL: include/pcp installed where PCP's headers go" >&2; exit 1; }

# ---- 2. the header on its own ----
printf '#include <pcp/pmapi.h>\nint main(void) { pmDesc d; d.pmid = PM_ID_NULL; return d.pmid == 0; }\n' > "$work/hdr.c"
"$cc" -std=c99 -pedantic -Wall -Wextra -Werror -I"$inc" -c "$work/hdr.c" -o "$work/hdr.o" ||
  fail "header as C99"
"$cxx" -std=c++17 -Wall -Wextra -Werror -x c++ -I"$inc" -c "$work/hdr.c" -o "$work/hdrxx.o" ||
  fail "header as C++"
deps=$("$cc" -M -I"$inc" "$work/hdr.c")
grep -q "$inc/pcp/pmapi.h" <<< "$deps" || fail "the compiler did not use the installed header"
echo "ok: header"

# ---- 3. the programs ----
for prog in monitor fetchgroup api labels local layout surface; do
  "$cc" -Wall -Wextra -Werror "${cflags[@]}" -I"$inc" -o "$work/bin/$prog" "$here/$prog.c" \
    -L"$libdir" -lpmapi -Wl,-rpath,"$libdir" -lpthread || fail "build $prog"
done
# The monitor again with PMAPI_VERSION 3 (high-resolution pmOptions); it
# must print exactly what the version 2 build prints.
"$cc" -Wall -Wextra -Werror "${cflags[@]}" -DPMAPI_VERSION=3 -I"$inc" \
  -o "$work/bin/v3/monitor" "$here/monitor.c" -L"$libdir" -lpmapi -Wl,-rpath,"$libdir" ||
  fail "build monitor with PMAPI_VERSION 3"
echo "ok: programs built"

# run NAME PROGRAM ARGS...: the program's output must be expected/NAME.out.
run() {
  local name=$1 prog=$2; shift 2
  local got=$work/$name.out
  { env TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= PCP_PMCDCONF_PATH="$build/pmdas/pmcd.conf" \
      "$work/bin/$prog" "$@" 2>&1; echo "exit status $?"; } > "$got" || true
  if cmp -s "$here/expected/$name.out" "$got"; then
    echo "ok: $name"
  else
    diff "$here/expected/$name.out" "$got" | head -20 >&2 || true
    fail "$name differs from expected/$name.out"
  fi
}

cd "$src/tests/data/archives/reference"
while read -r name prog args; do
  case $name in ''|'#'*) continue ;; esac
  # shellcheck disable=SC2086
  run "$name" "$prog" $args
  # The version 3 monitor (same program name) must print exactly what the
  # version 2 one does.
  # shellcheck disable=SC2086
  [ "$prog" = monitor ] && run "$name" v3/monitor $args
done < "$here/cases.txt"
run local local

# ---- 5. the monitor live, on a local context (values vary: check the shape) ----
live=$(env -u PCP_PMCDCONF_PATH "$work/bin/monitor" -L -s 3 -t 0.1 2>&1) ||
  fail "monitor -L exit status $?"
rows=$(grep -cE '^[0-9]{2}:[0-9]{2}:[0-9]{2} +[0-9.]+ +-?[0-9.]+ +-?[0-9.]+ +[0-9.]+ +-?[0-9.]+$' <<< "$live" || true)
[ "$rows" = 3 ] || fail "monitor -L printed $rows sample rows, not 3:
$live"
echo "ok: monitor on a local context"

[ "$failures" -eq 0 ] || { echo "$failures failure(s)" >&2; exit 1; }
echo "all compat cases passed"
