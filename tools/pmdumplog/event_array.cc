// Event record array decoding; see event_array.h.
#include "event_array.h"

#include "../../libpmapi/src/byte_reader.h"
#include "pmapi/errors.h"

namespace pmdumplog {
namespace {

constexpr uint32_t kMissed = 1u << 31;

bool ReadRecord(pmapi::ByteReader& r, bool highres, EventRecord* e) {
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
  pmapi::ByteReader r(payload);
  int32_t n;
  if (!r.I32(&n) || n < 0 || !r.Has(uint64_t(n) * 16)) return pmapi::PcpError(pmapi::kErrLogrec);
  std::vector<EventRecord> out(n);
  for (EventRecord& e : out) {
    if (!ReadRecord(r, highres, &e)) return pmapi::PcpError(pmapi::kErrLogrec);
  }
  return out;
}

}  // namespace pmdumplog
