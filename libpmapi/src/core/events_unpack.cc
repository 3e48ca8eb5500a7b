// UnpackEventRecords: a client's view of an event array, one Result per
// record. The whole array is checked first (as PCP's __pmCheckEventRecords
// does), then unpacked; every read is bounds-checked against the payload.
#include <cstring>
#include <optional>

#include "events_format.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

using events_format::kParamHeaderBytes;
using events_format::Padded;
using events_format::RecordFlagsOffset;
using events_format::RecordHeaderBytes;

// A bounds-checked reader of host-order numbers in the payload.
class Payload {
 public:
  explicit Payload(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  size_t size() const { return bytes_.size(); }
  bool Has(size_t at, size_t n) const { return at <= bytes_.size() && bytes_.size() - at >= n; }
  template <typename T>
  T Read(size_t at) const {  // REQUIRES: Has(at, sizeof(T))
    T v;
    std::memcpy(&v, bytes_.data() + at, sizeof v);
    return v;
  }
  std::span<const uint8_t> Bytes(size_t at, size_t n) const { return bytes_.subspan(at, n); }

 private:
  std::span<const uint8_t> bytes_;
};

struct RecordHead {
  int64_t sec = 0;
  int64_t frac = 0;  // microseconds, or nanoseconds for highres
  uint32_t flags = 0;
  int32_t nparams = 0;
};

// Reads the record header at `at`; REQUIRES it fits (checked beforehand).
RecordHead ReadHead(const Payload& p, size_t at, bool highres) {
  RecordHead h;
  if (highres) {
    h.sec = p.Read<int64_t>(at);
    h.frac = p.Read<int64_t>(at + 8);
  } else {
    h.sec = p.Read<int32_t>(at);
    h.frac = p.Read<int32_t>(at + 4);
  }
  h.flags = p.Read<uint32_t>(at + RecordFlagsOffset(highres));
  h.nparams = p.Read<int32_t>(at + RecordFlagsOffset(highres) + 4);
  return h;
}

// PCP's integrity check; payload offset 0 holds the record count.
int CheckArray(const Payload& p, bool highres) {
  if (!p.Has(0, 4)) return kErrToosmall;
  int32_t nrecords = p.Read<int32_t>(0);
  if (nrecords < 0) return kErrToosmall;
  size_t at = 4;
  for (int32_t r = 0; r < nrecords; r++) {
    if (!p.Has(at, RecordHeaderBytes(highres))) return kErrToobig;
    RecordHead h = ReadHead(p, at, highres);
    at += RecordHeaderBytes(highres);
    if (h.flags & kEventFlagMissed) {
      if (h.flags != kEventFlagMissed) return kErrConv;  // MISSED stands alone
      h.nparams = 0;
    }
    for (int32_t i = 0; i < h.nparams; i++) {
      if (!p.Has(at, kParamHeaderBytes)) return kErrToobig;
      size_t size = 4 + Padded(p.Read<uint32_t>(at + 4) & 0x00ffffffu);
      if (!p.Has(at, size)) return kErrToobig;
      at += size;
    }
  }
  return 0;
}

// Returns how many value sets a record unpacks to.
int64_t SetsInRecord(const RecordHead& h) {
  if (h.flags == 0) return h.nparams;
  if (h.flags & kEventFlagMissed) return 2;
  return int64_t{h.nparams} + 1;  // event.flags first
}

// Returns the bytes a parameter's value takes when unpacked, or a negative
// PCP code.
int64_t ValueBytes(int type, uint32_t len) {
  switch (type) {
    case kType32:
    case kTypeU32:
    case kTypeFloat:
      return 4;
    case kType64:
    case kTypeU64:
    case kTypeDouble:
      return 8;
    case kTypeString:
    case kTypeAggregate:
    case kTypeAggregateStatic:
      // PCP copies len-4 bytes; a shorter length would make it copy a
      // negative amount, so it is refused here.
      return len < 4 ? int64_t{kErrToosmall} : int64_t{len} - 4;
    default:
      return kErrType;  // including nested event arrays
  }
}

// Appends the parameter at *at as one value set and steps over it.
int AddParameter(const Payload& p, size_t* at, Result* out) {
  if (!p.Has(*at, kParamHeaderBytes)) return kErrToobig;  // checked before; kept local
  PmID pmid = p.Read<uint32_t>(*at);
  uint32_t word = p.Read<uint32_t>(*at + 4);
  int type = static_cast<int>(word >> 24);
  uint32_t len = word & 0x00ffffffu;
  int64_t n = ValueBytes(type, len);
  if (n < 0) return static_cast<int>(n);
  size_t value_at = *at + kParamHeaderBytes;
  // A numeric value is read at its natural size even when the parameter
  // claims less, as PCP does; it must still lie inside the array.
  if (!p.Has(value_at, static_cast<size_t>(n))) return kErrToobig;
  if (type == kType32 || type == kTypeU32) {
    out->AddSet(pmid, 1, kValInsitu);
    out->AddInsitu(kInNull, p.Read<int32_t>(value_at));
  } else {
    out->AddSet(pmid, 1, kValDptr);
    out->AddBlock(kInNull, type, p.Bytes(value_at, static_cast<size_t>(n)));
  }
  *at += 4 + Padded(len);
  return 0;
}

void AddInsituSet(PmID pmid, int32_t value, Result* out) {
  out->AddSet(pmid, 1, kValInsitu);
  out->AddInsitu(kInNull, value);
}

// Unpacks the record at *at into *out and steps over it.
int UnpackRecord(const Payload& p, bool highres, size_t* at, Result* out) {
  if (!p.Has(*at, RecordHeaderBytes(highres))) return kErrToobig;  // checked before
  RecordHead h = ReadHead(p, *at, highres);
  *at += RecordHeaderBytes(highres);
  // A negative parameter count gives PCP a record with a negative number
  // of value sets, that is, with none; so it does here.
  int64_t sets = SetsInRecord(h);
  uint64_t unit = highres ? 1u : 1000u;
  out->set_timestamp_ns(static_cast<int64_t>(static_cast<uint64_t>(h.sec) * 1000000000u +
                                             static_cast<uint64_t>(h.frac) * unit));
  for (int64_t i = 0; i < sets; i++) {
    if (i == 0 && h.flags != 0) {
      AddInsituSet(kEventFlagsPmid, static_cast<int32_t>(h.flags), out);
    } else if (i == 1 && (h.flags & kEventFlagMissed)) {
      AddInsituSet(kEventMissedPmid, h.nparams, out);
    } else if (int sts = AddParameter(p, at, out); sts < 0) {
      return sts;
    }
  }
  return 0;
}

absl::StatusOr<std::vector<Result>> Unpack(const ValueView& value, int valfmt, bool highres) {
  if (valfmt != kValDptr && valfmt != kValSptr) return PcpError(kErrConv);
  if (value.vtype != (highres ? kTypeHighResEvent : kTypeEvent)) return PcpError(kErrType);
  Payload p(value.payload);
  if (int sts = CheckArray(p, highres); sts < 0) return PcpError(sts);
  int32_t nrecords = p.Read<int32_t>(0);
  std::vector<Result> records(static_cast<size_t>(nrecords));
  size_t at = 4;
  for (Result& r : records) {
    if (int sts = UnpackRecord(p, highres, &at, &r); sts < 0) return PcpError(sts);
  }
  return records;
}

}  // namespace

absl::StatusOr<std::vector<Result>> UnpackEventRecords(const ValueView& value, int valfmt) {
  return Unpack(value, valfmt, false);
}

absl::StatusOr<std::vector<Result>> UnpackHighResEventRecords(const ValueView& value, int valfmt) {
  return Unpack(value, valfmt, true);
}

}  // namespace pmapi
