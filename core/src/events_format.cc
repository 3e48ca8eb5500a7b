// EventArrayReader: the bounds-checked reads of events_format.h.
#include "events_format.h"

#include <cstring>

#include "byte_reader.h"

namespace pmapi::events_format {

uint32_t EventArrayReader::Load32(size_t at) const {
  if (order_ == ByteOrder::kWire) return LoadBigEndian32(bytes_.data() + at);
  uint32_t v;
  std::memcpy(&v, bytes_.data() + at, sizeof v);
  return v;
}

uint64_t EventArrayReader::Load64(size_t at) const {
  if (order_ == ByteOrder::kWire) return LoadBigEndian64(bytes_.data() + at);
  uint64_t v;
  std::memcpy(&v, bytes_.data() + at, sizeof v);
  return v;
}

bool EventArrayReader::Int32(size_t at, int32_t* out) const {
  if (!Has(at, 4)) return false;
  *out = static_cast<int32_t>(Load32(at));
  return true;
}

bool EventArrayReader::RecordStamp(size_t at, Stamp* out) const {
  if (!Has(at, StampBytes(highres_))) return false;
  const size_t frac_at = at + RecordFracOffset(highres_);
  if (highres_) {
    out->sec = static_cast<int64_t>(Load64(at));
    out->frac = static_cast<int64_t>(Load64(frac_at));
  } else {
    out->sec = static_cast<int32_t>(Load32(at));
    out->frac = static_cast<int32_t>(Load32(frac_at));
  }
  return true;
}

bool EventArrayReader::Record(size_t at, RecordHead* out) const {
  if (!Has(at, RecordHeaderBytes())) return false;
  RecordStamp(at, &out->stamp);
  out->flags = Load32(at + RecordFlagsOffset(highres_));
  out->nparams = static_cast<int32_t>(Load32(at + RecordNparamsOffset(highres_)));
  return true;
}

bool EventArrayReader::Param(size_t at, ParamHead* out) const {
  if (!Has(at, kParamHeaderBytes)) return false;
  const uint32_t word = Load32(at + kParamTypeLenOffset);
  out->pmid = Load32(at);
  out->type = static_cast<int>(word >> 24);
  out->len = word & 0x00ffffffu;
  return true;
}

}  // namespace pmapi::events_format
