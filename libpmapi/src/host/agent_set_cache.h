// agent_set_cache.h: a HostGroup's metrics resolved once per agent set.
//
// Hosts that run the same agents give the same PMIDs and descriptors for
// the same names, so a group of hundreds of alike hosts needs one lookup.
// A host's agent set is known by one fetch of pmcd.version and
// pmcd.agent.type (an instance per agent, numbered by its domain, valued
// by how pmcd runs it): the key is the version and every (domain, type).
// A host whose pmcd answers neither keys on its own spec, so it is looked
// up alone. A lookup holds the cache, so hosts connected meanwhile wait
// for it (at most the request timeout); lookups are once per agent set.
//
// Example:
//   pmapi::AgentSetCache cache({"kernel.all.load"});
//   absl::StatusOr<std::shared_ptr<const pmapi::MetricTable>> t = cache.Resolve(protocol);
//   // (*t)->ids[0], (*t)->descs[0]
#ifndef PMAPI_SRC_HOST_AGENT_SET_CACHE_H_
#define PMAPI_SRC_HOST_AGENT_SET_CACHE_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/status/statusor.h"
#include "pmapi/types.h"

namespace pmapi {

class HostProtocol;

// The group's metrics on one agent set, in the group's order. A name the
// agents lack has the id kPmIDNull and a descriptor with that id.
struct MetricTable {
  std::vector<PmID> ids;
  std::vector<Desc> descs;
};

class AgentSetCache {
 public:
  explicit AgentSetCache(std::vector<std::string> names);

  // Returns the table for the agents behind `host`, asking `host` for
  // names and descriptors only when no host with its agents was resolved
  // before. Fails with the host's error (the connection is then unusable)
  // or PM_ERR_NAME when none of the names is known. Thread-safe.
  absl::StatusOr<std::shared_ptr<const MetricTable>> Resolve(HostProtocol& host);
  // The number of lookups made.
  uint64_t lookups() const;

 private:
  absl::StatusOr<std::string> AgentSetKey(HostProtocol& host);
  absl::StatusOr<MetricTable> Lookup(HostProtocol& host);

  const std::vector<std::string> names_;
  mutable std::mutex mu_;
  // PMIDs of pmcd.version and pmcd.agent.type, once a host has named them.
  std::optional<std::vector<PmID>> probe_;
  absl::flat_hash_map<std::string, std::shared_ptr<const MetricTable>> tables_;
  uint64_t lookups_ = 0;
};

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_AGENT_SET_CACHE_H_
