// host_source.h: the Source of a host context, answering every request by
// asking pmcd over one connection (host_protocol.h).
//
// What it keeps on this side: the descriptors already seen (pmcd's
// descriptors do not change while an agent runs; the cache is dropped when
// pmcd reports an agent added, restarted or dropped), the generation of
// the instance profile pmcd last received (PROFILE is sent again before a
// fetch only when it changed; see host_protocol.h), and pmcd's host name.
//
// Example:
//   absl::StatusOr<std::unique_ptr<pmapi::HostSource>> src = pmapi::HostSource::Open("unix:");
//   if (!src.ok()) return src.status();
//   pmapi::Context ctx(std::move(*src));
//   ...                                   // the connection is lost
//   absl::Status s = ctx.Reconnect();     // same profile, same caches
#ifndef PMAPI_SRC_HOST_SOURCE_H_
#define PMAPI_SRC_HOST_SOURCE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "host_protocol.h"
#include "reconnect_backoff.h"
#include "source.h"

namespace pmapi {

class HostSource : public Source {
 public:
  // Connects to `spec` (options from the environment).
  static absl::StatusOr<std::unique_ptr<HostSource>> Open(std::string_view spec);
  // Wraps a connected protocol.
  explicit HostSource(std::unique_ptr<HostProtocol> protocol);

  ContextKind kind() const override { return ContextKind::kHost; }
  // Returns pmcd.hostname as pmcd reports it; if that cannot be fetched,
  // the host named in the spec, or this machine's name for a unix socket or
  // a name starting with "localhost" (pmGetContextHostName's rules).
  std::string HostName() override;

  absl::StatusOr<PmID> LookupName(std::string_view name) override;
  // One PMNS_NAMES request for all `names`; a name pmcd did not find is
  // asked for alone, which brings back its own error.
  std::vector<absl::StatusOr<PmID>> LookupNames(std::span<const std::string> names) override;
  absl::StatusOr<std::vector<std::string>> NameAll(PmID id) override;
  absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view name) override;
  absl::Status Traverse(std::string_view name,
                        const std::function<void(const std::string&)>& visit) override;

  absl::StatusOr<Desc> LookupDesc(PmID id) override;
  // Returns the descriptors of `ids` in order, asking pmcd in one DESC_IDS
  // request for those not cached when pmcd offers it (one DESC_REQ each
  // otherwise). An id pmcd does not describe in the DESCS reply is asked
  // for alone, so its own error comes back and fails the whole call.
  absl::StatusOr<std::vector<Desc>> LookupDescs(std::span<const PmID> ids) override;
  absl::StatusOr<std::vector<Instance>> GetInDom(InDom indom) override;
  absl::StatusOr<std::string> NameInDom(InDom indom, Inst inst) override;
  absl::StatusOr<Inst> LookupInDom(InDom indom, std::string_view name) override;
  absl::StatusOr<std::string> LookupText(uint32_t ident, int kind) override;
  absl::StatusOr<std::vector<LabelSet>> LookupLabels(int level, uint32_t ident) override;

  absl::StatusOr<Result> Fetch(std::span<const PmID> ids, const Profile& profile,
                               int* state_change) override;
  absl::Status Store(const Result& values) override;

  // pmReconnectContext: closes the connection and connects again to the
  // same host. The profile is sent again before the next fetch; cached
  // descriptors are kept. A failed attempt leaves the source disconnected
  // (calls fail with PM_ERR_IPC) and starts a back-off delay (the next of
  // backoff_seconds(), the last one repeating); an attempt before the delay
  // has passed is not made. Both give -ETIMEDOUT, as libpcp does. A
  // successful attempt resets the back-off.
  absl::Status Reconnect() override;
  // The back-off delays: PMCD_RECONNECT_TIMEOUT when it is a valid list,
  // else 5,10,20,40,80 (read when the source is made).
  const std::vector<int>& backoff_seconds() const { return backoff_.seconds(); }
  // Replaces the clock the back-off reads (for tests).
  void set_clock(std::function<absl::Time()> now) { now_ = std::move(now); }
  // Returns the number of descriptors cached (for tests).
  size_t cached_descs() const { return descs_.size(); }

 private:
  // The name used when pmcd.hostname cannot be fetched.
  std::string FallbackHostName() const;
  void NoteStateChange(int mask);

  std::unique_ptr<HostProtocol> protocol_;
  absl::flat_hash_map<PmID, Desc> descs_;
  std::optional<std::string> host_name_;
  ReconnectBackoff backoff_;
  std::function<absl::Time()> now_ = [] { return absl::Now(); };
};

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_SOURCE_H_
