# host_clients.sh: sourced by the host benchmarks. build_host_clients OUT
# TOP BUILD compiles bench/host_fetch/ours.cc against BUILD's library and
# bench/host_fetch/pcp.c against PCP's libpcp, as OUT/ours and OUT/pcp.
build_host_clients() {
  c++ -std=c++20 -O2 -I"$2/bench/common" -I"$2/core/include" -I"$2/libpmapi/include" -I"$2/pmns/include" -I"$2/archive/include" \
    "$2/bench/host_fetch/ours.cc" -o "$1/ours" \
    -L"$3/libpmapi" -Wl,-rpath,"$3/libpmapi" -lpmapi \
    -labsl_statusor -labsl_status -labsl_strings -labsl_time -labsl_time_zone
  cc -O2 -I"$2/bench/common" "$2/bench/host_fetch/pcp.c" -o "$1/pcp" -lpcp
}
