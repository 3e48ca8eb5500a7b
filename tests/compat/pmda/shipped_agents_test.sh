#!/bin/sh
# The example agents PCP ships as C source (simple, trivial, txmon in
# /var/lib/pcp/pmdas), built unchanged twice: against PCP's libpcp_pmda
# and against this library (the installed <pcp/pmda.h> and libpmapi.so).
# Each build runs under a private pmcd (scripts/pmcd-private.sh) as
# daemons over pipes, and simple (the one that takes -u and -i) also over
# a unix socket and over TCP. PCP's own pminfo,
# pmval and pmstore then ask the same questions of both, and the answers
# must be byte for byte the same, as must each agent's answer to a bad
# command line (usage message, clashing options). The shared objects are compared in a
# local context (-K) by local_agents_test.sh: loaded into PCP's pmcd, a
# shared object's calls bind to the libpcp_pmda pmcd already has loaded,
# so only PCP's library would be tested there.
#
#   shipped_agents_test.sh SRCDIR INCLUDEDIR LIBDIR WORKDIR [CFLAGS]
#
# Prints one line per agent and form, and "N of N agent x form runs
# identical" at the end; exits 1 on any difference.
set -eu

src=$1
inc=$2
lib=$3
work=$4
extra=${5:-}
sys=/var/lib/pcp/pmdas
script="$src/scripts/pmcd-private.sh"
export TZ=UTC LC_ALL=C

[ -x /usr/lib/pcp/bin/pmcd ] && [ -r "$sys/simple/simple.c" ] ||
  { echo "PCP 6 is not installed (scripts/install-deps.sh --pcp)" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work"
# The agents run as this user, keep their caches here, and find every
# file below the pmcd directory.
PCP_USER=$(id -un)
PCP_VAR_DIR="$work/var"
export PCP_USER PCP_VAR_DIR
mkdir -p "$PCP_VAR_DIR/config/pmda"


# sources AGENT: the agent's C files (sample's are five, built as its
# Makefile builds them).
sources() {
  case "$1" in
    sample) for f in pmda sample percontext events proc; do echo "$sys/sample/$f.c"; done ;;
    *) echo "$sys/$1/$1.c" ;;
  esac
}

# build LIBRARY DIR: the agents as daemons and their help text, as each
# library reads it.
build() {
  # a sanitized library needs the sanitizer in our build of the agents
  if [ "$1" = pcp ]; then
    libs="-lpcp_pmda -lpcp -lm -lpthread" flags=""
  else
    libs="-I$inc -L$lib -Wl,-rpath,$lib -lpmapi -lm -lpthread" flags=$extra
  fi
  for a in simple trivial txmon sample; do
    d="$2/pmdas/$a"
    mkdir -p "$d"
    # shellcheck disable=SC2086,SC2046
    cc -O2 -D_GNU_SOURCE -Wno-unused-result $flags -o "$d/pmda$a" $(sources "$a") $libs
    cp "$sys/$a/help" "$d/help"
    [ "$a" != simple ] || cp "$sys/simple/simple.conf" "$d/simple.conf"
    if [ "$1" = pcp ]; then
      # newhelp wants the domain in numbers, as the agents' Install does
      sym=$(echo "$a" | tr a-z A-Z)
      dom=$(sed -n "s/^#define $sym //p" "$sys/$a/domain.h")
      sed "/^@ $sym\./s/$sym\./$dom./" "$d/help" |
        /usr/lib/pcp/bin/newhelp -n "$work/root" -v 2 -o "$d/help"
    fi
  done
}

