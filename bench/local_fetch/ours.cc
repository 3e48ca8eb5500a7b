// Fetches one metric N times through a local context (the agents of the
// configuration file, in-process) and prints fetches per second and CPU
// microseconds per fetch.
//
//   ours NAME N        e.g. ours test.long.minus_one 1000000
#include <cstdio>
#include <cstdlib>

#include "fetch_timer.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/local.h"
#include "pmapi/strings.h"

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
  fetch_timer t;
  fetch_timer_start(&t);
  for (long i = 0; i < n; ++i) {
    if (!ctx->Fetch(ids).ok()) return 1;
  }
  fetch_timer_report(&t, "libpmapi ", pmapi::IDStr(*id).c_str(), n);
  return 0;
}
