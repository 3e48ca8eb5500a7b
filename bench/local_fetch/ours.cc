// Fetches one metric N times through a local context (the agents of the
// configuration file, in-process) and prints fetches per second and CPU
// microseconds per fetch.
//
//   ours NAME N        e.g. ours test.long.minus_one 1000000
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"
#include "pmapi/strings.h"

namespace {

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s NAME N\n", argv[0]);
    return 1;
  }
  const long n = std::atol(argv[2]);
  absl::StatusOr<pmapi::Context> ctx = pmapi::OpenLocalContext();
  if (!ctx.ok()) {
    std::fprintf(stderr, "local context: %s\n", pmapi::ErrStr(pmapi::PcpCode(ctx.status())).c_str());
    return 1;
  }
  absl::StatusOr<pmapi::PmID> id = ctx->LookupName(argv[1]);
  if (!id.ok()) {
    std::fprintf(stderr, "%s: %s\n", argv[1], pmapi::ErrStr(pmapi::PcpCode(id.status())).c_str());
    return 1;
  }
  const pmapi::PmID ids[] = {*id};
  // one fetch first: the agent must answer with a value
  absl::StatusOr<pmapi::Result> first = ctx->Fetch(ids);
  if (!first.ok() || first->sets()[0].numval < 1) {
    std::fprintf(stderr, "%s: no value\n", argv[1]);
    return 1;
  }
  const double cpu0 = CpuSeconds();
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) {
    if (!ctx->Fetch(ids).ok()) return 1;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = CpuSeconds() - cpu0;
  std::printf("libpmapi  %-10s %10.0f fetches/s  %7.3f us CPU/fetch\n", pmapi::IDStr(*id).c_str(),
              n / wall, cpu / n * 1e6);
  return 0;
}
