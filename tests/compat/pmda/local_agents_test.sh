#!/bin/sh
# The shared-object agents PCP ships as C source (simple, trivial, sample), built
# unchanged against PCP's libpcp_pmda and against this library, hosted in
# a local context named on the command line (-K add,DOMAIN,PATH,INIT):
# PCP's pminfo, pmval and pmstore with PCP's build must print what ours
# print with our build.
#
#   local_agents_test.sh INCLUDEDIR LIBDIR BINDIR WORKDIR [CFLAGS]
#
# BINDIR holds our pminfo, pmval and pmstore. Prints one line per agent
# and "N of N agents identical"; exits 1 on any difference.
set -eu

inc=$1
lib=$2
bin=$3
work=$4
extra=${5:-}
sys=/var/lib/pcp/pmdas
export TZ=UTC LC_ALL=C

[ -x /usr/bin/pminfo ] && [ -r "$sys/simple/simple.c" ] ||
  { echo "PCP 6 is not installed (scripts/install-deps.sh --pcp)" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work/var/config/pmda"
# The names the agents' domains have, as PCP's local context finds them.
for a in simple:SIMPLE:253 trivial:TRIVIAL:250 sample:SAMPLE:29; do
  n=${a%%:*} r=${a#*:}
  { echo "root { $n }"; sed "s/${r%%:*}:/${r#*:}:/" "$sys/$n/pmns"; } >"$work/ns_$n"
done
/usr/lib/pcp/bin/pmnsmerge -a "$work/ns_simple" "$work/ns_trivial" "$work/ns_sample" "$work/root" >/dev/null
PMNS_DEFAULT="$work/root"
PCP_VAR_DIR="$work/var"
# no agents but those named with -K
printf 'pmcd\t2\tdso\tpmcd_init\t/nonexistent/pmda_pmcd.so\n' >"$work/pmcd.conf"
PCP_PMCDCONF_PATH="$work/pmcd.conf"
export PMNS_DEFAULT PCP_VAR_DIR PCP_PMCDCONF_PATH

# sources AGENT: the agent's C files (sample's are five, built as its
# Makefile builds them).
sources() {
  case "$1" in
    sample) for f in pmda sample percontext events proc; do echo "$sys/sample/$f.c"; done ;;
    *) echo "$sys/$1/$1.c" ;;
  esac
}

. "$(dirname "$0")/sample_questions.sh"

build() {
  # a sanitized library (and tools) need the sanitizer in our build only:
  # PCP's tools load PCP's build
  if [ "$1" = pcp ]; then
    libs="-lpcp_pmda -lpcp" flags=""
  else
    libs="-I$inc -L$lib -Wl,-rpath,$lib -lpmapi" flags=$extra
  fi
  for a in simple trivial sample; do
    d="$work/$1/$a"
    mkdir -p "$d"
    # shellcheck disable=SC2086,SC2046
    cc -O2 -fPIC -shared -D_GNU_SOURCE -Wno-unused-result $flags -o "$d/pmda_$a.so" $(sources "$a") $libs -lm
    # the sample agent as a shared object reads its help from dsohelp
    help=help
    [ "$a" != sample ] || help=dsohelp
    cp "$sys/$a/help" "$d/$help"
    [ "$a" != simple ] || cp "$sys/simple/simple.conf" "$d/simple.conf"
    if [ "$1" = pcp ]; then
      sym=$(echo "$a" | tr a-z A-Z)
      dom=$(sed -n "s/^#define $sym //p" "$sys/$a/domain.h")
      sed "/^@ $sym\\./s/$sym\\./$dom./" "$d/$help" | /usr/lib/pcp/bin/newhelp -n "$work/root" -v 2 -o "$d/$help"
    fi
  done
}

# the agents' directories differ (an agent without labels of its own is
# labelled with its path), and so do clock readings and CPU times
mask() {
  sed -E -e "s|$work/(pcp\|ours)/|DIR/|g" -e 's/^[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]+/TIME/' \
    -e '/^(simple\.time\.(user|sys)|trivial\.time|simple\.now)$/,/^$/s/value [-0-9.e+]+/value N/' \
    -e 's/^(Start|host|samples|interval|metric|semantics|units): .*/\1: X/' \
    -e '/^ *(simple\.now|trivial\.time|simple\.time\.(user|sys)) /s/(value|old value|new value)=?[ ]*[-0-9.e+]+/\1 N/g'
}

# ask TOOLDIR LIBRARY AGENT: the same questions, with the agent named by -K.
ask() {
  t=$1
  case "$3" in simple) k="add,253,$work/$2/simple/pmda_simple.so,simple_init" ;;
    trivial) k="add,250,$work/$2/trivial/pmda_trivial.so,trivial_init" ;;
    sample) k="add,29,$work/$2/sample/pmda_sample.so,sample_init" ;; esac
  export PCP_PMDAS_DIR="$work/$2"
  # our installed tools find the installed library
  if [ "$2" = ours ]; then export LD_LIBRARY_PATH="$lib"; else unset LD_LIBRARY_PATH; fi
  if [ "$3" = sample ]; then
    P=$t ctx="-L -K clear -K $k"
    sample_extra_varying='sample.pdu|sample.recv_pdu|sample.xmit_pdu|sample.percontext.pdu|sample.percontext.recv_pdu|sample.percontext.xmit_pdu|sample.percontext.control.ctx' 
    sample_questions
    return
  fi
  "$t/pminfo" -L -K clear -K "$k" -dmtTl "$3" 2>&1
  "$t/pminfo" -L -K clear -K "$k" -f "$3" 2>&1
  case "$3" in
    simple)
      "$t/pmval" -L -K clear -K "$k" -s 3 -t 0.05 simple.color 2>&1
      "$t/pmstore" -L -K clear -K "$k" simple.color 41 2>&1
      "$t/pmstore" -L -K clear -K "$k" -i green simple.color 7 2>&1
      "$t/pmstore" -L -K clear -K "$k" simple.time.user 1 2>&1 || true
      "$t/pminfo" -L -K clear -K "$k" -f simple.now 2>&1
      ;;
    trivial)
      "$t/pmstore" -L -K clear -K "$k" trivial.time 1 2>&1 || true
      # a rate of a clock in seconds: whether a second passed varies
      "$t/pmval" -L -K clear -K "$k" -s 2 -t 0.05 trivial.time 2>&1 | sed -E 's/^ +[0-9.]+ +$/ N/'
      ;;
  esac
  # specs the table refuses
  "$t/pminfo" -L -K del,200 "$3" 2>&1 | head -1 || true
  "$t/pminfo" -L -K add,253 "$3" 2>&1 | head -1 || true
  "$t/pminfo" -L -K bogus "$3" 2>&1 | head -1 || true
}

build pcp
build ours
same=0
total=0
for a in simple trivial sample; do
  total=$((total + 1))
  ask /usr/bin pcp "$a" | mask >"$work/out.pcp.$a"
  ask "$bin" ours "$a" | mask >"$work/out.ours.$a"
  if cmp -s "$work/out.pcp.$a" "$work/out.ours.$a"; then
    same=$((same + 1))
    echo "$a dso (-K): identical ($(wc -l <"$work/out.ours.$a") lines)"
  else
    echo "$a dso (-K): DIFFERENT"
    diff "$work/out.pcp.$a" "$work/out.ours.$a" | head -40
  fi
done
echo "$same of $total agents identical"
[ "$same" -eq "$total" ]
