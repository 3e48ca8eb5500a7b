// host_protocol.h: the PMAPI requests of one host context, spoken to pmcd
// over one HostConnection: each call sends one request PDU and reads the
// reply, turning an ERROR PDU into its PCP code.
//
// This layer knows the PDUs and nothing of the Source interface; HostSource
// (host_source.h) builds the context services on it. The header deliberately
// uses only plain value types, so it can be included beside the public
// context headers.
//
// Any reply of the wrong type leaves the byte stream unusable, so the
// connection is dropped and every later call fails with PM_ERR_IPC at once
// (libpcp closes the channel in the same case). Reconnect() opens a new
// connection to the same host.
//
// Example:
//   absl::StatusOr<std::unique_ptr<pmapi::HostProtocol>> p =
//       pmapi::HostProtocol::Connect("local:");
//   absl::StatusOr<pmapi::PmID> id = (*p)->LookupName("sample.long.one");
//   pmapi::Result r;
//   pmapi::Profile everything;
//   int changed = 0;
//   absl::Status s = (*p)->Fetch({&*id, 1}, &everything, &r, &changed);
#ifndef PMAPI_SRC_HOST_PROTOCOL_H_
#define PMAPI_SRC_HOST_PROTOCOL_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pmapi/label_set.h"
#include "pmapi/profile.h"
#include "pmapi/result.h"
#include "pmapi/types.h"

namespace pmapi {

class HostConnection;
struct ConnectOptions;

// Names with an optional leaf/non-leaf status each (PMNS_NAMES).
struct HostNames {
  std::vector<std::string> names;
  std::vector<int> status;  // empty unless asked for
};

// Instances of an instance domain, as pmcd sends them (INSTANCE).
struct HostInstances {
  std::vector<Inst> ids;
  std::vector<std::string> names;
};

class HostProtocol {
 public:
  // Connects to `spec` (see host_connection.h for the forms) with options
  // from the environment (PMCD_PORT, PMCD_SOCKET, timeouts).
  static absl::StatusOr<std::unique_ptr<HostProtocol>> Connect(std::string_view spec);
  static absl::StatusOr<std::unique_ptr<HostProtocol>> Connect(std::string_view spec,
                                                               const ConnectOptions& options);
  ~HostProtocol();
  HostProtocol(const HostProtocol&) = delete;
  HostProtocol& operator=(const HostProtocol&) = delete;

  // Replaces the connection with a new one to the same spec. On failure
  // the old connection is gone and calls fail with PM_ERR_IPC.
  absl::Status Reconnect();
  // Returns true if there is no usable connection.
  bool broken() const;
  // The spec as given to Connect.
  const std::string& spec() const { return spec_; }
  // Returns the host name the spec connects to over TCP, or "" for a unix
  // socket spec (unix:, local:).
  std::string SpecHost() const;
  bool has_highres() const;
  bool has_labels() const;
  bool has_descs() const;

  // PMNS_NAMES -> PMNS_IDS for one name. PM_ERR_NAME if pmcd does not know
  // it; pmcd's own code (PM_ERR_NONLEAF, ...) otherwise.
  absl::StatusOr<PmID> LookupName(std::string_view name);
  // PMNS_NAMES -> PMNS_IDS for many names in one request: one PMID per
  // name, kPmIDNull for a name pmcd did not find. Fails with pmcd's error
  // when it found none. REQUIRES: !names.empty().
  absl::StatusOr<std::vector<PmID>> LookupNames(std::span<const std::string> names);
  // PMNS_IDS -> PMNS_NAMES: every name of `id`.
  absl::StatusOr<std::vector<std::string>> NameAll(PmID id);
  // PMNS_CHILD: the children of `name` with their status.
  absl::StatusOr<HostNames> Children(std::string_view name);
  // PMNS_TRAVERSE: every leaf name at or below `name`.
  absl::StatusOr<std::vector<std::string>> Traverse(std::string_view name);
  // DESC_REQ -> DESC.
  absl::StatusOr<Desc> LookupDesc(PmID id);
  // DESC_IDS -> DESCS, one descriptor per id in order. REQUIRES:
  // has_descs() and !ids.empty().
  absl::StatusOr<std::vector<Desc>> LookupDescs(std::span<const PmID> ids);
  // INSTANCE_REQ -> INSTANCE: all instances (inst kInNull, name empty), the
  // name of one (inst given), or the id of one (name given).
  absl::StatusOr<HostInstances> Instances(InDom indom, Inst inst, std::string_view name);
  // TEXT_REQ -> TEXT; `type` is a text kind OR'd with its target.
  absl::StatusOr<std::string> Text(uint32_t ident, int type);
  // LABEL_REQ -> LABEL. PM_ERR_NOLABELS if pmcd does not offer labels.
  absl::StatusOr<std::vector<LabelSet>> Labels(uint32_t ident, int type);
  // PROFILE (no reply), then FETCH or HIGHRES_FETCH -> RESULT or
  // HIGHRES_RESULT into *out. The profile is sent only when pmcd does not
  // hold this generation of it (always after Connect and Reconnect); null
  // sends none. Positive ERROR codes before the result are OR'd into
  // *state_change when it is not null.
  absl::Status Fetch(std::span<const PmID> ids, const Profile* profile, Result* out,
                     int* state_change);
  // Fetch in two halves, for a caller that waits on many connections at
  // once. StartFetch sends what Fetch sends; ContinueFetch then reads what
  // has arrived without waiting and returns true once the reply is whole
  // and decoded into *out (false while more is to come), or the error.
  absl::Status StartFetch(std::span<const PmID> ids, const Profile* profile);
  absl::StatusOr<bool> ContinueFetch(size_t nids, Result* out, int* state_change);
  // The connection's socket, for poll(); -1 when there is none.
  int fd() const;
  // RESULT -> ERROR: pmStore.
  absl::Status Store(const Result& values);

 private:
  HostProtocol(std::string spec, std::unique_ptr<ConnectOptions> options,
               std::unique_ptr<HostConnection> conn);
  // Sends `request` and returns the reply, which must be of type
  // `expected`; an ERROR reply gives its (negative) code.
  // The reply is in the connection's buffer, valid until its next call.
  absl::StatusOr<std::span<const uint8_t>> Call(std::span<const uint8_t> request, int expected);
  // Reads one PDU of a fetch's reply: true for the result (decoded into
  // *out, which must hold `nids` sets), false for a state change (OR'd
  // into *state_change) with the result still to come, or pmcd's error.
  absl::StatusOr<bool> TakeFetchReply(std::span<const uint8_t> reply, size_t nids, Result* out,
                                      int* state_change);
  // Drops the connection after a reply that broke the protocol.
  absl::Status Desync();

  std::string spec_;
  std::unique_ptr<ConnectOptions> options_;
  std::unique_ptr<HostConnection> conn_;
  // The profile generation pmcd holds, if any.
  std::optional<uint64_t> sent_profile_;
  // The FETCH request, rebuilt in place for every fetch.
  std::vector<uint8_t> fetch_request_;
};

}  // namespace pmapi

#endif  // PMAPI_SRC_HOST_PROTOCOL_H_
