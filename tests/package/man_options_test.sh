#!/bin/bash
# man_options_test.sh: fails when an option that TOOL --help lists is not
# documented in the tool's man page.
#
# An option counts as documented when it appears in the tag line of a .TP
# entry (the line after .TP) of the page, e.g.
#   .TP
#   \fB\-a\fR \fIFILE\fR, \fB\-\-archive\fR=\fIFILE\fR
#
# Usage: man_options_test.sh TOOL_BINARY MAN_PAGE
set -euo pipefail
tool=$1 page=$2

# PCP's tools print their usage on stderr and exit 1 for --help.
help=$("$tool" --help 2>&1 || true)
grep -q '^Usage: ' <<< "$help" || { echo "FAIL: $tool --help printed no usage" >&2; exit 1; }

# help_options: the option words of the usage text. An option line starts
# with two spaces and a dash; its options end where two spaces begin the
# description (or at the end of the line); an argument name follows a
# space or an '='.
help_options() {
  grep -E '^  -' <<< "$help" | sed -E 's/^  //; s/  .*$//' | tr ',' '\n' |
    sed -E 's/^ +//; s/[ =].*$//' | grep -E '^-' | sort -u
}

# page_options: the option words of the page's .TP tag lines, with the
# font escapes and escaped hyphens of man(7) removed.
page_options() {
  awk 'prev == ".TP" {print} {prev = $0}' "$page" |
    sed -E 's/\\f[BIRP]//g; s/\\-/-/g' | tr ', ' '\n\n' |
    sed -E 's/=.*$//' | grep -E '^-' | sort -u
}

missing=$(comm -23 <(help_options) <(page_options))
count=$(help_options | wc -l)
[ "$count" -gt 0 ] || { echo "FAIL: no options found in $tool --help" >&2; exit 1; }
if [ -n "$missing" ]; then
  echo "FAIL: $(basename "$page") does not document these options of $(basename "$tool"):" >&2
  echo "$missing" >&2
  exit 1
fi
echo "ok: all $count options of $(basename "$tool") --help are in $(basename "$page")"
