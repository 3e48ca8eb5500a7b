#!/bin/bash
# deb_test.sh: builds the Debian packages, checks them with lintian and
# against the files of every installed package, installs them beside
# Debian's pcp, libpcp3-dev and libpcp-pmda3-dev, uses them, and purges them.
#
#   1. A build tree configured with the prefix /usr: BUILD_DIR itself if it
#      was, else WORK/build, configured from SOURCE_DIR with the rest of the
#      arguments (the compilers and flags of BUILD_DIR) and built.
#   2. cpack makes libpmapi-common, libpmapi0, libpmapi-dev and pmapi-tools.
#      None declares Conflicts; the Depends and the shared-library metadata
#      are checked; no packaged file is a file of an installed package, and
#      none is in /usr/bin or /usr/include/pcp. lintian must report no error.
#   3. As root: dpkg -i of all four must succeed; the tools in
#      /usr/lib/pmapi/bin and the consumers built against /usr run with no
#      environment; PCP's tools and headers are untouched (dpkg -V); then
#      dpkg --purge must leave none of the packages' files behind. The
#      packages are purged on every exit once installed. Packages of these
#      names installed beforehand stop the test before it changes anything.
#      Without root this step is skipped (exit 77).
#
# Usage: deb_test.sh BUILD_DIR SOURCE_DIR WORK_DIR CMAKE CPACK CXX CC GENERATOR
#                    [CMAKE_ARGUMENTS...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/package/common.sh
. "$here/common.sh"

build=$1 src=$2 work=$3 cmake=$4 cpack=$5 cxx=$6 cc=$7 generator=$8
shift 8
cxxflags=""
packages=(libpmapi-common libpmapi0 libpmapi-dev pmapi-tools pmapi-dropin)

rm -rf "$work"
mkdir -p "$work"

# ---- 1. a tree for the prefix /usr ----
if [ "$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$build/CMakeCache.txt")" != /usr ]; then
  run_logged "$work/configure.log" "$cmake" -S "$src" -B "$work/build" -G "$generator" \
    -DCMAKE_INSTALL_PREFIX=/usr -DPMAPI_BUILD_TESTS=OFF "$@"
  run_logged "$work/build.log" "$cmake" --build "$work/build"
  build=$work/build
fi

# ---- 2. the packages ----
run_logged "$work/cpack.log" "$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/cpack"
version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$build/CMakeCache.txt")
declare -A deb
for p in "${packages[@]}"; do
  found=("$work"/cpack/"${p}"_"$version"_*.deb)
  [ -f "${found[0]}" ] || fail "no package $p: $(ls "$work/cpack")"
  deb[$p]=${found[0]}
  [ -z "$(dpkg-deb -f "${deb[$p]}" Conflicts)" ] || fail "$p declares Conflicts"
