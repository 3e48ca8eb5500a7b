// pmapi/result.h: an owning pmResult — one timestamp and the values of each
// metric fetched at that time.
//
// A Result is what an archive data record or a RESULT PDU decodes to. All
// of its values' payloads live in one byte arena owned by the Result, so a
// record with a thousand values costs a handful of allocations, and a Result
// that is reused (Clear() then refilled) costs none once it has grown.
//
// Given: const pmapi::Result& r
// Example:
//   for (const pmapi::ValueSet& vs : r.sets()) {
//     if (vs.numval < 0) { /* vs.numval is a PCP error code */ continue; }
//     for (int j = 0; j < vs.numval; ++j) {
//       pmapi::ValueView v = r.value(vs, j);   // v.inst, v.lval or v.payload
//     }
//   }
//   absl::Time when = r.timestamp();
#ifndef PMAPI_RESULT_H_
#define PMAPI_RESULT_H_

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <utility>
#include <vector>

#include "absl/time/time.h"
#include "pmapi/types.h"

namespace pmapi {

// The values of one metric in a Result (pmValueSet).
struct ValueSet {
  PmID pmid = kPmIDNull;
  // Number of values (> 0), none (0), or a negative PCP error code.
  int numval = 0;
  // kValInsitu or kValDptr; meaningful only when numval > 0.
  int valfmt = kValInsitu;
  // Index of this set's first value in the Result's value list.
  uint32_t first = 0;
};

class Result {
 public:
  // Returns the collection time.
  [[nodiscard]] absl::Time timestamp() const { return absl::FromUnixNanos(timestamp_ns_); }
  // Returns the collection time in nanoseconds since the Unix epoch.
  [[nodiscard]] int64_t timestamp_ns() const { return timestamp_ns_; }
  // Returns the number of value sets; 0 means a <mark> record.
  [[nodiscard]] int numpmid() const { return static_cast<int>(sets_.size()); }
  [[nodiscard]] bool is_mark() const { return sets_.empty(); }
  [[nodiscard]] std::span<const ValueSet> sets() const { return sets_; }

  // Returns a view of value j of set vs. The view's payload points into this
  // Result and is valid until the Result is changed or destroyed.
  // REQUIRES: vs is one of sets(), 0 <= j < vs.numval.
  [[nodiscard]] ValueView value(const ValueSet& vs, int j) const;

  // Building a Result, as a store request is made: sets in order, each
  // followed by its values. Clear() keeps the capacity for reuse.
  void Clear();
  void set_timestamp_ns(int64_t ns) { timestamp_ns_ = ns; }
  // Appends a value set; its values must be added next, before another set.
  void AddSet(PmID pmid, int numval, int valfmt);
  void AddInsitu(Inst inst, int32_t lval);
  // Appends a value whose payload (already in host byte order) is copied
  // into the arena.
  void AddBlock(Inst inst, int vtype, std::span<const uint8_t> payload);

 private:
  // The library's decoders and fetch paths build Results in place
  // (core/src/result_builder.h).
  friend class ResultBuilder;

  // One value as stored: either in-situ (lval) or a payload in the arena.
  struct StoredValue {
    Inst inst = kInNull;
    int32_t lval = 0;
    uint32_t offset = 0;  // payload start in the arena
    uint32_t length = 0;  // payload bytes (the block's vlen minus its header)
    int vtype = kTypeUnknown;
  };

  // Returns room for `length` more payload bytes, setting *offset.
  uint8_t* GrowArena(size_t length, uint32_t* offset);
  // Appends a value with an uninitialised payload of `length` bytes and
  // returns where to write it; valid until the next Add call.
  uint8_t* AddBlockForWrite(Inst inst, int vtype, uint32_t length);

  int64_t timestamp_ns_ = 0;
  std::vector<ValueSet> sets_;
  std::vector<StoredValue> values_;
  // The payloads: the first arena_used_ bytes of arena_ (whose size only
  // grows, so that reusing a Result never fills it with zeros again).
  std::vector<uint8_t> arena_;
  size_t arena_used_ = 0;
};

inline ValueView Result::value(const ValueSet& vs, int j) const {
  const StoredValue& s = values_[vs.first + j];
  ValueView v;
  v.inst = s.inst;
  v.lval = s.lval;
  if (vs.valfmt != kValInsitu) {
    v.vtype = s.vtype;
    v.payload = std::span<const uint8_t>(arena_.data() + s.offset, s.length);
  }
  return v;
}

inline void Result::Clear() {
  timestamp_ns_ = 0;
  sets_.clear();
  values_.clear();
  arena_used_ = 0;
}

inline uint8_t* Result::GrowArena(size_t length, uint32_t* offset) {
  if (arena_.size() - arena_used_ < length) {
    // Doubling, but not past the capacity reserved when that is enough (no
    // reallocation).
    size_t want = std::max(arena_.size() * 2, arena_used_ + length);
    if (want > arena_.capacity() && arena_used_ + length <= arena_.capacity()) {
      want = arena_.capacity();
    }
    arena_.resize(want);
  }
  *offset = static_cast<uint32_t>(arena_used_);
  arena_used_ += length;
  return arena_.data() + *offset;
}

inline void Result::AddSet(PmID pmid, int numval, int valfmt) {
  sets_.push_back(ValueSet{pmid, numval, valfmt, static_cast<uint32_t>(values_.size())});
}

inline void Result::AddInsitu(Inst inst, int32_t lval) {
  StoredValue s;
  s.inst = inst;
  s.lval = lval;
  values_.push_back(s);
}

inline uint8_t* Result::AddBlockForWrite(Inst inst, int vtype, uint32_t length) {
  StoredValue s;
  s.inst = inst;
  s.vtype = vtype;
  s.length = length;
  uint8_t* at = GrowArena(length, &s.offset);
  values_.push_back(s);
  return at;
}

inline void Result::AddBlock(Inst inst, int vtype, std::span<const uint8_t> payload) {
  uint8_t* out = AddBlockForWrite(inst, vtype, static_cast<uint32_t>(payload.size()));
  if (!payload.empty()) std::memcpy(out, payload.data(), payload.size());
}

}  // namespace pmapi

#endif  // PMAPI_RESULT_H_
