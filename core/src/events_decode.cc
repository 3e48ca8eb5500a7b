// DecodeEventArray: the records of an event array as they lie, for tools
// that show an array rather than unpack it (pmdumplog).
#include <algorithm>

#include "events_format.h"
#include "pmapi/errors.h"
#include "pmapi/events.h"
#include "pmapi/strings.h"

namespace pmapi {
namespace {

using events_format::EventArrayReader;
using events_format::kTypeLenBytes;
using events_format::ParamHead;
using events_format::RecordHead;

// Reads the parameter at *at into *out and steps over it; the padding
// after it may be cut short by the end of the array.
bool DecodeParam(const EventArrayReader& r, size_t* at, EventParamView* out) {
  ParamHead p;
  if (!r.Param(*at, &p)) return false;
  const size_t value_at = ParamHead::ValueAt(*at);
  if (p.len < kTypeLenBytes || !r.Has(value_at, p.len - kTypeLenBytes)) return false;
  out->pmid = PmID{p.pmid};
  out->type = p.type;
  out->value = r.Bytes(value_at, p.len - kTypeLenBytes);
  *at = std::min(*at + p.Step(), r.size());
  return true;
}

// Reads the record at *at into *out and steps over it.
bool DecodeRecord(const EventArrayReader& r, size_t* at, EventRecordView* out) {
  RecordHead h;
  if (!r.Record(*at, &h)) return false;
  *at += r.RecordHeaderBytes();
  out->stamp = {h.stamp.sec, r.highres() ? h.stamp.frac : h.stamp.frac * 1000};
  out->flags = h.flags;
  out->nparams = h.nparams;
  if (h.flags & kEventFlagMissed) return true;
  if (h.nparams < 0) return false;
  // Each parameter takes at least its header: refuse counts that cannot fit.
  if (!r.Has(*at, static_cast<size_t>(h.nparams) * events_format::kParamHeaderBytes)) return false;
  out->params.resize(static_cast<size_t>(h.nparams));
  for (EventParamView& p : out->params) {
    if (!DecodeParam(r, at, &p)) return false;
  }
  return true;
}

}  // namespace

absl::StatusOr<std::vector<EventRecordView>> DecodeEventArray(std::span<const uint8_t> payload,
                                                              bool highres) {
  EventArrayReader r(payload, highres);
  int32_t n;
  if (!r.Count(&n) || n < 0) return PcpError(kErrLogrec);
  // Each record takes at least the shorter (EVENT) header: refuse counts
  // that cannot fit.
  const size_t least = static_cast<size_t>(n) * events_format::RecordHeaderBytes(false);
  if (!r.Has(r.FirstRecord(), least)) return PcpError(kErrLogrec);
  std::vector<EventRecordView> out(static_cast<size_t>(n));
  size_t at = r.FirstRecord();
  for (EventRecordView& e : out) {
    if (!DecodeRecord(r, &at, &e)) return PcpError(kErrLogrec);
  }
  return out;
}

}  // namespace pmapi
