#!/bin/sh
# The planets agent (examples/cxx/agent/planets.cc), written with the C++
# agent interface and built as a shared object, in local contexts: named
# in a local configuration (PCP_PMCDCONF_PATH, a dso line with its name
# space) and added on the command line (-K add,254,pmda_planets.so,
# planets_init, names from PMNS_DEFAULT); read by our pminfo -L and by the
# C++ local_context and fetch_loop examples. (The C++ agent interface has
# no daemon form, so there is no pmcd here.)
#
# Checked: the values are those of the table in planets.cc (read from the
# source), the one-line and full help are those of agent/help, each
# planet's label is its kind in the table, the descriptors are those the
# metric table declares, fetches are counted one by one in each context,
# and both ways of loading the agent give the same report.
#
#   tests/examples/cxx/agent_test.sh BIN_DIR PMINFO
bin=$(cd "$1" && pwd)
pminfo=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
top=$(cd "$(dirname "$0")/../../.." && pwd)
. "$top/tests/examples/lib.sh"
src=$top/examples/cxx/agent

# The planets table of planets.cc: "NAME MOONS RADIUS KIND" per planet.
grep -o '{"[a-z]*", [0-9]*, [0-9.]*, [a-z]*}' "$src/planets.cc" | tr -d '{}",' |
  awk '{ print $1, $2, $3, ($4 == "true" ? "giant" : "rocky") }' >"$work/table"
check "the table of planets.cc read: 8 planets" test "$(wc -l <"$work/table")" = 8

# ---- the agent from a configuration file ----
printf 'planets\t254\tdso\tplanets_init\t%s\tpmns=%s\n' "$bin/pmda_planets.so" "$src/root_planets" \
  >"$work/local.conf"
(
  export PCP_PMCDCONF_PATH="$work/local.conf"
  run "$work/conf.pminfo" "$pminfo" -L -dtTf planets
  run "$work/conf.labels" "$pminfo" -L -l planets.moons
  run "$work/conf.local" "$bin/local_context" planets.fetches planets.fetches planets.count \
    planets.moons planets.radius
  run "$work/conf.loop" "$bin/fetch_loop" -L -s 3 -t 0.05 planets.fetches planets.count
  exit $status
) || status=1
{
  echo "planets.fetches 1"
  echo "planets.fetches 2"
  echo "planets.count $(wc -l <"$work/table")"
  awk '{ print "planets.moons[" $1 "] " $2 }' "$work/table"
  awk '{ printf "planets.radius[%s] %.3f\n", $1, $3 }' "$work/table"
} >"$work/want.local"
same "local_context: the values of the table, fetches counted" "$work/want.local" "$work/conf.local"
check "fetch_loop: fetches 1, 2, 3 and the planet count" awk -v n="$(wc -l <"$work/table")" '
  $2 != "planets.fetches=" NR || $3 != "planets.count=" n { bad = 1 }
  END { exit bad || NR != 3 }' "$work/conf.loop"
cat "$work/conf.loop"

# pminfo -f: the same values, as PCP prints them.
awk '{ printf "    inst [%d or \"%s\"] value %s\n", NR - 1, $1, $2 }' "$work/table" >"$work/want"
sed -n '/^planets\.moons /,/^$/p' "$work/conf.pminfo" | grep '^    inst' >"$work/got"
same "pminfo -f planets.moons" "$work/want" "$work/got"
# pminfo -T: the help of agent/help, one line and full text.
for m in count fetches moons radius; do
  oneline=$(sed -n "s/^@ planets\\.$m //p" "$src/help")
  check "pminfo: planets.$m's one-line help" grep -qxF "planets.$m [$oneline]" "$work/conf.pminfo"
  sed -n "/^@ planets\\.$m /,/^\\(@\\|\$\\)/p" "$src/help" | sed -e '1d' -e '/^@/d' -e '/^$/d' >"$work/want"
  # (the text runs from "Help:" to the values, which are indented)
  sed -n "/^planets\\.$m /,/^\$/p" "$work/conf.pminfo" | sed -n '/^Help:$/,/^ /p' |
    sed -e '1d' -e '/^ /d' -e '/^$/d' >"$work/got"
  same "pminfo: planets.$m's help text" "$work/want" "$work/got"
done
# pminfo -d: the descriptors the metric table declares.
desc() { sed -n "/^planets\\.$1 /,/^\$/p" "$work/conf.pminfo" | grep -E '^ +(Data Type|Semantics):'; }
for spec in "count|32-bit unsigned int|PM_INDOM_NULL|discrete|count" \
            "fetches|64-bit unsigned int|PM_INDOM_NULL|counter|count" \
            "moons|32-bit unsigned int|254.0|discrete|count" \
            "radius|double|254.0|discrete|none"; do
  IFS='|' read -r m type indom sem units <<EOF2
$spec
EOF2
  desc "$m" >"$work/got"
  check "planets.$m: $type, $indom" grep -q "Data Type: $type  InDom: $indom " "$work/got"
  check "planets.$m: $sem, $units" grep -qx "    Semantics: $sem  Units: $units" "$work/got"
done
# pminfo -l: each planet's kind among its instance labels.
awk '{ print NR - 1, $1, $4 }' "$work/table" | while read -r inst name kind; do
  grep -q "inst \\[$inst or \"$name\"\\] labels .*\"kind\":\"$kind\"" "$work/conf.labels" || echo "$name"
done >"$work/missing"
check "pminfo -l: every planet labelled with its kind" test ! -s "$work/missing"

# ---- the agent added with -K ----
sed 's/PLANETS:/254:/' "$src/root_planets" >"$work/root_planets"
printf 'pmcd\t2\tdso\tpmcd_init\t/nonexistent/pmda_pmcd.so\n' >"$work/none.conf"
(
  export PCP_PMCDCONF_PATH="$work/none.conf" PMNS_DEFAULT="$work/root_planets"
  spec="add,254,$bin/pmda_planets.so,planets_init"
  run "$work/K.local" "$bin/local_context" -K "$spec" planets.fetches planets.fetches planets.count \
    planets.moons planets.radius
  run "$work/K.pminfo" "$pminfo" -L -K "$spec" -dtTf planets
  exit $status
) || status=1
same "local_context -K add,254,...: as from the configuration" "$work/want.local" "$work/K.local"
same "pminfo -L -K add,254,...: as from the configuration" "$work/conf.pminfo" "$work/K.pminfo"
exit $status
