#!/bin/sh
# Builds PCP's "simple" and "trivial" example agents (and dyn.c, and a C
# PMAPI client of them) with plain cc against <pcp/pmapi.h>, <pcp/pmda.h>
# and libpmapi only (CTest passes an installed prefix), loads them in a
# local context from a configuration file (PCP_PMCDCONF_PATH), and checks
# what pminfo -L, pmstore -L and the client get from them.
#
# usage: agents_test.sh SRCDIR INCLUDEDIR LIBDIR PMINFO PMSTORE WORKDIR [CFLAGS]
# CFLAGS is added to every build (a sanitized library's flags).
set -u
src=$1 inc=$2 lib=$3 pminfo=$4 pmstore=$5 work=$6 cflags=${7:-}
CC=${CC:-cc}
# C programs leave some memory to the exit
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export ASAN_OPTIONS
fail=0
# quiet COMMAND...: its output and errors, less the warning PCP's tools
# print for the dyn agent, which has no help text (pmdaInit's notice); the
# command's status is kept
quiet() {
    out=$("$@" 2>&1)
    st=$?
    printf '%s\n' "$out" | sed '/pmdaInit: PMDA dyn DSO: No help text file specified for pmdaText/d'
    return $st
}
check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then
        echo "ok: $1"
    else
        echo "FAIL: $1"; echo "--- expected"; echo "$2"; echo "--- got"; echo "$3"
        fail=1
    fi
}

rm -rf "$work" && mkdir -p "$work" || exit 1
cp "$src"/simple.help "$src"/trivial.help "$src"/simple.conf "$src"/root_simple "$src"/root_trivial \
   "$src"/root_dyn "$work"/ || exit 1
# the header on its own, as strict C99 and as C++
printf '#include <pcp/pmapi.h>\n#include <pcp/pmda.h>\nint main(void) { pmdaInterface dp; dp.domain = 1; return dp.domain == 0; }\n' > "$work/hdr.c"
$CC -std=c99 -pedantic -Wall -Wextra -Werror -I"$inc" -c "$work/hdr.c" -o "$work/hdr.o"
check "<pcp/pmda.h> as C99" 0 $?
${CXX:-c++} -std=c++17 -Wall -Wextra -Werror -x c++ -I"$inc" -c "$work/hdr.c" -o "$work/hdrxx.o"
check "<pcp/pmda.h> as C++" 0 $?
for agent in simple trivial dyn; do
    $CC -std=c99 -Wall -Wextra -Werror $cflags -shared -fPIC -I"$inc" "$src/$agent.c" \
        -o "$work/pmda_$agent.so" -L"$lib" -lpmapi -Wl,-rpath,"$lib" -ldl || { echo "FAIL: cc $agent.c"; exit 1; }
done
cat > "$work/pmcd.conf" <<CONF
# Name	Id	IPC	IPC Params	File/Cmd
simple	254	dso	simple_init	pmda_simple.so	pmns=root_simple
trivial	253	dso	trivial_init	\$AGENTS/pmda_trivial.so	pmns=root_trivial
dyn	249	dso	dyn_init	pmda_dyn.so	pmns=root_dyn
CONF
# a client of the agents written against the C PMAPI
$CC -std=c99 -Wall -Wextra -Werror $cflags -I"$inc" "$src/agent_client.c" -o "$work/agent_client" \
    -L"$lib" -lpmapi -Wl,-rpath,"$lib" || { echo "FAIL: cc agent_client.c"; exit 1; }
PCP_PMCDCONF_PATH=$work/pmcd.conf AGENTS=$work TZ=UTC LC_ALL=C
# tools installed in a scratch prefix find the library there
LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export PCP_PMCDCONF_PATH AGENTS TZ LC_ALL LD_LIBRARY_PATH

check "descriptors" "
simple.numfetch PMID: 254.0.0
    Data Type: 32-bit unsigned int  InDom: PM_INDOM_NULL 0xffffffff
    Semantics: instant  Units: none

simple.color PMID: 254.0.1
    Data Type: 32-bit int  InDom: 254.0 0x3f800000
    Semantics: instant  Units: none

simple.time.user PMID: 254.1.2
    Data Type: double  InDom: PM_INDOM_NULL 0xffffffff
    Semantics: counter  Units: sec

simple.time.sys PMID: 254.1.3
    Data Type: double  InDom: PM_INDOM_NULL 0xffffffff
    Semantics: counter  Units: sec

simple.now PMID: 254.2.4
    Data Type: 32-bit unsigned int  InDom: 254.1 0x3f800001
    Semantics: instant  Units: none

trivial.time PMID: 253.0.1
    Data Type: 32-bit unsigned int  InDom: PM_INDOM_NULL 0xffffffff
    Semantics: instant  Units: sec" "$(quiet "$pminfo" -L -d -m simple trivial 2>&1)"

# a fresh agent: the first fetch is fetch 1, and each colour has stepped once
check "first fetch" "
simple.numfetch
    value 1

