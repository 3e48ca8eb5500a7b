// Fuzz target: unpacking event records (pmUnpackEventRecords and
// pmUnpackHighResEventRecords), and reading them as they lie
// (DecodeEventArray). Input: a flags byte, then the value block's payload
// (the bytes after its header word). Flags bit 0 chooses the
// high-resolution layout, bit 1 an in-situ value format (an error case),
// bit 2 takes the value type from the flags' high bits instead of the
// matching event type. The payload is passed unaligned on purpose:
// values in a Result's arena are not aligned either.
#include <cstdint>
#include <span>
#include <vector>

#include "fuzz_support.h"
#include "pmapi/events.h"

// Reads the records as they lie, touching the last byte of every value.
static void DecodeViews(std::span<const uint8_t> payload, bool highres) {
  absl::StatusOr<std::vector<pmapi::EventRecordView>> views = pmapi::DecodeEventArray(payload, highres);
  if (!views.ok()) return;
  uint64_t n = views->size();
  for (const pmapi::EventRecordView& e : *views) {
    for (const pmapi::EventParamView& p : e.params) n += p.value.empty() ? 0 : p.value.back();
  }
  fuzz::Consume(n);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const uint8_t flags = data[0];
  const bool highres = flags & 1;
  pmapi::ValueView v;
  v.vtype = (flags & 4) ? (flags >> 3) : (highres ? pmapi::kTypeHighResEvent : pmapi::kTypeEvent);
  v.payload = std::span<const uint8_t>(data + 1, size - 1);
  const int valfmt = (flags & 2) ? pmapi::kValInsitu : pmapi::kValDptr;
  DecodeViews(v.payload, highres);
  absl::StatusOr<std::vector<pmapi::Result>> records =
      highres ? pmapi::UnpackHighResEventRecords(v, valfmt) : pmapi::UnpackEventRecords(v, valfmt);
  if (!records.ok()) return 0;
  uint64_t h = records->size();
  for (const pmapi::Result& r : *records) h += fuzz::Digest(r);
  fuzz::Consume(h);
  return 0;
}
