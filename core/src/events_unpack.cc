// UnpackEventRecords: a client's view of an event array, one Result per
// record. The whole array is checked first (as PCP's __pmCheckEventRecords
// does), then unpacked; every read is bounds-checked against the payload.
#include "events_format.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

using events_format::EventArrayReader;
using events_format::ParamHead;
using events_format::RecordHead;

// PCP's integrity check of the whole array.
int CheckArray(const EventArrayReader& r) {
  int32_t nrecords;
  if (!r.Count(&nrecords) || nrecords < 0) return kErrToosmall;
  size_t at = r.FirstRecord();
  for (int32_t i = 0; i < nrecords; i++) {
    RecordHead h;
    if (!r.Record(at, &h)) return kErrToobig;
    at += r.RecordHeaderBytes();
    if (h.flags & kEventFlagMissed) {
      if (h.flags != kEventFlagMissed) return kErrConv;  // MISSED stands alone
      h.nparams = 0;
    }
    for (int32_t k = 0; k < h.nparams; k++) {
      ParamHead p;
      if (!r.Param(at, &p) || !r.Has(at, p.Step())) return kErrToobig;
      at += p.Step();
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
int AddParameter(const EventArrayReader& r, size_t* at, Result* out) {
  ParamHead p;
  if (!r.Param(*at, &p)) return kErrToobig;  // checked before; kept local
  int64_t n = ValueBytes(p.type, p.len);
  if (n < 0) return static_cast<int>(n);
  const size_t value_at = ParamHead::ValueAt(*at);
  // A numeric value is read at its natural size even when the parameter
  // claims less, as PCP does; it must still lie inside the array.
  if (!r.Has(value_at, static_cast<size_t>(n))) return kErrToobig;
  if (p.type == kType32 || p.type == kTypeU32) {
    int32_t v = 0;
    r.Int32(value_at, &v);
    out->AddSet(PmID{p.pmid}, 1, kValInsitu);
    out->AddInsitu(kInNull, v);
  } else {
    out->AddSet(PmID{p.pmid}, 1, kValDptr);
    out->AddBlock(kInNull, p.type, r.Bytes(value_at, static_cast<size_t>(n)));
  }
  *at += p.Step();
  return 0;
}

void AddInsituSet(PmID pmid, int32_t value, Result* out) {
  out->AddSet(pmid, 1, kValInsitu);
  out->AddInsitu(kInNull, value);
}

// Unpacks the record at *at into *out and steps over it.
int UnpackRecord(const EventArrayReader& r, size_t* at, Result* out) {
  RecordHead h;
  if (!r.Record(*at, &h)) return kErrToobig;  // checked before
  *at += r.RecordHeaderBytes();
  // A negative parameter count gives PCP a record with a negative number
  // of value sets, that is, with none; so it does here.
  int64_t sets = SetsInRecord(h);
  uint64_t unit = r.highres() ? 1u : 1000u;
  out->set_timestamp_ns(static_cast<int64_t>(static_cast<uint64_t>(h.stamp.sec) * 1000000000u +
                                             static_cast<uint64_t>(h.stamp.frac) * unit));
  for (int64_t i = 0; i < sets; i++) {
    if (i == 0 && h.flags != 0) {
      AddInsituSet(kEventFlagsPmid, static_cast<int32_t>(h.flags), out);
    } else if (i == 1 && (h.flags & kEventFlagMissed)) {
      AddInsituSet(kEventMissedPmid, h.nparams, out);
    } else if (int sts = AddParameter(r, at, out); sts < 0) {
      return sts;
    }
  }
  return 0;
}

absl::StatusOr<std::vector<Result>> Unpack(const ValueView& value, int valfmt, bool highres) {
  if (valfmt != kValDptr && valfmt != kValSptr) return PcpError(kErrConv);
  if (value.vtype != (highres ? kTypeHighResEvent : kTypeEvent)) return PcpError(kErrType);
  EventArrayReader r(value.payload, highres);
  if (int sts = CheckArray(r); sts < 0) return PcpError(sts);
  int32_t nrecords = 0;
  r.Count(&nrecords);
  std::vector<Result> records(static_cast<size_t>(nrecords));
  size_t at = r.FirstRecord();
  for (Result& record : records) {
    if (int sts = UnpackRecord(r, &at, &record); sts < 0) return PcpError(sts);
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
