// Fetches sample.long.one N times through a host context and prints
// fetches per second and client CPU microseconds per fetch. With
// "connect", N times: a new context, a name lookup and one fetch (the
// rate is then of whole connections).
//
//   ours HOST N [connect]
#include <cstdio>
#include <cstdlib>

#include "fetch_timer.h"
#include "pmapi/context.h"
#include "pmapi/errors.h"
#include "pmapi/host.h"

int Connections(const char* host, long n) {
  fetch_timer t;
  fetch_timer_start(&t);
  for (long i = 0; i < n; ++i) {
    absl::StatusOr<pmapi::Context> ctx = pmapi::OpenHostContext(host);
    if (!ctx.ok()) return 1;
    absl::StatusOr<pmapi::PmID> id = ctx->LookupName("sample.long.one");
    if (!id.ok()) return 1;
    const pmapi::PmID ids[] = {*id};
    if (!ctx->Fetch(ids).ok()) return 1;
  }
  fetch_timer_report(&t, "libpmapi-c", "", n);
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 3 && !(argc == 4 && argv[3][0] == 'c')) {
    std::fprintf(stderr, "usage: %s HOST N [connect]\n", argv[0]);
    return 1;
  }
  const long n = std::atol(argv[2]);
  if (argc == 4) return Connections(argv[1], n);
  absl::StatusOr<pmapi::Context> ctx = pmapi::OpenHostContext(argv[1]);
  if (!ctx.ok()) {
    std::fprintf(stderr, "connect: %s\n", pmapi::ErrStr(pmapi::PcpCode(ctx.status())).c_str());
    return 1;
  }
  absl::StatusOr<pmapi::PmID> id = ctx->LookupName("sample.long.one");
  if (!id.ok()) return 1;
  const pmapi::PmID ids[] = {*id};
  fetch_timer t;
  fetch_timer_start(&t);
  for (long i = 0; i < n; ++i) {
    if (!ctx->Fetch(ids).ok()) return 1;
  }
  fetch_timer_report(&t, "libpmapi ", "", n);
  return 0;
}
