# quantile.sh: sourced by the benchmark scripts that run their clients in
# rounds and log one line per client and round ("WHO ... RATE fetches/s
# CPU us/fetch").
#
# quantile LOG WHO FIELD Q: the median (Q=2), lower quartile (Q=1) or upper
# quartile (Q=3) of field FIELD (counted from the end of the line) of the
# lines of LOG starting with WHO. For a rate the upper quartile is the
# better quarter, for CPU the lower one.
quantile() {
  grep "^$2 " "$1" | awk -v f="$3" '{print $(NF - f)}' | sort -n |
    awk -v q="$4" '{v[NR] = $1} END {print v[q == 2 ? int((NR + 1) / 2) : q == 1 ? int((NR + 3) / 4) : NR + 1 - int((NR + 3) / 4)]}'
}

# print_medians LOG WHO...: one line per client, rate and CPU per fetch,
# medians and (in brackets) better quartiles.
print_medians() {
  log=$1
  shift
  echo "medians (better quartile in brackets):"
  for who in "$@"; do
    printf '%-9s %10s (%6s) fetches/s  %7s (%5s) us CPU/fetch\n' "$who" \
      "$(quantile "$log" "$who" 4 2)" "$(quantile "$log" "$who" 4 3)" \
      "$(quantile "$log" "$who" 2 2)" "$(quantile "$log" "$who" 2 1)"
  done
}