done
[ "$(ls "$work"/cpack/*.deb | wc -l)" -eq ${#packages[@]} ] || fail "unexpected packages: $(ls "$work/cpack")"
[ "$(dpkg-deb -f "${deb[libpmapi-common]}" Architecture)" = all ] || fail "libpmapi-common is not Architecture: all"
grep -qx 'activate-noawait ldconfig' <<< "$(dpkg-deb --ctrl-tarfile "${deb[libpmapi0]}" | tar -xOf - ./triggers)" ||
  fail "libpmapi0 has no ldconfig trigger"
grep -q '^libpmapi 0 libpmapi0 ' <<< "$(dpkg-deb --ctrl-tarfile "${deb[libpmapi0]}" | tar -xOf - ./shlibs)" ||
  fail "libpmapi0's shlibs file does not name libpmapi0"
dev_depends=$(dpkg-deb -f "${deb[libpmapi-dev]}" Depends)
grep -q "libpmapi0 (= $version)" <<< "$dev_depends" || fail "libpmapi-dev Depends: $dev_depends"
grep -q "libabsl-dev" <<< "$dev_depends" || fail "libpmapi-dev does not depend on libabsl-dev"
for p in libpmapi0 pmapi-tools pmapi-dropin; do
  grep -q "libpmapi-common (= $version)" <<< "$(dpkg-deb -f "${deb[$p]}" Depends)" ||
    fail "$p does not depend on libpmapi-common"
done

# Every library a packaged binary needs comes from a package in its Depends.
owner_of() {
  local path
  path=$(ldconfig -p | awk -v so="$1" '$1 == so && /x86-64|x86_64|64bit/ {print $NF; exit}')
  [ -n "$path" ] || return 1
  { dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null ||
    dpkg -S "/usr$path" 2>/dev/null || dpkg -S "${path#/usr}"; } | head -1 | cut -d: -f1
}
for p in libpmapi0 pmapi-tools pmapi-dropin; do
  root=$work/x/$p
  mkdir -p "$root"
  dpkg-deb -x "${deb[$p]}" "$root"
  depends=$(dpkg-deb -f "${deb[$p]}" Depends)
  while IFS= read -r elf; do
    for so in $(readelf -d "$elf" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p'); do
      # a library beside it, found through RUNPATH $ORIGIN, is the package's own
      if [ -e "$(dirname "$elf")/$so" ] && readelf -d "$elf" | grep -q 'RUNPATH.*\$ORIGIN'; then continue; fi
      owner=$(owner_of "$so") || fail "$(basename "$elf") needs $so, which no package provides"
      grep -q "\b$owner\b" <<< "$depends" || fail "$(basename "$elf") needs $so from $owner, not in Depends of $p"
    done
  done < <(find "$root" -type f \( -name '*.so*' -o -perm -u+x \))
  echo "ok: $p Depends: $depends"
done

# No packaged file belongs to an installed package (pcp, libpcp3-dev,
# libpcp-pmda3-dev, ...), and none takes a place PCP's packages use.
for p in "${packages[@]}"; do
  while IFS= read -r path; do
    case $path in
      /usr/bin/pmapi-run|/usr/share/man/man1/pmapi-run.1.gz) ;;  # no name of PCP's
      /usr/bin/*|/usr/sbin/*|/usr/include/pcp/*|/usr/share/man/man1/*) fail "$p installs $path" ;;
    esac
    [ -d "$path" ] && continue
    if owner=$(dpkg -S "$path" 2>/dev/null); then fail "$p installs $path, a file of ${owner%%:*}"; fi
  done < <(dpkg-deb --fsys-tarfile "${deb[$p]}" | tar -tf - | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^$')
done
echo "ok: no packaged file is a file of an installed package"
for p in "${packages[@]}"; do
  echo "$p:"
  dpkg-deb -c "${deb[$p]}" | awk '{print "  " $NF}' | grep -v '/$'
done

lintian_out=$(lintian --no-cfg "${deb[@]}" 2>&1) || true
echo "lintian:"
echo "${lintian_out:-  (no output)}"
grep -q '^E: ' <<< "$lintian_out" && fail "lintian reports errors"
echo "ok: lintian reports no errors"

# ---- 3. installed beside PCP ----
if [ "$(id -u)" != 0 ]; then
  echo "SKIP: installing the packages needs root"
  exit 77
fi
for p in "${packages[@]}"; do
  if dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed'; then
    fail "$p is already installed; the test will not replace or remove it"
  fi
done
pcp_packages=()
for p in pcp libpcp3-dev libpcp-pmda3-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' && pcp_packages+=("$p")
done
pcp_before=$(dpkg -V "${pcp_packages[@]}" 2>&1 || true)
files=$work/files
for p in "${packages[@]}"; do
  dpkg-deb --fsys-tarfile "${deb[$p]}" | tar -tf - | sed -e 's|^\./|/|' -e 's|/$||' | grep -v '^$'
done | sort -u > "$files"

installed=0
purge() {
  if [ "$installed" = 1 ]; then
    dpkg --purge "${packages[@]}" > "$work/purge.log" 2>&1 || { cat "$work/purge.log" >&2; return 1; }
    installed=0
  fi
}
trap 'purge || true' EXIT
installed=1
run_logged "$work/install.log" dpkg -i "${deb[@]}"
echo "ok: dpkg -i ${packages[*]}"

check_tools /usr/lib/pmapi/bin "$src"
pcp_version=$(bare /usr/bin/pminfo --version 2>&1 || true)
[ ${#pcp_packages[@]} -eq 0 ] || grep -q '6\.' <<< "$pcp_version" ||
  fail "/usr/bin/pminfo is not PCP's any more: $pcp_version"
if command -v man > /dev/null; then
  page=$(bare env PATH=/usr/lib/pmapi/bin:/usr/bin:/bin man -w pminfo)
  [ "$(realpath "$page")" = /usr/share/pmapi/man/man1/pminfo.1.gz ] ||
    fail "with /usr/lib/pmapi/bin in PATH, man -w pminfo gives $page"
  echo "ok: man finds the tools' pages through PATH"
  page=$(bare env PATH=/usr/lib/pmapi/bin:/usr/bin:/bin man -w pmevent)
  [ "$(realpath "$page")" = /usr/share/pmapi/man/man1/pmval.1.gz ] ||
    fail "with /usr/lib/pmapi/bin in PATH, man -w pmevent gives $page"
  echo "ok: man pmevent finds pmval's page, which names both"
  page=$(bare env PATH=/usr/lib/pmapi/bin:/usr/bin:/bin man -w 3 pmParseHighResInterval)
  [ "$(realpath "$page")" = /usr/share/pmapi/man/man3/pmParseInterval.3.gz ] ||
    fail "with /usr/lib/pmapi/bin in PATH, man -w 3 pmParseHighResInterval gives $page"
  echo "ok: man finds our pmParseHighResInterval(3), which pmval's message cites"
  page=$(bare env PATH=/usr/lib/pmapi/bin:/usr/bin:/bin man -w 3 pmdaCacheLookupName)
  [ "$(realpath "$page")" = /usr/share/pmapi/man/man3/pmdaCacheStore.3.gz ] ||
    fail "with /usr/lib/pmapi/bin in PATH, man -w 3 pmdaCacheLookupName gives $page"
  echo "ok: man finds an agent function's page through its group's link"
  page=$(bare env PATH=/usr/bin:/bin man -w 3 pmapi-context)
  [ "$(realpath "$page")" = /usr/share/man/man3/pmapi-context.3.gz ] ||
    fail "man -w 3 pmapi-context gives $page"
  echo "ok: man finds the C++ interface's pages"
fi
check_consumers /usr "$(dirname "$(find /usr/lib -name libpmapi.so.0 | head -1)" | sed 's|^/usr/||')" installed
expect_output "pkg-config pmapi (by name)" "$(realpath /usr/lib/*/pkgconfig/pmapi.pc | xargs pkg-config --cflags)" \
  bare pkg-config --cflags pmapi
# Without pkg-config's flags <pcp/pmapi.h> is still PCP's.
if [[ " ${pcp_packages[*]} " == *" libpcp3-dev "* ]]; then
  printf '#include <pcp/pmapi.h>\n' > "$work/pcp_header.c"
  grep -q '/usr/include/pcp/pmapi.h' <<< "$(bare "$cc" -M "$work/pcp_header.c")" ||
    fail "<pcp/pmapi.h> is no longer PCP's"
  echo "ok: <pcp/pmapi.h> without pkg-config is PCP's"
fi
# The drop-in: off the default library path, on it through pmapi-run.
dropin=$(find /usr/lib -path '*/pmapi/pcp/libpcp.so.3' | head -1)
[ -n "$dropin" ] || fail "pmapi-dropin installed no libpcp.so.3"
ldconfig -p | grep -q "$dropin" && fail "$dropin is on the default library path"
if [ -x /usr/bin/pmprobe ]; then
  grep -q "$dropin" <<< "$(bare /usr/bin/pmapi-run ldd /usr/bin/pmprobe)" ||
    fail "pmapi-run pmprobe does not load $dropin"
  grep -q "$dropin" <<< "$(bare ldd /usr/bin/pmprobe)" && fail "pmprobe loads $dropin without pmapi-run"
  expect_output "pmapi-run pmprobe (archive)" "$(bare /usr/bin/pmprobe -a "$src/tests/data/archives/qa/ok-foo/ok-foo" sample.colour 2>&1)" \
    bare /usr/bin/pmapi-run /usr/bin/pmprobe -a "$src/tests/data/archives/qa/ok-foo/ok-foo" sample.colour
  echo "ok: pmapi-run runs PCP's pmprobe over $dropin"
fi
pcp_after=$(dpkg -V "${pcp_packages[@]}" 2>&1 || true)
[ "$pcp_before" = "$pcp_after" ] || fail "PCP's packages changed: $pcp_after"
echo "ok: ${pcp_packages[*]:-no PCP packages} unchanged"

purge
trap - EXIT
left=""
while IFS= read -r path; do
  [ -e "$path" ] || [ -L "$path" ] || continue
  # Directories shared with the system (/usr, /usr/lib, ...) stay.
  [ -d "$path" ] && [ ! -L "$path" ] && [ -n "$(dpkg -S "$path" 2>/dev/null)" ] && continue
  left="$left $path"
done < "$files"
[ -z "$left" ] || fail "dpkg --purge left behind:$left"
echo "ok: dpkg --purge left no file behind"
echo "PASS"
