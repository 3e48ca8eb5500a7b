#!/bin/sh
# Copies from a golden corpus (FILE<TAB>exit<TAB>command lines in
# COMMANDS.txt) one tool's outputs whose archives are present here, and
# xz-compresses the larger ones. Run once per corpus and tool:
#   copy-expected.sh ../shared/reference/expected reference [TOOL]
#   copy-expected.sh ../shared/qa-archives/expected qa [TOOL]
# TOOL defaults to pmdumplog, whose list is COMMANDS.txt; other tools' lists
# are COMMANDS-TOOL.txt.
set -eu
src=$1
corpus=$2
tool=${3:-pmdumplog}
here=$(cd "$(dirname "$0")" && pwd)
out="$here/$corpus-expected"
list="$out/COMMANDS.txt"
[ "$tool" = pmdumplog ] || list="$out/COMMANDS-$tool.txt"
mkdir -p "$out"
: > "$list"
tab=$(printf '\t')
while IFS="$tab" read -r file status cmd; do
  case "$cmd" in "$tool "*) ;; *) continue ;; esac
  # The archive is the first argument that is not an option (or -v's file).
  arch=$(echo "$cmd" | awk '{for (i = 2; i <= NF; i++) if ($i !~ /^-/ && $(i-1) !~ /^-[STZ]$/) {print $i; exit}}')
  dir=${arch%/*}
  [ "$dir" = "$arch" ] && dir=$arch
  [ -e "$here/$corpus/$dir" ] || continue
  mkdir -p "$out/$(dirname "$file")"
  plain=${file%.xz}
  if [ "$plain" != "$file" ]; then
    cp "$src/$file" "$out/$file"
  elif [ "$(wc -c < "$src/$file")" -gt 8192 ]; then
    xz -9 -c "$src/$file" > "$out/$file.xz"
    file="$file.xz"
  else
    cp "$src/$file" "$out/$file"
  fi
  [ -f "$src/$file.err" ] && cp "$src/$file.err" "$out/$plain.err"
  printf '%s\t%s\t%s\n' "$file" "$status" "$cmd" >> "$list"
done < "$src/COMMANDS.txt"
chmod -R u+w "$out"
