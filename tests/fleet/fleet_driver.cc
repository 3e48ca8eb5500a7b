// fleet_driver: runs rounds of a HostGroup over a fleet of pmcds and checks
// every answer, for tests/fleet/fault_run.sh and by hand.
//
//   fleet_driver [-r ROUNDS] [-i INTERVAL_MS] [-d DEADLINE_MS] [-D SECONDS]
//                HOSTFILE METRIC...
//
// HOSTFILE holds one host spec per line; host i is expected to be the
// fleet's pmcd i (scripts/pmcd-fleet.sh), whose pmcd.hostname is
// "fleet-i". When the first metric is pmcd.hostname, each value is checked
// against the host it was attributed to. The run ends after ROUNDS rounds
// or, with -D, after SECONDS. One line per round goes to stderr with -v;
// the last line on stdout sums the run up:
//   rounds R answers A ok O misattributed M longest_round_ms L
//   lost N reconnects C lookups K final_ok F errors CODE:COUNT,...
// where F is the number of hosts that answered the last round.
// Exits 1 when a value was misattributed or a round took longer than the
// deadline plus one second.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "pmapi/errors.h"
#include "pmapi/host_group.h"

namespace {

struct Args {
  long rounds = 10;
  long interval_ms = 0;
  long deadline_ms = 0;
  long seconds = 0;
  bool verbose = false;
  std::string hostfile;
  std::vector<std::string> metrics;
};

[[noreturn]] void Usage(const char* prog) {
  std::fprintf(stderr,
               "Usage: %s [-r ROUNDS] [-i INTERVAL_MS] [-d DEADLINE_MS] [-D SECONDS] [-v] "
               "HOSTFILE METRIC...\n",
               prog);
  std::exit(2);
}

Args ParseArgs(int argc, char** argv) {
  Args a;
  int c;
  while ((c = getopt(argc, argv, "r:i:d:D:v")) != -1) {
    switch (c) {
      case 'r': a.rounds = std::atol(optarg); break;
      case 'i': a.interval_ms = std::atol(optarg); break;
      case 'd': a.deadline_ms = std::atol(optarg); break;
      case 'D': a.seconds = std::atol(optarg); break;
      case 'v': a.verbose = true; break;
      default: Usage(argv[0]);
    }
  }
  if (argc - optind < 2) Usage(argv[0]);
  a.hostfile = argv[optind++];
  while (optind < argc) a.metrics.push_back(argv[optind++]);
  return a;
}

std::vector<std::string> ReadHosts(const std::string& path) {
  std::vector<std::string> hosts;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) hosts.push_back(line);
  }
  return hosts;
}

// The string value of the answer's first metric, if it has one.
std::string FirstString(const pmapi::HostAnswer& a) {
  const pmapi::ValueSet& vs = a.result->sets()[0];
  if (vs.numval < 1 || vs.valfmt == pmapi::kValInsitu) return "";
  pmapi::ValueView v = a.result->value(vs, 0);
  const char* p = reinterpret_cast<const char*>(v.payload.data());
  return std::string(p, strnlen(p, v.payload.size()));
}

struct Tally {
  long answers = 0;
  long ok = 0;
  long misattributed = 0;
  std::map<int, long> errors;
};

}  // namespace

int main(int argc, char** argv) {
  Args args = ParseArgs(argc, argv);
  std::vector<std::string> hosts = ReadHosts(args.hostfile);
  pmapi::HostGroupOptions options;
  if (args.deadline_ms > 0) options.deadline = absl::Milliseconds(args.deadline_ms);
  const bool check_names = args.metrics[0] == "pmcd.hostname";
  const size_t n = hosts.size();
  absl::StatusOr<std::unique_ptr<pmapi::HostGroup>> group =
      pmapi::HostGroup::Open(std::move(hosts), args.metrics, options);
  if (!group.ok()) {
    std::fprintf(stderr, "fleet_driver: %s\n", std::string(group.status().message()).c_str());
    return 1;
  }
  const double deadline_ms = args.deadline_ms > 0 ? args.deadline_ms : 10000;
  Tally t;
  double longest = 0;
  long round = 0;
  long final_ok = 0;
  const auto start = std::chrono::steady_clock::now();
  while (args.seconds > 0 ? std::chrono::steady_clock::now() - start <
                                std::chrono::seconds(args.seconds)
                          : round < args.rounds) {
    const auto r0 = std::chrono::steady_clock::now();
    long ok = 0;
    std::vector<int> seen(n, 0);
    (*group)->Fetch([&](const pmapi::HostAnswer& a) {
      ++t.answers;
      ++seen[a.host];
      if (!a.status.ok()) {
        ++t.errors[pmapi::PcpCode(a.status)];
        if (args.verbose) {
          std::fprintf(stderr, "round %ld: host %zu: %s (%s)\n", round, a.host,
                       std::string(a.status.message()).c_str(),
                       std::string((*group)->last_error(a.host).message()).c_str());
        }
        return;
      }
      ++t.ok;
      ++ok;
      if (check_names && FirstString(a) != "fleet-" + std::to_string(a.host)) {
        ++t.misattributed;
        std::fprintf(stderr, "round %ld: host %zu answered as \"%s\"\n", round, a.host,
                     FirstString(a).c_str());
      }
    });
    for (size_t i = 0; i < n; ++i) {
      if (seen[i] != 1) {
        ++t.misattributed;
        std::fprintf(stderr, "round %ld: host %zu answered %d times\n", round, i, seen[i]);
      }
    }
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - r0).count();
    if (ms > longest) longest = ms;
    final_ok = ok;
    if (args.verbose) std::fprintf(stderr, "round %ld: %ld/%zu ok in %.1f ms\n", round, ok, n, ms);
    ++round;
    if (args.interval_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds(args.interval_ms));
  }
  pmapi::HostGroupStats s = (*group)->stats();
  std::printf("rounds %ld answers %ld ok %ld misattributed %ld longest_round_ms %.1f lost %llu "
              "reconnects %llu lookups %llu final_ok %ld errors ",
              round, t.answers, t.ok, t.misattributed, longest,
              static_cast<unsigned long long>(s.connections_lost),
              static_cast<unsigned long long>(s.reconnects),
              static_cast<unsigned long long>(s.lookups), final_ok);
  const char* sep = "";
  for (const auto& [code, count] : t.errors) {
    std::printf("%s%d:%ld", sep, code, count);
    sep = ",";
  }
  std::printf("%s\n", t.errors.empty() ? "none" : "");
  return t.misattributed == 0 && longest <= deadline_ms + 1000 ? 0 : 1;
}
