// Fetches sample.long.one N times through a host context and prints
// fetches per second and client CPU microseconds per fetch.
//
//   ours HOST N
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/host.h"

namespace {

double CpuSeconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_utime.tv_sec + u.ru_stime.tv_sec + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s HOST N\n", argv[0]);
    return 1;
  }
  const long n = std::atol(argv[2]);
  absl::StatusOr<pmapi::Context> ctx = pmapi::OpenHostContext(argv[1]);
  if (!ctx.ok()) {
    std::fprintf(stderr, "connect: %s\n", pmapi::ErrStr(pmapi::PcpCode(ctx.status())).c_str());
    return 1;
  }
  absl::StatusOr<pmapi::PmID> id = ctx->LookupName("sample.long.one");
  if (!id.ok()) return 1;
  const pmapi::PmID ids[] = {*id};
  const double cpu0 = CpuSeconds();
  const auto t0 = std::chrono::steady_clock::now();
  for (long i = 0; i < n; ++i) {
    if (!ctx->Fetch(ids).ok()) return 1;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const double cpu = CpuSeconds() - cpu0;
  std::printf("libpmapi  %10.0f fetches/s  %7.2f us CPU/fetch\n", n / wall, cpu / n * 1e6);
  return 0;
}
