// c_pmda_link.h: a daemon agent's connection to pmcd (pmdaConnect) and
// what its request loop (pmdaMain) keeps from one request to the next.
//
// The link reads whole PDUs from the agent's input descriptor (a pipe from
// pmcd, or the accepted socket) through one buffer, and writes replies in
// full. PDUs are encoded and decoded by pdu_codec.
//
// Example (inside the library):
//   AgentLink link(0, 1);
//   absl::StatusOr<std::span<const uint8_t>> pdu = link.Read();
//   if (pdu.ok() && pdu->empty()) ... end of file ...
#ifndef PMAPI_SRC_C_PMDA_LINK_H_
#define PMAPI_SRC_C_PMDA_LINK_H_

#include <pcp/pmapi.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "pdu_codec.h"
#include "pmapi/result.h"

namespace pmapi {

class AgentLink {
 public:
  AgentLink(int infd, int outfd) : infd_(infd), outfd_(outfd) {}
  AgentLink(const AgentLink&) = delete;
  AgentLink& operator=(const AgentLink&) = delete;

  int infd() const { return infd_; }
  int outfd() const { return outfd_; }

  // Returns the next whole PDU (valid until the next Read), or an empty
  // span at end of file. A header claiming under 12 bytes or over
  // kDefaultMaxPduBytes, or a read error, is PM_ERR_IPC (or the errno).
  absl::StatusOr<std::span<const uint8_t>> Read();
  // Writes all of `pdu`.
  absl::Status Write(std::span<const uint8_t> pdu);
  // Writes an ERROR PDU carrying `code`.
  absl::Status SendError(int code);

  // What the request loop reuses.
  std::vector<PmID> pmids;
  std::vector<pmID> c_pmids;  // pmids in the C form the agent is given
  Result result;
  // The profile the agent was last given. It stays where it is until the
  // agent accepts another (its pmdaExt, and an agent that keeps the
  // pointer its profile handler was given, point at it).
  struct HeldProfile {
    pmProfile prof{};
    std::vector<pmInDomProfile> entries;
    std::vector<std::vector<int>> insts;
  };
  std::unique_ptr<HeldProfile> profile;

 private:
  // Reads until `want` bytes are buffered, and no more; false at end of
  // file.
  absl::StatusOr<bool> Fill(size_t want);

  int infd_;
  int outfd_;
  std::vector<uint8_t> buf_;
  size_t start_ = 0;  // first unread byte
  size_t end_ = 0;    // one past the last byte read
};

}  // namespace pmapi

#endif  // PMAPI_SRC_C_PMDA_LINK_H_
