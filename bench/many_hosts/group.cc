// group: one fetch round over many pmcds with pmapi::HostGroup, timed, for
// bench/many_hosts.sh (bench/many_hosts/threads.c is the same measurement
// through the C API, over libpcp and over ours).
//
//   group ROUNDS HOSTFILE METRIC...
//
// Prints one line of "key value" pairs:
//   hosts N rounds R errors E round_median_us X round_p90_us Y
//   cpu_us_per_host_fetch Z maxrss_kb M setup_ms S
// CPU is user+system time of the fetch rounds only; setup is Open (every
// host connected, metrics resolved).
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "pmapi/host_group.h"

namespace {

double CpuMicros() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e6 + u.ru_utime.tv_usec + u.ru_stime.tv_usec;
}

long MaxRssKb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

double Since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s ROUNDS HOSTFILE METRIC...\n", argv[0]);
    return 2;
  }
  const long rounds = std::atol(argv[1]);
  std::vector<std::string> hosts;
  std::ifstream in(argv[2]);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) hosts.push_back(line);
  }
  std::vector<std::string> metrics(argv + 3, argv + argc);
  const size_t n = hosts.size();
  const auto t0 = std::chrono::steady_clock::now();
  absl::StatusOr<std::unique_ptr<pmapi::HostGroup>> group =
      pmapi::HostGroup::Open(std::move(hosts), std::move(metrics));
  if (!group.ok()) {
    std::fprintf(stderr, "group: %s\n", std::string(group.status().message()).c_str());
    return 1;
  }
  const double setup_ms = Since(t0) / 1000;
  long errors = 0;
  std::vector<double> times;
  const double cpu0 = CpuMicros();
  for (long r = 0; r < rounds; ++r) {
    const auto r0 = std::chrono::steady_clock::now();
    (*group)->Fetch([&](const pmapi::HostAnswer& a) {
      if (!a.status.ok()) {
        ++errors;
        return;
      }
      for (const pmapi::ValueSet& vs : a.result->sets()) errors += vs.numval < 0;
    });
    times.push_back(Since(r0));
  }
  const double cpu = CpuMicros() - cpu0;
  std::sort(times.begin(), times.end());
  std::printf("hosts %zu rounds %ld errors %ld round_median_us %.0f round_p90_us %.0f "
              "cpu_us_per_host_fetch %.2f maxrss_kb %ld setup_ms %.1f\n",
              n, rounds, errors, times[times.size() / 2], times[times.size() * 9 / 10],
              cpu / (static_cast<double>(rounds) * n), MaxRssKb(), setup_ms);
  return 0;
}
