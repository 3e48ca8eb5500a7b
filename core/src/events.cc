// EventArrays: an agent's packed event-record arrays (pmdaEvent*).
#include "pmapi/events.h"

#include <cstring>
#include <string_view>

#include "events_format.h"
#include "pmapi/errors.h"
#include "pmapi/strings.h"

namespace pmapi {

using events_format::kArrayHeaderBytes;
using events_format::kParamHeaderBytes;
using events_format::kTypeLenBytes;

struct EventArrays::Array {
  bool in_use = false;
  std::vector<uint8_t> bytes;  // at least `used` long
  size_t used = 0;             // bytes filled, header word included
  // Where the current record starts. PCP keeps this pointer across resets
  // and starts new arrays with it at the array's start, so a parameter
  // added before any record of a cycle counts into that stale place.
  size_t record_at = 0;

  void Put(size_t at, const void* src, size_t n) {
    if (bytes.size() < at + n) bytes.resize(at + n);
    std::memcpy(bytes.data() + at, src, n);
  }
  void Put32(size_t at, uint32_t v) { Put(at, &v, sizeof v); }
  void Put64(size_t at, uint64_t v) { Put(at, &v, sizeof v); }
  uint32_t Get32(size_t at) {
    if (bytes.size() < at + 4) bytes.resize(at + 4);
    uint32_t v;
    std::memcpy(&v, bytes.data() + at, sizeof v);
    return v;
  }
  void Increment32(size_t at) { Put32(at, Get32(at) + 1u); }
};

EventArrays::EventArrays() = default;
EventArrays::~EventArrays() = default;
EventArrays::EventArrays(EventArrays&&) noexcept = default;
EventArrays& EventArrays::operator=(EventArrays&&) noexcept = default;

EventArrays::Array* EventArrays::Find(int idx) {
  if (idx < 0 || static_cast<size_t>(idx) >= arrays_.size() || !arrays_[idx].in_use) return nullptr;
  return &arrays_[idx];
}

int EventArrays::NewArray() {
  size_t i = 0;
  while (i < arrays_.size() && arrays_[i].in_use) i++;
  if (i == arrays_.size()) arrays_.emplace_back();
  arrays_[i] = Array{};
  arrays_[i].in_use = true;
  (void)ResetArray(static_cast<int>(i));
  return static_cast<int>(i);
}

absl::Status EventArrays::ResetArray(int idx) {
  Array* a = Find(idx);
  if (a == nullptr) return PcpError(kErrNocontext);
  a->Put32(kTypeLenBytes, 0);  // no records
  a->used = kArrayHeaderBytes;
  return absl::OkStatus();
}

absl::Status EventArrays::ReleaseArray(int idx) {
  Array* a = Find(idx);
  if (a == nullptr) return PcpError(kErrNocontext);
  *a = Array{};
  return absl::OkStatus();
}

absl::Status EventArrays::AddRecordAt(int idx, bool highres, int64_t sec, int64_t frac, uint32_t flags,
                                      int32_t nparams) {
  Array* a = Find(idx);
  if (a == nullptr) return PcpError(kErrNocontext);
  size_t header = events_format::RecordHeaderBytes(highres);
  // The block length is a 24-bit field; PCP would wrap it.
  if (a->used + header > kValVlenMax) return PcpError(kErrToobig);
  a->Increment32(kTypeLenBytes);  // the record count
  a->record_at = a->used;
  if (highres) {
    a->Put64(a->used, static_cast<uint64_t>(sec));
    a->Put64(a->used + events_format::RecordFracOffset(true), static_cast<uint64_t>(frac));
  } else {
    a->Put32(a->used, static_cast<uint32_t>(sec));
    a->Put32(a->used + events_format::RecordFracOffset(false), static_cast<uint32_t>(frac));
  }
  a->Put32(a->used + events_format::RecordFlagsOffset(highres), flags);
  a->Put32(a->used + events_format::RecordNparamsOffset(highres), static_cast<uint32_t>(nparams));
  a->used += header;
  return absl::OkStatus();
}

absl::Status EventArrays::AddRecord(int idx, int64_t sec, int64_t usec, int flags) {
  if (Find(idx) == nullptr) return PcpError(kErrNocontext);
  if (static_cast<uint32_t>(flags) & kEventFlagMissed) return PcpError(kErrConv);
  return AddRecordAt(idx, false, sec, usec, static_cast<uint32_t>(flags), 0);
}

absl::Status EventArrays::AddMissedRecord(int idx, int64_t sec, int64_t usec, int nmissed) {
  return AddRecordAt(idx, false, sec, usec, kEventFlagMissed, nmissed);
}

absl::Status EventArrays::AddHighResRecord(int idx, int64_t sec, int64_t nsec, int flags) {
  if (Find(idx) == nullptr) return PcpError(kErrNocontext);
  if (static_cast<uint32_t>(flags) & kEventFlagMissed) return PcpError(kErrConv);
  return AddRecordAt(idx, true, sec, nsec, static_cast<uint32_t>(flags), 0);
}

absl::Status EventArrays::AddHighResMissedRecord(int idx, int64_t sec, int64_t nsec, int nmissed) {
  return AddRecordAt(idx, true, sec, nsec, kEventFlagMissed, nmissed);
}

namespace {

// Returns the value bytes a parameter of `type` stores, or false for a
// type a parameter cannot have.
bool ParamValue(int type, const AtomValue& v, std::string_view* out) {
  auto raw = [out](const void* p, size_t n) { *out = std::string_view(static_cast<const char*>(p), n); };
  switch (type) {
    case kType32:
    case kTypeU32:
      raw(&v.l, 4);
      return true;
    case kType64:
    case kTypeU64:
      raw(&v.ll, 8);
      return true;
    case kTypeFloat:
      raw(&v.f, 4);
      return true;
    case kTypeDouble:
      raw(&v.d, 8);
      return true;
    case kTypeString:
      *out = std::string_view(v.bytes.c_str());  // up to the first NUL, as strlen
      return true;
    case kTypeAggregate:
      *out = v.bytes;
      return true;
    default:
      return false;
  }
}

}  // namespace

absl::Status EventArrays::AddParamAt(int idx, bool highres, PmID pmid, int type, const AtomValue& value) {
  Array* a = Find(idx);
  if (a == nullptr) return PcpError(kErrNocontext);
  std::string_view v;
  if (!ParamValue(type, value, &v)) return PcpError(kErrType);
  size_t need = kParamHeaderBytes + events_format::Padded(v.size());
  if (a->used + need > kValVlenMax) return PcpError(kErrToobig);
  a->Put32(a->used, ToPcp(pmid));
  const uint32_t len = static_cast<uint32_t>(kTypeLenBytes + v.size());
  a->Put32(a->used + events_format::kParamTypeLenOffset, events_format::TypeLenWord(type, len));
  a->Put(a->used + kParamHeaderBytes, v.data(), v.size());
  static constexpr uint8_t kZeros[4] = {};
  a->Put(a->used + kParamHeaderBytes + v.size(), kZeros, need - kParamHeaderBytes - v.size());
  a->used += need;
  a->Increment32(a->record_at + events_format::RecordNparamsOffset(highres));
  return absl::OkStatus();
}

absl::Status EventArrays::AddParam(int idx, PmID pmid, int type, const AtomValue& value) {
  return AddParamAt(idx, false, pmid, type, value);
}

absl::Status EventArrays::AddHighResParam(int idx, PmID pmid, int type, const AtomValue& value) {
  return AddParamAt(idx, true, pmid, type, value);
}

absl::StatusOr<std::span<const uint8_t>> EventArrays::Label(int idx, int type) {
  Array* a = Find(idx);
  if (a == nullptr) return PcpError(kErrNocontext);
  a->Put32(0, events_format::TypeLenWord(type, static_cast<uint32_t>(a->used)));
  return std::span<const uint8_t>(a->bytes.data(), a->used);
}

absl::StatusOr<std::span<const uint8_t>> EventArrays::GetAddr(int idx) { return Label(idx, kTypeEvent); }

absl::StatusOr<std::span<const uint8_t>> EventArrays::GetHighResAddr(int idx) {
  return Label(idx, kTypeHighResEvent);
}

}  // namespace pmapi
