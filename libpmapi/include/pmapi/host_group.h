// pmapi/host_group.h: one set of metrics fetched from many pmcds at once.
//
// A HostGroup holds one connection per host and fetches the same metrics
// from all of them in rounds. A round sends every connected host its
// request, then waits on all the sockets together in the calling thread,
// handing each host's answer to the caller as it arrives; no thread is
// made per host. A host that is slow or gone never delays the others:
// each has its own deadline, and a host without a connection answers at
// once.
//
//  - Deadline: $PMCD_REQUEST_TIMEOUT (10 s by default) from the start of
//    the round, or HostGroupOptions::deadline. A host that misses it
//    answers PM_ERR_TIMEOUT; its connection is given up (a late reply
//    would leave the stream out of step) and made again.
//  - Reconnection: a host whose connection is lost answers PM_ERR_IPC and
//    is connected again in the background by a few connecting threads
//    (HostGroupOptions::connect_threads), with libpcp's back-off: the first
//    attempt at once, then the delays of $PMCD_RECONNECT_TIMEOUT
//    (5,10,20,40,80 s by default). It takes part in the first round after
//    it is back. Hosts are connected as a host context would be
//    (pmapi/host.h: every host spec form, TLS, authentication, pmproxy).
//  - Lookups: names and descriptors are looked up once per distinct set of
//    agents, not once per host. Hosts whose pmcd reports the same
//    pmcd.version and the same agents (pmcd.agent.type: domain and type of
//    each) share the PMIDs and descriptors the first of them gave. A host
//    whose pmcd reports an agent added or dropped is connected again after
//    that answer, so its metrics are resolved for the agents it now runs.
//
// The calling thread runs the rounds; a HostGroup is not shared between
// threads. C programs get the same effect with one context per thread
// (docs/many-hosts.md).
//
// Example:
//   std::vector<std::string> hosts = {"web1", "web2", "db1:44322"};
//   absl::StatusOr<std::unique_ptr<pmapi::HostGroup>> g =
//       pmapi::HostGroup::Open(hosts, {"kernel.all.load", "mem.util.free"});
//   if (!g.ok()) return g.status();
//   (*g)->Fetch([&](const pmapi::HostAnswer& a) {
//     if (!a.status.ok()) {                 // PM_ERR_IPC, PM_ERR_TIMEOUT, ...
//       std::cout << hosts[a.host] << ": " << a.status.message() << "\n";
//       return;
//     }
//     const pmapi::ValueSet& load = a.result->sets()[0];
//     // a.descs[0] describes it; values as in pmapi/result.h
//   });
#ifndef PMAPI_HOST_GROUP_H_
#define PMAPI_HOST_GROUP_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "absl/functional/function_ref.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "pmapi/result.h"
#include "pmapi/types.h"

namespace pmapi {

struct HostGroupOptions {
  // How long each host has to answer a round; unset means
  // $PMCD_REQUEST_TIMEOUT, else 10 seconds.
  std::optional<absl::Duration> deadline;
  // Threads that connect and reconnect hosts.
  int connect_threads = 8;
  // Whether Open waits until every host has been tried once.
  bool wait_for_connections = true;
};

// One host's answer in a round; valid only during the call it is given to.
struct HostAnswer {
  // The host's index in the list given to Open.
  size_t host = 0;
  // Ok, or why there are no values: PM_ERR_IPC (no connection),
  // PM_ERR_TIMEOUT (no answer within the deadline), or pmcd's error.
  absl::Status status;
  // The values, one set per metric in the order given to Open, when status
  // is ok. A metric the host's agents lack has the id kPmIDNull; it is
  // fetched as such, and its set carries pmcd's error for it
  // (PM_ERR_NOAGENT), as pmFetch gives for PM_ID_NULL.
  const Result* result = nullptr;
  std::span<const PmID> ids;
  std::span<const Desc> descs;
  // pmcd's state-change flags (PMCD_ADD_AGENT, ...) reported with it.
  int state_change = 0;
};

// Counters of a group's life so far.
struct HostGroupStats {
  uint64_t rounds = 0;
  uint64_t answers_ok = 0;
  uint64_t answers_failed = 0;
  uint64_t timeouts = 0;
  uint64_t connections_lost = 0;
  // Successful connections: the first of each host, then reconnections.
  uint64_t connects = 0;
  uint64_t reconnects = 0;
  uint64_t failed_attempts = 0;
  // Name and descriptor lookups made (one per distinct agent set).
  uint64_t lookups = 0;
};

class HostGroup {
 public:
  // Starts connecting to every host and, unless told not to, waits until
  // each has been tried once (connected or failed). Fails only for an
  // empty host or metric list (PM_ERR_TOOSMALL) or a bad option; hosts that
  // cannot be reached are tried again in the background.
  [[nodiscard]] static absl::StatusOr<std::unique_ptr<HostGroup>> Open(
      std::vector<std::string> hosts, std::vector<std::string> metrics,
      const HostGroupOptions& options = {});
  // Waits for connection attempts under way (each bounded by
  // $PMCD_CONNECT_TIMEOUT) and drops those not yet started.
  ~HostGroup();
  HostGroup(const HostGroup&) = delete;
  HostGroup& operator=(const HostGroup&) = delete;

  [[nodiscard]] size_t size() const;
  [[nodiscard]] const std::string& host(size_t i) const;
  [[nodiscard]] const std::vector<std::string>& metrics() const;
  // Whether host i has a connection now (as of the last round).
  [[nodiscard]] bool connected(size_t i) const;
  // The last error of host i: of its last connection attempt, or what
  // ended its last connection; ok if there was none.
  absl::Status last_error(size_t i) const;
  [[nodiscard]] HostGroupStats stats() const;

  // One round: fetches the metrics from every host. `each` runs in this
  // thread once per host, as its answer arrives (hosts without a
  // connection first); Fetch returns when every host has answered or
  // missed its deadline.
  void Fetch(absl::FunctionRef<void(const HostAnswer&)> each);

 private:
  struct State;
  explicit HostGroup(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace pmapi

#endif  // PMAPI_HOST_GROUP_H_
