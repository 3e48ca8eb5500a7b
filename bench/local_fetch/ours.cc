// Fetches one metric, or several named with commas, N times through a
// local context (the agents of the configuration file, in-process) and
// prints fetches per second and CPU microseconds per fetch.
//
//   ours NAME[,NAME...] N        e.g. ours test.long.minus_one 1000000
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

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
  std::vector<pmapi::PmID> ids;
  std::string names = argv[1];
  for (size_t start = 0; start <= names.size();) {
    const size_t comma = std::min(names.find(',', start), names.size());
    const std::string name = names.substr(start, comma - start);
    absl::StatusOr<pmapi::PmID> id = ctx->LookupName(name);
    if (!id.ok()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), pmapi::ErrStr(pmapi::PcpCode(id.status())).c_str());
      return 1;
    }
    ids.push_back(*id);
    start = comma + 1;
  }
  // one fetch first: the agents must answer with values
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
  fetch_timer_report(&t, "libpmapi ", ids.size() == 1 ? pmapi::IDStr(ids[0]).c_str() : argv[1], n);
  return 0;
}
