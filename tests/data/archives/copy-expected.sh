#!/bin/sh
# Copies from a golden corpus (FILE<TAB>exit<TAB>command lines in
# COMMANDS.txt) the pmdumplog outputs whose archives are present here, and
# xz-compresses the larger ones. Run once per corpus:
#   copy-expected.sh /work/shared/reference/expected reference
#   copy-expected.sh /work/shared/qa-archives/expected qa
set -eu
src=$1
corpus=$2
here=$(cd "$(dirname "$0")" && pwd)
out="$here/$corpus-expected"
mkdir -p "$out"
: > "$out/COMMANDS.txt"
tab=$(printf '\t')
while IFS="$tab" read -r file status cmd; do
  case "$cmd" in pmdumplog*) ;; *) continue ;; esac
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
  printf '%s\t%s\t%s\n' "$file" "$status" "$cmd" >> "$out/COMMANDS.txt"
done < "$src/COMMANDS.txt"
chmod -R u+w "$out"
