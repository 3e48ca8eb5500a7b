#!/bin/bash
# realclients_test.sh: PCP's own C client programs, built unchanged against
# PCP's libpcp and against this library's <pcp/pmapi.h> and -lpmapi, then
# run side by side.
#
# The programs are the C sources Debian's pcp-testsuite ships in
# /var/lib/pcp/testsuite/src whose PCP headers are only the public
# <pcp/pmapi.h> and <pcp/pmda.h> (none of libpcp.h or impl.h, nor the
# headers of libraries this project does not provide: mmv, trace, import,
# archive, deprecated, fault, json, http, pmdaroot) and that call no
# internal __pm function, and the pmclient demos Debian's pcp ships. They
# are built where they are, never copied into this project. Every program
# that builds with libpcp must build with ours (known_gaps.txt lists the
# exceptions, with their reasons).
#
# The runs are the invocations PCP's QA scripts use for these programs,
# extracted from the scripts, in four kinds:
#   archive  the QA archives (archives/...)
#   local    a local context (-L): the Linux agent and the sample agent as
#            a shared object (sampledso), PCP's build of it for libpcp and
#            the same source built against this library for ours
#   host     a host context (-h localhost, -h local:, or the program's
#            default host) on a private pmcd started here
#            (scripts/pmcd-private.sh, with the pmcd, Linux, sample and
#            sampledso agents); the system pmcd is never contacted
#   none     programs that open no context (conversions, parsers, ...)
# Each run gets a fresh working directory; stdout, stderr and exit status
# are compared, after varying.txt's masks for what changes from run to
# run (times, process ids, live values). The test fails if a program
# builds with libpcp and not with ours, or if fewer runs of a kind are
# identical than that kind's floor below (floors only move up).
#
# Usage: realclients_test.sh SOURCE_DIR BUILD_DIR WORK_DIR CMAKE CC
# Exits 77 (skipped) when pcp-testsuite or libpcp3-dev is not installed.
set -uo pipefail

src=$1 build=$2 work=$3 cmake=$4 cc=$5
qa=/var/lib/pcp/testsuite
demos=/usr/share/pcp/demos/pmclient
here=$(cd "$(dirname "$0")" && pwd)
declare -A floor=([archive]=12 [local]=12 [host]=55 [none]=67)
if [ ! -d "$qa/src" ] || [ ! -f /usr/include/pcp/pmapi.h ]; then
  echo "skipped: pcp-testsuite or libpcp3-dev not installed"
  exit 77
fi

rm -rf "$work"
mkdir -p "$work/pcp" "$work/ours" "$work/inc" "$work/out" "$work/run"
# $REALCLIENTS_PREFIX: an installed prefix to use instead of installing
# BUILD_DIR (to try the programs against another build).
prefix=${REALCLIENTS_PREFIX:-$work/prefix}
if [ -z "${REALCLIENTS_PREFIX:-}" ]; then
  "$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
    { cat "$work/install.log" >&2; echo "FAIL: install" >&2; exit 1; }
fi
libdir=$(dirname "$(find "$prefix" -name 'libpmapi.so' | head -1)")

# The QA build's generated header (what mk.localconfig writes).
printf '#define PCP_PLATFORM linux\n#define PCP_VER 60003\n' > "$work/inc/localconfig.h"

# The programs: public header only.
internal='"libpcp.h"|impl\.h|deprecated\.h|mmv_|trace|import\.h|archive\.h|pmafm|fault\.h|pmjson|pmhttp|pmdaroot\.h|sds\.h'
programs=()
for f in "$qa"/src/*.c; do
  grep -qE "$internal" <(grep -E '^#[[:space:]]*include' "$f") && continue
  # libpcp's internal functions (__pm...) are not the public interface.
  grep -qE '\b__pm[A-Za-z]' "$f" && continue
  grep -q 'pcp/pmapi.h' "$f" || continue
  programs+=("$f")
done
programs+=("$demos/pmclient.c" "$demos/pmclient_fg.c")

# build_one FILE: the program against libpcp, and if that works against
# ours; the two builds run two programs at a time.
build_one() {
  local f=$1 name
  name=$(basename "$f" .c)
  local flags=(-w -DHAVE_TRACE -I"$work/inc" -I"$(dirname "$f")")
  "$cc" "${flags[@]}" -o "$work/pcp/$name" "$f" -lpcp_pmda -lpcp -lpthread -lm \
    > "$work/pcp/$name.log" 2>&1 || return 0
  # Our prefix comes first, so <pcp/pmapi.h> and <pcp/pmda.h> are ours.
  "$cc" "${flags[@]}" -I"$prefix/include/pmapi-compat" -o "$work/ours/$name" "$f" \
    -L"$libdir" -lpmapi -Wl,-rpath,"$libdir" -lpthread -lm > "$work/ours/$name.log" 2>&1 || true
}
export -f build_one
export work cc prefix libdir
printf '%s\n' "${programs[@]}" | xargs -P 2 -I{} bash -c 'build_one "$1"' _ {}
built_pcp=0 built_ours=0 missing=()
for f in "${programs[@]}"; do
  name=$(basename "$f" .c)
  [ -x "$work/pcp/$name" ] || continue
  built_pcp=$((built_pcp + 1))
  if [ -x "$work/ours/$name" ]; then
    built_ours=$((built_ours + 1))
  else
    missing+=("$name")
  fi
done
echo "programs: ${#programs[@]}; built with libpcp: $built_pcp; built with ours: $built_ours"
# Programs known not to build with ours yet, each with its reason
# (known_gaps.txt: "NAME<TAB>reason"); a listed program that builds fails
# the test too, so the list only shrinks.
known="$here/known_gaps.txt"
status=0
for m in "${missing[@]}"; do
  if grep -q "^$m	" "$known"; then
    echo "known: $m: $(grep "^$m	" "$known" | cut -f2)"
    continue
  fi
  echo "FAIL: $m builds with libpcp but not with ours:" >&2
  grep -m5 -E 'error|undefined' "$work/ours/$m.log" >&2
  status=1
done
while IFS=$'\t' read -r m _; do
  case "$m" in ''|'#'*) continue ;; esac
  if [ -x "$work/ours/$m" ]; then
    echo "FAIL: $m is listed in known_gaps.txt but builds with ours now" >&2
    status=1
  fi
done < "$known"

# ---- The private pmcd (host contexts) and the local contexts' agents.
# shellcheck source=tests/realclients/contexts.sh
. "$here/contexts.sh"
pmcd_dir=$work/pmcd
trap 'stop_pmcd' EXIT
start_pmcd || { echo "FAIL: the private pmcd did not start" >&2; exit 1; }
setup_local || { echo "FAIL: the local contexts' agents could not be built" >&2; exit 1; }

# ---- The runs.
# shellcheck source=tests/realclients/runs.sh
. "$here/runs.sh"
list_runs > "$work/runs.txt"
echo "built in ${SECONDS}s"
run_all < "$work/runs.txt"
echo "done in ${SECONDS}s"
exit $status