simple.color
    inst [0 or \"red\"] value 1
    inst [1 or \"green\"] value 101
    inst [2 or \"blue\"] value 201" "$(quiet "$pminfo" -L -f simple.numfetch simple.color 2>&1)"

check "instances from simple.conf through pmdaCache" "
simple.now
    inst [0 or \"sec\"]
    inst [1 or \"min\"]
    inst [2 or \"hour\"]" "$(quiet "$pminfo" -L -f simple.now 2>&1 | sed 's/ value .*//')"

hour=$(date -u +%-H) now=$(date +%s)
got=$(quiet "$pminfo" -L -f simple.now 2>&1 | sed -n 's/.*"hour"\] value //p')
[ "$got" = "$hour" ] || [ "$got" = "$(date -u +%-H)" ]
check "simple.now hour is the hour" 0 $?
got=$(quiet "$pminfo" -L -f trivial.time 2>&1 | sed -n 's/ *value //p')
[ -n "$got" ] && [ "$got" -ge "$now" ] && [ "$got" -le $((now + 5)) ]
check "trivial.time is the time of day" 0 $?

check "help text (pmdaText from the help file)" "
simple.color [A number per colour, stepping with each fetch]
Help:
Each instance's value goes up by one every time it is fetched, wrapping
from 255 to 0. Red starts at 0, green at 100, blue at 200. A store sets
the values; they must be between 0 and 255.

trivial.time [The time of day, in seconds]
Help:
The number of seconds since the start of 1970 (UTC), read each time the
metric is fetched." "$(quiet "$pminfo" -L -tT simple.color trivial.time 2>&1)"

labels=$(quiet "$pminfo" -L -l simple.now 2>&1)
for want in '"role":"testing"' '"indom_name":"time"' '"unitsystem":"SI"' \
            'inst \[0 or "sec"\] labels {.*"units":"sec"' 'inst \[2 or "hour"\] labels {.*"units":"hour"'; do
    echo "$labels" | grep -q "$want"
    check "label $want" 0 $?
done
labels=$(quiet "$pminfo" -L -l trivial.time 2>&1)
echo "$labels" | grep -q '"agent":"[^"]*/pmda_trivial.so"'
check "default domain label of an interface 2 agent" 0 $?

check "store into every colour" "simple.color inst [0 or \"red\"] old value=1 new value=42
simple.color inst [1 or \"green\"] old value=101 new value=42
simple.color inst [2 or \"blue\"] old value=201 new value=42" "$(quiet "$pmstore" -L simple.color 42 2>&1)"
check "store one colour" "simple.color inst [1 or \"green\"] old value=101 new value=7" \
    "$(quiet "$pmstore" -L -i green simple.color 7 2>&1)"

out=$(quiet "$pmstore" -L simple.color 256 2>&1); rc=$?
check "store out of range: PM_ERR_CONV" "1 simple.color: new value=\"256\" pmStore: Impossible value or scale conversion" "$rc $out"
out=$(quiet "$pmstore" -L simple.time.user 3 2>&1); rc=$?
check "store into a read-only metric: PM_ERR_PERMISSION" "1 simple.time.user: new value=\"3\" pmStore: No permission to perform requested operation" "$rc $out"
out=$(quiet "$pmstore" -L trivial.time 3 2>&1); rc=$?
check "default pmdaStore: PM_ERR_PERMISSION" "1 trivial.time: new value=\"3\" pmStore: No permission to perform requested operation" "$rc $out"
check "store numfetch" "simple.numfetch old value=1 new value=1000" "$(quiet "$pmstore" -L simple.numfetch 1000 2>&1)"

check "a C client of the C agents" 'simple.numfetch 254.0.0
simple.color 254.0.1
simple.now 254.2.4
dyn.events 249.0.0
dyn.sub.b 249.1.1
simple.now indom 254.1
  instance 0 "sec"
  instance 1 "min"
  instance 2 "hour"
  labels of 0: {"units":"sec"}
  labels of 1: {"units":"min"}
  labels of 2: {"units":"hour"}
simple.color indom: The three colours
simple.numfetch: 1
simple.color: [0] 1 [1] 101 [2] 201
store green=7: 0
simple.color: [0] 2 [1] 8 [2] 202
store numfetch=-1: Negative value in conversion to unsigned
store red=300: Impossible value or scale conversion
store purple=1: Unknown or illegal instance identifier
dyn.events: 1 record(s)
  record at 1700000000.000500, 3 value set(s)
    511.0.1 1
    249.1.0 7
    249.1.1 "hello"
dyn.sub.b: "from a dynamic name"' "$(quiet "$work/agent_client"; echo "exit $?" | grep -v 'exit 0')"

# an agent whose init function is missing is left out with a warning
printf 'broken\t252\tdso\tno_such_init\tpmda_simple.so\tpmns=root_simple\n' > "$work/broken.conf"
out=$(PCP_PMCDCONF_PATH=$work/broken.conf quiet "$pminfo" -L -f simple.numfetch 2>&1); rc=$?
[ $rc -ne 0 ] || echo "$out" | grep -q 'No PMCD agent'
check "missing init function: no agent" 0 $?

exit $fail
