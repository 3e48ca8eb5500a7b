#!/bin/bash
# man_pcp_options_test.sh: every option that PCP 6.0.3's man page of TOOL
# documents is accepted by our TOOL with the same meaning, and is on our
# page.
#
# The options of PCP's page are the option words of its text (clusters
# such as "-dfFIlL" of its synopsis count letter by letter) that PCP's own
# TOOL lists in its usage text. For each:
#   - our page documents it (a .TP tag line, as man_options_test.sh reads);
#   - our usage text describes it with PCP's line (the same argument name
#     and meaning);
#   - our TOOL, run with it (and an argument when it takes one), does not
#     refuse it as an unknown option or as "not supported" where PCP's
#     TOOL takes it, unless UNSUPPORTED lists it ("TOOL OPTION<TAB>reason"
#     lines).
# Skipped (77) when PCP's page or tool is not installed.
#
# Usage: man_pcp_options_test.sh OUR_TOOL OUR_PAGE UNSUPPORTED
set -euo pipefail
ours=$1 page=$2 unsupported=$3
name=$(basename "$ours")
pcp_page=/usr/share/man/man1/$name.1.gz
pcp_tool=/usr/bin/$name
[ -f "$pcp_page" ] && [ -x "$pcp_tool" ] || { echo "skipped: PCP's $name is not installed"; exit 77; }

usage_lines() { "$1" --help 2>&1 | grep -E '^  -' || true; }

# The option words of a man page's text.
page_words() {
  zcat -f "$1" | sed -E 's/\\f[0-9BIRP]//g; s/\\-/-/g' |
    grep -oE '(^|[][ ,(|])--?[A-Za-z?][A-Za-z0-9-]*' | sed -E 's/^[][ ,(|]//' |
    while read -r w; do
      case "$w" in
        --*) echo "$w" ;;
        -?) echo "$w" ;;
        *) echo "${w#-}" | grep -o . | sed 's/^/-/' ;;
      esac
    done | sort -u
}

pcp_usage=$(usage_lines "$pcp_tool")
our_usage=$(usage_lines "$ours")
# The usage line that describes option $1 (short "-a" or long "--archive").
line_for() {
  grep -E -- "(^  |, )$1([ =,]|$)" <<<"$2" | head -1 || true
}

# Our page's documented options (the tag lines after .TP).
documented=$(awk 'prev == ".TP" {print} {prev = $0}' "$page" |
  sed -E 's/\\f[BIRP]//g; s/\\-/-/g' | tr ', ' '\n\n' | sed -E 's/=.*$//' | grep -E '^-' | sort -u)

# Operands after the option, so that a tool gets as far as using it.
case "$name" in
  pmval) operands=(sample.long.one) ;;
  pmstore) operands=(sample.long.write_me 1) ;;
  *) operands=() ;;
esac

fail=0 checked=0
for opt in $(page_words "$pcp_page"); do
  pcp_line=$(line_for "$opt" "$pcp_usage")
  [ -n "$pcp_line" ] || continue  # not an option of PCP's tool (an example, another tool's)
  checked=$((checked + 1))
  if ! grep -qx -- "$opt" <<<"$documented"; then
    echo "FAIL: $(basename "$page") does not document $opt"
    fail=1
  fi
  our_line=$(line_for "$opt" "$our_usage")
  if [ "$our_line" != "$pcp_line" ]; then
    echo "FAIL: $name usage for $opt: '$our_line', PCP's: '$pcp_line'"
    fail=1
  fi
  # Run it, with an argument when PCP's usage shows one.
  args=("$opt")
  if grep -qE -- "${opt}[ =][A-Z]" <<<"$pcp_line"; then args=("$opt" "1"); fi
  args+=("${operands[@]}")
  out=$(timeout 10 "$ours" "${args[@]}" 2>&1 </dev/null || true)
  pcp_out=$(timeout 10 "$pcp_tool" "${args[@]}" 2>&1 </dev/null || true)
  refused="invalid option|unrecognized option|is not supported"
  if grep -qE "$refused" <<<"$out" && ! grep -qE "$refused" <<<"$pcp_out"; then
    if grep -qP "^$name \Q$opt\E\t" "$unsupported" 2>/dev/null; then
      echo "known: $name $opt: $(grep -P "^$name \Q$opt\E\t" "$unsupported" | cut -f2)"
    else
      echo "FAIL: $name refuses $opt: $(head -1 <<<"$out")"
      fail=1
    fi
  fi
done
[ "$checked" -gt 0 ] || { echo "FAIL: no options found on PCP's page of $name"; exit 1; }
[ "$fail" = 0 ] && echo "ok: the $checked options of PCP's $name page are accepted and documented"
exit "$fail"