# The name space: pmcd's names and the three agents' at their domains.
names() {
  for a in simple:SIMPLE:253 trivial:TRIVIAL:250 txmon:TXMON:248 sample:SAMPLE:29; do
    n=${a%%:*} r=${a#*:}
    sym=${r%%:*} dom=${r#*:}
    { echo "root { $n }"; sed "s/$sym:/$dom:/" "$sys/$n/pmns"; } >"$work/ns_$n"
  done
  /usr/lib/pcp/bin/pmnsmerge -a -f /var/lib/pcp/pmns/root_pmcd "$work/ns_simple" \
    "$work/ns_trivial" "$work/ns_txmon" "$work/ns_sample" "$work/root" >/dev/null
}

# conf FORM DIR: a pmcd.conf running the agents below DIR in FORM (pipe,
# unix or inet).
conf() {
  p="$2/pmdas"
  echo "pmcd	2	dso	pmcd_init	$sys/pmcd/pmda_pmcd.so"
  case "$1" in
    pipe)
      echo "simple	253	pipe	binary	$p/simple/pmdasimple -d 253"
      echo "trivial	250	pipe	binary	$p/trivial/pmdatrivial -d 250"
      echo "txmon	248	pipe	binary	$p/txmon/pmdatxmon -d 248 tx1 tx2"
      echo "sample	29	pipe	binary	$p/sample/pmdasample -d 29"
      ;;
    unix)
      echo "simple	253	socket	unix $2/simple.sock	$p/simple/pmdasimple -d 253 -u $2/simple.sock"
      ;;
    inet)
      echo "simple	253	socket	inet $inet_port	$p/simple/pmdasimple -d 253 -i $inet_port"
      ;;
  esac
  printf '\n[access]\nallow "local:*" : all;\ndisallow ".*" : store;\n'
}

. "$src/tests/compat/pmda/sample_questions.sh"

# Masks what changes from one run to the next: clock readings and the
# agents' own CPU times.
mask() {
  sed -E -e 's/^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]+/TIME/' \
    -e '/^(simple\.time\.(user|sys)|trivial\.time|simple\.now)$/,/^$/s/value [-0-9.e+]+/value N/' \
    -e 's/^(Start|host|samples|interval|metric|semantics|units): .*/\1: X/'
}

# ask AGENT: PCP's tools on one agent's metrics, in a fixed order (the
# counters in simple advance with every fetch).
ask() {
  P=/usr/bin
  if [ "$1" = sample ]; then
    ctx="-h unix:$sock"
    sample_questions
    "$P/pminfo" -h "unix:$sock" -M sample 2>&1
    return
  fi
  "$P/pminfo" -h "unix:$sock" -dmtTl "$1" 2>&1
  "$P/pminfo" -h "unix:$sock" -f "$1" 2>&1
  case "$1" in
    simple)
      "$P/pmval" -h "unix:$sock" -s 3 -t 0.05 simple.color 2>&1
      "$P/pmstore" -h "unix:$sock" simple.color 41 2>&1
      "$P/pmstore" -h "unix:$sock" -i green simple.color 7 2>&1
      "$P/pmstore" -h "unix:$sock" simple.numfetch 100 2>&1
      "$P/pmstore" -h "unix:$sock" simple.time.user 1 2>&1 || true
      "$P/pmstore" -h "unix:$sock" simple.color 'not a number' 2>&1 || true
      "$P/pminfo" -h "unix:$sock" -f simple.color simple.numfetch 2>&1
      "$P/pminfo" -h "unix:$sock" -f simple.now 2>&1
      ;;
    trivial)
      "$P/pmstore" -h "unix:$sock" trivial.time 1 2>&1 || true
      # a rate of a clock in seconds: whether a second passed varies
      "$P/pmval" -h "unix:$sock" -s 2 -t 0.05 trivial.time 2>&1 | sed -E 's/^ +[0-9.]+ +$/ N/'
      ;;
    txmon)
      "$P/pmstore" -h "unix:$sock" txmon.control.level 2 2>&1
      "$P/pmstore" -h "unix:$sock" -i tx1 txmon.control.reset 1 2>&1 || true
      "$P/pminfo" -h "unix:$sock" -f txmon.control 2>&1
      "$P/pminfo" -h "unix:$sock" -f txmon.count txmon.ave_time 2>&1
      ;;
  esac
  # names below the agent's root, and the name of each PMID
  "$P/pminfo" -h "unix:$sock" -M "$1" 2>&1
}

