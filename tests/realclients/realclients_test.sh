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
# internal __pm function, and the pmclient demos Debian's pcp ships. They are built where they are, never copied into this project.
# Every program that builds with libpcp must build with ours. The runs are
# the archive invocations PCP's QA scripts use (extracted from the scripts,
# run in the testsuite directory); stdout, stderr and exit status of each
# are compared and the identical count is printed. The test fails if a
# program builds with libpcp and not with ours, or if fewer runs are
# identical than the floor recorded below (it only moves up).
#
# Usage: realclients_test.sh SOURCE_DIR BUILD_DIR WORK_DIR CMAKE CC
# Exits 77 (skipped) when pcp-testsuite or libpcp3-dev is not installed.
set -uo pipefail

src=$1 build=$2 work=$3 cmake=$4 cc=$5
qa=/var/lib/pcp/testsuite
demos=/usr/share/pcp/demos/pmclient
identical_floor=${REALCLIENTS_FLOOR:-9}
if [ ! -d "$qa/src" ] || [ ! -f /usr/include/pcp/pmapi.h ]; then
  echo "skipped: pcp-testsuite or libpcp3-dev not installed"
  exit 77
fi

rm -rf "$work"
mkdir -p "$work/pcp" "$work/ours" "$work/inc" "$work/out" "$work/run"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; echo "FAIL: install" >&2; exit 1; }
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
  "$cc" "${flags[@]}" -I"$prefix/include" -o "$work/ours/$name" "$f" \
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
known="$src/tests/realclients/known_gaps.txt"
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

# The runs: the QA scripts' archive invocations of these programs.
grep -hoE '(\$here/)?src/[a-z_0-9-]+ [^|;>&`$"]*archives/[A-Za-z0-9_.-]+[^|;>&`$"\\]*' \
    "$qa"/[0-9][0-9][0-9] "$qa"/[0-9][0-9][0-9][0-9] 2>/dev/null |
  sed -e 's/^\$here\///' -e 's/ 2 *$//' -e 's/ *$//' | sort -u > "$work/runs.txt"
total=0 same=0
: > "$work/differ.txt"
while read -r prog args; do
  name=$(basename "$prog")
  [ -x "$work/pcp/$name" ] && [ -x "$work/ours/$name" ] || continue
  total=$((total + 1))
  for side in pcp ours; do
    # Both builds run under one path, so messages naming the program match.
    cp "$work/$side/$name" "$work/run/$name"
    # shellcheck disable=SC2086
    (cd "$qa" && env TZ=UTC LC_ALL=C PCP_DERIVED_CONFIG= timeout 20 "$work/run/$name" $args \
      > "$work/out/$total.$side" 2>&1 < /dev/null; echo "exit status $?" >> "$work/out/$total.$side")
  done
  if cmp -s "$work/out/$total.pcp" "$work/out/$total.ours"; then
    same=$((same + 1))
  else
    echo "$name $args" >> "$work/differ.txt"
  fi
done < "$work/runs.txt"
echo "runs (archive contexts): $same identical of $total"
if [ -s "$work/differ.txt" ]; then
  echo "different:"; sed 's/^/  /' "$work/differ.txt"
fi
[ "$same" -ge "$identical_floor" ] || { echo "FAIL: $same identical runs, floor $identical_floor" >&2; status=1; }
exit $status
