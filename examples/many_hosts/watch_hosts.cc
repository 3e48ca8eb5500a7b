// watch_hosts: prints one line per host per round, fetching the same
// metrics from every host at once with pmapi::HostGroup.
//
//   watch_hosts [-s SAMPLES] [-t SECONDS] HOST... -- METRIC...
//
// Each line is the host, then each metric's first value (or the error for
// that metric), or the host's error when it did not answer:
//   web1 kernel.all.load=0.52 mem.util.free=1826380
//   db1 IPC protocol failure
// Lines of a round come in the order the hosts answered; a blank line
// ends each round.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "pmapi/errors.h"
#include "pmapi/extract.h"
#include "pmapi/host_group.h"
#include "pmapi/strings.h"

namespace {

// The first value of metric k in a host's answer, as PCP prints values.
std::string FirstValue(const pmapi::HostAnswer& a, size_t k) {
  const pmapi::ValueSet& vs = a.result->sets()[k];
  if (vs.numval < 0) return pmapi::ErrStr(vs.numval);
  if (vs.numval == 0) return "(no values)";
  absl::StatusOr<pmapi::AtomValue> v =
      pmapi::ExtractValue(vs.valfmt, a.result->value(vs, 0), a.descs[k].type, a.descs[k].type);
  if (!v.ok()) return std::string(v.status().message());
  return pmapi::AtomStr(*v, a.descs[k].type);
}

}  // namespace

int main(int argc, char** argv) {
  long samples = 3;
  double interval = 1.0;
  int c;
  while ((c = getopt(argc, argv, "+s:t:")) != -1) {
    if (c == 's') samples = std::atol(optarg);
    else if (c == 't') interval = std::atof(optarg);
    else return 2;
  }
  std::vector<std::string> hosts, metrics;
  bool after = false;
  for (int i = optind; i < argc; ++i) {
    if (std::string(argv[i]) == "--") after = true;
    else (after ? metrics : hosts).push_back(argv[i]);
  }
  absl::StatusOr<std::unique_ptr<pmapi::HostGroup>> group =
      pmapi::HostGroup::Open(hosts, metrics);
  if (!group.ok()) {
    std::fprintf(stderr, "watch_hosts: %s\n", std::string(group.status().message()).c_str());
    return 1;
  }
  for (long s = 0; s < samples; ++s) {
    if (s > 0) usleep(static_cast<useconds_t>(interval * 1e6));
    (*group)->Fetch([&](const pmapi::HostAnswer& a) {
      std::string line = hosts[a.host];
      if (!a.status.ok()) {
        line += " " + std::string(a.status.message());
      } else {
        for (size_t k = 0; k < metrics.size(); ++k) line += " " + metrics[k] + "=" + FirstValue(a, k);
      }
      std::printf("%s\n", line.c_str());
    });
    std::printf("\n");
    std::fflush(stdout);
  }
  return 0;
}
