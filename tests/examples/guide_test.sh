#!/bin/sh
# guide_test.sh: the programs of docs/guide.md, built as a reader builds
# them: the tree installed into a scratch prefix, each complete program
# (a ```cpp or ```c block with a main) compiled with the guide's own
# pkg-config command lines and -Werror, the two five_values programs run
# on the guide's archive and compared with PCP's pmval, the fetchgroup
# program run on the local context.
#
# Usage: guide_test.sh BUILD_DIR CMAKE CXX CC [EXTRA_FLAGS]
# EXTRA_FLAGS (the sanitizers' flags when the library has them) go to
# every compile and link.
build=$1 cmake=$2 cxx=$3 cc=$4 extra=${5:-}
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/examples/lib.sh"

prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 ||
  { cat "$work/install.log"; exit 1; }
export PKG_CONFIG_PATH=$prefix/lib/pkgconfig

# The complete programs, in the guide's order: five_values.cc,
# five_values.c, cpu_rates.cc.
python3 - "$top/docs/guide.md" "$work" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
n = 0
for lang, code in re.findall(r'```(cpp|c)\n(.*?)```', text, re.S):
    if 'int main' not in code:
        continue
    open(f'{sys.argv[2]}/prog{n}.{"cc" if lang == "cpp" else "c"}', 'w').write(code)
    n += 1
print(n)
PY
[ -f "$work/prog2.cc" ] || { fail "docs/guide.md: expected three complete programs"; exit 1; }

cflags=$(pkg-config --cflags pmapi) libs=$(pkg-config --libs pmapi) libdir=$(pkg-config --variable=libdir pmapi)
# shellcheck disable=SC2086  # flags are words
"$cxx" $extra -std=c++20 -Wall -Wextra -Werror "$work/prog0.cc" -o "$work/five_values" $cflags $libs \
  -Wl,-rpath,"$libdir" || fail "five_values.cc does not build as the guide says"
# shellcheck disable=SC2086
"$cc" $extra -Wall -Wextra -Werror "$work/prog1.c" -o "$work/five_values_c" $cflags $libs -Wl,-rpath,"$libdir" ||
  fail "five_values.c does not build as the guide says"
# shellcheck disable=SC2086
"$cxx" $extra -std=c++20 -Wall -Wextra -Werror "$work/prog2.cc" -o "$work/cpu_rates" $cflags $libs \
  -Wl,-rpath,"$libdir" || fail "cpu_rates.cc does not build as the guide says"
# The static link of section 5.
static_libs=$(pkg-config --static --libs pmapi | sed "s|-lpmapi\b|$libdir/libpmapi.a|")
# shellcheck disable=SC2086
"$cxx" $extra -std=c++20 "$work/prog0.cc" -o "$work/five_values_static" $cflags $static_libs ||
  fail "five_values.cc does not link statically as the guide says"
[ $status -eq 0 ] || exit 1

# PCP's pmval on the same archive, one line per sample as "HH:MM:SS[ value]".
"$PCP_BIN/pmval" -z -a "$small_v3" -t 5 -s 5 sample.drift |
  awk '/^[0-9][0-9]:/ { t = substr($1, 1, 8); if ($2 == "No") print t; else print t, $2 }' > "$work/want"
[ "$(wc -l < "$work/want")" -eq 5 ] || fail "pmval gave no five samples"
for prog in five_values five_values_static five_values_c; do
  "$work/$prog" "$small_v3" sample.drift | sed -E 's/^([0-9:]{8})\.[0-9]+/\1/' > "$work/$prog.out" ||
    fail "$prog exits $?"
  if cmp -s "$work/want" "$work/$prog.out"; then
    ok "$prog prints pmval's five interpolated values"
  else
    fail "$prog differs from pmval:"
    diff "$work/want" "$work/$prog.out"
  fi
done
msg=$("$work/five_values" "$small_v3" no.such.metric 2>&1) && fail "an unknown metric exits 0"
[ "$msg" = "no.such.metric: Unknown metric name" ] && ok "an unknown metric: $msg" ||
  fail "an unknown metric gives: $msg"
msg=$("$work/five_values" "$work/no-archive" sample.drift 2>&1) && fail "a missing archive exits 0"
[ "$msg" = "$work/no-archive: No such file or directory" ] && ok "a missing archive: PCP's message" ||
  fail "a missing archive gives: $msg"

"$work/cpu_rates" > "$work/rates" || fail "cpu_rates exits $?"
lines=$(grep -cE '^[0-9.e+]+ ms/s$' "$work/rates")
[ "$lines" -eq 5 ] && ok "cpu_rates prints five rates after the first fetch" ||
  fail "cpu_rates printed: $(cat "$work/rates")"
exit $status
