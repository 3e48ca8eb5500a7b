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
//   pmapi::HostSource* host = src->get();
//   pmapi::Context ctx(std::move(*src));
//   ...                                   // the connection is lost
//   absl::Status s = host->Reconnect();   // same profile, same caches
#ifndef PMAPI_SRC_HOST_SOURCE_H_
#define PMAPI_SRC_HOST_SOURCE_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "host_protocol.h"
#include "source.h"

namespace pmapi {

class HostSource : public Source {
 public:
  // Connects to `spec` (options from the environment).
  static absl::StatusOr<std::unique_ptr<HostSource>> Open(std::string_view spec);
  // Wraps a connected protocol.
  explicit HostSource(std::unique_ptr<HostProtocol> protocol);

  int kind() const override { return kContextHost; }
  // Returns pmcd.hostname as pmcd reports it; if that cannot be fetched,
  // the host named in the spec, or this machine's name for a unix socket or
  // a name starting with "localhost" (pmGetContextHostName's rules).
  std::string HostName() override;

  absl::StatusOr<PmID> LookupName(std::string_view name) override;
  absl::StatusOr<std::vector<std::string>> NameAll(PmID id) override;
  absl::StatusOr<std::vector<PmnsChild>> Children(std::string_view name) override;
  absl::Status Traverse(std::string_view name,
                        const std::function<void(const std::string&)>& visit) override;

  absl::StatusOr<Desc> LookupDesc(PmID id) override;
  // Returns the descriptors of `ids` in order, asking pmcd in one DESC_IDS
  // request for those not cached when pmcd offers it (one DESC_REQ each
  // otherwise). An id pmcd cannot describe fails the whole call.
  absl::StatusOr<std::vector<Desc>> LookupDescs(std::span<const PmID> ids);
  absl::StatusOr<std::vector<Instance>> GetInDom(InDom indom) override;
  absl::StatusOr<std::string> NameInDom(InDom indom, int32_t inst) override;
  absl::StatusOr<int32_t> LookupInDom(InDom indom, std::string_view name) override;
  absl::StatusOr<std::string> LookupText(uint32_t ident, int kind) override;
  absl::StatusOr<std::vector<LabelSet>> LookupLabels(int level, uint32_t ident) override;

  absl::StatusOr<Result> Fetch(std::span<const PmID> ids, const Profile& profile,
                               int* state_change) override;
  absl::Status Store(const Result& values) override;

  // Connects again to the same host. The profile is sent again before the
  // next fetch; cached descriptors are kept. Returns the connection error
  // on failure (and stays disconnected: calls fail with PM_ERR_IPC).
  absl::Status Reconnect();
  // Returns the number of descriptors cached (for tests).
  size_t cached_descs() const { return descs_.size(); }

 private:
  // The name used when pmcd.hostname cannot be fetched.
  std::string FallbackHostName() const;
  void NoteStateChange(int mask);

  std::unique_ptr<HostProtocol> protocol_;
  absl::flat_hash_map<PmID, Desc> descs_;
  std::optional<std::string> host_name_;
};

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_SOURCE_H_