# agents FORM: the agents run in FORM (only simple takes -u and -i).
agents() {
  if [ "$1" = pipe ]; then echo simple trivial txmon sample; else echo simple; fi
}

# run LIBRARY FORM: starts pmcd on LIBRARY's agents in FORM and records
# the answers per agent.
run() {
  d="$work/$1"
  conf "$2" "$d" >"$work/$1.$2.conf"
  env=$(PMCD_PRIVATE_CONF="$work/$1.$2.conf" PMCD_PRIVATE_PMNS="$work/root" "$script" start "$d")
  sock=$(echo "$env" | sed -n 's/^PMCD_SOCKET=//p')
  for a in $(agents "$2"); do
    ask "$a" | mask >"$work/out.$1.$2.$a"
  done
  "$script" stop "$d"
}

names
build pcp "$work/pcp"
build ours "$work/ours"
# a free TCP port for the inet socket agent
inet_port=45301
while ss -Htln "sport = :$inet_port" 2>/dev/null | grep -q .; do inet_port=$((inet_port + 1)); done

total=0
same=0
# The command line: a bad option, clashing connections, a bad domain.
for a in simple trivial txmon sample; do
  for lib in pcp ours; do
    for args in "-Q" "-p -u $work/x -d abc" "-i 1 -6 2"; do
      # shellcheck disable=SC2086
      "$work/$lib/pmdas/$a/pmda$a" $args 2>&1 </dev/null || echo "exit status $?"
    done >"$work/usage.$lib.$a"
  done
  total=$((total + 1))
  if cmp -s "$work/usage.pcp.$a" "$work/usage.ours.$a"; then
    same=$((same + 1))
    echo "$a options: identical ($(wc -l <"$work/usage.ours.$a") lines)"
  else
    echo "$a options: DIFFERENT"
    diff "$work/usage.pcp.$a" "$work/usage.ours.$a" | head -20
  fi
done
# differing FORM: the agents of FORM whose answers differ between the two
# libraries.
differing() {
  for a in $(agents "$1"); do
    cmp -s "$work/out.pcp.$1.$a" "$work/out.ours.$1.$a" || echo "$a"
  done
}

for form in pipe unix inet; do
  for libname in pcp ours; do run "$libname" "$form"; done
  # The sample agent counts the PDUs pmcd sends it and the client contexts
  # it holds, and pmcd tells it of a closed context only when it gets to
  # it, so on a loaded machine one tool may find the last one's context
  # still open. A difference is shown, and both runs are made once more.
  again=$(differing "$form")
  if [ -n "$again" ]; then
    for a in $again; do
      echo "$a $form: different in the first run; running both again"
      diff "$work/out.pcp.$form.$a" "$work/out.ours.$form.$a" | head -20
    done
    for libname in pcp ours; do run "$libname" "$form"; done
  fi
  for a in $(agents "$form"); do
    total=$((total + 1))
    # an agent pmcd could not start answers nothing: that is no success
    if grep -q 'No PMCD agent' "$work/out.pcp.$form.$a" "$work/out.ours.$form.$a"; then
      echo "$a $form: AGENT NOT RUNNING"
      grep -H 'No PMCD agent' "$work/out.pcp.$form.$a" "$work/out.ours.$form.$a" | head -2
    elif cmp -s "$work/out.pcp.$form.$a" "$work/out.ours.$form.$a"; then
      same=$((same + 1))
      echo "$a $form: identical ($(wc -l <"$work/out.ours.$form.$a") lines)"
    else
      echo "$a $form: DIFFERENT"
      diff "$work/out.pcp.$form.$a" "$work/out.ours.$form.$a" | head -40
    fi
  done
done
echo "$same of $total agent x form runs identical (4 of them the command line)"
[ "$same" -eq "$total" ]
