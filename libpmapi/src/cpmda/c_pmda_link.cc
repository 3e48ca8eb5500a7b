// The daemon agent's PDU link to pmcd; see c_pmda_link.h.
#include "c_pmda_link.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "byte_reader.h"
#include "pmapi/errors.h"

namespace pmapi {

absl::StatusOr<bool> AgentLink::Fill(size_t want) {
  if (end_ - start_ >= want) return true;
  if (start_ > 0) {
    std::memmove(buf_.data(), buf_.data() + start_, end_ - start_);
    end_ -= start_;
    start_ = 0;
  }
  if (buf_.size() < want) buf_.resize(want < 16384 ? 16384 : want);
  // No further than this PDU: what pmcd sent after it stays in the
  // descriptor, where an agent's own select() on __pmdaInFd() sees it.
  while (end_ < want) {
    ssize_t n = ::read(infd_, buf_.data() + end_, want - end_);
    if (n == 0) return false;
    if (n < 0) {
      if (errno == EINTR) continue;
      return PcpError(-errno);
    }
    end_ += static_cast<size_t>(n);
  }
  return true;
}

absl::StatusOr<std::span<const uint8_t>> AgentLink::Read() {
  absl::StatusOr<bool> got = Fill(kPduHeaderBytes);
  if (!got.ok()) return got.status();
  if (!*got) {
    if (end_ != start_) return PcpError(kErrIpc);  // a PDU cut short
    return std::span<const uint8_t>();
  }
  const uint32_t len = LoadBigEndian32(buf_.data() + start_);
  if (len < kPduHeaderBytes || len > kDefaultMaxPduBytes) return PcpError(kErrIpc);
  got = Fill(len);
  if (!got.ok()) return got.status();
  if (!*got) return PcpError(kErrIpc);
  std::span<const uint8_t> pdu(buf_.data() + start_, len);
  start_ += len;
  if (start_ == end_) start_ = end_ = 0;  // nothing of the next PDU yet
  return pdu;
}

absl::Status AgentLink::Write(std::span<const uint8_t> pdu) {
  size_t done = 0;
  while (done < pdu.size()) {
    ssize_t n = ::write(outfd_, pdu.data() + done, pdu.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return PcpError(-errno);
    }
    done += static_cast<size_t>(n);
  }
  return absl::OkStatus();
}

absl::Status AgentLink::SendError(int code) { return Write(EncodeError(kFromAnon, code)); }

}  // namespace pmapi
