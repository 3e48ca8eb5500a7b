// Event record array decoding (host byte order); see event_array.h.
#include "event_array.h"

#include <algorithm>
#include <cstring>

#include "pmapi/errors.h"

namespace pmdumplog {
namespace {

constexpr uint32_t kMissed = 1u << 31;

// Reads an event array, which the library delivers in host byte order.
class HostReader {
 public:
  explicit HostReader(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  bool Has(uint64_t n) const { return n <= bytes_.size() - pos_; }
  template <typename T>
  bool Read(T* out) {
    if (!Has(sizeof(T))) return false;
    std::memcpy(out, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool I32(int32_t* v) { return Read(v); }
  bool U32(uint32_t* v) { return Read(v); }
  bool I64(int64_t* v) { return Read(v); }
  bool Bytes(size_t n, std::span<const uint8_t>* out) {
    if (!Has(n)) return false;
    *out = bytes_.subspan(pos_, n);
    pos_ += n;
    return true;
  }
  void Skip(size_t n) { pos_ += std::min(n, bytes_.size() - pos_); }

 private:
  std::span<const uint8_t> bytes_;
  size_t pos_ = 0;
};

bool ReadRecord(HostReader& r, bool highres, EventRecord* e) {
  if (highres) {
    int64_t sec, nsec;
    if (!r.I64(&sec) || !r.I64(&nsec)) return false;
    e->stamp = {sec, nsec};
  } else {
    int32_t sec, usec;
    if (!r.I32(&sec) || !r.I32(&usec)) return false;
    e->stamp = {sec, int64_t{usec} * 1000};
  }
  if (!r.U32(&e->flags) || !r.I32(&e->nparams)) return false;
  if (e->flags & kMissed) return true;
  if (e->nparams < 0 || !r.Has(uint64_t(e->nparams) * 8)) return false;
  e->params.resize(e->nparams);
  for (EventParam& p : e->params) {
    uint32_t header;
    if (!r.U32(&p.pmid) || !r.U32(&header)) return false;
    p.type = static_cast<int>(header >> 24);
    const uint32_t len = header & 0xffffff;
    if (len < 4 || !r.Bytes(len - 4, &p.value)) return false;
    r.Skip(((len + 3) & ~3u) - len);  // padding; may be absent at the very end
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<EventRecord>> DecodeEventArray(std::span<const uint8_t> payload,
                                                          bool highres) {
  HostReader r(payload);
  int32_t n;
  if (!r.I32(&n) || n < 0 || !r.Has(uint64_t(n) * 16)) return pmapi::PcpError(pmapi::kErrLogrec);
  std::vector<EventRecord> out(n);
  for (EventRecord& e : out) {
    if (!ReadRecord(r, highres, &e)) return pmapi::PcpError(pmapi::kErrLogrec);
  }
  return out;
}

}  // namespace pmdumplog
