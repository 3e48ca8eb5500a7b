// A group's metrics resolved once per agent set; see agent_set_cache.h.
#include "agent_set_cache.h"

#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "host_protocol.h"
#include "pmapi/errors.h"
#include "pmapi/profile.h"
#include "pmapi/result.h"

namespace pmapi {
namespace {

// True for errors after which the connection cannot be used.
bool ConnectionGone(const absl::Status& s) {
  const int code = PcpCode(s);
  return code == kErrIpc || code == kErrTimeout;
}

// Appends the values of `vs` to `key`: instance and value of each.
void AppendValues(const Result& r, const ValueSet& vs, std::string* key) {
  absl::StrAppend(key, "|", vs.numval);
  for (int j = 0; j < vs.numval; ++j) {
    ValueView v = r.value(vs, j);
    absl::StrAppend(key, ";", v.inst, "=");
    if (vs.valfmt == kValInsitu) {
      absl::StrAppend(key, v.lval);
    } else {
      const char* p = reinterpret_cast<const char*>(v.payload.data());
      key->append(p, strnlen(p, v.payload.size()));
    }
  }
}

}  // namespace

AgentSetCache::AgentSetCache(std::vector<std::string> names) : names_(std::move(names)) {}

uint64_t AgentSetCache::lookups() const {
  std::lock_guard<std::mutex> lock(mu_);
  return lookups_;
}

absl::StatusOr<std::string> AgentSetCache::AgentSetKey(HostProtocol& host) {
  std::optional<std::vector<PmID>> probe;
  {
    std::lock_guard<std::mutex> lock(mu_);
    probe = probe_;
  }
  if (!probe.has_value()) {
    const std::string names[] = {"pmcd.version", "pmcd.agent.type"};
    absl::StatusOr<std::vector<PmID>> ids = host.LookupNames(names);
    if (!ids.ok()) return ids.status();
    if ((*ids)[0] == kPmIDNull || (*ids)[1] == kPmIDNull) return PcpError(kErrName);
    std::lock_guard<std::mutex> lock(mu_);
    probe_ = *ids;
    probe = *ids;
  }
  Result r;
  const Profile all;
  absl::Status s = host.Fetch(*probe, &all, &r, nullptr);
  if (!s.ok()) return s;
  std::string key = "agents";
  for (const ValueSet& vs : r.sets()) AppendValues(r, vs, &key);
  return key;
}

absl::StatusOr<MetricTable> AgentSetCache::Lookup(HostProtocol& host) {
  MetricTable t;
  absl::StatusOr<std::vector<PmID>> ids = host.LookupNames(names_);
  if (ids.ok()) {
    t.ids = std::move(*ids);
  } else if (ConnectionGone(ids.status())) {
    return ids.status();
  } else {
    t.ids.assign(names_.size(), kPmIDNull);  // pmcd knows none of them
  }
  t.descs.resize(t.ids.size());
  for (size_t k = 0; k < t.ids.size(); ++k) {
    if (t.ids[k] == kPmIDNull) continue;
    absl::StatusOr<Desc> d = host.LookupDesc(t.ids[k]);
    if (!d.ok()) return d.status();
    t.descs[k] = *d;
  }
  return t;
}

absl::StatusOr<std::shared_ptr<const MetricTable>> AgentSetCache::Resolve(HostProtocol& host) {
  absl::StatusOr<std::string> key = AgentSetKey(host);
  if (!key.ok()) {
    if (ConnectionGone(key.status())) return key.status();
    key = absl::StrCat("host ", host.spec());
  }
  std::lock_guard<std::mutex> lock(mu_);
  auto it = tables_.find(*key);
  if (it != tables_.end()) return it->second;
  absl::StatusOr<MetricTable> t = Lookup(host);
  if (!t.ok()) return t.status();
  ++lookups_;
  auto table = std::make_shared<const MetricTable>(std::move(*t));
  tables_.emplace(*key, table);
  return table;
}

}  // namespace pmapi
